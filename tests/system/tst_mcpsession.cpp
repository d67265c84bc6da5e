// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// McpClientSession over stdio against the MCP reference server "everything" from npm
// (installed by ./toolstudio.sh test into BUILD/mcp-servers) and against
// tests/data/mcp/fakeserver.py, a server that misbehaves in one way per mode: the
// handshake and its revisions, calls and pages, messages that cannot be read. Servers
// that would hold the studio's memory, outlive it or pull a session out from under its
// callbacks: tst_mcphostilestdio; `toolstudio mcp list`: tst_mcplistcommand.
#include "mcp/mcpclientsession.h"
#include "mcp/mcpreplyid.h"
#include "mcpsessionwaits.h"
#include "testfiles.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using nlohmann::json;

namespace {

/// The reference server's entry point, or "" when ./toolstudio.sh test has not installed it.
QString everythingServer()
{
    const QString dir = qEnvironmentVariable("TOOLSTUDIO_MCP_SERVERS_DIR");
    const QFileInfo entry(dir + QStringLiteral("/node_modules/.bin/mcp-server-everything"));
    return dir.isEmpty() || !entry.exists() ? QString() : entry.canonicalFilePath();
}

QStringList namesOf(const std::vector<json> &tools)
{
    QStringList names;
    for (const json &tool : tools)
        names << QString::fromStdString(tool.value("name", ""));
    return names;
}

} // namespace

class TestMcpSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void referenceServerEverything();
    void pagesAndServerRequests();
    void requestLargerThanThePipe();
    void garbageOnStdoutIsSkipped();
    void serverThatNeverInitializes();
    void serverCrashesMidCall();
    void unsupportedRevision();
    void eraProbe();
    void strayResponseIsDropped();
    void endlessPagesStop();
    void serverThatCannotStart();
    void replyTooDeepFailsItsRequest_data();
    void replyTooDeepFailsItsRequest();
    void replyIdScan_data();
    void replyIdScan();
};

void TestMcpSession::referenceServerEverything()
{
    const QString entry = everythingServer();
    if (entry.isEmpty())
        QSKIP(ReferenceServerMissing);
    McpStdioTransport::Launch launch;
    launch.program = QStandardPaths::findExecutable(QStringLiteral("node"));
    launch.arguments = {entry};
    launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    McpClientSession session;
    openAndWait(session, launch);
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    QVERIFY2(McpClientSession::supportedVersions().contains(session.protocolVersion()),
             qPrintable(session.protocolVersion()));
    QCOMPARE(session.serverInfo().value("name", ""), std::string("mcp-servers/everything"));
    QVERIFY(session.serverCapabilities().contains("tools"));

    McpReply listed;
    const QStringList names = namesOf(listAndWait(session, &listed));
    QVERIFY2(listed.ok(), qPrintable(listed.errorText()));
    for (const char *expected : {"echo", "get-sum", "get-tiny-image"})
        QVERIFY2(names.contains(QLatin1String(expected)), qPrintable(names.join(u',')));

    const McpReply echo = callAndWait(session, QStringLiteral("echo"), {{"message", "héllo"}});
    QVERIFY2(echo.ok(), qPrintable(echo.errorText()));
    QCOMPARE(echo.result["content"][0]["text"].dump(), json("Echo: héllo").dump());

    const McpReply sum = callAndWait(session, QStringLiteral("get-sum"), {{"a", 2}, {"b", 40}});
    QVERIFY2(sum.ok(), qPrintable(sum.errorText()));
    QVERIFY2(sum.result.dump().find("42") != std::string::npos, sum.result.dump().c_str());

    // A tool the server does not have: the server's own error (a JSON-RPC error or
    // isError), never a session failure.
    const McpReply unknown = callAndWait(session, QStringLiteral("no-such-tool"), json::object());
    QVERIFY(unknown.failure.isEmpty());
    QVERIFY(!unknown.ok() || unknown.result.value("isError", false));
    QCOMPARE(session.state(), McpClientSession::State::Ready);

    QSignalSpy closed(&session, &McpClientSession::closed);
    session.close();
    QTRY_VERIFY_WITH_TIMEOUT(!session.transport()->isRunning(), 10000);
}

void TestMcpSession::pagesAndServerRequests()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("good")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2025-06-18"));
    QCOMPARE(session.instructions(), QStringLiteral("be kind"));

    McpReply listed;
    QCOMPARE(namesOf(listAndWait(session, &listed)),
             QStringLiteral("tool-0 tool-1 tool-2 tool-3 tool-4").split(u' ')); // three pages
    QVERIFY(listed.ok());

    QSignalSpy notifications(&session, &McpClientSession::notificationReceived);
    const McpReply reply = callAndWait(session, QStringLiteral("tool-0"), {{"x", 1}});
    QVERIFY2(reply.ok(), qPrintable(reply.errorText()));
    const json seen = json::parse(reply.result["content"][0]["text"].get<std::string>());
    QCOMPARE(seen["args"].dump(), std::string(R"({"arguments":{"x":1},"name":"tool-0"})"));
    // The server's ping was answered with an empty result; its sampling request with an
    // error: a session alone (no pool, no call as a step) has no person to ask.
    QCOMPARE(seen["pong"].dump(), std::string(R"({"id":"srv-1","jsonrpc":"2.0","result":{}})"));
    QCOMPARE(seen["sampling"].dump(),
             std::string(R"({"error":{"code":-32600,"message":"Tool Studio asks a person for sampling/createMessage )"
                         R"(only while a tool of this server is called through it"},"id":"srv-2","jsonrpc":"2.0"})"));
    QCOMPARE(notifications.count(), 1);
    QCOMPARE(notifications.at(0).at(0).toString(), QStringLiteral("notifications/progress"));
    QCOMPARE(session.refusedMessages(), 0LL);
}

void TestMcpSession::requestLargerThanThePipe()
{
    // A request goes to the server's stdin at once, as much as the pipe takes (64 KiB);
    // QProcess writes the rest when the pipe has room, and the messages after it wait
    // behind it: the server reads 1 MiB of arguments whole, then the answers to its ping
    // and sampling request, then the next call.
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("good")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    const std::string big(1 << 20, 'b');
    for (const std::string &text : {big, std::string("small")}) {
        const McpReply reply = callAndWait(session, QStringLiteral("tool-0"), {{"text", text}});
        QVERIFY2(reply.ok(), qPrintable(reply.errorText()));
        const json seen = json::parse(reply.result["content"][0]["text"].get<std::string>());
        QCOMPARE(seen["args"].dump(), json({{"arguments", {{"text", text}}}, {"name", "tool-0"}}).dump());
        QCOMPARE(seen["pong"].dump(), std::string(R"({"id":"srv-1","jsonrpc":"2.0","result":{}})"));
    }
    QCOMPARE(session.refusedMessages(), 0LL);
}

void TestMcpSession::garbageOnStdoutIsSkipped()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("garbage")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    QCOMPARE(session.refusedMessages(), 3LL); // the banner, "not json at all", the batch; the blank line is skipped
    QVERIFY(callAndWait(session, QStringLiteral("tool-1"), json::object()).ok());
}

void TestMcpSession::serverThatNeverInitializes()
{
    McpClientSession session;
    session.setInitializeTimeout(500);
    QSignalSpy failed(&session, &McpClientSession::failed);
    openAndWait(session, fakeServer(QStringLiteral("silent")));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QCOMPARE(session.failure(), QStringLiteral("the server did not answer initialize within 0.5 s"));
    QCOMPARE(failed.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!session.transport()->isRunning(), 10000); // stopped: stdin closed, it exits
}

void TestMcpSession::serverCrashesMidCall()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("crash")));
    QVERIFY(session.state() == McpClientSession::State::Ready);
    QSignalSpy closed(&session, &McpClientSession::closed);
    const McpReply reply = callAndWait(session, QStringLiteral("tool-0"), json::object());
    QCOMPARE(reply.failure,
             QStringLiteral("the server exited with code 3; its stderr ends with:\n"
                            "Traceback (most recent call last):\nboom"));
    QCOMPARE(session.state(), McpClientSession::State::Closed);
    QCOMPARE(closed.count(), 1);
    // Later requests fail at once, naming why.
    const McpReply later = callAndWait(session, QStringLiteral("tool-0"), json::object());
    QCOMPARE(later.failure, QStringLiteral("the server is not connected"));
}

void TestMcpSession::unsupportedRevision()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("version")));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QCOMPARE(session.failure(),
             QStringLiteral("the server speaks MCP revision \"1999-01-01\", which the studio does "
                            "not (it speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"));
}

void TestMcpSession::eraProbe()
{
    // A 2025 server: the probe's -32601, then initialize (the ids it always saw).
    McpClientSession legacy;
    openAndWait(legacy, fakeServer(QStringLiteral("good")));
    QCOMPARE(legacy.state(), McpClientSession::State::Ready);
    QCOMPARE(legacy.era(), QStringLiteral("legacy"));
    QCOMPARE(legacy.protocolVersion(), QStringLiteral("2025-06-18"));
    QVERIFY(!legacy.stateless());
    // A 2026-07-28 server: ready at the DiscoverResult, no initialize.
    McpClientSession modern;
    openAndWait(modern, fakeServer(QStringLiteral("modern")));
    QCOMPARE(modern.state(), McpClientSession::State::Ready);
    QCOMPARE(modern.era(), QStringLiteral("modern"));
    QCOMPARE(modern.protocolVersion(), QStringLiteral("2026-07-28"));
    QCOMPARE(modern.serverInfo().dump(), std::string(R"({"name":"fake26","version":"26"})"));
    QCOMPARE(modern.instructions(), QStringLiteral("modern"));
    // Slow to start: the probe's answer comes after its timeout (3 s here) and initialize
    // went out; a DiscoverResult before initialize's answer still makes it 2026, and the
    // -32601 to initialize that follows is a response to nothing.
    McpClientSession slow;
    slow.setInitializeTimeout(3000);
    openAndWait(slow, fakeServer(QStringLiteral("modern-slow")));
    QVERIFY2(slow.state() == McpClientSession::State::Ready, qPrintable(slow.failure()));
    QCOMPARE(slow.protocolVersion(), QStringLiteral("2026-07-28"));
    QTRY_COMPARE(slow.unmatchedResponses(), 1LL);
    McpReply listed;
    QCOMPARE(listAndWait(slow, &listed).size(), std::size_t(3)); // ask, rounds, many: 2026 requests work
    // A DiscoverResult listing neither era the studio speaks: it fails, naming them.
    McpClientSession future;
    openAndWait(future, fakeServer(QStringLiteral("future")));
    QCOMPARE(future.state(), McpClientSession::State::Failed);
    QCOMPARE(future.failure(),
             QStringLiteral("the server's server/discover lists MCP revisions 2099-01-01, none of which the studio "
                            "speaks (it speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"));
    // UnsupportedProtocolVersion listing a 2025 revision: initialize with it.
    McpClientSession unsupported;
    openAndWait(unsupported, fakeServer(QStringLiteral("unsupported")));
    QCOMPARE(unsupported.state(), McpClientSession::State::Ready);
    QCOMPARE(unsupported.era(), QStringLiteral("legacy"));
    QCOMPARE(unsupported.protocolVersion(), QStringLiteral("2025-06-18"));
}

void TestMcpSession::strayResponseIsDropped()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("stray")));
    QVERIFY(session.state() == McpClientSession::State::Ready);
    QVERIFY(callAndWait(session, QStringLiteral("tool-0"), json::object()).ok());
    QCOMPARE(session.unmatchedResponses(), 1LL);
}

void TestMcpSession::endlessPagesStop()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("endless")));
    McpReply listed;
    QVERIFY(listAndWait(session, &listed).empty());
    QCOMPARE(listed.failure, QStringLiteral("the server's tools/list goes on past 100 pages"));
    QCOMPARE(session.state(), McpClientSession::State::Ready);
}

void TestMcpSession::serverThatCannotStart()
{
    McpStdioTransport::Launch launch;
    launch.program = QStringLiteral("/nonexistent/mcp-server");
    McpClientSession session;
    openAndWait(session, launch);
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QVERIFY2(session.failure().startsWith(QStringLiteral("the server could not be started: ")),
             qPrintable(session.failure()));
}

void TestMcpSession::replyTooDeepFailsItsRequest_data()
{
    QTest::addColumn<QString>("tool");
    QTest::newRow("id before the result") << QStringLiteral("tool-0");
    QTest::newRow("id after the result") << QStringLiteral("tool-1");
}

void TestMcpSession::replyTooDeepFailsItsRequest()
{
    // A reply nested deeper than the JSON depth limit cannot be read; its id is found in
    // its text, and its request fails at once (it waited for its 60 s timeout before).
    QFETCH(QString, tool);
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("deep")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    const McpReply reply = callAndWait(session, tool, json::object());
    QCOMPARE(reply.failure.section(QStringLiteral(" (byte offset"), 0, 0),
             QStringLiteral("the server's reply to request 2 could not be read: not valid JSON: nested deeper than "
                            "128 levels"));
    QCOMPARE(session.refusedMessages(), 1LL);
    QCOMPARE(session.state(), McpClientSession::State::Ready); // the session goes on
    QVERIFY(callAndWait(session, QStringLiteral("tool-0"), json::object())
                .failure.startsWith(QStringLiteral("the server's reply to request 3 could not be read")));
}

void TestMcpSession::replyIdScan_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("id"); // as JSON
    const QByteArray deep = QByteArray(300, '[') + QByteArray(300, ']');
    QTest::newRow("integer first") << QByteArray(R"({"id": 7, "result": )" + deep + "}") << QByteArray("7");
    QTest::newRow("string last") << QByteArray(R"({"result": {"a": )" + deep + R"(}, "id" : "r-1"})")
                                 << QByteArray(R"("r-1")");
    QTest::newRow("id inside the result is not the reply's")
        << QByteArray(R"({"result": {"id": 5, "x": )" + deep + "}}") << QByteArray("null");
    QTest::newRow("a request of the server")
        << QByteArray(R"({"id": 5, "method": "ping", "params": )" + deep + "}") << QByteArray("null");
    QTest::newRow("id in a string") << QByteArray(R"({"result": ""id": 4", "x": )" + deep + "}") << QByteArray("null");
    QTest::newRow("not an object") << QByteArray(R"([{"id": 1}])") << QByteArray("null");
    QTest::newRow("cut off") << QByteArray(R"({"result": [[[)") << QByteArray("null");
    QTest::newRow("an id of another type") << QByteArray(R"({"id": [1], "result": 1})") << QByteArray("null");
    QTest::newRow("an id over 1 KiB") << QByteArray("{\"id\": \"" + QByteArray(2000, 'i') + "\", \"result\": 1}")
                                      << QByteArray("null");
}

void TestMcpSession::replyIdScan()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, id);
    QCOMPARE(QByteArray::fromStdString(McpReplyId::scan(std::string_view(text.constData(), text.size())).dump()), id);
}

QTEST_GUILESS_MAIN(TestMcpSession)
#include "tst_mcpsession.moc"
