// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// McpClientSession over stdio against the MCP reference server "everything" from npm
// (installed by ./toolstudio.sh test into BUILD/mcp-servers) and against
// tests/data/mcp/fakeserver.py, a server that misbehaves in one way per mode.
#include "clirunner.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcpreplyid.h"
#include "mcp/mcpserverlaunch.h"
#include "project/mcpserverconfig.h"
#include "python/secrets.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

McpStdioTransport::Launch fakeServer(const QString &mode)
{
    McpStdioTransport::Launch launch;
    launch.program = QStandardPaths::findExecutable(QStringLiteral("python3"));
    launch.arguments
        = {qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py"), mode};
    launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    return launch;
}

/// The reference server's entry point, or "" when ./toolstudio.sh test has not installed it.
QString everythingServer()
{
    const QString dir = qEnvironmentVariable("TOOLSTUDIO_MCP_SERVERS_DIR");
    const QFileInfo entry(dir + QStringLiteral("/node_modules/.bin/mcp-server-everything"));
    return dir.isEmpty() || !entry.exists() ? QString() : entry.canonicalFilePath();
}

/// Runs `start` and waits for `session` to leave Initializing.
void openAndWait(McpClientSession &session, const McpStdioTransport::Launch &launch)
{
    session.open(launch);
    QTRY_VERIFY_WITH_TIMEOUT(session.state() != McpClientSession::State::Initializing, 60000);
}

/// Sends a request and waits for its reply.
McpReply callAndWait(McpClientSession &session, const QString &tool, const json &arguments)
{
    std::optional<McpReply> reply;
    session.callTool(tool, arguments, json::object(), [&reply](const McpReply &r) { reply = r; });
    (void)QTest::qWaitFor([&reply] { return reply.has_value(); }, 60000);
    return reply.value_or(McpReply{{}, {}, QStringLiteral("no reply within 60 s")});
}

std::vector<json> listAndWait(McpClientSession &session, McpReply *replyOut)
{
    std::optional<std::vector<json>> tools;
    session.listTools([&](const std::vector<json> &list, const McpReply &reply) {
        tools = list;
        *replyOut = reply;
    });
    (void)QTest::qWaitFor([&tools] { return tools.has_value(); }, 60000);
    return tools.value_or(std::vector<json>{});
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
    void listCommand();
    void listCommandRefusesUntrusted();
    void serverThatDoesNotReadIsStopped();
    void hostileTextsArePrintableAndBounded();
    void hostileRevisionIsPrintableAndBounded();
    void hugePagesStop();
    void duplicateResponseAndDeleteInCallback();
    void childKeepsPipesOpen_data();
    void childKeepsPipesOpen();
    void serverThatIgnoresShutdownIsKilled();
    void deleteWhileFailingAll();
    void listEntriesThatAreNotTools();
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

namespace {

/// A project whose mcp_servers are the fake server in three ways (plain, confined to
/// its own folder, and one naming a secret that is not set) and a remote one.
QString writeMcpProject(const QTemporaryDir &dir)
{
    const QString fake
        = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py");
    QDir(dir.path()).mkdir(QStringLiteral("srv"));
    QFile::copy(fake, dir.filePath(QStringLiteral("srv/fakeserver.py")));
    writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
              R"({"name": "mcp", "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "good"]},
  "boxed": {"command": "python3", "args": ["srv/fakeserver.py", "good"], "sandbox": {"read": ["srv"], "network": false}},
  "keyed": {"command": "python3", "args": ["srv/fakeserver.py"], "env": {"K": "${secret:NOT_SET}"}},
  "legacy": {"url": "http://127.0.0.1:1/sse", "type": "sse"},
  "remote": {"url": "http://127.0.0.1:1/mcp"}}})");
    return dir.path();
}

} // namespace

void TestMcpSession::listCommand()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = writeMcpProject(dir);
    const CommandResult text = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QCOMPARE(text.exitCode, 1); // "keyed" failed
    QCOMPARE(QString::fromUtf8(text.out),
             QStringLiteral("boxed  ready  MCP 2025-06-18  fake 0  5 tool(s)\n"
                            "  boxed__tool-0\n  boxed__tool-1\n  boxed__tool-2\n  boxed__tool-3\n  boxed__tool-4\n"
                            "fake  ready  MCP 2025-06-18  fake 0  5 tool(s)\n"
                            "  fake__tool-0\n  fake__tool-1\n  fake__tool-2\n  fake__tool-3\n  fake__tool-4\n"
                            "keyed  failed\n"
                            "  cannot start: its env names secrets that are not set: NOT_SET (set them with: "
                            "toolstudio tools secret PROJECT NAME)\n"
                            // HTTP+SSE to a port where no one listens.
                            "legacy  failed\n"
                            "  the server could not be reached: GET http://127.0.0.1:1/sse: Connection refused\n"
                            // Streamable HTTP to a port where no one listens.
                            "remote  failed\n"
                            "  the server's reply to request 1 could not be read: no HTTP reply from "
                            "http://127.0.0.1:1/mcp: Connection refused\n"));

    const CommandResult asJson
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project, QStringLiteral("--json")});
    QCOMPARE(asJson.exitCode, 1);
    const json servers = json::parse(asJson.out.toStdString());
    QCOMPARE(servers.size(), std::size_t(5));
    QCOMPARE(servers[0]["name"].get<std::string>(), std::string("boxed"));
    QCOMPARE(servers[0]["state"].get<std::string>(), std::string("ready"));
    QCOMPARE(servers[0]["protocol_version"].get<std::string>(), std::string("2025-06-18"));
    QCOMPARE(servers[0]["tools"][4]["name"].get<std::string>(), std::string("boxed__tool-4"));
    QCOMPARE(servers[0]["tools"][4]["server_tool"].get<std::string>(), std::string("tool-4"));
    QCOMPARE(servers[2]["state"].get<std::string>(), std::string("failed"));
    QCOMPARE(servers[3]["transport"].get<std::string>(), std::string("HTTP+SSE"));
    QCOMPARE(servers[3]["state"].get<std::string>(), std::string("failed"));
    QCOMPARE(servers[4]["transport"].get<std::string>(), std::string("Streamable HTTP"));
    QCOMPARE(servers[4]["state"].get<std::string>(), std::string("failed"));
}

void TestMcpSession::listCommandRefusesUntrusted()
{
    // Starting a server runs the project's code: not without trust (exit 3), and no
    // server is started.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = writeMcpProject(dir);
    const CommandResult result = toolstudioAsGiven({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QCOMPARE(result.exitCode, 3);
    QVERIFY2(result.out.isEmpty(), result.out.constData());
    QVERIFY2(result.err.contains("MCP server 'fake'"), result.err.constData());
}

void TestMcpSession::serverThatDoesNotReadIsStopped()
{
    // Pings with 30 MiB ids whose answers the server never reads: what waits for its
    // stdin is bounded, the server is killed and the call fails naming why.
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("deaf")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    std::optional<McpReply> answered;
    // 66 MiB to read and answer: a debug build on a busy machine takes a while.
    session.callTool(
        QStringLiteral("tool-0"), json::object(), nullptr, [&](const McpReply &r) { answered = r; }, 290000);
    QTRY_VERIFY_WITH_TIMEOUT(answered.has_value(), 300000);
    const McpReply reply = *answered;
    QCOMPARE(reply.failure,
             QStringLiteral("the server does not read its stdin: more than 64 MiB of the studio's messages wait "
                            "for it; it was killed"));
    QCOMPARE(session.state(), McpClientSession::State::Closed);
    QVERIFY(!session.transport()->isRunning());
}

void TestMcpSession::hostileTextsArePrintableAndBounded()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("hostile")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    // serverInfo "fake" and capabilities [1] are not objects: kept as empty objects, so
    // reading a member of them cannot throw.
    QCOMPARE(session.serverInfo().dump(), std::string("{}"));
    QCOMPARE(session.serverCapabilities().dump(), std::string("{}"));
    QCOMPARE(session.serverInfo().value("name", ""), std::string());

    const McpReply error = callAndWait(session, QStringLiteral("error"), json::object());
    QCOMPARE(error.error.code, -32000);
    QCOMPARE(error.errorText(),
             QStringLiteral("-32000: \\u001b[31mred\\u001b[0m\\r\\u202eevil") + QString(2000 - 18, u'm')
                 + QStringLiteral("… (98018 bytes dropped)"));

    const McpReply died = callAndWait(session, QStringLiteral("boom"), json::object());
    QCOMPARE(died.failure,
             QStringLiteral("the server exited with code 4; its stderr ends with:\n…") + QString(1996, u'e')
                 + QStringLiteral("\\u001b[2J"));
}

void TestMcpSession::hostileRevisionIsPrintableAndBounded()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("revision")));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QCOMPARE(session.failure(),
             QStringLiteral("the server speaks MCP revision \"\\u001b[2J") + QString(36, u'v')
                 + QStringLiteral("… (99964 bytes dropped)\", which the studio does not (it speaks 2025-11-25, "
                                  "2025-06-18, 2025-03-26, 2024-11-05)"));
}

void TestMcpSession::hugePagesStop()
{
    // Pages of 6 MiB of tools, each with a next cursor: the listing stops once the tools
    // it holds pass 16 MiB, not after 100 pages (600 MB).
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("bigpages")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    McpReply listed;
    QVERIFY(listAndWait(session, &listed).empty());
    QCOMPARE(listed.failure,
             QStringLiteral("the server's tools/list pages add up to more than 16 MiB (at page 3); the studio "
                            "stopped there"));
    QCOMPARE(session.state(), McpClientSession::State::Ready);
}

void TestMcpSession::duplicateResponseAndDeleteInCallback()
{
    // The server answers tools/call twice in one write; the callback deletes the session
    // (and with it the transport that is still handing out that write's messages).
    auto *session = new McpClientSession;
    QPointer<McpClientSession> alive(session);
    openAndWait(*session, fakeServer(QStringLiteral("twice")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    int replies = 0;
    session->callTool(QStringLiteral("tool-0"), json::object(), nullptr, [&](const McpReply &reply) {
        ++replies;
        QVERIFY(reply.ok());
        delete session;
    });
    QTRY_VERIFY_WITH_TIMEOUT(alive.isNull(), 60000);
    QTest::qWait(100); // the rest of the write, had the transport gone on reading it
    QCOMPARE(replies, 1);

    McpClientSession kept;
    openAndWait(kept, fakeServer(QStringLiteral("twice")));
    QVERIFY(callAndWait(kept, QStringLiteral("tool-0"), json::object()).ok());
    QTRY_COMPARE(kept.unmatchedResponses(), 1LL);
}

void TestMcpSession::childKeepsPipesOpen_data()
{
    QTest::addColumn<bool>("confined");
    QTest::newRow("plain") << false;
    // How a project's servers run: under toolstudio-sandbox (attack27 F7: its children
    // outlived a dropped server, a wrapper's child per reload).
    QTest::newRow("confined") << true;
}

void TestMcpSession::childKeepsPipesOpen()
{
    // The server exits while a child of its own still holds its stdout and stderr: the
    // session ends when the server does, not when the child lets go of the pipes, and
    // the child (in the server's process group) is killed. So is the child of a server
    // that is closed (stdin's end, which the child does not read).
    QFETCH(bool, confined);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto launch = [&]() -> McpStdioTransport::Launch {
        if (!confined)
            return fakeServer(QStringLiteral("forker"));
        QDir(dir.path()).mkdir(QStringLiteral("srv"));
        QFile::copy(qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py"),
                    dir.filePath(QStringLiteral("srv/fakeserver.py")));
        McpServerConfig server;
        server.name = QStringLiteral("forker");
        server.command = QStringLiteral("python3");
        server.args = {QStringLiteral("srv/fakeserver.py"), QStringLiteral("forker")};
        server.sandboxed = true;
        server.read = {QStringLiteral("srv")};
        server.network = false;
        QString why;
        const Secrets secrets = Secrets::load(dir.path());
        const auto boxed = McpServerLaunch::forServer(server, dir.path(), secrets, &why);
        return boxed.value_or(McpStdioTransport::Launch{});
    }();
    const auto gone = [](qint64 pid) {
        QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
        return !file.open(QIODevice::ReadOnly) || file.readAll().contains(") Z "); // reaped, or a zombie
    };

    McpClientSession session;
    openAndWait(session, launch);
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    const McpReply reply = callAndWait(session, QStringLiteral("tool-0"), json::object());
    const QString prefix = QStringLiteral("the server exited with code 5; its stderr ends with:\nchild ");
    QVERIFY2(reply.failure.startsWith(prefix), qPrintable(reply.failure));
    QCOMPARE(session.state(), McpClientSession::State::Closed);
    const qint64 child = reply.failure.mid(prefix.size()).toLongLong();
    QVERIFY(child > 0);
    QTRY_VERIFY_WITH_TIMEOUT(gone(child), 10000);

    McpClientSession closing;
    openAndWait(closing, launch);
    QVERIFY2(closing.state() == McpClientSession::State::Ready, qPrintable(closing.failure()));
    auto *transport = qobject_cast<McpStdioTransport *>(closing.transport());
    QVERIFY(transport);
    QTRY_VERIFY_WITH_TIMEOUT(transport->stderrTail().contains(u'\n'), 10000);
    const QString tail = transport->stderrTail();
    QVERIFY2(tail.startsWith(QStringLiteral("child ")), qPrintable(tail));
    const qint64 second = tail.mid(6).trimmed().toLongLong();
    QVERIFY(second > 0);
    QVERIFY(!gone(second));
    closing.close();
    QTRY_VERIFY_WITH_TIMEOUT(gone(second), 10000);
}

void TestMcpSession::serverThatIgnoresShutdownIsKilled()
{
    // Closing a session closes the server's stdin, then sends SIGTERM, then SIGKILL
    // (StopGraceMs apart): a server that ignores both is killed, never left running.
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("stubborn")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    auto *transport = qobject_cast<McpStdioTransport *>(session.transport());
    QVERIFY(transport);
    const qint64 pid = transport->processId();
    QVERIFY(pid > 0);
    QString why;
    connect(transport, &McpTransport::finished, this, [&why](const QString &reason) { why = reason; });
    session.close();
    QTRY_VERIFY_WITH_TIMEOUT(!why.isEmpty(), 30000);
    QCOMPARE(why, QStringLiteral("killed by signal 9"));
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    QVERIFY(!stat.open(QIODevice::ReadOnly) || stat.readAll().contains(") Z ")); // reaped, or a zombie
}

void TestMcpSession::deleteWhileFailingAll()
{
    // Two calls open when the server dies; the first one's callback deletes the session:
    // the second still gets its reply, once, and nothing of the session is touched after.
    auto *session = new McpClientSession;
    QPointer<McpClientSession> alive(session);
    openAndWait(*session, fakeServer(QStringLiteral("crash")));
    QVERIFY(session->state() == McpClientSession::State::Ready);
    QStringList failures;
    session->callTool(QStringLiteral("tool-0"), json::object(), nullptr, [&](const McpReply &reply) {
        failures << reply.failure.section(u';', 0, 0);
        delete session;
    });
    session->callTool(QStringLiteral("tool-1"), json::object(), nullptr,
                      [&](const McpReply &reply) { failures << reply.failure.section(u';', 0, 0); });
    QTRY_VERIFY_WITH_TIMEOUT(alive.isNull(), 60000);
    QTest::qWait(100);
    QCOMPARE(failures,
             QStringList({QStringLiteral("the server exited with code 3")})
                 << QStringLiteral("the server exited with code 3"));
}

void TestMcpSession::listEntriesThatAreNotTools()
{
    // tools/list with entries that are no tools (1, "text", [], null, a numeric name, no
    // name), a name with control characters, one of 10 000 characters and a duplicate,
    // after 20 000 notifications and 1 000 responses to ids never sent: `mcp list
    // --json` aborted on the number; the text form showed each non-tool as "odd__".
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir(dir.path()).mkdir(QStringLiteral("srv"));
    QFile::copy(qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py"),
                dir.filePath(QStringLiteral("srv/fakeserver.py")));
    writeFile(
        dir.filePath(QStringLiteral("toolstudio.json")),
        R"({"name": "mcp", "mcp_servers": {"odd": {"command": "python3", "args": ["srv/fakeserver.py", "oddtools"]}}})");
    const CommandResult text = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path()});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(!text.out.contains('\x1b'), text.out.constData());
    const QList<QByteArray> lines = text.out.split('\n');
    QCOMPARE(lines.size(), 8);
    QCOMPARE(lines[0], QByteArray("odd  ready  MCP 2025-06-18  fake 0  4 tool(s)"));
    QCOMPARE(lines[1],
             QByteArray("  (6 entries of its tools/list are not tools, not an object with a string name: left out)"));
    // "twice" is listed twice: the first is kept, the second named.
    QCOMPARE(lines[2], QByteArray("  (the tool odd__twice is listed more than once: the first is kept)"));
    QCOMPARE(lines[3],
             QByteArray("  odd__\\u001b]0;pwned\\u0007\\u001b[2Jrun completed\\u202e  (not a valid tool name: scripts "
                        "cannot call it)  \\u001b[31mred"));
    QVERIFY2(lines[4].startsWith("  odd__" + QByteArray(123, 'n') + "… (9877 bytes dropped)"), lines[4].constData());
    QCOMPARE(lines[5], QByteArray("  odd__twice"));
    QCOMPARE(lines[6], QByteArray("  odd__deep"));

    const CommandResult asJson
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path(), QStringLiteral("--json")});
    QCOMPARE(asJson.exitCode, 0);
    const json servers = json::parse(asJson.out.toStdString());
    QCOMPARE(servers[0]["tools"].size(), std::size_t(4));
    QCOMPARE(servers[0]["tools"][2]["server_tool"].get<std::string>(), std::string("twice"));
    QCOMPARE(servers[0]["tools"][3]["server_tool"].get<std::string>(), std::string("deep"));

    // As project tools: one odd__twice, the second named in a warning.
    const CommandResult tools = toolstudio({QStringLiteral("tools"), QStringLiteral("list"), dir.path()});
    QCOMPARE(tools.exitCode, 0);
    QCOMPARE(tools.out.count("odd__twice\t"), 1);
    QVERIFY2(tools.err.contains("warning: MCP server 'odd' lists the tool 'twice' more than once; the first is kept\n"),
             tools.err.constData());
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
