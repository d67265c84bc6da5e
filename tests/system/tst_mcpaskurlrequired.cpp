// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// URLElicitationRequiredError (-32042, MCP 2025-11-25; docs/mcp.md "A server's
// requests"): the pages a server's error lists are asked of a person as URL-mode
// questions of the call's step, and the call is sent again once they are done; a page
// declined, an error that cannot be asked, a huge message and endless rounds end the call
// with the studio's -32042. Against tests/data/mcp/fakeserver.py in its `asks` mode.
#include "askedcall.h"
#include "mcp/mcpelicitationrequired.h"
#include "mcp/mcpexchangetext.h"
#include "mcp/mcpserverpool.h"
#include "waitingrun.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// The Protocol tab's rows of the step's first attempt.
QStringList protocolRows(const Step &step)
{
    QStringList rows;
    for (const json &entry : step.attempts.front().protocol["messages"])
        rows << McpExchangeText::summary(entry);
    return rows;
}

const std::string RequiredPrefix = "MCP server 'fake' needs a person to open a page first (URL elicitation, -32042): ";

/// The text of a step's result, parsed as JSON.
json resultOf(const Step &step)
{
    return step.result ? json::parse((*step.result)["content"][0]["text"].get<std::string>()) : json();
}

} // namespace

class TestMcpAskUrlRequired : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void urlElicitationRequired();
    void urlElicitationCompletedBeforeTheAnswer();
    void urlElicitationWithoutCompletion();
    void urlElicitationDeclined_data();
    void urlElicitationDeclined();
    void urlElicitationRequiredRefused_data();
    void urlElicitationRequiredRefused();
    void urlElicitationHugeMessage();
    void urlElicitationRoundsAreBounded();
    void urlElicitationRequiredAnsweredWithToolstudioAnswer();

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
};

void TestMcpAskUrlRequired::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString problem;
    m_project = connectedAskProject(m_dir, &problem);
    QVERIFY2(m_project, qPrintable(problem));
}

// URLElicitationRequiredError (-32042, MCP 2025-11-25): the step waits with the page as
// a URL-mode question; once the person opened it and the server said the page is done
// (notifications/elicitation/complete, sent here when the test "visits" the page), the
// same tools/call goes again — its arguments, idempotency key and attempt unchanged —
// and its result is the step's.
void TestMcpAskUrlRequired::urlElicitationRequired()
{
    const json arguments = {{"case", "required"}};
    AskedCall call(*m_project, QStringLiteral("fake__required"), arguments);
    QVERIFY(call.waitForQuestion(1));
    json question = call.questions[0];
    const std::string ask = question.value("request_id", std::string());
    QVERIFY2(QString::fromStdString(ask).startsWith(QLatin1String("-32042:")), ask.c_str());
    question.erase("request_id");
    QCOMPARE(question.dump(),
             json({{"elicitation_id", "e-1"},
                   {"host", "example.org"},
                   {"kind", "elicitation"},
                   {"message", "Connect your Example account"},
                   {"method", "elicitation/create"},
                   {"mode", "url"},
                   {"serial", 1},
                   {"server", "fake"},
                   {"url", "https://example.org/connect?elicitation=e-1"}})
                 .dump());
    QCOMPARE(call.statuses, QStringList{QStringLiteral("waiting")});
    QString reason;
    QVERIFY(!call.answer({{"action", "accept"}, {"content", {{"key", "sk-1"}}}}, &reason));
    QVERIFY(reason.startsWith(QLatin1String("a URL-mode elicitation's \"accept\" takes no \"content\"")));
    QVERIFY(call.answer({{"action", "accept"}}));
    // Opened, not done: the call waits for the server's word.
    QTest::qWait(300);
    QVERIFY(!call.reply);
    QCOMPARE(call.engine.step(QStringLiteral("c1"))->status, StepStatus::Running);
    AskedCall visit(*m_project, QStringLiteral("fake__visit"), {{"ids", {"e-1"}}});
    QCOMPARE(visit.finished().status, StepStatus::Succeeded);
    const Step step = call.finished();
    QCOMPARE(step.status, StepStatus::Succeeded);
    const std::string key = step.idempotencyKey.toStdString();
    QCOMPARE(
        resultOf(step).dump(),
        json({{"arguments", {arguments, arguments}}, {"attempts", {1, 1}}, {"calls", 2}, {"keys", {key, key}}}).dump());
    QCOMPARE(step.attempts.size(), std::size_t(1));
    const json &messages = step.attempts.front().protocol["messages"];
    const QString first = QString::fromStdString(messages[0]["message"]["id"].dump());
    const QString retry = QString::fromStdString(messages[3]["message"]["id"].dump());
    QCOMPARE(protocolRows(step),
             QStringList({QStringLiteral("→ request tools/call #") + first,
                          QStringLiteral("← response #") + first + QStringLiteral(" error -32042"),
                          QStringLiteral("← notification notifications/elicitation/complete e-1"),
                          QStringLiteral("→ request tools/call #") + retry,
                          QStringLiteral("← response #") + retry + QStringLiteral(" result")}));
    QCOMPARE(messages[3]["message"]["params"].dump(), messages[0]["message"]["params"].dump());
    QCOMPARE(call.events.size(), std::size_t(2));
    QCOMPARE(call.events[0]["kind"].get<std::string>(), std::string("person_asked"));
    QCOMPARE(call.events[0]["detail"]["question"]["url"].get<std::string>(),
             std::string("https://example.org/connect?elicitation=e-1"));
    QCOMPARE(call.events[1].dump(),
             std::string(R"({"detail":{"answer":{"action":"accept"},"attempt":1,"kind":"elicitation"},)"
                         R"("kind":"person_answered"})"));
}

// The server says the page is done before the person answered (they got there another
// way): the question is taken back and the call sent again. Completions naming no page
// waiting, or without an elicitationId, are ignored with a debug line.
void TestMcpAskUrlRequired::urlElicitationCompletedBeforeTheAnswer()
{
    AskedCall call(*m_project, QStringLiteral("fake__required"), {{"case", "early"}});
    QVERIFY(call.waitForQuestion(1));
    QLoggingCategory::setFilterRules(QStringLiteral("toolstudio.mcp.debug=true"));
    const char *malformed = "notifications/elicitation/complete without a string \"elicitationId\": ignored";
    QTest::ignoreMessage(QtDebugMsg, malformed);
    QTest::ignoreMessage(QtDebugMsg, malformed);
    QTest::ignoreMessage(QtDebugMsg,
                         "notifications/elicitation/complete for \"unknown\", which no call waits for: ignored");
    AskedCall visit(*m_project, QStringLiteral("fake__visit"), {{"ids", {"e-1"}}, {"stray", true}});
    QCOMPARE(visit.finished().status, StepStatus::Succeeded);
    const Step step = call.finished();
    QLoggingCategory::setFilterRules(QStringLiteral("toolstudio.mcp.debug=false"));
    QCOMPARE(step.status, StepStatus::Succeeded);
    QCOMPARE(resultOf(step)["calls"].dump(), std::string("2"));
    QCOMPARE(call.events.size(), std::size_t(2));
    QCOMPARE(call.events[1].dump(),
             std::string(R"({"detail":{"attempt":1,"kind":"elicitation","withdrawn":true},"kind":"person_answered"})"));
    QString reason;
    QVERIFY(!call.answer({{"action", "accept"}}, &reason));
    QCOMPARE(reason, QStringLiteral("call 'c1' already finished (succeeded)"));
    // Once the call ended, its page's completion names nothing that waits: ignored.
    QLoggingCategory::setFilterRules(QStringLiteral("toolstudio.mcp.debug=true"));
    QTest::ignoreMessage(QtDebugMsg,
                         "notifications/elicitation/complete for \"e-1\", which no call waits for: ignored");
    AskedCall again(*m_project, QStringLiteral("fake__visit"), {{"ids", {"e-1"}}});
    QCOMPARE(again.finished().status, StepStatus::Succeeded);
    QLoggingCategory::setFilterRules(QStringLiteral("toolstudio.mcp.debug=false"));
}

// A server that never sends the completion: the call goes again once the wait is over
// (McpElicitationRequired::CompletionWaitMs, shortened here).
void TestMcpAskUrlRequired::urlElicitationWithoutCompletion()
{
    McpClientSession *session = McpServerPool::forProject(m_project->dir)->readySession(QStringLiteral("fake"));
    QVERIFY(session);
    session->elicitationsRequired()->setCompletionWait(800);
    AskedCall call(*m_project, QStringLiteral("fake__required"), {{"case", "no completion"}});
    QVERIFY(call.waitForQuestion(1));
    QElapsedTimer clock;
    clock.start();
    QVERIFY(call.answer({{"action", "accept"}}));
    const Step step = call.finished();
    session->elicitationsRequired()->setCompletionWait(McpElicitationRequired::CompletionWaitMs);
    QCOMPARE(step.status, StepStatus::Succeeded);
    QVERIFY2(clock.elapsed() >= 700, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(resultOf(step)["calls"].dump(), std::string("2"));
}

void TestMcpAskUrlRequired::urlElicitationDeclined_data()
{
    QTest::addColumn<QString>("answer"); // a result, or "error:MESSAGE"
    QTest::addColumn<QString>("expected");
    QTest::newRow("decline") << QStringLiteral(R"({"action": "decline"})")
                             << "the person declined to open the page on example.org";
    QTest::newRow("cancel") << QStringLiteral(R"({"action": "cancel"})")
                            << "the person cancelled, the page on example.org was not opened";
    QTest::newRow("error") << QStringLiteral("error:not now") << "the page on example.org was not opened: -1: not now";
}

// Declined, cancelled or refused: the call fails, naming it, and is not sent again.
void TestMcpAskUrlRequired::urlElicitationDeclined()
{
    QFETCH(QString, answer);
    QFETCH(QString, expected);
    AskedCall call(*m_project, QStringLiteral("fake__required"), {{"case", answer.toStdString()}});
    QVERIFY(call.waitForQuestion(1));
    if (answer.startsWith(QLatin1String("error:")))
        QVERIFY(call.answerError(answer.mid(6)));
    else
        QVERIFY(call.answer(json::parse(answer.toStdString())));
    const Step step = call.finished();
    QCOMPARE(step.status, StepStatus::Failed);
    QVERIFY(step.error);
    QCOMPARE(step.error->code, ErrorCode::ToolFailed);
    QCOMPARE(QString::fromStdString(step.error->message), QString::fromStdString(RequiredPrefix) + expected);
    QCOMPARE(protocolRows(step).size(), qsizetype(2)); // the call and its -32042: not sent again
}

// What a hostile -32042 lists is checked before anybody is asked; the call fails naming
// why (the refusals of URL-mode elicitation/create, numbered), never asks, never hangs.
void TestMcpAskUrlRequired::urlElicitationRequiredRefused_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("expected");
    const auto pages = [](const json &list) { return QString::fromStdString(json{{"elicitations", list}}.dump()); };
    const json good = {{"mode", "url"}, {"elicitationId", "e-1"}, {"url", "https://example.org/"}, {"message", "m"}};
    QTest::newRow("javascript") << pages(
        json::array({{{"mode", "url"}, {"elicitationId", "e-1"}, {"url", "javascript:alert(1)"}, {"message", "open"}}}))
                                << "elicitation 1 of 1: the url is not an http or https URL (\"javascript:alert(1)\"); "
                                   "Tool Studio opens web pages only";
    QTest::newRow("no id") << pages(json::array({{{"mode", "url"}, {"url", "https://example.org/"}, {"message", "m"}}}))
                           << "elicitation 1 of 1: a URL-mode elicitation/create needs \"elicitationId\", a string "
                              "of 1 to 256 bytes";
    QTest::newRow("user info") << pages(json::array(
        {{{"mode", "url"}, {"elicitationId", "e-1"}, {"url", "https://bank.example@evil.test/"}, {"message", "m"}}}))
                               << "elicitation 1 of 1: the url has a user name or password before its host "
                                  "(\"bank.example@\"); a person would take the part before the @ for the site";
    QTest::newRow("form mode") << pages({good, {{"mode", "form"}, {"message", "?"}}})
                               << "elicitation 2 of 2 is not a URL-mode one (\"mode\": \"url\"); this error lists "
                                  "only pages to open";
    QTest::newRow("not an object") << pages({good, 5})
                                   << "elicitation 2 of 2 is not a URL-mode one (\"mode\": \"url\"); this error "
                                      "lists only pages to open";
    QTest::newRow("10000 pages") << QStringLiteral(
        R"({"many": 10000})") << "its error lists 10000 pages to open; Tool Studio asks a person at most 16 per call";
    QTest::newRow("empty") << pages(json::array())
                           << "its error lists no page to open (\"data.elicitations\" is not a non-empty array)";
    QTest::newRow("not a list") << QStringLiteral(R"({"data": {"elicitations": "x"}})")
                                << "its error lists no page to open (\"data.elicitations\" is not a non-empty array)";
    QTest::newRow("no data") << QStringLiteral(R"({"data": null})")
                             << "its error lists no page to open (\"data.elicitations\" is not a non-empty array)";
}

void TestMcpAskUrlRequired::urlElicitationRequiredRefused()
{
    QFETCH(QString, args);
    QFETCH(QString, expected);
    AskedCall call(*m_project, QStringLiteral("fake__required"), json::parse(args.toStdString()));
    const Step step = call.finished();
    QCOMPARE(call.questions.size(), std::size_t(0));
    QCOMPARE(step.status, StepStatus::Failed);
    QVERIFY(step.error);
    QCOMPARE(QString::fromStdString(step.error->message), QString::fromStdString(RequiredPrefix) + expected);
}

// A message of a megabyte is shown as the first 20 000 characters, as for elicitation/create.
void TestMcpAskUrlRequired::urlElicitationHugeMessage()
{
    AskedCall call(*m_project, QStringLiteral("fake__required"), {{"huge", 1 << 20}});
    QVERIFY(call.waitForQuestion(1));
    const QString message = QString::fromStdString(call.questions[0]["message"].get<std::string>());
    QCOMPARE(message, QString(McpPersonQuestion::MaxMessageChars, u'm') + QStringLiteral("… (1028576 bytes dropped)"));
    QVERIFY(call.answer({{"action", "decline"}}));
    QCOMPARE(call.finished().status, StepStatus::Failed);
}

// A server that answers -32042 however often its page was opened: MaxRounds rounds of
// pages, then the call fails.
void TestMcpAskUrlRequired::urlElicitationRoundsAreBounded()
{
    McpClientSession *session = McpServerPool::forProject(m_project->dir)->readySession(QStringLiteral("fake"));
    QVERIFY(session);
    session->elicitationsRequired()->setCompletionWait(50);
    AskedCall call(*m_project, QStringLiteral("fake__required"), {{"rounds", 10}});
    for (std::size_t n = 1; n <= std::size_t(McpElicitationRequired::MaxRounds); ++n) {
        QVERIFY(call.waitForQuestion(n));
        QVERIFY(call.answer({{"action", "accept"}}));
    }
    const Step step = call.finished();
    session->elicitationsRequired()->setCompletionWait(McpElicitationRequired::CompletionWaitMs);
    QCOMPARE(step.status, StepStatus::Failed);
    QCOMPARE(QString::fromStdString(step.error->message),
             QString::fromStdString(RequiredPrefix)
                 + QStringLiteral("it still asks for pages to be opened after 4 rounds; Tool Studio stopped there"));
    // The call and 4 retries: the last one's -32042 ends it.
    QCOMPARE(protocolRows(step).filter(QStringLiteral("→ request tools/call")).size(), qsizetype(5));
    QCOMPARE(call.questions.size(), std::size_t(4));
}

void TestMcpAskUrlRequired::urlElicitationRequiredAnsweredWithToolstudioAnswer()
{
    // Headless: `run` prints the page of the -32042 as for elicitation/create's URL mode;
    // `toolstudio answer` accepts it; this server sends no completion, so the call goes
    // again once the completion wait is over (15 s).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeAskingProject(dir, "fake__required"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path(), QStringLiteral("fake__required")), run.err.constData());
    QVERIFY2(run.err.contains("toolstudio run: MCP server 'fake' asks (elicitation): \"Connect your Example account\"\n"
                              "  open in a browser (host example.org): https://example.org/connect?elicitation=e-1\n"
                              "  answer, once done there: {\"action\": \"accept\"}, or {\"action\": \"decline\"} or "
                              "{\"action\": \"cancel\"}; an error refuses it\n"),
             run.err.constData());
    QVERIFY2(run.err.contains(" waits for an answer: toolstudio answer " + dir.path().toUtf8() + ' '
                              + run.runId.toUtf8() + " c1 --question 1 --result JSON"),
             run.err.constData());
    const CommandResult answered
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId, QStringLiteral("--question"),
                      QStringLiteral("1"), QStringLiteral("--result"), QStringLiteral(R"({"action": "accept"})")});
    QCOMPARE(answered.out, QByteArray("accepted: c1 attempt 1 of run ") + run.runId.toUtf8() + '\n');
    run.finish();
    const json result = json::parse(scriptStdout(run.out).toStdString());
    QCOMPARE(result["calls"].dump(), std::string("2"));
    QCOMPARE(result["attempts"].dump(), std::string("[1,1]"));
}

QTEST_GUILESS_MAIN(TestMcpAskUrlRequired)
#include "tst_mcpaskurlrequired.moc"
