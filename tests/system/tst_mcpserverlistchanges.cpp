// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// notifications/tools/list_changed from the studio's MCP server: the manifest watched
// over stdio (a tool added or removed, a change that keeps the tools, one that does not
// load, a FIFO, a change of what runs that trust does not cover) and over HTTP, on the
// `GET /mcp` event stream read as it comes (its refusals and caps, its end on DELETE, a
// client leaving, the server stopping).

#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "eventstream.h"
#include "mcprequests.h"
#include "servedproject.h"
#include "serverprocess.h"
#include "stdioserver.h"
#include "testfiles.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <vector>

#include <sys/stat.h>

using nlohmann::json;

namespace {

const QByteArray ListChangedEvent
    = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

} // namespace

class TestMcpServerListChanges : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stdioToolListChanges();
    void stdioChangeOfWhatRunsIsNotServed();
    void httpToolListChanges();
    void httpEventStreamRefusals();
    void httpEventStreamEnds();
};

void TestMcpServerListChanges::stdioToolListChanges()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    QCOMPARE(dumped(server.initialize()["result"]["capabilities"]["tools"]), QStringLiteral("{\"listChanged\":true}"));
    const json manifest = servedManifest(dir.path());
    QVERIFY(manifest.is_object());

    // A tool added (saved as an editor does, by rename): the notification, then the new list.
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(manifest).dump(1))));
    QCOMPARE(dumped(server.next()),
             QStringLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
    QVERIFY2(server.said("toolstudio.json changed: serving 5 tool(s) from now on"), server.err.constData());
    const json list = server.request({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}});
    QCOMPARE(list["result"]["tools"].size(), std::size_t(5));
    QCOMPARE(dumped(list["result"]["tools"][4]["name"]), QStringLiteral("\"echo\""));
    QCOMPARE(
        dumped(server.request(call(3, "echo", json::object()))),
        QStringLiteral("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"hi\",\"type\":\"text\"}],"
                       "\"isError\":false}}"));

    // Only the project's name changed (written in place): the tools are the same, no notification.
    json renamed = withEchoTool(manifest);
    renamed["name"] = "served again";
    QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(renamed.dump(1))));
    QVERIFY2(server.said("toolstudio.json changed; the tools served are the same"), server.err.constData());
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "ping"}})),
             QStringLiteral("{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{}}"));

    // A manifest that does not load: no notification, the tools before it still served.
    QVERIFY(replaceManifest(dir.path(), "{\"name\": \"served\", \"tools\": ["));
    QVERIFY2(server.said("toolstudio serve: toolstudio.json changed, but it cannot be loaded: "),
             server.err.constData());
    QVERIFY2(server.said("; the tools before the change are still served"), server.err.constData());
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "ping"}})),
             QStringLiteral("{\"id\":5,\"jsonrpc\":\"2.0\",\"result\":{}}"));
    const json kept = server.request({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "tools/list"}});
    QCOMPARE(kept["result"]["tools"].size(), std::size_t(5));
    QCOMPARE(dumped(server.request(call(7, "echo", json::object()))["result"]["content"][0]["text"]),
             QStringLiteral("\"hi\""));

    // A FIFO renamed over the manifest: not opened for reading (that would block the
    // server until a writer came, attack27 F2); the tools before it still served.
    const QString fifo = dir.path() + QStringLiteral("/.fifo");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QCOMPARE(::rename(QFile::encodeName(fifo).constData(),
                      QFile::encodeName(dir.path() + QStringLiteral("/toolstudio.json")).constData()),
             0);
    QVERIFY2(server.said("toolstudio.json: not a regular file (a FIFO, a device or a folder); the manifest must be "
                         "a JSON file; the tools before the change are still served"),
             server.err.constData());
    QCOMPARE(dumped(server.request(call(71, "echo", json::object()))["result"]["content"][0]["text"]),
             QStringLiteral("\"hi\""));

    // The tool removed again: notified, and the call is refused as unknown.
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(manifest.dump(1))));
    QCOMPARE(dumped(server.next()),
             QStringLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
    QCOMPARE(dumped(server.request(call(8, "echo", json::object()))["error"]["code"]), QStringLiteral("-32602"));
    QCOMPARE(server.close(), 0);
    QVERIFY2(server.out.isEmpty(), server.out.constData());
}

void TestMcpServerListChanges::stdioChangeOfWhatRunsIsNotServed()
{
    // Trust (--trust at the start) is bound to what the project runs: a command tool added
    // to the manifest is not served until the server is started with --trust again.
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    server.initialize();
    json manifest = servedManifest(dir.path());
    manifest["tools"].push_back({{"name", "shell"},
                                 {"description", "Runs a command"},
                                 {"input_schema", {{"type", "object"}}},
                                 {"handler", {{"kind", "command"}, {"command", {"/bin/echo", "hi"}}}}});
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(manifest.dump(1))));
    QVERIFY2(server.said("toolstudio serve: toolstudio.json changed, but what the project runs changed since it was "
                         "trusted (now also: "),
             server.err.constData());
    QVERIFY2(server.said("check the change and restart with --trust to serve it; the tools before the change are "
                         "still served"),
             server.err.constData());
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}})),
             QStringLiteral("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}"));
    const json list = server.request({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/list"}});
    QCOMPARE(list["result"]["tools"].size(), std::size_t(4));
    QCOMPARE(dumped(server.request(call(4, "shell", json::object()))["error"]["code"]), QStringLiteral("-32602"));
    QCOMPARE(server.close(), 0);
}

void TestMcpServerListChanges::httpToolListChanges()
{
    // A 2025 session over Streamable HTTP hears of the change on its GET /mcp stream,
    // and lists the new tools.
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(dumped(init.body["result"]["capabilities"]["tools"]), QStringLiteral("{\"listChanged\":true}"));
    EventStream stream;
    QCOMPARE(stream.open(server.port, init.session), 200);
    QVERIFY2(stream.head.contains("\r\nContent-Type: text/event-stream\r\n"), stream.head.constData());
    QVERIFY2((stream.head + "\r\n").contains("\r\nTransfer-Encoding: chunked\r\n"), stream.head.constData());
    QVERIFY2(stream.head.contains("\r\nMcp-Session-Id: " + init.session.toUtf8() + "\r\n"), stream.head.constData());
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    QVERIFY2(serverSaid(server, "toolstudio.json changed: serving 5 tool(s) from now on"), server.err.constData());
    QCOMPARE(stream.nextEvent(), ListChangedEvent);
    const McpHttpReply list
        = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", init.session);
    QCOMPARE(list.body["result"]["tools"].size(), std::size_t(5));
    QCOMPARE(dumped(list.body["result"]["tools"][4]["name"]), QStringLiteral("\"echo\""));
    const McpHttpReply echoed = mcpHttp(
        server.port, "POST",
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{}}})", init.session);
    QCOMPARE(dumped(echoed.body["result"]["content"][0]["text"]), QStringLiteral("\"hi\""));
    // A change that leaves tools/list as it was sends nothing (the end below finds no
    // other event); removing the tool again sends one.
    json manifest = servedManifest(dir.path());
    manifest["name"] = "served again";
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(manifest.dump(1))));
    QVERIFY2(serverSaid(server, "toolstudio.json changed; the tools served are the same"), server.err.constData());
    manifest["tools"].erase(manifest["tools"].size() - 1);
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(manifest.dump(1))));
    QVERIFY2(serverSaid(server, "serving 4 tool(s) from now on"), server.err.constData());
    QCOMPARE(stream.nextEvent(), ListChangedEvent);
    // A session opened after the change serves the tools as they are.
    const McpHttpReply second = mcpHttp(server.port, "POST", InitializeBody);
    const McpHttpReply secondList
        = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", second.session);
    QCOMPARE(secondList.body["result"]["tools"].size(), std::size_t(4));
    // DELETE ends the session and its stream: the reply ends with its last chunk.
    QCOMPARE(mcpHttp(server.port, "DELETE", {}, init.session).status, 204);
    QVERIFY(stream.waitForEnd());
    QCOMPARE(stream.nextEvent(), QByteArray());
    QVERIFY(server.logged("GET /mcp 200"));
    QCOMPARE(server.stop(), 0);
}

void TestMcpServerListChanges::httpEventStreamRefusals()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    const QString tokenFile = dir.path() + QStringLiteral("/token");
    QVERIFY(writeFile(tokenFile, "0123456789abcdef0123\n"));
    Server server;
    QVERIFY2(server.start(dir.path(), {QStringLiteral("--token-file"), tokenFile}), server.err.constData());
    const QString bearer = QStringLiteral("Authorization: Bearer 0123456789abcdef0123");
    const QByteArray bearerLine = bearer.toUtf8() + "\r\n";
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody, {}, {bearer});
    QCOMPARE(init.status, 200);
    // The token, Host and Origin are checked as for every route.
    EventStream noToken;
    QCOMPARE(noToken.open(server.port, init.session), 401);
    EventStream wrongToken;
    QCOMPARE(wrongToken.open(server.port, init.session, "Authorization: Bearer 0123456789abcdef0124\r\n"), 401);
    EventStream foreign;
    QCOMPARE(foreign.open(server.port, init.session, bearerLine + "Origin: http://evil.example\r\n"), 403);
    // HTTP/1.0 has no chunked replies (attack28 F5: the chunk sizes came inside the
    // events) and HEAD no body: refused, and the session's stream is free again.
    for (const QByteArray &line : {QByteArray("GET /mcp HTTP/1.0"), QByteArray("HEAD /mcp HTTP/1.1")}) {
        QTcpSocket old;
        old.connectToHost(QStringLiteral("127.0.0.1"), quint16(server.port));
        QVERIFY(old.waitForConnected(30000));
        old.write(line + "\r\nHost: 127.0.0.1:" + QByteArray::number(server.port)
                  + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + init.session.toUtf8() + "\r\n" + bearerLine
                  + "\r\n");
        QByteArray reply;
        while (old.waitForReadyRead(30000))
            reply += old.readAll();
        QVERIFY2(!reply.contains("Transfer-Encoding"), reply.constData());
        if (line.startsWith("GET")) {
            QVERIFY2(reply.startsWith("HTTP/1.1 505 "), reply.constData());
            QVERIFY2(reply.contains("{\"error\":{\"code\":\"http_version_not_supported\",\"message\":\"an event "
                                    "stream (server-sent events) is sent chunked, which HTTP/1.0 does not have: send "
                                    "the request as HTTP/1.1\"}}"),
                     reply.constData());
        } else {
            QVERIFY2(reply.startsWith("HTTP/1.1 405 "), reply.constData());
        }
    }
    {
        EventStream after;
        QCOMPARE(after.openOnceFree(server.port, init.session, bearerLine), 200);
    }
    // Without Accept: text/event-stream: 406 saying what to send.
    const McpHttpReply noAccept
        = mcpHttp(server.port, "GET", {}, init.session, {bearer, QStringLiteral("Accept: application/json")});
    QCOMPARE(noAccept.status, 406);
    QCOMPARE(dumped(noAccept.body["error"]),
             QStringLiteral("{\"code\":-32000,\"message\":\"Not Acceptable: GET /mcp answers with server-sent "
                            "events: send the header 'Accept: text/event-stream'\"}"));
    // No session, or a 2026-07-28 request: 405 (that era has no GET stream).
    const McpHttpReply noSession = mcpHttp(server.port, "GET", {}, {}, {bearer});
    QCOMPARE(noSession.status, 405);
    QCOMPARE(dumped(noSession.body["error"]["code"]), QStringLiteral("\"method_not_allowed\""));
    QVERIFY(noSession.body["error"]["message"].get<std::string>().find(
                "its change notifications come on the response to a POST of subscriptions/listen")
            != std::string::npos);
    QCOMPARE(mcpHttp(server.port, "GET", {}, init.session, {bearer, QStringLiteral("MCP-Protocol-Version: 2026-07-28")})
                 .status,
             405);
    // A 2025 client without its session id: 400 as for POST; an unknown one: 404.
    const McpHttpReply noId
        = mcpHttp(server.port, "GET", {}, {}, {bearer, QStringLiteral("MCP-Protocol-Version: 2025-11-25")});
    QCOMPARE(noId.status, 400);
    QVERIFY(noId.body["error"]["message"].get<std::string>().rfind("no Mcp-Session-Id header", 0) == 0);
    const McpHttpReply unknown = mcpHttp(server.port, "GET", {}, QStringLiteral("AAAAnotasession"), {bearer});
    QCOMPARE(unknown.status, 404);
    QCOMPARE(dumped(unknown.body["error"]["message"]),
             QStringLiteral("\"no MCP session 'AAAAnotasession' on this server (ended, or never opened): initialize "
                            "a new one\""));
    // One stream per session: a second is 409 while the first is open (`after`, just
    // closed, may not be seen gone yet).
    EventStream first;
    QCOMPARE(
        first.openOnceFree(server.port, init.session, bearerLine + "Last-Event-ID: " + QByteArray(4000, 'x') + "\r\n"),
        200);
    const McpHttpReply conflict = mcpHttp(server.port, "GET", {}, init.session, {bearer});
    QCOMPARE(conflict.status, 409);
    QCOMPARE(dumped(conflict.body["error"]),
             QStringLiteral("{\"code\":-32000,\"message\":\"Conflict: this session has its GET /mcp stream open "
                            "already (one per session); close it before opening another\"}"));
    // At most 8 streams over the server: the ninth session's GET is 503.
    std::vector<std::unique_ptr<EventStream>> streams;
    for (int i = 1; i < 8; ++i) {
        const McpHttpReply other = mcpHttp(server.port, "POST", InitializeBody, {}, {bearer});
        streams.push_back(std::make_unique<EventStream>());
        QCOMPARE(streams.back()->open(server.port, other.session, bearerLine), 200);
    }
    const McpHttpReply ninth = mcpHttp(server.port, "POST", InitializeBody, {}, {bearer});
    const McpHttpReply full = mcpHttp(server.port, "GET", {}, ninth.session, {bearer});
    QCOMPARE(full.status, 503);
    QCOMPARE(dumped(full.body["error"]["message"]),
             QStringLiteral("\"8 event streams (GET /mcp, subscriptions/listen) are open, the most this server "
                            "holds at once (each holds one of its threads); GET /mcp was not opened: retry later, or "
                            "list the tools again instead of waiting for notifications/tools/list_changed\""));
    // The other routes are still served; a manifest change reaches all eight streams.
    QCOMPARE(mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", ninth.session, {bearer})
                 .body["result"]["tools"]
                 .size(),
             std::size_t(4));
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    QCOMPARE(first.nextEvent(), ListChangedEvent);
    for (const auto &stream : streams)
        QCOMPARE(stream->nextEvent(), ListChangedEvent);
    // Once one ends (its session deleted), the ninth session's stream opens.
    QCOMPARE(mcpHttp(server.port, "DELETE", {}, init.session, {bearer}).status, 204);
    QVERIFY(first.waitForEnd());
    // (It counts until its HTTP thread is done with it, a moment after the client saw the end.)
    std::unique_ptr<EventStream> ninthStream;
    QElapsedTimer clock;
    clock.start();
    do
        ninthStream = std::make_unique<EventStream>();
    while (ninthStream->open(server.port, ninth.session, bearerLine) == 503 && clock.elapsed() < 30000);
    QCOMPARE(ninthStream->status, 200);
    QCOMPARE(server.stop(), 0);
}

void TestMcpServerListChanges::httpEventStreamEnds()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    // A client that leaves mid-stream: the server notices (it looks twice a second) and
    // the session may open its stream again.
    {
        EventStream left;
        QCOMPARE(left.open(server.port, init.session), 200);
        left.socket.abort();
    }
    EventStream again;
    QCOMPARE(again.openOnceFree(server.port, init.session), 200);
    QVERIFY(server.logged("GET /mcp 200")); // the one that left, logged as it ended
    // A client that never reads: the stream stays open, the server goes on serving.
    const McpHttpReply other = mcpHttp(server.port, "POST", InitializeBody);
    EventStream unread;
    QCOMPARE(unread.open(server.port, other.session), 200);
    QCOMPARE(mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"ping"})", other.session).status, 200);
    // The server stops (SIGTERM) with streams open: each ends with its last chunk and
    // the server exits as usual.
    QCOMPARE(server.stop(), 0);
    QVERIFY(server.out.contains("stopped serving"));
    QVERIFY(again.waitForEnd());
    QVERIFY(unread.waitForEnd());
}

QTEST_GUILESS_MAIN(TestMcpServerListChanges)
#include "tst_mcpserverlistchanges.moc"
