// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `subscriptions/listen` of the studio as an MCP server (2026-07-28,
// basic/patterns/subscriptions): over `toolstudio serve --mcp-stdio` (one channel, the
// subscription id in every message's _meta, notifications/cancelled ends one) and over
// `POST /mcp` (a response stream of server-sent events per subscription, read as it
// comes; the client closing it ends it; the server's stop ends it with its closing
// result) — its acknowledgment, the filter kept, the bad filters, the caps.

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include "eventstream.h"
#include "mcprequests.h"
#include "servedproject.h"
#include "serverprocess.h"
#include "stdioserver.h"
#include "testfiles.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using nlohmann::json;

namespace {

json listenRequest(const json &id, const json &filter)
{
    return modern(id, "subscriptions/listen", {{"notifications", filter}});
}

QString acknowledged(const QString &id, const QString &filter)
{
    return QStringLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{"
                          "\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%1},\"notifications\":%2}}")
        .arg(id, filter);
}

QString toolsChanged(const QString &id)
{
    return QStringLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{\"_meta\":{"
                          "\"io.modelcontextprotocol/subscriptionId\":%1}}}")
        .arg(id);
}

/// The closing result of subscription `id` (the server ended it).
QString closed(const QString &id)
{
    return QStringLiteral(
               "{\"id\":%1,\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{"
               "\"name\":\"toolstudio\",\"title\":\"Tool Studio: served\",\"version\":\"1.0\"},"
               "\"io.modelcontextprotocol/subscriptionId\":%1},\"resultType\":\"complete\"}}")
        .arg(id);
}

/// The headers of a 2026-era subscriptions/listen POST, for EventStream::post.
QByteArray listenHeaders()
{
    QByteArray headers = "Accept: application/json, text/event-stream\r\n";
    for (const QString &header : modernHeaders("subscriptions/listen"))
        headers += header.toUtf8() + "\r\n";
    return headers;
}

/// An event's data line: "event: message\ndata: X" → X.
QString dataOf(const QByteArray &event)
{
    const qsizetype at = event.indexOf("data: ");
    return at < 0 ? QString::fromUtf8(event) : dumped(json::parse(event.mid(at + 6).toStdString(), nullptr, false));
}

} // namespace

class TestMcpSubscriptions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stdioSubscriptions();
    void stdioBadFiltersAndCap();
    void httpSubscriptions();
    void httpSubscribersThatDoNotReadDoNotHoldTheStop();
    void httpStreamCapAndClientGone();
};

void TestMcpSubscriptions::stdioSubscriptions()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    // server/discover says change notifications are served (on subscriptions/listen).
    QCOMPARE(dumped(server.request(modern(1, "server/discover"))["result"]["capabilities"]["tools"]),
             QStringLiteral("{\"listChanged\":true}"));

    // Acknowledged at once with what is served of the filter: tools; prompts and
    // resources are not served by this server, so left out.
    server.send(QByteArray::fromStdString(listenRequest("listen-1",
                                                        {{"toolsListChanged", true},
                                                         {"promptsListChanged", true},
                                                         {"resourceSubscriptions", {"file:///project/config.json"}}})
                                              .dump()));
    QCOMPARE(dumped(server.next()),
             acknowledged(QStringLiteral("\"listen-1\""), QStringLiteral("{\"toolsListChanged\":true}")));
    // A second one asking for nothing served: acknowledged with an empty filter.
    server.send(QByteArray::fromStdString(listenRequest(7, {{"resourcesListChanged", true}}).dump()));
    QCOMPARE(dumped(server.next()), acknowledged(QStringLiteral("7"), QStringLiteral("{}")));
    // Its id is in use while it is open.
    QCOMPARE(dumped(server.request(
                 modern("listen-1", "tools/call", {{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}}))["error"]),
             QStringLiteral("{\"code\":-32600,\"message\":\"request id \\\"listen-1\\\" is in use by a subscription "
                            "still open\"}"));
    // Every request's, not only a call's (attack29 F3: tools/list was answered, and the
    // subscription's closing result would have been a second reply with that id).
    QCOMPARE(dumped(server.request(modern("listen-1", "tools/list"))["error"]["message"]),
             QStringLiteral("\"request id \\\"listen-1\\\" is in use by a subscription still open\""));

    // A tool added: the subscription that asked hears of it, with its id; the other does
    // not (the next line is the reply to the next request).
    const json manifest = servedManifest(dir.path());
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(manifest).dump(1))));
    QCOMPARE(dumped(server.next()), toolsChanged(QStringLiteral("\"listen-1\"")));
    QVERIFY2(server.said("toolstudio.json changed: serving 5 tool(s) from now on"), server.err.constData());
    QCOMPARE(server.request(modern(2, "tools/list"))["result"]["tools"].size(), std::size_t(5));

    // A 2025 session in the same process (initialize) gets its own notification, without
    // _meta; the subscription its own.
    QCOMPARE(dumped(server.initialize("2025-11-25")["result"]["capabilities"]["tools"]),
             QStringLiteral("{\"listChanged\":true}"));
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(manifest.dump(1))));
    QCOMPARE(dumped(server.next()),
             QStringLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
    QCOMPARE(dumped(server.next()), toolsChanged(QStringLiteral("\"listen-1\"")));

    // The client cancels it: no response, and no notification after.
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen-1"}})");
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(manifest).dump(1))));
    QCOMPARE(dumped(server.next()),
             QStringLiteral("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
    QVERIFY2(server.said("toolstudio.json changed: serving 5 tool(s) from now on"), server.err.constData());
    QCOMPARE(dumped(server.request(modern(3, "tools/list"))["id"]), QStringLiteral("3"));
    // Its id is free again.
    server.send(QByteArray::fromStdString(listenRequest("listen-1", json::object()).dump()));
    QCOMPARE(dumped(server.next()), acknowledged(QStringLiteral("\"listen-1\""), QStringLiteral("{}")));

    // The client leaves (stdin ends): the server ends the open subscriptions with their
    // closing result before it exits.
    QCOMPARE(server.close(), 0);
    const QList<QByteArray> rest = server.out.trimmed().split('\n');
    QCOMPARE(rest.size(), 2);
    QStringList endings;
    for (const QByteArray &line : rest)
        endings << dumped(json::parse(line.toStdString(), nullptr, false));
    endings.sort();
    QCOMPARE(endings, QStringList({closed(QStringLiteral("\"listen-1\"")), closed(QStringLiteral("7"))}));
}

void TestMcpSubscriptions::stdioBadFiltersAndCap()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    // The filter is required, an object, its flags booleans, its URIs strings: -32602
    // saying what to send; nothing is opened.
    QCOMPARE(dumped(server.request(modern(1, "subscriptions/listen"))["error"]),
             QStringLiteral("{\"code\":-32602,\"message\":\"subscriptions/listen needs params.notifications, the "
                            "filter of what to hear (e.g. {\\\"toolsListChanged\\\": true})\"}"));
    QCOMPARE(dumped(server.request(listenRequest(2, json::array()))["error"]["message"]),
             QStringLiteral("\"subscriptions/listen's params.notifications must be an object (e.g. "
                            "{\\\"toolsListChanged\\\": true})\""));
    QCOMPARE(dumped(server.request(listenRequest(3, {{"toolsListChanged", "yes"}}))["error"]["message"]),
             QStringLiteral("\"subscriptions/listen's notifications.toolsListChanged must be true or false\""));
    QCOMPARE(dumped(server.request(listenRequest(4, {{"resourceSubscriptions", {1, 2}}}))["error"]["message"]),
             QStringLiteral("\"subscriptions/listen's notifications.resourceSubscriptions must be an array of URIs "
                            "(strings)\""));
    // Sixteen open at once in a session; the seventeenth is refused.
    for (int id = 10; id < 26; ++id)
        QCOMPARE(dumped(server.request(listenRequest(id, {{"toolsListChanged", true}}))["method"]),
                 QStringLiteral("\"notifications/subscriptions/acknowledged\""));
    QCOMPARE(dumped(server.request(listenRequest(26, {{"toolsListChanged", true}}))["error"]),
             QStringLiteral("{\"code\":-32600,\"message\":\"16 subscriptions are open in this session, the most it "
                            "keeps; cancel one (one subscription can ask for every notification)\"}"));
    // One change: sixteen notifications, one per subscription.
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    for (int id = 10; id < 26; ++id)
        QCOMPARE(dumped(server.next()), toolsChanged(QString::number(id)));
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}})");
    QCOMPARE(dumped(server.request(listenRequest(26, json::object()))["method"]),
             QStringLiteral("\"notifications/subscriptions/acknowledged\""));
}

void TestMcpSubscriptions::httpSubscriptions()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    // The response is a stream of server-sent events that stays open; the acknowledgment first.
    EventStream first;
    QCOMPARE(first.post(server.port,
                        QByteArray::fromStdString(listenRequest("s-1", {{"toolsListChanged", true}}).dump()),
                        listenHeaders()),
             200);
    QVERIFY2(first.head.contains("Content-Type: text/event-stream"), first.head.constData());
    QVERIFY2(first.head.contains("X-Accel-Buffering: no"), first.head.constData());
    QVERIFY2(!first.head.contains("Mcp-Session-Id"), first.head.constData());
    QCOMPARE(dataOf(first.nextEvent()),
             acknowledged(QStringLiteral("\"s-1\""), QStringLiteral("{\"toolsListChanged\":true}")));
    // Another process of the same client may use the same id (over HTTP each request is
    // an exchange of its own).
    EventStream second;
    QCOMPARE(second.post(server.port,
                         QByteArray::fromStdString(listenRequest("s-1", {{"toolsListChanged", true}}).dump()),
                         listenHeaders()),
             200);
    QCOMPARE(dataOf(second.nextEvent()),
             acknowledged(QStringLiteral("\"s-1\""), QStringLiteral("{\"toolsListChanged\":true}")));

    // A bad filter is a plain JSON answer, no stream.
    const McpHttpReply bad
        = mcpHttp(server.port, "POST", QByteArray::fromStdString(listenRequest(2, json::array()).dump()), {},
                  modernHeaders("subscriptions/listen"));
    QCOMPARE(bad.status, 200);
    QCOMPARE(dumped(bad.body["error"]["code"]), QStringLiteral("-32602"));

    // A change reaches both streams.
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    QCOMPARE(dataOf(first.nextEvent()), toolsChanged(QStringLiteral("\"s-1\"")));
    QCOMPARE(dataOf(second.nextEvent()), toolsChanged(QStringLiteral("\"s-1\"")));
    // Requests go on beside them.
    const McpHttpReply list = mcpHttp(server.port, "POST", QByteArray::fromStdString(modern(3, "tools/list").dump()),
                                      {}, modernHeaders("tools/list"));
    QCOMPARE(list.body["result"]["tools"].size(), std::size_t(5));

    // The server stops (SIGTERM): each subscription gets its closing result, then the
    // stream ends properly.
    QCOMPARE(server.stop(), 0);
    QCOMPARE(dataOf(first.nextEvent()), closed(QStringLiteral("\"s-1\"")));
    QVERIFY(first.waitForEnd());
    QCOMPARE(dataOf(second.nextEvent()), closed(QStringLiteral("\"s-1\"")));
    QVERIFY(second.waitForEnd());
}

void TestMcpSubscriptions::httpSubscribersThatDoNotReadDoNotHoldTheStop()
{
    // Three subscribers that never read, each with a 900 KB id that its acknowledgment
    // repeats (more than the socket takes): SIGTERM still ends the server at once
    // (attack29 F2: each held it the socket's 5 s write timeout, one after another).
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    std::vector<int> sockets;
    for (int i = 0; i < 3; ++i) {
        const QByteArray body = QByteArray::fromStdString(
            listenRequest(std::string(900 * 1024, char('a' + i)), {{"toolsListChanged", true}}).dump());
        QByteArray request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(server.port) + "\r\n"
            + listenHeaders() + "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
            + "\r\n\r\n" + body;
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int small = 4096;
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        sockaddr_in address = {};
        address.sin_family = AF_INET;
        address.sin_port = htons(quint16(server.port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        for (qsizetype sent = 0; sent < request.size();) {
            const ssize_t n = ::send(fd, request.constData() + sent, std::size_t(request.size() - sent), MSG_NOSIGNAL);
            QVERIFY(n > 0);
            sent += n;
        }
        sockets.push_back(fd);
    }
    // All three are open (their acknowledgments wait to be read): a fourth, read, is too.
    EventStream reader;
    QCOMPARE(reader.post(server.port, QByteArray::fromStdString(listenRequest(9, {{"toolsListChanged", true}}).dump()),
                         listenHeaders()),
             200);
    QCOMPARE(dataOf(reader.nextEvent()),
             acknowledged(QStringLiteral("9"), QStringLiteral("{\"toolsListChanged\":true}")));
    server.process.terminate();
    QVERIFY(server.process.waitForFinished(10000));
    QCOMPARE(server.process.exitCode(), 0);
    QCOMPARE(dataOf(reader.nextEvent()), closed(QStringLiteral("9")));
    for (const int fd : sockets)
        ::close(fd);
}

void TestMcpSubscriptions::httpStreamCapAndClientGone()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const QByteArray body = QByteArray::fromStdString(listenRequest(1, {{"toolsListChanged", true}}).dump());
    // Eight event streams at once over the server (a 2025 session's GET stream among them).
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    std::vector<std::unique_ptr<EventStream>> streams;
    streams.push_back(std::make_unique<EventStream>());
    QCOMPARE(streams.back()->open(server.port, init.session), 200);
    for (int i = 0; i < 7; ++i) {
        streams.push_back(std::make_unique<EventStream>());
        QCOMPARE(streams.back()->post(server.port, body, listenHeaders()), 200);
        QCOMPARE(dataOf(streams.back()->nextEvent()),
                 acknowledged(QStringLiteral("1"), QStringLiteral("{\"toolsListChanged\":true}")));
    }
    const McpHttpReply full = mcpHttp(server.port, "POST", body, {}, modernHeaders("subscriptions/listen"));
    QCOMPARE(full.status, 503);
    QCOMPARE(dumped(full.body["error"]["message"]),
             QStringLiteral("\"8 event streams (GET /mcp, subscriptions/listen) are open, the most this server "
                            "holds at once (each holds one of its threads); subscriptions/listen was not opened: "
                            "retry later, or list the tools again instead of waiting for "
                            "notifications/tools/list_changed\""));
    // Nothing was kept of the refused one: a change reaches the seven and the GET stream.
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    QCOMPARE(streams.front()->nextEvent(),
             QByteArray("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"));
    for (std::size_t i = 1; i < streams.size(); ++i)
        QCOMPARE(dataOf(streams[i]->nextEvent()), toolsChanged(QStringLiteral("1")));

    // A client that leaves ends its subscription: its stream is free again.
    streams.back()->leave();
    streams.pop_back();
    std::unique_ptr<EventStream> again;
    QElapsedTimer clock;
    clock.start();
    do
        again = std::make_unique<EventStream>();
    while (again->post(server.port, body, listenHeaders()) == 503 && clock.elapsed() < 30000);
    QCOMPARE(again->status, 200);
    QCOMPARE(dataOf(again->nextEvent()),
             acknowledged(QStringLiteral("1"), QStringLiteral("{\"toolsListChanged\":true}")));
    QCOMPARE(server.stop(), 0);
    QCOMPARE(dataOf(again->nextEvent()), closed(QStringLiteral("1")));
}

QTEST_GUILESS_MAIN(TestMcpSubscriptions)
#include "tst_mcpsubscriptions.moc"
