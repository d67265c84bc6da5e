// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Multi round-trip requests of a 2026-07-28 server (docs/mcp.md "A server's requests"):
// a tools/call answered `input_required` asks its input requests as the questions of the
// call's step, and is retried with inputResponses and requestState; its rounds and
// requests are bounded; stopping the run withdraws the question. Against
// tests/data/mcp/fakeserver.py in its `modern` mode.
#include "askedcall.h"
#include "mcp/mcpexchangetext.h"
#include "python/toolsandbox.h"

#include <QFileInfo>

#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using nlohmann::json;

class TestMcpAskInputRequired : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void inputRequiredOfA2026Server();
    void stopWhileA2026ServerAsks();

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
};

void TestMcpAskInputRequired::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString problem;
    m_project = connectedAskProject(m_dir, &problem);
    QVERIFY2(m_project, qPrintable(problem));
}

void TestMcpAskInputRequired::inputRequiredOfA2026Server()
{
    // Multi round-trip requests (2026-07-28): input_required becomes the question a 2025
    // server's elicitation/create is; the call is retried with inputResponses.
    AskedCall call(*m_project, QStringLiteral("m26__ask"), json::object());
    QVERIFY(call.waitForQuestion(1));
    QCOMPARE(call.statuses, QStringList{QStringLiteral("waiting")});
    json question = call.questions[0];
    const std::string requestId = question.value("request_id", std::string());
    QVERIFY2(requestId.rfind("mrtr:", 0) == 0 && requestId.size() > 9
                 && requestId.compare(requestId.size() - 4, 4, ":who") == 0,
             requestId.c_str());
    question.erase("request_id");
    QCOMPARE(question.dump(),
             json({{"kind", "elicitation"},
                   {"message", "Who are you?"},
                   {"method", "elicitation/create"},
                   {"schema",
                    {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}, {"required", {"name"}}}},
                   {"serial", 1},
                   {"server", "m26"}})
                 .dump());
    QString reason;
    QVERIFY2(call.answer({{"action", "accept"}, {"content", {{"name", "Ada"}}}}, &reason), qPrintable(reason));
    // The project as the server sees it (ToolSandbox: a root studio's server runs in a copy).
    QString why;
    const auto sandbox = ToolSandbox::forProject(QFileInfo(m_dir.path()).canonicalFilePath(), &why);
    QVERIFY2(sandbox, qPrintable(why));
    const std::string uri = QUrl::fromLocalFile(sandbox->projectPath()).toString(QUrl::FullyEncoded).toStdString();
    QCOMPARE(call.resultJson().dump(),
             json({{"inputResponses",
                    {{"where", {{"roots", {{{"name", "Ask Project"}, {"uri", uri}}}}}},
                     {"who", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}}},
                   {"requestState", "s-1"},
                   {"version", "2026-07-28"}})
                 .dump());
    QCOMPARE(call.finished().status, StepStatus::Succeeded);
    // The Protocol tab: the round answered input_required, the retry under a new id
    // carrying the answers and requestState, its result.
    const Step answered = call.finished();
    const json &exchange = answered.attempts.front().protocol;
    QStringList rows;
    for (const json &entry : exchange["messages"])
        rows << McpExchangeText::summary(entry);
    const QString first = QString::fromStdString(exchange["messages"][0]["message"]["id"].dump());
    const QString retry = QString::fromStdString(exchange["messages"][2]["message"]["id"].dump());
    QVERIFY(first != retry);
    QCOMPARE(rows,
             QStringList({QStringLiteral("→ request tools/call #") + first,
                          QStringLiteral("← response #") + first + QStringLiteral(" input_required"),
                          QStringLiteral("→ request tools/call #") + retry,
                          QStringLiteral("← response #") + retry + QStringLiteral(" result")}));
    const json &retried = exchange["messages"][2]["message"]["params"];
    QCOMPARE(retried["requestState"].get<std::string>(), std::string("s-1"));
    QCOMPARE(retried["inputResponses"]["who"].dump(), std::string(R"({"action":"accept","content":{"name":"Ada"}})"));
    QCOMPARE(retried["_meta"]["io.modelcontextprotocol/protocolVersion"].get<std::string>(), std::string("2026-07-28"));

    // A server that asks again and again: 16 rounds, then the call fails.
    AskedCall rounds(*m_project, QStringLiteral("m26__rounds"), json::object());
    const Step endless = rounds.finished();
    QCOMPARE(endless.status, StepStatus::Failed);
    QVERIFY2(endless.error
                 && QString::fromStdString(endless.error->message)
                        .contains(QLatin1String("the server's input_required for rounds: it asked for input "
                                                "more than 16 times in one call; the studio stopped there")),
             endless.error ? endless.error->message.c_str() : "no error");
    // 17 input requests in one round: refused, nobody asked.
    AskedCall many(*m_project, QStringLiteral("m26__many"), json::object());
    const Step tooMany = many.finished();
    QCOMPARE(tooMany.status, StepStatus::Failed);
    QVERIFY2(tooMany.error
                 && QString::fromStdString(tooMany.error->message)
                        .contains(QLatin1String("the server's input_required for many: it asks 17 things at "
                                                "once, more than the 16 the studio takes")),
             tooMany.error ? tooMany.error->message.c_str() : "no error");
    QCOMPARE(many.questions.size(), std::size_t(0));
}

// Stop while a 2026 server's input_required waits for a person: the question is
// withdrawn and the call ends cancelled. Answering the open input request ended the call
// in the session, whose callback erased the pool's entry that McpServerPool::cancel was
// still using (a use after free; ASan in CI). The server answers the next call.
void TestMcpAskInputRequired::stopWhileA2026ServerAsks()
{
    {
        AskedCall call(*m_project, QStringLiteral("m26__ask"), json::object());
        QVERIFY(call.waitForQuestion(1));
        call.engine.cancelAll(QStringLiteral("the run was stopped"));
        QTRY_COMPARE_WITH_TIMEOUT(call.engine.step(QStringLiteral("c1"))->status, StepStatus::Cancelled, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(call.closed, 1, 20000);
    }
    AskedCall again(*m_project, QStringLiteral("m26__ask"), json::object());
    QVERIFY(again.waitForQuestion(1));
    QCOMPARE(again.questions[0].value("message", std::string()), std::string("Who are you?"));
}

QTEST_GUILESS_MAIN(TestMcpAskInputRequired)
#include "tst_mcpaskinputrequired.moc"
