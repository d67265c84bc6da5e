// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tool changes of a 2026-07-28 server (issue 21 item 2; docs/mcp.md "Tools that
// change"): McpClientSession's `subscriptions/listen` (McpListenSubscription) over stdio
// against tests/data/mcp/fakeserver.py (its listen modes) and over Streamable HTTP
// against tests/data/mcp/fakehttpserver.py (its /listen paths): the listen and its
// acknowledgement, list_changed heard, messages of other subscriptions dropped, the
// graceful end, an ack that honours nothing or never comes, a dropped stream listened
// to again a bounded number of times, the cancellation when the session closes; the
// pool coalescing a flood of them; and the same against the studio's own server
// (`toolstudio serve --mcp-stdio` and `toolstudio serve`'s /mcp) and an McpServer of the
// official TypeScript SDK 2.4.0 (@modelcontextprotocol/server, from
// TOOLSTUDIO_MCP_SERVERS_DIR).
#include "mcp/mcpclientsession.h"
#include "mcp/mcphttptransport.h"
#include "mcp/mcpserverpool.h"
#include "mcpsessionwaits.h"
#include "portserver.h"
#include "servedproject.h"
#include "serverprocess.h"
#include "testfiles.h"
#include "typescriptsdk.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <memory>
#include <optional>

using nlohmann::json;
using ListenState = McpListenSubscription::State;

namespace {

const char *const SdkServer = R"JS(
import { McpServer, createMcpHandler, fromJsonSchema } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import http from "node:http";
let grown = false;
let handler;
function makeServer() {
  const server = new McpServer({ name: "sdk2-listen", version: "2.4.0" }, { capabilities: { tools: {} } });
  const addGrown = () => server.registerTool("grown", { description: "Came later",
    inputSchema: fromJsonSchema({ type: "object" }) }, async () => ({ content: [{ type: "text", text: "hi" }] }));
  server.registerTool("echo", { description: "Echoes a text",
    inputSchema: fromJsonSchema({ type: "object", properties: { text: { type: "string" } } })
  }, async ({ text }) => ({ content: [{ type: "text", text: String(text) }] }));
  server.registerTool("grow", { description: "Adds a tool", inputSchema: fromJsonSchema({ type: "object" }) },
    async () => {
      if (!grown) {
        grown = true;
        if (handler) handler.notify.toolsChanged(); else addGrown(); // registerTool says so itself
      }
      return { content: [{ type: "text", text: "grew" }] };
    });
  if (grown) addGrown();
  return server;
}
if (process.argv[2] === "http") {
  handler = createMcpHandler(makeServer, { keepAliveMs: 100 });
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const bodyless = req.method === "GET" || req.method === "HEAD";
    const response = await handler.fetch(new Request(`http://127.0.0.1${req.url}`, {
      method: req.method, headers: req.headers, signal: abort.signal,
      body: bodyless ? undefined : Buffer.concat(chunks) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  server.listen(0, "127.0.0.1", () => console.log(String(server.address().port)));
} else {
  serveStdio(makeServer);
}
)JS";

} // namespace

class TestMcpListen : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void stdioListensAndHearsToolChanges();
    void stdioGracefulEnd();
    void stdioAckHonoursNothing();
    void stdioAckNeverComes();
    void stdioListenRefused();
    void stdioNotificationBeforeTheAckIsDropped();
    void noListenWithoutListChanged();
    void poolCoalescesAFlood();
    void httpListensAndHearsToolChanges();
    void httpDroppedStreamIsListenedToAgainAFewTimes();
    void httpAckHonoursNothing();
    void httpAckNeverComes();
    void httpCloseEndsTheStream();
    void studioServerOverStdio();
    void studioServerOverHttp();
    void sdkServerOverStdio();
    void sdkServerOverHttpThroughThePool();

private:
    /// A session with the fake HTTP server at `path`, opened and waited for.
    std::unique_ptr<McpClientSession> openHttp(const QString &path, bool listen = true, int ackTimeoutMs = 0);

    PortServer m_fakeHttp;
};

void TestMcpListen::initTestCase()
{
    QVERIFY(
        m_fakeHttp.start(QStandardPaths::findExecutable(QStringLiteral("python3")), {mcpFixture("fakehttpserver.py")}));
}

void TestMcpListen::cleanupTestCase()
{
    m_fakeHttp.process.kill();
    m_fakeHttp.process.waitForFinished(10000);
}

std::unique_ptr<McpClientSession> TestMcpListen::openHttp(const QString &path, bool listen, int ackTimeoutMs)
{
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeHttp.base + path);
    auto session = std::make_unique<McpClientSession>(new McpHttpTransport(endpoint));
    session->setListenForChanges(listen);
    if (ackTimeoutMs > 0)
        session->listenSubscription()->setAckTimeout(ackTimeoutMs);
    session->open();
    waitReady(*session);
    return session;
}

// The listen goes out on ready with the 2026 _meta (the fake refuses a request without
// it) and the tools filter; list_changed on it is heard, also long after the time the
// ack was given (the listen itself has no timeout); messages naming other subscriptions
// are dropped; close() cancels it with notifications/cancelled (stdio).
void TestMcpListen::stdioListensAndHearsToolChanges()
{
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    listen->setAckTimeout(300);
    QSignalSpy changed(&session, &McpClientSession::toolsChanged);
    session.open(fakeServer(QStringLiteral("listen")));
    QVERIFY(waitReady(session));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2026-07-28"));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QCOMPARE(listen->requestId(), qint64(2)); // server/discover was 1
    QCOMPARE(stats(session).dump(),
             R"({"cancelled":[],"listens":[[2,{"toolsListChanged":true}]],"open":[2],"toolsLists":0})");

    QVERIFY(callAndWait(session, QStringLiteral("change")).ok());
    QCOMPARE(changed.count(), 1); // the notification came before the call's answer (one pipe)
    QCOMPARE(toolNames(session), QStringList({QStringLiteral("change"), QStringLiteral("extra-1")}));

    // list_changed 1 s after the answer: the 300 ms of the ack are long gone.
    QVERIFY(callAndWait(session, QStringLiteral("later")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 30000);
    QCOMPARE(listen->state(), ListenState::Open);

    // Another subscription's ack and list_changed, one naming the id as a string, one it
    // did not ask for: dropped; one nested too deep: refused; then a good one.
    const qint64 refusedBefore = session.refusedMessages();
    QVERIFY(callAndWait(session, QStringLiteral("stray")).ok());
    QCOMPARE(changed.count(), 3);
    QCOMPARE(listen->ignoredMessages(), qint64(5));
    QCOMPARE(session.refusedMessages(), refusedBefore + 1);
    QCOMPARE(session.unmatchedResponses(), qint64(0));
    QCOMPARE(listen->requestsSent(), 1);
    QCOMPARE(stats(session)["cancelled"].dump(), std::string("[]"));

    QSignalSpy ended(session.transport(), &McpTransport::finished);
    session.close();
    QVERIFY(ended.wait(30000));
    QVERIFY2(session.transport()->stderrTail().contains(QStringLiteral("listen cancelled: [2]\n")),
             qPrintable(session.transport()->stderrTail()));
    QCOMPARE(listen->state(), ListenState::Ended);
}

// The server answers the listen (resultType complete): the subscription ended, and is
// not opened again; nothing is left to cancel when the session closes.
void TestMcpListen::stdioGracefulEnd()
{
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    session.open(fakeServer(QStringLiteral("listen")));
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QVERIFY(callAndWait(session, QStringLiteral("end")).ok());
    QCOMPARE(listen->state(), ListenState::Ended);
    QCOMPARE(listen->why(), QStringLiteral("the server ended the subscription"));
    QCOMPARE(session.unmatchedResponses(), qint64(0));
    QCOMPARE(stats(session).dump(),
             R"({"cancelled":[],"listens":[[2,{"toolsListChanged":true}]],"open":[],"toolsLists":0})");
    QCOMPARE(listen->requestsSent(), 1);
    QSignalSpy ended(session.transport(), &McpTransport::finished);
    session.close();
    QVERIFY(ended.wait(30000));
    QVERIFY2(session.transport()->stderrTail().contains(QStringLiteral("listen cancelled: []\n")),
             qPrintable(session.transport()->stderrTail()));
}

// The ack honours nothing for tools: the listen is cancelled at once.
void TestMcpListen::stdioAckHonoursNothing()
{
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    session.open(fakeServer(QStringLiteral("listen-none")));
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server does not send tool changes on subscriptions/listen"));
    QCOMPARE(stats(session).dump(),
             R"({"cancelled":[2],"listens":[[2,{"toolsListChanged":true}]],"open":[],)"
             R"("toolsLists":0})");
}

// No ack within its timeout: cancelled, not sent again; the server works without it.
void TestMcpListen::stdioAckNeverComes()
{
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    listen->setAckTimeout(500);
    session.open(fakeServer(QStringLiteral("listen-noack")));
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server did not acknowledge subscriptions/listen within 0.5 s"));
    QCOMPARE(session.state(), McpClientSession::State::Ready);
    QCOMPARE(toolNames(session), QStringList({QStringLiteral("change")}));
    QCOMPARE(stats(session).dump(),
             R"({"cancelled":[2],"listens":[[2,{"toolsListChanged":true}]],"open":[],)"
             R"("toolsLists":1})");
    QCOMPARE(listen->requestsSent(), 1);
}

void TestMcpListen::stdioListenRefused()
{
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    session.open(fakeServer(QStringLiteral("listen-refuse")));
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server refused subscriptions/listen: -32601: Method not found"));
    QCOMPARE(toolNames(session), QStringList({QStringLiteral("change")}));
    QCOMPARE(listen->requestsSent(), 1);
    QCOMPARE(session.unmatchedResponses(), qint64(0));
}

// A list_changed of the listen before its ack (the spec forbids it) is dropped.
void TestMcpListen::stdioNotificationBeforeTheAckIsDropped()
{
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    QSignalSpy changed(&session, &McpClientSession::toolsChanged);
    session.open(fakeServer(QStringLiteral("listen-early")));
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QCOMPARE(stats(session)["listens"].size(), std::size_t(1)); // everything before it was read
    QCOMPARE(changed.count(), 0);
    QCOMPARE(listen->ignoredMessages(), qint64(1));
}

// No listen: a 2026 server without tools.listChanged, a session not asked to listen, a
// 2025 server (its list_changed come without one).
void TestMcpListen::noListenWithoutListChanged()
{
    const struct
    {
        const char *mode;
        bool listen;
        const char *era;
    } cases[] = {{"modern", true, "modern"}, {"listen", false, "modern"}, {"good", true, "legacy"}};
    for (const auto &entry : cases) {
        McpClientSession session;
        session.setListenForChanges(entry.listen);
        session.open(fakeServer(QLatin1String(entry.mode)));
        QVERIFY(waitReady(session));
        QCOMPARE(session.era(), QLatin1String(entry.era));
        QVERIFY(!toolNames(session).isEmpty()); // a round trip after ready
        QCOMPARE(session.listenSubscription()->state(), ListenState::Idle);
        QCOMPARE(session.listenSubscription()->requestsSent(), 0);
    }
}

// 1000 list_changed in one write: one tools/list at a time, one more after it.
void TestMcpListen::poolCoalescesAFlood()
{
    QTemporaryDir dir;
    ::chmod(QFile::encodeName(dir.path()).constData(), 0755); // as root the server runs as nobody
    QVERIFY(writeFile(dir.filePath(QStringLiteral("fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    McpServerConfig config;
    config.name = QStringLiteral("fake");
    config.command = QStringLiteral("python3");
    config.args = {QStringLiteral("fakeserver.py"), QStringLiteral("listen")};
    McpServerPool pool(dir.path());
    pool.setServers({config});
    QSignalSpy changed(&pool, &McpServerPool::toolsChanged);
    pool.connectAll();
    QTRY_VERIFY_WITH_TIMEOUT(pool.settled(), 60000);
    QVERIFY2(pool.server(QStringLiteral("fake"))->state == McpServerStatus::State::Ready,
             qPrintable(pool.server(QStringLiteral("fake"))->error));
    McpClientSession *session = pool.readySession(QStringLiteral("fake"));
    QVERIFY(session);
    QTRY_COMPARE_WITH_TIMEOUT(session->listenSubscription()->state(), ListenState::Open, 30000);

    // The fake lists only `change`; the pool calls no tool its server does not list, so
    // `flood` and `stats` (the fake's controls) go straight through the session.
    const McpReply flooded = callAndWait(*session, QStringLiteral("flood"), {{"count", 1000}});
    QVERIFY2(flooded.ok(), qPrintable(flooded.errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 30000);
    const McpReply counted = callAndWait(*session, QStringLiteral("stats"));
    QVERIFY2(counted.ok(), qPrintable(counted.errorText()));
    // The first list, then one for the first notification and one for all the others.
    QCOMPARE(json::parse(counted.result["content"][0].value("text", ""))["toolsLists"].dump(), std::string("3"));
    QCOMPARE(changed.count(), 2);

    std::optional<McpCallOutcome> outcome;
    pool.call(QStringLiteral("fake"), QStringLiteral("change"), json::object(), json::object(),
              [&outcome](const McpCallOutcome &done) { outcome = done; });
    QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 60000);
    QVERIFY2(outcome->refused.isEmpty(), qPrintable(outcome->refused));
    QVERIFY2(outcome->reply.ok(), qPrintable(outcome->reply.errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, 30000);
    QCOMPARE(pool.server(QStringLiteral("fake"))->toolsChangedNote,
             QStringLiteral("its tools changed (added: extra-1)"));
    QCOMPARE(int(pool.server(QStringLiteral("fake"))->tools.size()), 2);
}

// Over HTTP the listen's POST answers with an event stream that stays open (":"
// keep-alives): the transport holds it, no timeout cuts it, a too large or too deep
// event on it is skipped and the stream goes on; the server's response ends it.
void TestMcpListen::httpListensAndHearsToolChanges()
{
    auto session = openHttp(QStringLiteral("/listen"), true, 300);
    QVERIFY(session->state() == McpClientSession::State::Ready);
    McpListenSubscription *listen = session->listenSubscription();
    auto *transport = qobject_cast<McpHttpTransport *>(session->transport());
    QSignalSpy changed(session.get(), &McpClientSession::toolsChanged);
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QCOMPARE(listen->requestId(), qint64(2));
    QCOMPARE(transport->openPosts(), std::size_t(1));

    QVERIFY(callAndWait(*session, QStringLiteral("change")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 30000);
    QCOMPARE(toolNames(*session), QStringList({QStringLiteral("change"), QStringLiteral("extra-1")}));

    QVERIFY(callAndWait(*session, QStringLiteral("later")).ok()); // list_changed 1 s later
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 30000);

    QVERIFY(callAndWait(*session, QStringLiteral("deep")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, 30000);
    QCOMPARE(session->refusedMessages(), qint64(1));
    QVERIFY(callAndWait(*session, QStringLiteral("huge")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 4, 60000);
    QCOMPARE(session->refusedMessages(), qint64(2));
    QCOMPARE(listen->state(), ListenState::Open);
    QCOMPARE(transport->openPosts(), std::size_t(1));

    QVERIFY(callAndWait(*session, QStringLiteral("end")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server ended the subscription"));
    QCOMPARE(transport->openPosts(), std::size_t(0));
    QCOMPARE(stats(*session).dump(), R"({"closed":0,"listens":1,"toolsLists":1})");
    QCOMPARE(listen->requestsSent(), 1);
}

// A stream that ends without the response after its ack: listened to again after a
// delay (50, 100, 200 ms here), at most 3 times, then not any more.
void TestMcpListen::httpDroppedStreamIsListenedToAgainAFewTimes()
{
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeHttp.base + QStringLiteral("/listen-drop"));
    McpClientSession session(new McpHttpTransport(endpoint));
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    listen->setRelistenDelay(50);
    session.open();
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->requestsSent(), 4);
    QCOMPARE(listen->why(),
             QStringLiteral("the subscription broke off 4 times in a row (the last time: its event "
                            "stream ended before the response); it is not opened again"));
    QCOMPARE(stats(session).dump(), R"({"closed":0,"listens":4,"toolsLists":0})");
    QCOMPARE(session.state(), McpClientSession::State::Ready);
}

void TestMcpListen::httpAckHonoursNothing()
{
    auto session = openHttp(QStringLiteral("/listen-none"));
    McpListenSubscription *listen = session->listenSubscription();
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server does not send tool changes on subscriptions/listen"));
    QCOMPARE(qobject_cast<McpHttpTransport *>(session->transport())->openPosts(), std::size_t(0));
    // The server sees the stream closed at its next keep-alive.
    QTRY_COMPARE_WITH_TIMEOUT(stats(*session).dump(), std::string(R"({"closed":1,"listens":1,"toolsLists":0})"), 30000);
}

void TestMcpListen::httpAckNeverComes()
{
    auto session = openHttp(QStringLiteral("/listen-noack"), true, 500);
    McpListenSubscription *listen = session->listenSubscription();
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server did not acknowledge subscriptions/listen within 0.5 s"));
    QCOMPARE(toolNames(*session), QStringList({QStringLiteral("change")}));
    QTRY_COMPARE_WITH_TIMEOUT(stats(*session).dump(), std::string(R"({"closed":1,"listens":1,"toolsLists":1})"), 30000);
    QCOMPARE(listen->requestsSent(), 1);
}

// close() closes the listen's stream (HTTP has no notifications/cancelled for it).
void TestMcpListen::httpCloseEndsTheStream()
{
    auto session = openHttp(QStringLiteral("/listen"));
    QTRY_COMPARE_WITH_TIMEOUT(session->listenSubscription()->state(), ListenState::Open, 30000);
    const json before = stats(*session);
    QCOMPARE(before["closed"].dump(), std::string("0"));
    session->close();
    QCOMPARE(session->listenSubscription()->state(), ListenState::Ended);
    auto other = openHttp(QStringLiteral("/listen"), false);
    QTRY_COMPARE_WITH_TIMEOUT(stats(*other)["closed"].dump(), std::string("1"), 30000);
    QCOMPARE(stats(*other)["listens"].dump(), before["listens"].dump());
}

// `toolstudio serve --mcp-stdio`: a tool added to the served toolstudio.json is heard on
// the listen and listed.
void TestMcpListen::studioServerOverStdio()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    isolateConfigDir();
    McpStdioTransport::Launch launch;
    launch.program = toolstudioBinary();
    launch.arguments = {QStringLiteral("serve"), QStringLiteral("--mcp-stdio"), dir.path(), QStringLiteral("--trust")};
    launch.environment = QProcessEnvironment::systemEnvironment();
    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    QSignalSpy changed(&session, &McpClientSession::toolsChanged);
    session.open(launch);
    QVERIFY(waitReady(session));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2026-07-28"));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QCOMPARE(toolNames(session).size(), 4);
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 30000);
    QCOMPARE(toolNames(session).last(), QStringLiteral("echo"));
    QCOMPARE(listen->ignoredMessages(), qint64(0));
    QSignalSpy ended(session.transport(), &McpTransport::finished);
    session.close();
    QVERIFY(ended.wait(30000));
    QCOMPARE(listen->requestsSent(), 1);
}

// `toolstudio serve`'s /mcp: the listen's event stream carries the change; stopping the
// server ends the subscription with its closing result: not listened to again.
void TestMcpListen::studioServerOverHttp()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server web;
    QVERIFY2(web.start(dir.path()), web.err.constData());
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(web.url("/mcp"));
    McpClientSession session(new McpHttpTransport(endpoint));
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    listen->setRelistenDelay(50);
    QSignalSpy changed(&session, &McpClientSession::toolsChanged);
    session.open();
    QVERIFY(waitReady(session));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2026-07-28"));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 30000);
    QCOMPARE(toolNames(session).last(), QStringLiteral("echo"));
    QCOMPARE(listen->state(), ListenState::Open);

    web.stop();
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Ended, 30000);
    QCOMPARE(listen->why(), QStringLiteral("the server ended the subscription"));
    QCOMPARE(listen->requestsSent(), 1);
}

void TestMcpListen::sdkServerOverStdio()
{
    const QString missing = missingSdk2({QStringLiteral("server")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(QStringLiteral("server.mjs")), QByteArray(SdkServer)));
    QVERIFY(QFile::link(sdkModules(), dir.filePath(QStringLiteral("node_modules"))));
    McpStdioTransport::Launch launch;
    launch.program = QStandardPaths::findExecutable(QStringLiteral("node"));
    launch.arguments = {dir.filePath(QStringLiteral("server.mjs"))};
    launch.workingDirectory = dir.path();
    launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));

    McpClientSession session;
    session.setListenForChanges(true);
    McpListenSubscription *listen = session.listenSubscription();
    QSignalSpy changed(&session, &McpClientSession::toolsChanged);
    session.open(launch);
    QVERIFY(waitReady(session));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2026-07-28"));
    QCOMPARE(session.serverCapabilities()["tools"].dump(), std::string(R"({"listChanged":true})"));
    QTRY_COMPARE_WITH_TIMEOUT(listen->state(), ListenState::Open, 30000);
    QCOMPARE(toolNames(session), QStringList({QStringLiteral("echo"), QStringLiteral("grow")}));
    QVERIFY(callAndWait(session, QStringLiteral("grow")).ok());
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 30000);
    QCOMPARE(toolNames(session),
             QStringList({QStringLiteral("echo"), QStringLiteral("grow"), QStringLiteral("grown")}));
    QCOMPARE(listen->ignoredMessages(), qint64(0));
    QCOMPARE(session.unmatchedResponses(), qint64(0));
    QSignalSpy ended(session.transport(), &McpTransport::finished);
    session.close();
    QVERIFY(ended.wait(30000));
    QCOMPARE(listen->requestsSent(), 1);
}

// The user's path: the pool lists the tools again when the SDK server (HTTP, its
// listen stream keeping alive every 100 ms) says they changed.
void TestMcpListen::sdkServerOverHttpThroughThePool()
{
    const QString missing = missingSdk2({QStringLiteral("server")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(QStringLiteral("server.mjs")), QByteArray(SdkServer)));
    QVERIFY(QFile::link(sdkModules(), dir.filePath(QStringLiteral("node_modules"))));
    PortServer web;
    QVERIFY(web.start(QStringLiteral("node"), {dir.filePath(QStringLiteral("server.mjs")), QStringLiteral("http")},
                      dir.path()));

    McpServerConfig config;
    config.name = QStringLiteral("web");
    config.transport = McpServerConfig::Transport::StreamableHttp;
    config.url = web.base + QStringLiteral("/mcp");
    McpServerPool pool(dir.path());
    pool.setServers({config});
    QSignalSpy changed(&pool, &McpServerPool::toolsChanged);
    pool.connectAll();
    QTRY_VERIFY_WITH_TIMEOUT(pool.settled(), 60000);
    const McpServerStatus *status = pool.server(QStringLiteral("web"));
    QVERIFY2(status->state == McpServerStatus::State::Ready, qPrintable(status->error));
    QCOMPARE(status->protocolVersion, QStringLiteral("2026-07-28"));
    QCOMPARE(int(status->tools.size()), 2);
    McpClientSession *session = pool.readySession(QStringLiteral("web"));
    QTRY_COMPARE_WITH_TIMEOUT(session->listenSubscription()->state(), ListenState::Open, 30000);

    std::optional<McpCallOutcome> outcome;
    pool.call(QStringLiteral("web"), QStringLiteral("grow"), json::object(), json::object(),
              [&outcome](const McpCallOutcome &done) { outcome = done; });
    QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 60000);
    QVERIFY2(outcome->refused.isEmpty(), qPrintable(outcome->refused));
    QVERIFY2(outcome->reply.ok(), qPrintable(outcome->reply.errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 30000);
    QCOMPARE(status->toolsChangedNote, QStringLiteral("its tools changed (added: grown)"));
    QCOMPARE(int(status->tools.size()), 3);
    QCOMPARE(session->listenSubscription()->state(), ListenState::Open);
    QCOMPARE(session->listenSubscription()->requestsSent(), 1);
}

QTEST_GUILESS_MAIN(TestMcpListen)
#include "tst_mcplisten.moc"
