// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The studio as an MCP server (issue 22 item 3): `toolstudio serve --mcp-stdio` and
// `POST /mcp` on `toolstudio serve`, driven by raw JSON-RPC (the bad inputs: malformed
// JSON, batches, ids of every type, deep JSON, an oversized line, unknown methods and
// tools, a result over 1 MiB, a foreign Origin, a missing token, a client that leaves
// mid-call, two clients on one session), the `GET /mcp` event stream read as it comes
// (its refusals and caps, its end on DELETE, a client leaving, the server stopping) and
// by the official MCP TypeScript SDK 1.x client (TOOLSTUDIO_MCP_SERVERS_DIR, as
// tst_mcphttp finds it) over stdio and HTTP.

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "eventstream.h"
#include "mcprequests.h"
#include "servedproject.h"
#include "serverprocess.h"
#include "stdioserver.h"
#include "testfiles.h"
#include "waitingrun.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using nlohmann::json;

namespace {

/// The project's runs as `toolstudio runs --json` prints them (one per line, newest first).
json runs(const QString &dir)
{
    const CommandResult result = toolstudio({QStringLiteral("runs"), dir, QStringLiteral("--json")});
    json all = json::array();
    for (const QByteArray &line : result.out.split('\n'))
        if (!line.trimmed().isEmpty())
            all.push_back(json::parse(line.toStdString(), nullptr, false));
    return all;
}

/// The run's export (`toolstudio trace export DIR RUN --format json`), null when it fails.
json exportedRun(const QString &dir, const QString &run)
{
    const CommandResult result = toolstudio({QStringLiteral("trace"), QStringLiteral("export"), dir, run,
                                             QStringLiteral("--format"), QStringLiteral("json")});
    return result.exitCode == 0 ? json::parse(result.out.toStdString(), nullptr, false) : json();
}

/// Waits up to 30 s until the newest run's step `index` has `status`; that run's export.
json waitForStep(const QString &dir, const char *status, std::size_t index = 0)
{
    QElapsedTimer clock;
    clock.start();
    json exported;
    while (clock.elapsed() < 30000) {
        const json all = runs(dir);
        if (all.is_array() && !all.empty()) {
            exported = exportedRun(dir, QString::fromStdString(all[0].value("id", std::string())));
            if (exported.is_object() && exported["steps"].size() > index
                && exported["steps"][index]["status"] == status)
                break;
        }
        QTest::qWait(100);
    }
    return exported;
}

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

/// node_modules with the MCP TypeScript SDK 1.x, or empty.
QString sdkModules()
{
    const QString modules = qEnvironmentVariable("TOOLSTUDIO_MCP_SERVERS_DIR") + QStringLiteral("/node_modules");
    if (qEnvironmentVariableIsEmpty("TOOLSTUDIO_MCP_SERVERS_DIR")
        || !QFile::exists(modules + QStringLiteral("/@modelcontextprotocol/sdk/package.json")))
        return {};
    return modules;
}

/// The SDK's Client over `transport` ("stdio" with the project dir, or "http" with the
/// URL): listTools, then callTool add(2, 3); prints {"tools": …, "call": …}.
const char *const SdkClient = R"JS(
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
(async () => {
  const [kind, target, binary] = process.argv.slice(1); // node -e: no script path
  const transport = kind === "stdio"
    ? new StdioClientTransport({ command: binary, args: ["serve", "--mcp-stdio", target, "--trust"],
                                 env: process.env, stderr: "ignore" })
    : new StreamableHTTPClientTransport(new URL(target));
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(transport);
  const tools = await client.listTools();
  const call = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
  const version = client.getServerVersion();
  if (kind !== "stdio") await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify({ tools, call, server: version.name }));
})().catch((e) => { console.log(JSON.stringify({ failed: String(e) })); process.exit(1); });
)JS";

json runSdkClient(const QString &modules, const QString &kind, const QString &target)
{
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("NODE_PATH"), modules);
    node.setProcessEnvironment(env);
    node.start(QStringLiteral("node"),
               {QStringLiteral("-e"), QLatin1String(SdkClient), kind, target, toolstudioBinary()});
    node.waitForFinished(120000);
    const QByteArray out = node.readAllStandardOutput();
    const json result = json::parse(out.trimmed().split('\n').last().toStdString(), nullptr, false);
    if (!result.is_object())
        qWarning("node: %s %s", out.constData(), node.readAllStandardError().constData());
    return result;
}

/// The SDK's Client over Streamable HTTP at the URL, listening for
/// notifications/tools/list_changed: prints {"listening": status of the GET stream the
/// SDK opens after initialize, "listChanged": the capability, "tools": N} once the
/// stream is open, then, once the notification came, {"heard": it, "tools": [names]}
/// (listTools again).
const char *const SdkListener = R"JS(
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ToolListChangedNotificationSchema } = require("@modelcontextprotocol/sdk/types.js");
(async () => {
  const [url] = process.argv.slice(1);
  let opened;
  const listening = new Promise((resolve) => { opened = resolve; });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (init && init.method === "GET") opened(response.status);
      return response;
    },
  });
  const client = new Client({ name: "sdk-listener", version: "1.0.0" });
  let heard;
  const changed = new Promise((resolve) => { heard = resolve; });
  client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => heard(notification));
  await client.connect(transport);
  const before = await client.listTools();
  console.log(JSON.stringify({ listening: await listening,
                               listChanged: client.getServerCapabilities().tools.listChanged,
                               tools: before.tools.length }));
  const notification = await changed;
  const after = await client.listTools();
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify({ heard: notification, tools: after.tools.map((tool) => tool.name) }));
})().catch((e) => { console.log(JSON.stringify({ failed: String(e) })); process.exit(1); });
)JS";

/// The next line of `node`'s stdout as JSON, within 60 s (null when none came).
json nextNodeLine(QProcess &node)
{
    QElapsedTimer clock;
    clock.start();
    while (!node.canReadLine() && clock.elapsed() < 60000 && node.state() == QProcess::Running)
        node.waitForReadyRead(100);
    if (!node.canReadLine()) {
        qWarning("node: %s", node.readAllStandardError().constData());
        return nullptr;
    }
    return json::parse(node.readLine().trimmed().toStdString(), nullptr, false);
}

} // namespace

class TestMcpServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stdioListAndCall();
    void stdioVersionNegotiation();
    void stdioClientNameIsPrintable();
    void stdioBadInput();
    void stdioToolErrors();
    void stdioClientLeavesMidCall();
    void stdioClientNotReading();
    void stdioClientCancelsACall();
    void httpModernClientClosesItsStream();
    void stdioStudioTools();
    void stdioToolListChanges();
    void stdioChangeOfWhatRunsIsNotServed();
    void httpToolListChanges();
    void httpEventStreamRefusals();
    void httpEventStreamEnds();
    void stdioModernEra();
    void httpSessions();
    void httpModernEra();
    void httpModernIdleRunEnds();
    void httpModernCallWaitingForAPersonIsNotIdleness();
    void httpRefusals();
    void httpTwoClientsOneSession();
    void httpRunningCallsCapped();
    void httpStepMode();
    void studioClientOfTheStudiosServer();
    void sdkClientOverStdio();
    void sdkClientOverHttp();
    void sdkClientHearsToolListChanges();
};

void TestMcpServer::stdioListAndCall()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    const json init = server.initialize();
    QCOMPARE(dumped(init["result"]["protocolVersion"]), QStringLiteral("\"2025-06-18\""));
    QCOMPARE(dumped(init["result"]["serverInfo"]["name"]), QStringLiteral("\"toolstudio\""));
    QCOMPARE(dumped(init["result"]["capabilities"]["tools"]), QStringLiteral("{\"listChanged\":true}"));

    const json list = server.request({{"jsonrpc", "2.0"}, {"id", "list-1"}, {"method", "tools/list"}});
    QCOMPARE(dumped(list["id"]), QStringLiteral("\"list-1\""));
    const json &tools = list["result"]["tools"];
    QCOMPARE(tools.size(), std::size_t(4));
    QCOMPARE(dumped(tools[0]["name"]), QStringLiteral("\"add\""));
    QCOMPARE(dumped(tools[0]["inputSchema"]["required"]), QStringLiteral("[\"a\",\"b\"]"));
    QCOMPARE(dumped(tools[0]["outputSchema"]["required"]), QStringLiteral("[\"sum\"]"));
    QVERIFY(!tools[1].contains("outputSchema"));

    const json added = server.request(call(7, "add", {{"a", 2}, {"b", 3}}));
    QCOMPARE(dumped(added),
             QStringLiteral("{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"{\\\"sum\\\":"
                            "5}\",\"type\":\"text\"}],\"isError\":false,\"structuredContent\":{"
                            "\"sum\":5}}}"));
    const json ping = server.request({{"jsonrpc", "2.0"}, {"id", 8}, {"method", "ping"}});
    QCOMPARE(dumped(ping["result"]), QStringLiteral("{}"));
    QCOMPARE(server.close(), 0);
    QVERIFY2(server.out.isEmpty(), server.out.constData()); // stdout: protocol only
    QVERIFY(server.process.readAllStandardError().contains("MCP session ended"));

    // The call is a durable step of a served run.
    const json all = runs(dir.path());
    QVERIFY2(all.is_array() && all.size() == 1, all.dump().c_str());
    QCOMPARE(dumped(all[0]["kind"]), QStringLiteral("\"served\""));
    QCOMPARE(dumped(all[0]["status"]), QStringLiteral("\"completed\""));
    QCOMPARE(dumped(all[0]["steps"]), QStringLiteral("1"));
    QCOMPARE(dumped(all[0]["script"]), QStringLiteral("\"(MCP stdio: tst_mcpserver)\""));
}

void TestMcpServer::stdioVersionNegotiation()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    for (const char *asked : {"2025-11-25", "2024-11-05", "2026-07-28"}) {
        StdioServer server;
        QVERIFY(server.start(dir.path()));
        const json init = server.initialize(asked);
        const std::string expected
            = std::string(asked) == "2024-11-05" || std::string(asked) == "2026-07-28" ? "2025-11-25" : asked;
        QCOMPARE(text(init["result"].value("protocolVersion", "")), text(expected));
        // A second initialize is refused.
        const json again = server.initialize();
        QCOMPARE(dumped(again["error"]["code"]), QStringLiteral("-32600"));
        QCOMPARE(server.close(), 0);
    }
}

// The client names the run; its name is cut at 64 bytes on a UTF-8 boundary and
// printed with its control characters escaped (`toolstudio runs` on a terminal).
void TestMcpServer::stdioClientNameIsPrintable()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    std::string name = "evil\x1b]0;pwned\x07"; // 14 bytes: sets a terminal's title
    for (int i = 0; i < 30; ++i)
        name += "\u00e9"; // 2 bytes each: byte 64 is the middle of the 26th
    server.initialize("2025-06-18", name);
    QCOMPARE(dumped(server.request(call(1, "add", {{"a", 2}, {"b", 3}}))["result"]["structuredContent"]),
             QStringLiteral("{\"sum\":5}"));
    QCOMPARE(server.close(), 0);
    const json all = runs(dir.path());
    QVERIFY2(all.is_array() && all.size() == 1, all.dump().c_str());
    QCOMPARE(text(all[0]["script"]),
             QStringLiteral("(MCP stdio: evil\\u001b]0;pwned\\u0007") + QString(25, QChar(0xe9))
                 + QStringLiteral("\u2026)"));
    const CommandResult listed = toolstudio({QStringLiteral("runs"), dir.path()});
    QVERIFY(!listed.out.contains('\x1b') && !listed.out.contains('\x07'));
    QVERIFY2(listed.out.contains("evil\\u001b]0;pwned"), listed.out.constData());
}

void TestMcpServer::stdioBadInput()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    // Before initialize: only initialize and ping.
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}})["error"]["code"]),
             QStringLiteral("-32600"));
    server.initialize();
    struct Row
    {
        QByteArray line;
        const char *id;
        int code;
    };
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const std::vector<Row> rows = {
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", "null", -32700},
        {"not json at all", "null", -32700},
        {R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", "null", -32600},
        {R"({"jsonrpc":"1.0","id":2,"method":"ping"})", "2", -32600},
        {R"({"jsonrpc":"2.0","id":2.5,"method":"ping"})", "null", -32600},
        {R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})", "null", -32600},
        {R"({"jsonrpc":"2.0","id":"s","method":"resources/list"})", "\"s\"", -32601},
        {R"({"jsonrpc":"2.0","id":-9007199254740993,"method":"nope"})", "-9007199254740993", -32601},
        {R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}})", "3", -32602},
        {R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}})", "4", -32602},
        {R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":[1,2]}})", "5", -32602},
        {R"({"jsonrpc":"2.0","id":6,"method":"tools/list","params":7})", "6", -32600},
        {QByteArray::fromStdString(deep), "null", -32700},
    };
    for (const Row &row : rows) {
        const json reply = (server.send(row.line), server.next());
        QVERIFY2(reply.is_object(), row.line.left(80).constData());
        QCOMPARE(dumped(reply["id"]), QLatin1String(row.id));
        QCOMPARE(dumped(reply["error"]["code"]), QString::number(row.code));
    }
    // A line over 4 MiB is skipped as it comes, and answered; the session goes on.
    server.send(QByteArray(5 << 20, ' ') + "{}");
    const json oversized = server.next();
    QCOMPARE(dumped(oversized["error"]["code"]), QStringLiteral("-32600"));
    QVERIFY(oversized["error"]["message"].get<std::string>().find("over the limit of 4194304 bytes")
            != std::string::npos);
    // A notification gets no answer; the next request does.
    server.send(R"({"jsonrpc":"2.0","method":"notifications/whatever"})");
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "ping"}})),
             QStringLiteral("{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{}}"));
    QCOMPARE(server.close(), 0);
}

void TestMcpServer::stdioToolErrors()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    server.initialize();
    // Arguments the input schema refuses: a tool error the model can read, not a protocol error.
    const json invalid = server.request(call(1, "add", {{"a", "two"}, {"b", 3}}));
    QCOMPARE(dumped(invalid["result"]["isError"]), QStringLiteral("true"));
    QVERIFY2(invalid["result"]["content"][0]["text"].get<std::string>().rfind("invalid_arguments: ", 0) == 0,
             invalid.dump().c_str());
    // A result over the 1 MiB reply cap.
    const json huge = server.request(call(2, "huge", json::object()));
    QCOMPARE(dumped(huge["result"]["isError"]), QStringLiteral("true"));
    QVERIFY2(huge["result"]["content"][0]["text"].get<std::string>().find("reply_too_large") != std::string::npos,
             huge.dump().substr(0, 300).c_str());
    QCOMPARE(server.close(), 0);
    const json all = runs(dir.path());
    QCOMPARE(dumped(all[0]["steps"]), QStringLiteral("2"));
}

void TestMcpServer::stdioClientLeavesMidCall()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    server.initialize();
    json request = call(1, "approve", {{"item", "invoice 7"}});
    request["params"]["_meta"] = {{"progressToken", "p-1"}};
    server.send(QByteArray::fromStdString(request.dump()));
    // The manual call waits for a person; the client gave a progressToken: progress.
    const json progress = server.next();
    QCOMPARE(dumped(progress["method"]), QStringLiteral("\"notifications/progress\""));
    QCOMPARE(dumped(progress["params"]["progressToken"]), QStringLiteral("\"p-1\""));
    QCOMPARE(dumped(progress["params"]["progress"]), QStringLiteral("1"));
    // The client goes away mid-call: the call is cancelled, the run ends cancelled.
    QCOMPARE(server.close(), 0);
    const json all = runs(dir.path());
    QCOMPARE(dumped(all[0]["status"]), QStringLiteral("\"cancelled\""));
    QCOMPARE(dumped(all[0]["kind"]), QStringLiteral("\"served\""));
}

// notifications/cancelled (issue 22): the call's step is cancelled, no response is sent
// for it (the spec: "SHOULD NOT send a response"), the session and its run go on.
void TestMcpServer::stdioClientCancelsACall()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    StdioServer server;
    QVERIFY(server.start(dir.path()));
    server.initialize();
    server.send(QByteArray::fromStdString(call(1, "approve", {{"item", "invoice 7"}}).dump()));
    QCOMPARE(dumped(waitForStep(dir.path(), "waiting")["steps"][0]["status"]), QStringLiteral("\"waiting\""));
    // A cancel of an id not in flight, and one without params, change nothing.
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}})");
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled"})");
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,)"
                R"("reason":"the user pressed Stop"}})");
    // In order: the next reply is the ping's, not the cancelled call's.
    QCOMPARE(dumped(server.request({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}})),
             QStringLiteral("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}"));
    // The id is free again: the call no longer runs.
    const json added = server.request(call(1, "add", {{"a", 2}, {"b", 3}}));
    QCOMPARE(dumped(added["id"]), QStringLiteral("1"));
    QCOMPARE(dumped(added["result"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    QCOMPARE(server.close(), 0);
    QVERIFY2(server.out.isEmpty(), server.out.constData());

    const json all = runs(dir.path());
    QCOMPARE(dumped(all[0]["status"]), QStringLiteral("\"completed\""));
    QCOMPARE(dumped(all[0]["steps"]), QStringLiteral("2"));
    const json exported = exportedRun(dir.path(), text(all[0]["id"]));
    const json &step = exported["steps"][0];
    QCOMPARE(dumped(step["tool"]), QStringLiteral("\"approve\""));
    QCOMPARE(dumped(step["status"]), QStringLiteral("\"cancelled\""));
    QCOMPARE(dumped(step["error"]["code"]), QStringLiteral("\"cancelled\""));
    QCOMPARE(dumped(step["error"]["message"]),
             QStringLiteral("\"the client cancelled the request: the user pressed Stop\""));
    QCOMPARE(dumped(exported["steps"][1]["status"]), QStringLiteral("\"succeeded\""));
    int cancellations = 0;
    for (const json &event : exported["policy_events"])
        if (event["kind"] == "cancelled") {
            ++cancellations;
            QCOMPARE(dumped(event["sequence"]), QStringLiteral("1"));
            QCOMPARE(dumped(event["detail"]["reason"]),
                     QStringLiteral("\"the client cancelled the request: the user pressed Stop\""));
        }
    QCOMPARE(cancellations, 1);
}

// Over HTTP in 2026-07-28 a client cancels by closing the response stream ("The server
// MUST treat a client disconnect as cancellation of that request").
void TestMcpServer::httpModernClientClosesItsStream()
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

// A client that sends and does not read: the replies no longer fit the pipe. A
// blocking write stopped the studio (SIGTERM too: it is taken through a signalfd);
// now the replies wait and later messages are still served.
void TestMcpServer::stdioClientNotReading()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    const QByteArray fifo = QFile::encodeName(dir.path() + QStringLiteral("/stdout.fifo"));
    QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
    const int reader = ::open(fifo.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    QVERIFY(reader >= 0);
    StdioServer server;
    server.process.setStandardOutputFile(QString::fromLocal8Bit(fifo));
    QVERIFY(server.start(dir.path()));
    QByteArray input = InitializeBody + '\n';
    for (int id = 1; id <= 4000; ++id) // ~150 KB of replies, a pipe holds 64 KiB
        input += R"({"jsonrpc":"2.0","id":)" + QByteArray::number(id) + R"(,"method":"ping"}
)";
    input += QByteArray::fromStdString(call(9999, "add", {{"a", 2}, {"b", 3}}).dump()) + '\n';
    server.process.write(input);
    // The call after the pings is served while nobody reads.
    QElapsedTimer clock;
    clock.start();
    json all;
    while (clock.elapsed() < 60000) {
        all = runs(dir.path());
        if (all.is_array() && !all.empty() && all[0].value("steps", 0) == 1)
            break;
        QTest::qWait(200);
    }
    QVERIFY2(all.is_array() && !all.empty(), "no run: the call after the pings was not read");
    QCOMPARE(all[0].value("steps", 0), 1);
    // Every reply is then read, in order, the call's last.
    QByteArray out;
    clock.restart();
    while (!out.contains(R"("id":9999)") && clock.elapsed() < 30000) {
        char buffer[65536];
        const ssize_t got = ::read(reader, buffer, sizeof buffer);
        if (got > 0)
            out.append(buffer, got);
        else
            QTest::qWait(50);
    }
    ::close(reader);
    const QList<QByteArray> lines = out.trimmed().split('\n');
    QCOMPARE(lines.size(), qsizetype(4002));
    QCOMPARE(lines[4000], QByteArray(R"({"jsonrpc":"2.0","id":4000,"result":{}})"));
    QCOMPARE(dumped(json::parse(lines[4001].toStdString())["result"]["structuredContent"]),
             QStringLiteral("{\"sum\":5}"));
}

/// `--studio-tools`: a coding agent lists the runs, finds the call a headless run waits
/// on, answers it (a result the tool's output_schema refuses first, then one it takes),
/// and reads the run back; without the option the tools are not there; a project tool
/// named with their prefix is refused.
void TestMcpServer::stdioStudioTools()
{
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.path() + QStringLiteral("/scripts/main.py"),
                      "from toolstudio import tools\nprint('approved:', tools.approve(item='release'))\n"));
    QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                      "{\"name\": \"agent\", \"default_script\": \"main\", \"scripts\": [{\"name\": \"main\", "
                      "\"path\": \"scripts/main.py\"}], \"tools\": [{\"name\": \"approve\", \"input_schema\": "
                      "{\"type\": \"object\"}, \"output_schema\": {\"type\": \"string\"}, \"handler\": {\"kind\": "
                      "\"manual\"}}]}\n"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path()), run.err.constData());

    StdioServer server;
    QVERIFY(server.start(dir.path(), {QStringLiteral("--studio-tools")}));
    server.initialize();
    const json list = server.request({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}});
    QStringList names;
    for (const json &tool : list["result"]["tools"])
        names << QString::fromStdString(tool.value("name", ""));
    QCOMPARE(
        names,
        QStringList({QStringLiteral("approve"), QStringLiteral("studio.list_runs"), QStringLiteral("studio.get_run"),
                     QStringLiteral("studio.list_pending_calls"), QStringLiteral("studio.answer_call")}));

    const json runs = server.request(call(2, "studio.list_runs", json::object()))["result"];
    QCOMPARE(dumped(runs["isError"]), QStringLiteral("false"));
    QCOMPARE(dumped(runs["structuredContent"]["runs_total"]), QStringLiteral("1"));
    QCOMPARE(QString::fromStdString(runs["structuredContent"]["runs"][0].value("id", "")), run.runId);
    QCOMPARE(dumped(runs["structuredContent"]["runs"][0]["status"]), QStringLiteral("\"waiting\""));

    const json pending
        = server.request(call(3, "studio.list_pending_calls", {{"run", run.runId.toStdString()}}))["result"];
    QCOMPARE(QString::fromStdString(pending["structuredContent"]["pending"][0].value("call_id", "")), run.callId);
    QCOMPARE(dumped(pending["structuredContent"]["pending"][0]["tool"]), QStringLiteral("\"approve\""));

    // A result the tool's output_schema refuses: said, nothing delivered.
    const json refused = server.request(
        call(4, "studio.answer_call",
             {{"run", run.runId.toStdString()}, {"call_id", run.callId.toStdString()}, {"result", 42}}))["result"];
    QCOMPARE(dumped(refused["isError"]), QStringLiteral("true"));
    QVERIFY2(dumped(refused["content"][0]["text"]).contains(QStringLiteral("does not match output_schema")),
             refused.dump().c_str());
    const json accepted = server.request(
        call(5, "studio.answer_call",
             {{"run", run.runId.toStdString()}, {"call_id", run.callId.toStdString()}, {"result", "yes"}}))["result"];
    QCOMPARE(dumped(accepted["structuredContent"]),
             QStringLiteral("{\"attempt\":1,\"call_id\":\"%1\",\"run\":\"%2\",\"status\":\"accepted\"}")
                 .arg(run.callId, run.runId));
    run.finish();
    QCOMPARE(run.process.exitCode(), 0);
    QVERIFY2(run.out.contains("approved: yes"), run.out.constData());

    const json page
        = server.request(call(6, "studio.get_run", {{"run", run.runId.toStdString()}, {"limit", 1}}))["result"];
    QCOMPARE(dumped(page["structuredContent"]["steps_total"]), QStringLiteral("1"));
    QCOMPARE(dumped(page["structuredContent"]["steps"][0]["result"]), QStringLiteral("\"yes\""));
    QCOMPARE(dumped(page["structuredContent"]["run"]["status"]), QStringLiteral("\"completed\""));

    // Bad arguments are refused as tool errors, in words.
    const json noRun = server.request(call(7, "studio.get_run", json::object()))["result"];
    QCOMPARE(dumped(noRun["content"][0]["text"]),
             QStringLiteral("\"studio.get_run needs \\\"run\\\", a run id (studio.list_runs lists them)\""));
    const json both = server.request(call(8, "studio.answer_call",
                                          {{"run", run.runId.toStdString()},
                                           {"call_id", run.callId.toStdString()},
                                           {"result", 1},
                                           {"error", "no"}}))["result"];
    QCOMPARE(dumped(both["isError"]), QStringLiteral("true"));
    const json unknownRun = server.request(call(9, "studio.list_pending_calls", {{"run", "nope"}}))["result"];
    QCOMPARE(dumped(unknownRun["content"][0]["text"]),
             QStringLiteral("\"unknown_run: no run 'nope' in this project\""));
    QCOMPARE(server.close(), 0);

    // Without the option they are unknown tools.
    StdioServer plain;
    QVERIFY(plain.start(dir.path()));
    plain.initialize();
    const json unknown = plain.request(call(1, "studio.list_runs", json::object()));
    QCOMPARE(dumped(unknown["error"]["code"]), QStringLiteral("-32602"));
    QCOMPARE(plain.close(), 0);

    // A project tool with their prefix: not served with them.
    QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                      "{\"name\": \"agent\", \"tools\": [{\"name\": \"studio.mine\", \"handler\": {\"kind\": "
                      "\"manual\"}}]}\n"));
    StdioServer clash;
    QVERIFY(clash.start(dir.path(), {QStringLiteral("--studio-tools")}));
    QCOMPARE(clash.close(), 2);
    QVERIFY(clash.process.readAllStandardError().contains(
        "--studio-tools: the project's tool(s) studio.mine start with \"studio.\""));
}

void TestMcpServer::stdioToolListChanges()
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

void TestMcpServer::stdioChangeOfWhatRunsIsNotServed()
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

const QByteArray ListChangedEvent
    = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

void TestMcpServer::httpToolListChanges()
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

void TestMcpServer::httpEventStreamRefusals()
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

void TestMcpServer::httpEventStreamEnds()
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

void TestMcpServer::stdioModernEra()
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

void TestMcpServer::httpSessions()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(init.status, 200);
    QVERIFY(init.session.size() >= 32);
    QCOMPARE(dumped(init.body["result"]["protocolVersion"]), QStringLiteral("\"2025-11-25\""));
    QCOMPARE(
        mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","method":"notifications/initialized"})", init.session).status,
        202);
    const McpHttpReply list
        = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", init.session);
    QCOMPARE(list.status, 200);
    QCOMPARE(list.body["result"]["tools"].size(), std::size_t(4));
    const McpHttpReply added
        = mcpHttp(server.port, "POST",
                  R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}})",
                  init.session);
    QCOMPARE(dumped(added.body["result"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    // Malformed JSON in a session: 400 with the JSON-RPC parse error.
    const McpHttpReply malformed = mcpHttp(server.port, "POST", "{\"jsonrpc\":", init.session);
    QCOMPARE(malformed.status, 400);
    QCOMPARE(dumped(malformed.body["error"]["code"]), QStringLiteral("-32700"));
    // DELETE ends it; the id is then unknown (404).
    QCOMPARE(mcpHttp(server.port, "DELETE", {}, init.session).status, 204);
    const McpHttpReply gone
        = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})", init.session);
    QCOMPARE(gone.status, 404);
    QCOMPARE(dumped(gone.body["error"]["code"]), QStringLiteral("-32600"));
    const json all = runs(dir.path());
    QCOMPARE(dumped(all[0]["kind"]), QStringLiteral("\"served\""));
    QCOMPARE(dumped(all[0]["status"]), QStringLiteral("\"completed\""));
    QCOMPARE(dumped(all[0]["script"]), QStringLiteral("\"(MCP http: python)\""));
}

void TestMcpServer::httpModernEra()
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
void TestMcpServer::httpModernIdleRunEnds()
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

void TestMcpServer::httpModernCallWaitingForAPersonIsNotIdleness()
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

void TestMcpServer::httpRefusals()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    const QString tokenFile = dir.path() + QStringLiteral("/token");
    QVERIFY(writeFile(tokenFile, "0123456789abcdef0123\n"));
    Server server;
    QVERIFY2(server.start(dir.path(), {QStringLiteral("--token-file"), tokenFile}), server.err.constData());
    const QString bearer = QStringLiteral("Authorization: Bearer 0123456789abcdef0123");
    // No token: 401, nothing opened.
    const McpHttpReply noToken = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(noToken.status, 401);
    QCOMPARE(dumped(noToken.body["error"]["code"]), QStringLiteral("\"unauthorized\""));
    // A foreign Origin (a web page): 403.
    const McpHttpReply foreign
        = mcpHttp(server.port, "POST", InitializeBody, {}, {bearer, QStringLiteral("Origin: http://evil.example")});
    QCOMPARE(foreign.status, 403);
    QCOMPARE(dumped(foreign.body["error"]["code"]), QStringLiteral("\"bad_origin\""));
    // Without a session, anything but initialize: 400.
    const McpHttpReply noSession
        = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", {}, {bearer});
    QCOMPARE(noSession.status, 400);
    QVERIFY(noSession.body["error"]["message"].get<std::string>().rfind("no Mcp-Session-Id header", 0) == 0);
    // A batch: 400, -32600.
    const McpHttpReply batch = mcpHttp(server.port, "POST", "[" + InitializeBody + "]", {}, {bearer});
    QCOMPARE(batch.status, 400);
    QCOMPARE(dumped(batch.body["error"]["code"]), QStringLiteral("-32600"));
    // A protocol version this server does not speak.
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody, {}, {bearer});
    QCOMPARE(init.status, 200);
    const McpHttpReply badVersion = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":2,"method":"ping"})",
                                            init.session, {bearer, QStringLiteral("MCP-Protocol-Version: 1999-01-01")});
    QCOMPARE(badVersion.status, 400);
    // An unknown tool: -32602 in a 200.
    const McpHttpReply unknown
        = mcpHttp(server.port, "POST", R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"rm_rf"}})",
                  init.session, {bearer});
    QCOMPARE(unknown.status, 200);
    QCOMPARE(dumped(unknown.body["error"]["code"]), QStringLiteral("-32602"));
}

void TestMcpServer::httpTwoClientsOneSession()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(init.status, 200);
    // Client A calls the manual tool (id 1) and waits; client B uses the same session.
    QProcess clientA;
    clientA.start(QStringLiteral("curl"),
                  {QStringLiteral("-s"), QStringLiteral("-H"), QStringLiteral("Content-Type: application/json"),
                   QStringLiteral("-H"), QStringLiteral("Mcp-Session-Id: ") + init.session, QStringLiteral("-d"),
                   QStringLiteral(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"approve",)"
                                  R"("arguments":{"item":"x"}}})"),
                   server.url("/mcp")});
    QVERIFY(clientA.waitForStarted());
    // Wait until the call is a step waiting for a person.
    QElapsedTimer clock;
    clock.start();
    json pending;
    while (clock.elapsed() < 30000) {
        const json all = runs(dir.path());
        if (all.is_array() && !all.empty() && all[0].value("steps", 0) == 1) {
            pending = all[0];
            break;
        }
        QTest::qWait(100);
    }
    QVERIFY(pending.is_object());
    // B reuses request id 1 while A's call runs: refused; another id is served.
    const McpHttpReply reused
        = mcpHttp(server.port, "POST",
                  R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1}}})",
                  init.session);
    QCOMPARE(dumped(reused.body["error"]["code"]), QStringLiteral("-32600"));
    QVERIFY(reused.body["error"]["message"].get<std::string>().find("in use by a call still running")
            != std::string::npos);
    const McpHttpReply other
        = mcpHttp(server.port, "POST",
                  R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1}}})",
                  init.session);
    QCOMPARE(dumped(other.body["result"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    // A person answers A's call (toolstudio answer goes through the server).
    const CommandResult answered
        = toolstudio({QStringLiteral("answer"), dir.path(), text(pending["id"]), QStringLiteral("mcp-1"),
                      QStringLiteral("--result"), QStringLiteral("\"approved\"")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    QVERIFY(clientA.waitForFinished(30000));
    const json replyA = json::parse(clientA.readAllStandardOutput().toStdString(), nullptr, false);
    QCOMPARE(dumped(replyA["result"]["content"][0]["text"]), QStringLiteral("\"approved\""));
}

// Eight manual calls would hold every thread of the HTTP server (max(8, cores - 1))
// until a person answered, and `toolstudio answer` goes through that server: nobody
// could answer. At most four run; the others are refused at once and the server stays
// reachable.
void TestMcpServer::httpRunningCallsCapped()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(init.status, 200);
    std::vector<std::unique_ptr<QProcess>> clients;
    auto callApprove = [&](int id) {
        auto client = std::make_unique<QProcess>();
        client->start(QStringLiteral("curl"),
                      {QStringLiteral("-s"), QStringLiteral("-m"), QStringLiteral("120"), QStringLiteral("-H"),
                       QStringLiteral("Content-Type: application/json"), QStringLiteral("-H"),
                       QStringLiteral("Mcp-Session-Id: ") + init.session, QStringLiteral("-d"),
                       QStringLiteral(R"({"jsonrpc":"2.0","id":%1,"method":"tools/call","params":{"name":"approve",)"
                                      R"("arguments":{"item":"x"}}})")
                           .arg(id),
                       server.url("/mcp")});
        QVERIFY(client->waitForStarted());
        clients.push_back(std::move(client));
    };
    QString run;
    for (int id = 1; id <= 4; ++id) {
        callApprove(id);
        // Wait until the call is a step waiting for a person.
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            const json all = runs(dir.path());
            if (all.is_array() && !all.empty() && all[0].value("steps", 0) == id) {
                run = text(all[0]["id"]);
                break;
            }
            QTest::qWait(100);
        }
    }
    QVERIFY(!run.isEmpty());
    for (int id = 5; id <= 8; ++id) {
        callApprove(id);
        QVERIFY(clients.back()->waitForFinished(30000));
        const json refused = json::parse(clients.back()->readAllStandardOutput().toStdString(), nullptr, false);
        QCOMPARE(dumped(refused["id"]), QString::number(id));
        QCOMPARE(dumped(refused["error"]["code"]), QStringLiteral("-32000"));
        QVERIFY(refused["error"]["message"].get<std::string>().rfind(
                    "4 tool calls over HTTP are running, the most this server holds at once", 0)
                == 0);
    }
    QCOMPARE(runs(dir.path())[0].value("steps", 0), 4);
    // The server still answers: a person answers the four calls through it.
    for (int id = 1; id <= 4; ++id) {
        const CommandResult answered
            = toolstudio({QStringLiteral("answer"), dir.path(), run, QStringLiteral("mcp-%1").arg(id),
                          QStringLiteral("--result"), QStringLiteral("\"approved\"")});
        QVERIFY2(answered.exitCode == 0, answered.err.constData());
        QVERIFY(clients[std::size_t(id - 1)]->waitForFinished(30000));
        const json reply
            = json::parse(clients[std::size_t(id - 1)]->readAllStandardOutput().toStdString(), nullptr, false);
        QCOMPARE(dumped(reply["result"]["content"][0]["text"]), QStringLiteral("\"approved\""));
    }
}

namespace {

/// `tools/call` of `tool` with `arguments` (request `id`) in MCP session `session`, by
/// curl in the background: its reply is read when it ends.
void startCall(QProcess &client, const Server &server, const QString &session, int id, const char *tool,
               const json &arguments)
{
    const json body = {{"jsonrpc", "2.0"},
                       {"id", id},
                       {"method", "tools/call"},
                       {"params", {{"name", tool}, {"arguments", arguments}}}};
    client.start(QStringLiteral("curl"),
                 {QStringLiteral("-s"), QStringLiteral("-H"), QStringLiteral("Content-Type: application/json"),
                  QStringLiteral("-H"), QStringLiteral("Mcp-Session-Id: ") + session, QStringLiteral("-d"),
                  QString::fromStdString(body.dump()), server.url("/mcp")});
}

/// The result the client of `startCall` got.
json callResult(QProcess &client)
{
    if (!client.waitForFinished(30000))
        return nullptr;
    return json::parse(client.readAllStandardOutput().toStdString(), nullptr, false).value("result", json());
}

/// GET /v1/runs/{run}/pending until call `callId` is listed held (30 s at most); its entry.
json heldEntry(const Server &server, const QString &runId, const char *callId)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 30000) {
        const HttpReply pending = curl({server.url("/v1/runs/") + runId + QStringLiteral("/pending")});
        if (pending.status == 200)
            for (const json &entry : pending.body["pending"])
                if (entry.value("call_id", "") == callId && entry.value("held_by_step_mode", false))
                    return entry;
        QTest::qWait(100);
    }
    return nullptr;
}

HttpReply decide(const Server &server, const QString &runId, const QString &callId, const QByteArray &body)
{
    return curl({QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                 QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                 QStringLiteral("@-"),
                 server.url("/v1/runs/") + runId + QStringLiteral("/calls/") + callId + QStringLiteral("/decision")},
                body);
}

} // namespace

// `toolstudio serve --step-mode` (docs/server.md "Step mode for served calls"): every
// MCP call is held; pending lists it held, `toolstudio answer` is refused, and the
// decision route (or `toolstudio answer --continue / --instead`) decides it.
void TestMcpServer::httpStepMode()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path(), {QStringLiteral("--step-mode")}), server.err.constData());
    // The step-mode line is printed after the "serving" line start() waits for.
    QVERIFY2(server.logged("step mode: every MCP tool call is held until POST "), server.out.constData());
    const McpHttpReply init = mcpHttp(server.port, "POST", InitializeBody);
    QCOMPARE(init.status, 200);

    // 1. Held, listed held, refused by `toolstudio answer`, then continued.
    QProcess first;
    startCall(first, server, init.session, 11, "add", {{"a", 2}, {"b", 3}});
    QVERIFY(first.waitForStarted());
    QElapsedTimer clock;
    clock.start();
    QString runId;
    while (runId.isEmpty() && clock.elapsed() < 30000) {
        const json all = runs(dir.path());
        if (all.is_array() && !all.empty() && all[0].value("steps", 0) == 1)
            runId = text(all[0]["id"]);
        else
            QTest::qWait(100);
    }
    QVERIFY(!runId.isEmpty());
    const json held = heldEntry(server, runId, "mcp-1");
    QCOMPARE(dumped(held),
             QStringLiteral("{\"args\":{\"a\":2,\"b\":3},\"attempt\":1,\"call_id\":\"mcp-1\","
                            "\"held_by_step_mode\":true,\"sequence\":1,\"status\":\"queued\","
                            "\"tool\":\"add\"}"));
    const CommandResult refused = toolstudio({QStringLiteral("answer"), dir.path(), runId, QStringLiteral("mcp-1"),
                                              QStringLiteral("--result"), QStringLiteral("{\"sum\":1}")});
    QCOMPARE(refused.exitCode, 2);
    QCOMPARE(QString::fromUtf8(refused.err).trimmed(),
             QStringLiteral("toolstudio answer: call mcp-1 is held by step mode, not waiting for an answer: decide "
                            "it where the run is served (the window's Pending Calls dock, or POST "
                            "/v1/runs/%1/calls/mcp-1/decision: toolstudio answer %2 %1 mcp-1 --continue, --time-out, "
                            "or --instead with --result or --error); nothing was written")
                 .arg(runId, dir.path()));

    // Bad bodies and unknown names: the exact refusals, and the call stays held.
    struct Row
    {
        QByteArray body;
        QString runId;
        const char *callId;
        int status;
        QByteArray code;
        const char *message;
    };
    const QString unknownRun = QStringLiteral("r-nope");
    const std::vector<Row> rows = {
        {"[1]", runId, "mcp-1", 400, "bad_request",
         "the body must be a JSON object {\"decision\": \"continue\" | \"answer\" | \"fail\" | \"time_out\", …}"},
        {R"({"decision":"go"})", runId, "mcp-1", 400, "bad_request",
         "\"decision\" must be \"continue\", \"answer\", \"fail\" or \"time_out\""},
        {R"({"result":1})", runId, "mcp-1", 400, "bad_request",
         "\"decision\" must be \"continue\", \"answer\", \"fail\" or \"time_out\""},
        {R"({"decision":"answer"})", runId, "mcp-1", 400, "bad_request",
         "an answer decision needs \"result\" (any JSON value)"},
        {R"({"decision":"continue","result":1})", runId, "mcp-1", 400, "bad_request",
         "unknown member \"result\" in a continue decision (members: decision)"},
        {R"({"decision":"fail","error":""})", runId, "mcp-1", 400, "bad_request",
         "a fail decision needs \"error\", the message (a non-empty string)"},
        {R"({"decision":"fail","error":"no","retryable":"yes"})", runId, "mcp-1", 400, "bad_request",
         "\"retryable\" must be true or false"},
        {R"({"decision":"continue"})", unknownRun, "mcp-1", 404, "unknown_run", "no run 'r-nope' in this project"},
    };
    for (const Row &row : rows) {
        const HttpReply reply = decide(server, row.runId, QLatin1String(row.callId), row.body);
        QCOMPARE(reply.status, row.status);
        QCOMPARE(errorCode(reply), row.code);
        QCOMPARE(QString::fromUtf8(errorMessage(reply)), QString::fromUtf8(row.message));
    }
    const HttpReply unknownCall = decide(server, runId, QStringLiteral("mcp-9"), R"({"decision":"continue"})");
    QCOMPARE(unknownCall.status, 404);
    QCOMPARE(errorCode(unknownCall), QByteArray("unknown_call"));
    QCOMPARE(QString::fromUtf8(errorMessage(unknownCall)), QStringLiteral("run %1 has no call 'mcp-9'").arg(runId));
    // A result the tool's output_schema refuses: 409, the call still held.
    const HttpReply mismatch = decide(server, runId, QStringLiteral("mcp-1"), R"({"decision":"answer","result":{}})");
    QCOMPARE(mismatch.status, 409);
    QCOMPARE(errorCode(mismatch), QByteArray("refused"));
    QVERIFY(heldEntry(server, runId, "mcp-1").is_object());

    const HttpReply continued = decide(server, runId, QStringLiteral("mcp-1"), R"({"decision":"continue"})");
    QCOMPARE(continued.status, 200);
    QCOMPARE(dumped(continued.body),
             QStringLiteral("{\"call_id\":\"mcp-1\",\"decision\":\"continue\",\"run\":\"%1\"}").arg(runId));
    QCOMPARE(dumped(callResult(first)["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    const HttpReply again = decide(server, runId, QStringLiteral("mcp-1"), R"({"decision":"continue"})");
    QCOMPARE(again.status, 409);
    QCOMPARE(errorCode(again), QByteArray("not_held"));
    QCOMPARE(QString::fromUtf8(errorMessage(again)),
             QStringLiteral("call 'mcp-1' is not held by step mode (it is succeeded); only a held call is decided"));

    // 2. Answered instead: the client gets the person's result; the handler never ran.
    QProcess second;
    startCall(second, server, init.session, 12, "add", {{"a", 1}, {"b", 1}});
    QVERIFY(heldEntry(server, runId, "mcp-2").is_object());
    QCOMPARE(decide(server, runId, QStringLiteral("mcp-2"), R"({"decision":"answer","result":{"sum":42}})").status,
             200);
    QCOMPARE(dumped(callResult(second)["structuredContent"]), QStringLiteral("{\"sum\":42}"));

    // 3. Timed out: an error result with the injected timeout.
    QProcess third;
    startCall(third, server, init.session, 13, "add", {{"a", 1}, {"b", 1}});
    QVERIFY(heldEntry(server, runId, "mcp-3").is_object());
    QCOMPARE(decide(server, runId, QStringLiteral("mcp-3"), R"({"decision":"time_out"})").status, 200);
    QCOMPARE(dumped(callResult(third)),
             QStringLiteral("{\"content\":[{\"text\":\"timeout: timed out by hand in step mode (injected timeout; "
                            "the handler did not run)\",\"type\":\"text\"}],\"isError\":true}"));

    // 4. The CLI: --continue on a manual tool's call (it then waits for a person, who
    // answers as ever), and --instead --error on another.
    QProcess fourth;
    startCall(fourth, server, init.session, 14, "approve", {{"item", "x"}});
    QVERIFY(heldEntry(server, runId, "mcp-4").is_object());
    const CommandResult cont = toolstudio(
        {QStringLiteral("answer"), dir.path(), runId, QStringLiteral("mcp-4"), QStringLiteral("--continue")});
    QVERIFY2(cont.exitCode == 0, cont.err.constData());
    QCOMPARE(QString::fromUtf8(cont.out).trimmed(), QStringLiteral("decided: mcp-4 of run %1 (continue)").arg(runId));
    const CommandResult answered = toolstudio({QStringLiteral("answer"), dir.path(), runId, QStringLiteral("mcp-4"),
                                               QStringLiteral("--result"), QStringLiteral("\"approved\"")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    QCOMPARE(dumped(callResult(fourth)["content"][0]["text"]), QStringLiteral("\"approved\""));
    QProcess fifth;
    startCall(fifth, server, init.session, 15, "approve", {{"item", "y"}});
    QVERIFY(heldEntry(server, runId, "mcp-5").is_object());
    const CommandResult failed
        = toolstudio({QStringLiteral("answer"), dir.path(), runId, QStringLiteral("mcp-5"), QStringLiteral("--instead"),
                      QStringLiteral("--error"), QStringLiteral("not today")});
    QVERIFY2(failed.exitCode == 0, failed.err.constData());
    QCOMPARE(
        dumped(callResult(fifth)),
        QStringLiteral("{\"content\":[{\"text\":\"tool_failed: not today\",\"type\":\"text\"}],\"isError\":true}"));
    // Each decision is in the journal as the window's are.
    const HttpReply exported = curl({server.url("/v1/runs/") + runId});
    QStringList decisions;
    for (const json &event : exported.body["policy_events"])
        if (event.value("kind", "") == "step_decision")
            decisions << text(event["detail"]["decision"]);
    QCOMPARE(decisions.join(QLatin1Char(',')), QStringLiteral("continue,answer,time_out,continue,fail"));
}

void TestMcpServer::studioClientOfTheStudiosServer()
{
    // The studio's MCP client probes with server/discover and stays in 2026-07-28 against
    // its own server, over stdio and Streamable HTTP (issue 21). The served project lies
    // inside the client's: a server the client starts reads only its project's folder.
    // Run as root, the sandbox starts the stdio server as nobody, who must reach the
    // studio's binary: one built under root's 0700 home is not (a clone in /root).
    // Built with AddressSanitizer, the studio's binary cannot start under the sandbox's
    // RLIMIT_DATA (ASan reserves terabytes of shadow memory), so the stdio server is
    // checked in the other builds only.
#if defined(__SANITIZE_ADDRESS__)
    const bool overStdio = false;
#else
    const bool overStdio = true;
    if (::geteuid() == 0) {
        for (QString dir = QFileInfo(toolstudioBinary()).absolutePath(); dir.size() > 1;
             dir = QFileInfo(dir).absolutePath()) {
            struct stat info = {};
            if (::stat(QFile::encodeName(dir).constData(), &info) == 0 && !(info.st_mode & S_IXOTH))
                QSKIP(qPrintable(QStringLiteral("nobody cannot reach the studio's binary (%1 is mode %2): clone the "
                                                "project outside a private home to run this test as root")
                                     .arg(dir)
                                     .arg(info.st_mode & 07777, 3, 8, QLatin1Char('0'))));
        }
    }
#endif
    QTemporaryDir client;
    const QString served = client.filePath(QStringLiteral("served"));
    writeServedProject(served);
    Server server;
    QVERIFY2(server.start(served), server.err.constData());
    json mcpServers = {{"web", {{"url", server.url("/mcp").toStdString()}}}};
    if (overStdio)
        mcpServers["stdio"]
            = {{"command", toolstudioBinary().toStdString()}, {"args", {"serve", "--mcp-stdio", "served", "--trust"}}};
    const json project = {{"name", "client"}, {"mcp_servers", mcpServers}};
    QVERIFY(writeFile(client.filePath(QStringLiteral("toolstudio.json")), QByteArray::fromStdString(project.dump())));
    const CommandResult listed = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), client.path(),
                                             QStringLiteral("--json"), QStringLiteral("--trust")});
    QVERIFY2(listed.exitCode == 0, listed.out.constData());
    const json servers = json::parse(listed.out.toStdString(), nullptr, false);
    QVERIFY2(servers.is_array() && servers.size() == (overStdio ? 2u : 1u), listed.out.constData());
    for (const json &entry : servers) {
        QCOMPARE(dumped(entry["state"]), QStringLiteral("\"ready\""));
        QCOMPARE(dumped(entry["protocol_version"]), QStringLiteral("\"2026-07-28\""));
        QCOMPARE(dumped(entry["era"]), QStringLiteral("\"modern\""));
        QCOMPARE(dumped(entry["server_info"]["title"]), QStringLiteral("\"Tool Studio: served\""));
        QCOMPARE(entry["tools"].size(), std::size_t(4));
    }
    const CommandResult text
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), client.path(), QStringLiteral("--trust")});
    QVERIFY2(!overStdio || text.out.contains("stdio  ready  MCP 2026-07-28 (stateless)  toolstudio 1.0  4 tool(s)\n"),
             text.out.constData());
    QVERIFY2(text.out.contains("web  ready  MCP 2026-07-28 (stateless)  toolstudio 1.0  4 tool(s)\n"),
             text.out.constData());
    // A call over HTTP (over stdio the served journal would be in the client's read-only view).
    const CommandResult called = toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), client.path(),
                                             QStringLiteral("web"), QStringLiteral("add"), QStringLiteral("--args"),
                                             QStringLiteral(R"({"a":2,"b":3})"), QStringLiteral("--trust")});
    QVERIFY2(called.exitCode == 0, called.err.constData());
    QCOMPARE(dumped(json::parse(called.out.toStdString(), nullptr, false)), QStringLiteral("{\"sum\":5}"));
    server.stop();
    bool found = false;
    for (const json &run : runs(served))
        found = found || run["script"] == "(MCP http: toolstudio)";
    QVERIFY(found);
}

void TestMcpServer::sdkClientOverStdio()
{
    const QString modules = sdkModules();
    if (modules.isEmpty())
        QSKIP("the MCP TypeScript SDK 1.x is not installed in TOOLSTUDIO_MCP_SERVERS_DIR/node_modules: "
              "./toolstudio.sh test installs it from npm");
    QTemporaryDir dir;
    writeServedProject(dir.path());
    isolateConfigDir();
    const json result = runSdkClient(modules, QStringLiteral("stdio"), dir.path());
    QVERIFY2(result.is_object() && !result.contains("failed"), result.dump().c_str());
    QCOMPARE(dumped(result["server"]), QStringLiteral("\"toolstudio\""));
    QCOMPARE(result["tools"]["tools"].size(), std::size_t(4));
    QCOMPARE(dumped(result["call"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    QCOMPARE(dumped(runs(dir.path())[0]["kind"]), QStringLiteral("\"served\""));
}

void TestMcpServer::sdkClientOverHttp()
{
    const QString modules = sdkModules();
    if (modules.isEmpty())
        QSKIP("the MCP TypeScript SDK 1.x is not installed in TOOLSTUDIO_MCP_SERVERS_DIR/node_modules: "
              "./toolstudio.sh test installs it from npm");
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    const json result = runSdkClient(modules, QStringLiteral("http"), server.url("/mcp"));
    QVERIFY2(result.is_object() && !result.contains("failed"), result.dump().c_str());
    QCOMPARE(result["tools"]["tools"].size(), std::size_t(4));
    QCOMPARE(dumped(result["tools"]["tools"][0]["outputSchema"]["required"]), QStringLiteral("[\"sum\"]"));
    QCOMPARE(dumped(result["call"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    QVERIFY(server.logged("DELETE /mcp 204"));
}

void TestMcpServer::sdkClientHearsToolListChanges()
{
    // The SDK opens the GET /mcp stream by itself after initialize and hands the
    // notification to the client's handler.
    const QString modules = sdkModules();
    if (modules.isEmpty())
        QSKIP("the MCP TypeScript SDK 1.x is not installed in TOOLSTUDIO_MCP_SERVERS_DIR/node_modules: "
              "./toolstudio.sh test installs it from npm");
    QTemporaryDir dir;
    writeServedProject(dir.path());
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("NODE_PATH"), modules);
    node.setProcessEnvironment(env);
    node.start(QStringLiteral("node"), {QStringLiteral("-e"), QLatin1String(SdkListener), server.url("/mcp")});
    QVERIFY(node.waitForStarted(30000));
    const json listening = nextNodeLine(node);
    QCOMPARE(dumped(listening), QStringLiteral("{\"listChanged\":true,\"listening\":200,\"tools\":4}"));
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(withEchoTool(servedManifest(dir.path())).dump(1))));
    const json heard = nextNodeLine(node);
    QCOMPARE(dumped(heard),
             QStringLiteral("{\"heard\":{\"method\":\"notifications/tools/list_changed\"},\"tools\":[\"add\","
                            "\"approve\",\"fail\",\"huge\",\"echo\"]}"));
    QVERIFY(node.waitForFinished(60000));
    QCOMPARE(node.exitCode(), 0);
    QVERIFY(server.logged("DELETE /mcp 204"));
    QCOMPARE(server.stop(), 0);
}

QTEST_GUILESS_MAIN(TestMcpServer)
#include "tst_mcpserver.moc"
