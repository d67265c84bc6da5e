// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A 2026-07-28 server that asks for input before it answers resources/read and
// prompts/get (multi round-trip requests, basic/patterns/mrtr): McpServerFeatures hands
// its questions to an asker and sends the request again with the answers, as a
// tools/call does; `toolstudio mcp resources|prompts` has nobody to ask and says so.
// Against tests/data/mcp/fakeserver.py modern-features.
#include "clirunner.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcpserverfeatures.h"
#include "mcpsessionwaits.h"
#include "testfiles.h"

#include <QTemporaryDir>
#include <QTest>

#include <optional>

using nlohmann::json;

namespace {

/// One question the asker got.
struct Asked
{
    json id;
    QString method;
    json params;
};

/// An asker that records each question and answers it with `answer` (an error when
/// `answer` is null).
McpInputRequiredRounds::Asker answering(McpClientSession &session, std::vector<Asked> &asked, json answer)
{
    McpInputRequiredRounds::Asker asker;
    asker.ask = [&session, &asked, answer](const json &id, const QString &method, const json &params) {
        asked.push_back({id, method, params});
        if (answer.is_null())
            session.respondError(id, JsonRpcError{-1, "no, thanks", nullptr});
        else
            session.respond(id, answer);
    };
    return asker;
}

struct Read
{
    std::vector<McpResourceContents> contents;
    McpReply reply;
};

Read awaitRead(McpClientSession &session, const QString &uri, McpInputRequiredRounds::Asker asker)
{
    std::optional<Read> read;
    McpServerFeatures::readResource(
        &session, uri,
        [&](const std::vector<McpResourceContents> &contents, const McpReply &reply) {
            read = Read{contents, reply};
        },
        McpClientSession::DefaultTimeoutMs, std::move(asker));
    (void)QTest::qWaitFor([&] { return read.has_value(); }, 60000);
    return read.value_or(Read{{}, McpReply{{}, {}, QStringLiteral("no answer in time")}});
}

struct Got
{
    McpPromptResult prompt;
    McpReply reply;
};

Got awaitPrompt(McpClientSession &session, const QString &name, McpInputRequiredRounds::Asker asker)
{
    std::optional<Got> got;
    McpServerFeatures::getPrompt(
        &session, name, {},
        [&](const McpPromptResult &prompt, const McpReply &reply) {
            got = Got{prompt, reply};
        },
        std::move(asker));
    (void)QTest::qWaitFor([&] { return got.has_value(); }, 60000);
    return got.value_or(Got{{}, McpReply{{}, {}, QStringLiteral("no answer in time")}});
}

const json Ada = {{"action", "accept"}, {"content", {{"name", "Ada"}}}};

} // namespace

class TestMcpFeaturesInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readAnswered();
    void promptAnswered();
    void samplingForARead();
    void declinedAndRefused();
    void nobodyToAsk();
    void commandsFailWithWhatWasAsked();
};

// The read asks for a name (an elicitation under the session's own id); answered, it is
// sent again with inputResponses and requestState, and its contents come as before.
void TestMcpFeaturesInput::readAnswered()
{
    McpClientSession session;
    session.open(fakeServer(QStringLiteral("modern-features")));
    QVERIFY(waitReady(session));
    QVERIFY(session.stateless());
    std::vector<Asked> asked;
    const Read read = awaitRead(session, QStringLiteral("note://greeting"), answering(session, asked, Ada));
    QVERIFY2(read.reply.ok(), qPrintable(read.reply.errorText()));
    QCOMPARE(read.contents.size(), 1u);
    QCOMPARE(read.contents[0].text, QStringLiteral("Hello, Ada! (state r-1)"));
    QCOMPARE(read.contents[0].uri, QStringLiteral("note://greeting"));
    QCOMPARE(asked.size(), 1u);
    QCOMPARE(asked[0].method, QStringLiteral("elicitation/create"));
    QCOMPARE(asked[0].params.value("message", ""), std::string("What is your name?"));
    QVERIFY(asked[0].id.is_string());
    QVERIFY2(QString::fromStdString(asked[0].id.get<std::string>()).endsWith(QLatin1String(":name")),
             asked[0].id.dump().c_str());
    QVERIFY(McpClientSession::callOfInputRequest(asked[0].id) > 0);
    QCOMPARE(session.openServerRequests(), 0u);

    // A resource that asks nothing is read at once, the asker untouched.
    const Read plain = awaitRead(session, QStringLiteral("note://plain"), answering(session, asked, Ada));
    QVERIFY2(plain.reply.ok(), qPrintable(plain.reply.errorText()));
    QCOMPARE(plain.contents[0].text, QStringLiteral("plain text"));
    QCOMPARE(asked.size(), 1u);
}

void TestMcpFeaturesInput::promptAnswered()
{
    McpClientSession session;
    session.open(fakeServer(QStringLiteral("modern-features")));
    QVERIFY(waitReady(session));
    std::vector<Asked> asked;
    const Got got = awaitPrompt(session, QStringLiteral("greet"), answering(session, asked, Ada));
    QVERIFY2(got.reply.ok(), qPrintable(got.reply.errorText()));
    QCOMPARE(got.prompt.messages.size(), 1u);
    QCOMPARE(got.prompt.messages[0].role, QStringLiteral("user"));
    QCOMPARE(got.prompt.messages[0].content.value("text", ""), std::string("Greet Ada warmly. (state p-1)"));
    QCOMPARE(asked.size(), 1u);
    QCOMPARE(asked[0].method, QStringLiteral("elicitation/create"));
}

// A sampling request of a read: the reply (as the Pending Calls dock sends it) goes back.
void TestMcpFeaturesInput::samplingForARead()
{
    McpClientSession session;
    session.open(fakeServer(QStringLiteral("modern-features")));
    QVERIFY(waitReady(session));
    std::vector<Asked> asked;
    const json reply = {{"role", "assistant"},
                        {"content", {{"type", "text"}, {"text", "hi there"}}},
                        {"model", "person"},
                        {"stopReason", "endTurn"}};
    const Read read = awaitRead(session, QStringLiteral("note://sample"), answering(session, asked, reply));
    QVERIFY2(read.reply.ok(), qPrintable(read.reply.errorText()));
    QCOMPARE(read.contents[0].text, QStringLiteral("The model said: hi there"));
    QCOMPARE(asked.size(), 1u);
    QCOMPARE(asked[0].method, QStringLiteral("sampling/createMessage"));
}

// Declined: the server's own error ends the read. Refused with an error: the read ends
// without being sent again, saying which input was not given.
void TestMcpFeaturesInput::declinedAndRefused()
{
    McpClientSession session;
    session.open(fakeServer(QStringLiteral("modern-features")));
    QVERIFY(waitReady(session));
    std::vector<Asked> asked;
    const Read declined
        = awaitRead(session, QStringLiteral("note://greeting"), answering(session, asked, {{"action", "decline"}}));
    QCOMPARE(declined.reply.errorText(), QStringLiteral("-32001: no greeting: the person chose decline"));
    QVERIFY(declined.contents.empty());
    const Got refused = awaitPrompt(session, QStringLiteral("greet"), answering(session, asked, nullptr));
    QCOMPARE(refused.reply.errorText(),
             QStringLiteral("the input \"name\" the server asked for was not given: -1: no, thanks"));
    QCOMPARE(asked.size(), 2u);
    QCOMPARE(session.openServerRequests(), 0u);
}

// No asker (or one that refuses): the request fails at once, naming what was asked;
// the session's serverRequestReceived (a tool call's run) is not asked.
void TestMcpFeaturesInput::nobodyToAsk()
{
    McpClientSession session;
    session.open(fakeServer(QStringLiteral("modern-features")));
    QVERIFY(waitReady(session));
    int handedOn = 0;
    connect(&session, &McpClientSession::serverRequestReceived, this, [&handedOn] { ++handedOn; });
    const Read read = awaitRead(session, QStringLiteral("note://greeting"), {});
    QCOMPARE(read.reply.errorText(),
             QStringLiteral("the server's input_required for resources/read of \"note://greeting\": it asks for "
                            "elicitation/create (\"What is your name?\"), and nobody can answer it here"));
    McpInputRequiredRounds::Asker refusing;
    refusing.refusal = [](const QString &method, const json &) { return QStringLiteral("no %1 today").arg(method); };
    const Got got = awaitPrompt(session, QStringLiteral("greet"), refusing);
    QCOMPARE(got.reply.errorText(),
             QStringLiteral("the server's input_required for prompts/get of \"greet\": no elicitation/create today"));
    QCOMPARE(handedOn, 0);
    QCOMPARE(session.openServerRequests(), 0u);
}

void TestMcpFeaturesInput::commandsFailWithWhatWasAsked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), R"({"name": "r", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "modern-features"]}}})"));
    const QString project = dir.path();
    const QString asked = QStringLiteral("it asks for elicitation/create (\"What is your name?\"), which nobody can "
                                         "answer in a command: do it in Tool Studio's Resources and Prompts window "
                                         "(MCP Servers dock, Browse…), which asks you\n");
    const CommandResult read
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake"),
                      QStringLiteral("--read"), QStringLiteral("note://greeting")});
    QCOMPARE(read.exitCode, 1);
    QCOMPARE(QString::fromUtf8(read.err),
             QStringLiteral("toolstudio mcp resources: resources/read of note://greeting failed: the server's "
                            "input_required for resources/read of \"note://greeting\": ")
                 + asked);
    QCOMPARE(read.out, QByteArray());
    const CommandResult plain
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("resources"), project, QStringLiteral("fake"),
                      QStringLiteral("--read"), QStringLiteral("note://plain")});
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(plain.out, QByteArray("plain text\n"));
    const CommandResult prompt = toolstudio({QStringLiteral("mcp"), QStringLiteral("prompts"), project,
                                             QStringLiteral("fake"), QStringLiteral("--get"), QStringLiteral("greet")});
    QCOMPARE(prompt.exitCode, 1);
    QCOMPARE(QString::fromUtf8(prompt.err),
             QStringLiteral("toolstudio mcp prompts: prompts/get of greet failed: the server's input_required for "
                            "prompts/get of \"greet\": ")
                 + asked);
}

QTEST_GUILESS_MAIN(TestMcpFeaturesInput)
#include "tst_mcpfeaturesinput.moc"
