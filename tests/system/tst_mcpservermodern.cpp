// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The studio's MCP server in the 2026-07-28 revision (no initialize: each request says
// its revision in _meta), over stdio and over HTTP (stateless, the routing headers
// checked against the body), beside a 2025 client on the same server; a client's run
// ending when it is idle but not while a call waits for a person; a client that cancels
// by closing its response stream.

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "mcprequests.h"
#include "servedproject.h"
#include "servedruns.h"
#include "serverprocess.h"
#include "stdioserver.h"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

const QString ServerInfo26
    = QStringLiteral("{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"toolstudio\",\"title\":\"Tool Studio: "
                     "served\",\"version\":\"1.0\"}}");
const QString Discovered26 = QStringLiteral(
    "{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"toolstudio\",\"title\":\"Tool "
    "Studio: served\",\"version\":\"1.0\"}},\"cacheScope\":\"public\",\"capabilities\":{\"tools\":{"
    "\"listChanged\":true}},\"instructions\":\"The tools of the Tool Studio project 'served'. Each call is "
    "recorded as a step of a run; a manual tool waits for a person.\",\"resultType\":\"complete\","
    "\"serverInfo\":{\"name\":\"toolstudio\",\"title\":\"Tool Studio: served\",\"version\":\"1.0\"},"
    "\"supportedVersions\":[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"],\"ttlMs\":300000}");
const QString Added26
    = QStringLiteral("{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"toolstudio\",\"title\":\"Tool "
                     "Studio: served\",\"version\":\"1.0\"}},\"content\":[{\"text\":\"{\\\"sum\\\":5}\",\"type\":"
                     "\"text\"}],\"isError\":false,\"resultType\":\"complete\",\"structuredContent\":{\"sum\":5}}");
const QString NoMeta26
    = QStringLiteral("{\"code\":-32602,\"message\":\"the request has no _meta with "
                     "\\\"io.modelcontextprotocol/protocolVersion\\\": without initialize, send _meta "
                     "{\\\"io.modelcontextprotocol/protocolVersion\\\": \\\"2026-07-28\\\", "
                     "\\\"io.modelcontextprotocol/clientCapabilities\\\": {}} with every request\"}");
const QString Unsupported26 = QStringLiteral(
    "{\"code\":-32022,\"data\":{\"requested\":\"1999-01-01\",\"supported\":[\"2026-07-28\","
    "\"2025-11-25\",\"2025-06-18\"]},\"message\":\"Unsupported protocol version '1999-01-01': this server "
    "supports 2026-07-28, 2025-11-25 and 2025-06-18 (2026-07-28 in each request's _meta; the 2025 revisions "
    "after initialize)\"}");

} // namespace

class TestMcpServerModern : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void httpModernClientClosesItsStream();
    void stdioModernEra();
    void httpModernEra();
    void httpModernIdleRunEnds();
    void httpModernCallWaitingForAPersonIsNotIdleness();
};

// Over HTTP in 2026-07-28 a client cancels by closing the response stream ("The server
// MUST treat a client disconnect as cancellation of that request").
void TestMcpServerModern::httpModernClientClosesItsStream()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    // Two processes of one client, each calling with request id 7 (each POST is an
    // exchange of its own in 2026-07-28).
    auto startCall = [&](QProcess &client, const char *item) {
        QStringList arguments{QStringLiteral("-s"), QStringLiteral("-m"), QStringLiteral("120"), QStringLiteral("-H"),
                              QStringLiteral("Content-Type: application/json")};
        for (const QString &header : modernHeaders("tools/call", QStringLiteral("approve")))
            arguments << QStringLiteral("-H") << header;
        arguments << QStringLiteral("-d")
                  << QString::fromStdString(
                         modern(7, "tools/call", {{"name", "approve"}, {"arguments", {{"item", item}}}}).dump())
                  << server.url("/mcp");
        client.start(QStringLiteral("curl"), arguments);
        return client.waitForStarted();
    };
    QProcess first;
    QProcess second;
    QVERIFY(startCall(first, "x"));
    QCOMPARE(dumped(waitForStep(dir.path(), "waiting", 0)["steps"][0]["status"]), QStringLiteral("\"waiting\""));
    QVERIFY(startCall(second, "y"));
    QCOMPARE(dumped(waitForStep(dir.path(), "waiting", 1)["steps"][1]["status"]), QStringLiteral("\"waiting\""));
    second.kill(); // the connection closes with the process
    second.waitForFinished(10000);
    const json exported = waitForStep(dir.path(), "cancelled", 1);
    QCOMPARE(dumped(exported["steps"][1]["status"]), QStringLiteral("\"cancelled\""));
    QCOMPARE(dumped(exported["steps"][1]["error"]["message"]),
             QStringLiteral("\"the client closed the connection before the reply\""));
    // The other process's call with the same id still waits.
    QCOMPARE(dumped(exported["steps"][0]["status"]), QStringLiteral("\"waiting\""));
    first.kill();
    first.waitForFinished(10000);
    QCOMPARE(dumped(waitForStep(dir.path(), "cancelled", 0)["steps"][0]["status"]), QStringLiteral("\"cancelled\""));
    // The server goes on: the same client's next call is served.
    const McpHttpReply added
        = mcpHttp(server.port, "POST",
                  QByteArray::fromStdString(
                      modern(8, "tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}}).dump()),
                  {}, modernHeaders("tools/call", QStringLiteral("add")));
    QCOMPARE(added.status, 200);
    QCOMPARE(dumped(added.body["result"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
}

void TestMcpServerModern::stdioModernEra()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    // No initialize: each request says its revision in _meta.
    const json discovered = server.request(modern("d-1", "server/discover"));
    QCOMPARE(dumped(discovered["id"]), QStringLiteral("\"d-1\""));
    QCOMPARE(dumped(discovered["result"]), Discovered26);
    const json list = server.request(modern(2, "tools/list"));
    QCOMPARE(dumped(list["result"]["resultType"]), QStringLiteral("\"complete\""));
    QCOMPARE(dumped(list["result"]["ttlMs"]), QStringLiteral("300000"));
    QCOMPARE(dumped(list["result"]["cacheScope"]), QStringLiteral("\"public\""));
    QCOMPARE(dumped(list["result"]["_meta"]), ServerInfo26);
    QCOMPARE(list["result"]["tools"].size(), std::size_t(4));
    QCOMPARE(dumped(list["result"]["tools"][0]["name"]), QStringLiteral("\"add\""));
    const json added = server.request(modern(3, "tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}}));
    QCOMPARE(dumped(added["result"]), Added26);
    // Without _meta and without initialize: neither era's request (-32600), both named.
    const json bare = server.request({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/list"}});
    QCOMPARE(dumped(bare["error"]),
             QStringLiteral("{\"code\":-32600,\"message\":\"the session is not initialized: send initialize "
                            "first (2025-11-25, 2025-06-18), or send _meta with "
                            "\\\"io.modelcontextprotocol/protocolVersion\\\": \\\"2026-07-28\\\" with every "
                            "request (2026-07-28)\"}"));
    // server/discover without _meta, and a _meta without the version: -32602 saying what to send.
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "server/discover"}})["error"]), NoMeta26);
    const json noVersion = server.request(
        {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/list"}, {"params", {{"_meta", {{"progressToken", 1}}}}}});
    QCOMPARE(dumped(noVersion["error"]),
             QStringLiteral("{\"code\":-32602,\"message\":\"the request's _meta has no string "
                            "\\\"io.modelcontextprotocol/protocolVersion\\\": without initialize, send _meta "
                            "{\\\"io.modelcontextprotocol/protocolVersion\\\": \\\"2026-07-28\\\", "
                            "\\\"io.modelcontextprotocol/clientCapabilities\\\": {}} with every request\"}"));
    // A revision not served: -32022 with the versions supported.
    json old = modern(5, "tools/list");
    old["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "1999-01-01";
    QCOMPARE(dumped(server.request(old)["error"]), Unsupported26);
    // No clientCapabilities: -32602.
    json noCapabilities = modern(6, "tools/list");
    noCapabilities["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
    QCOMPARE(dumped(server.request(noCapabilities)["error"]),
             QStringLiteral("{\"code\":-32602,\"message\":\"the request's _meta has no object "
                            "\\\"io.modelcontextprotocol/clientCapabilities\\\" (required with 2026-07-28; {} "
                            "declares none)\"}"));
    // A _meta over 64 KiB: -32602, nothing read.
    json big = modern(7, "tools/list");
    big["params"]["_meta"]["com.example/pad"] = std::string(70000, 'x');
    QCOMPARE(dumped(server.request(big)["error"]["message"]),
             QStringLiteral("\"the request's _meta is 70191 bytes, over the limit of 65536 bytes\""));
    // ping is gone in 2026-07-28.
    QCOMPARE(dumped(server.request(modern(8, "ping"))["error"]),
             QStringLiteral("{\"code\":-32601,\"message\":\"method 'ping' is not served in 2026-07-28; this "
                            "server has server/discover, tools/list, tools/call and subscriptions/listen\"}"));
    // The same process still takes a 2025 client: initialize, then requests without _meta.
    const json init = server.initialize("2025-11-25");
    QCOMPARE(dumped(init["result"]["protocolVersion"]), QStringLiteral("\"2025-11-25\""));
    const json legacy = server.request(call(9, "add", {{"a", 2}, {"b", 3}}));
    QVERIFY(!legacy["result"].contains("resultType"));
    QCOMPARE(dumped(legacy["result"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    QCOMPARE(server.close(), 0);
    const json all = runs(dir.path());
    QCOMPARE(dumped(all[0]["steps"]), QStringLiteral("2"));
    QCOMPARE(dumped(all[0]["script"]), QStringLiteral("\"(MCP stdio: c26)\""));
}

void TestMcpServerModern::httpModernEra()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const auto post = [&server](const json &message, const QStringList &headers) {
        return mcpHttp(server.port, "POST", QByteArray::fromStdString(message.dump()), {}, headers);
    };
    const McpHttpReply discovered = post(modern(1, "server/discover"), modernHeaders("server/discover"));
    QCOMPARE(discovered.status, 200);
    QCOMPARE(discovered.session, QString()); // stateless: no Mcp-Session-Id
    QCOMPARE(dumped(discovered.body["result"]), Discovered26);
    const McpHttpReply list = post(modern(2, "tools/list"), modernHeaders("tools/list"));
    QCOMPARE(list.status, 200);
    QCOMPARE(dumped(list.body["result"]["ttlMs"]), QStringLiteral("300000"));
    QCOMPARE(dumped(list.body["result"]["cacheScope"]), QStringLiteral("\"public\""));
    QCOMPARE(list.body["result"]["tools"].size(), std::size_t(4));
    const json add = modern(3, "tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}});
    const McpHttpReply added = post(add, modernHeaders("tools/call", QStringLiteral("add")));
    QCOMPARE(added.status, 200);
    QCOMPARE(added.session, QString());
    QCOMPARE(dumped(added.body["result"]), Added26);
    // Mcp-Name in the Base64 form ("add").
    QCOMPARE(post(add, modernHeaders("tools/call", QStringLiteral("=?base64?YWRk?="))).status, 200);
    // Routing headers that do not match the body: 400, -32020, nothing run.
    const McpHttpReply otherName = post(add, modernHeaders("tools/call", QStringLiteral("approve")));
    QCOMPARE(otherName.status, 400);
    QCOMPARE(dumped(otherName.body),
             QStringLiteral("{\"error\":{\"code\":-32020,\"message\":\"Header mismatch: Mcp-Name header value "
                            "'approve' does not match body value 'add'\"},\"id\":3,\"jsonrpc\":\"2.0\"}"));
    const McpHttpReply noName = post(add, modernHeaders("tools/call"));
    QCOMPARE(noName.status, 400);
    QCOMPARE(dumped(noName.body["error"]),
             QStringLiteral("{\"code\":-32020,\"message\":\"Header mismatch: the Mcp-Name header is missing; it "
                            "must be 'add' as in the request body\"}"));
    const McpHttpReply otherMethod = post(modern(4, "tools/list"), modernHeaders("tools/call"));
    QCOMPARE(otherMethod.status, 400);
    QCOMPARE(dumped(otherMethod.body["error"]["message"]),
             QStringLiteral("\"Header mismatch: Mcp-Method header value 'tools/call' does not match body value "
                            "'tools/list'\""));
    const McpHttpReply noVersionHeader = post(modern(5, "tools/list"), {QStringLiteral("Mcp-Method: tools/list")});
    QCOMPARE(noVersionHeader.status, 400);
    QCOMPARE(dumped(noVersionHeader.body["error"]["message"]),
             QStringLiteral("\"Header mismatch: the MCP-Protocol-Version header is missing; it must be '2026-07-28' "
                            "as in the request body\""));
    // The 2026 header without _meta: 400, -32602.
    const McpHttpReply noMeta
        = post({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "tools/list"}}, modernHeaders("tools/list"));
    QCOMPARE(noMeta.status, 400);
    QCOMPARE(dumped(noMeta.body["error"]), NoMeta26);
    // A revision not served, in the header: 400, -32022.
    const McpHttpReply oldHeader
        = post(modern(7, "tools/list"),
               {QStringLiteral("MCP-Protocol-Version: 1999-01-01"), QStringLiteral("Mcp-Method: tools/list")});
    QCOMPARE(oldHeader.status, 400);
    QCOMPARE(dumped(oldHeader.body["error"]), Unsupported26);
    // A method not served: 404, -32601.
    const McpHttpReply unknown = post(modern(8, "prompts/list"), modernHeaders("prompts/list"));
    QCOMPARE(unknown.status, 404);
    QCOMPARE(dumped(unknown.body["error"]["code"]), QStringLiteral("-32601"));
    // A 2025 client on the same server, at the same time.
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(init.status, 200);
    QVERIFY(init.session.size() >= 32);
    const McpHttpReply legacy
        = mcpHttp(server.port, "POST",
                  R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}})",
                  init.session);
    QCOMPARE(legacy.status, 200);
    QVERIFY(!legacy.body["result"].contains("resultType"));
    QCOMPARE(dumped(legacy.body["result"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    QCOMPARE(mcpHttp(server.port, "DELETE", {}, init.session).status, 204);
    // The 2026 calls (two ran) are steps of the run of client c26.
    server.stop();
    bool found = false;
    for (const json &run : runs(dir.path()))
        if (run["script"] == "(MCP http: c26)") {
            found = true;
            QCOMPARE(dumped(run["steps"]), QStringLiteral("2"));
        }
    QVERIFY(found);
}

// A 2026 client's run ends after --session-expiry without a request (and no call
// running); its next call starts a new run with max_calls afresh.
void TestMcpServerModern::httpModernIdleRunEnds()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path(), {QStringLiteral("--session-expiry"), QStringLiteral("4")}),
             server.err.constData());
    auto add = [&](int id) {
        return mcpHttp(server.port, "POST",
                       QByteArray::fromStdString(
                           modern(id, "tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}}).dump()),
                       {}, modernHeaders("tools/call", QStringLiteral("add")));
    };
    QCOMPARE(add(1).status, 200);
    QCOMPARE(add(2).status, 200); // within the 4 s: the same run
    QCOMPARE(runs(dir.path()).size(), std::size_t(1));
    QTest::qWait(4500);
    QCOMPARE(add(3).status, 200);
    const json all = runs(dir.path());
    QVERIFY2(all.size() == 2, all.dump().c_str());
    // The first run (2 steps) ended; the second (1 step) goes on, under the same name.
    const json &first = all[0]["steps"] == 2 ? all[0] : all[1];
    const json &second = all[0]["steps"] == 2 ? all[1] : all[0];
    QCOMPARE(dumped(first["steps"]), QStringLiteral("2"));
    QCOMPARE(dumped(first["status"]), QStringLiteral("\"completed\""));
    QCOMPARE(dumped(second["steps"]), QStringLiteral("1"));
    QCOMPARE(dumped(second["status"]), QStringLiteral("\"running\""));
    QCOMPARE(dumped(first["script"]), QStringLiteral("\"(MCP http: c26)\""));
    QCOMPARE(dumped(second["script"]), QStringLiteral("\"(MCP http: c26)\""));
}

void TestMcpServerModern::httpModernCallWaitingForAPersonIsNotIdleness()
{
    // A call that waits for a person longer than the expiry is not idleness: the reply
    // counts as use, so the client's next call goes on in the same run (attack26 F5).
    // The waiting call is sent right after the first: nothing slow (a sanitizer's
    // start of `toolstudio runs`) may come between them and outlast the 4 s.
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path(), {QStringLiteral("--session-expiry"), QStringLiteral("4")}),
             server.err.constData());
    auto add = [&](int id) {
        return mcpHttp(server.port, "POST",
                       QByteArray::fromStdString(
                           modern(id, "tools/call", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}}).dump()),
                       {}, modernHeaders("tools/call", QStringLiteral("add")));
    };
    QCOMPARE(add(3).status, 200);
    QProcess waiting;
    QStringList curl{QStringLiteral("-s"), QStringLiteral("-H"), QStringLiteral("Content-Type: application/json"),
                     QStringLiteral("-H"), QStringLiteral("Accept: application/json, text/event-stream")};
    for (const QString &header : modernHeaders("tools/call", QStringLiteral("approve")))
        curl << QStringLiteral("-H") << header;
    curl << QStringLiteral("-d")
         << QString::fromStdString(
                modern(4, "tools/call", {{"name", "approve"}, {"arguments", {{"item", "x"}}}}).dump())
         << server.url("/mcp");
    waiting.start(QStringLiteral("curl"), curl);
    QVERIFY(waiting.waitForStarted());
    QString runId; // the client's run, once the call is its step 2
    QElapsedTimer clock;
    clock.start();
    while (runId.isEmpty() && clock.elapsed() < 30000) {
        for (const json &run : runs(dir.path()))
            if (run.value("status", "") != "completed" && run.value("steps", 0) == 2)
                runId = text(run["id"]);
        QTest::qWait(100);
    }
    QVERIFY2(!runId.isEmpty(), runs(dir.path()).dump().c_str());
    const QString callId = text(exportedRun(dir.path(), runId)["steps"][1]["call_id"]);
    QTest::qWait(4500);
    const CommandResult answered = toolstudio({QStringLiteral("answer"), dir.path(), runId, callId,
                                               QStringLiteral("--result"), QStringLiteral("\"approved\"")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    QVERIFY(waiting.waitForFinished(30000));
    QVERIFY2(waiting.readAllStandardOutput().contains("approved"), "the waiting call got no answer");
    QCOMPARE(add(5).status, 200);
    const json after = runs(dir.path());
    QVERIFY2(after.size() == 1, after.dump().c_str());
    QCOMPARE(dumped(after[0]["steps"]), QStringLiteral("3"));
    QCOMPARE(dumped(after[0]["status"]), QStringLiteral("\"running\""));
}

QTEST_GUILESS_MAIN(TestMcpServerModern)
#include "tst_mcpservermodern.moc"
