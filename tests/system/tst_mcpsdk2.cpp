// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Interoperability with the official MCP TypeScript SDK 2.x (the 2026-07-28 revision) as
// a real third-party peer, both ways (docs/mcp.md "Protocol revisions", docs/server.md
// "MCP server"): the SDK's Client (@modelcontextprotocol/client) against
// `toolstudio serve --mcp-stdio` and `toolstudio serve`'s /mcp, and the studio's MCP
// client against an McpServer of @modelcontextprotocol/server over stdio and Streamable
// HTTP. The packages come from TOOLSTUDIO_MCP_SERVERS_DIR (./toolstudio.sh test installs
// them); the SDK needs Node.js >= 20.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "servedproject.h"
#include "serverprocess.h"
#include "testfiles.h"
#include "typescriptsdk.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

using nlohmann::json;

namespace {

/// The SDK's Client, era negotiation "auto" (server/discover first), over `kind`
/// ("stdio": target is the project dir; "http": the URL). Actions:
/// - basic: callTool add (first: request id 0), listTools, callTool fail; prints
///   {era, version, server, add, tools, fail};
/// - manual: callTool approve; prints {"sent": id} as it sends, then {"result": …};
/// - abort: as manual, aborting the call (AbortController) at a line on stdin;
/// - subscribe: with `listChanged.tools` (the SDK opens subscriptions/listen by itself
///   in 2026-07-28); prints {era, honored: the acknowledged filter}, then {tools: [names]}
///   once the SDK listed them again on notifications/tools/list_changed, then over HTTP
///   {closed: how the subscription ended} (the test stops the server).
const char *const SdkClient = R"JS(
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import readline from "node:readline";
const [kind, target, binary, action] = process.argv.slice(2);
const transport = kind === "stdio"
  ? new StdioClientTransport({ command: binary, args: ["serve", "--mcp-stdio", target, "--trust"],
                               env: process.env, stderr: "ignore" })
  : new StreamableHTTPClientTransport(new URL(target));
const send = transport.send.bind(transport);
transport.send = async (message, options) => {
  if (message.method === "tools/call") console.log(JSON.stringify({ sent: message.id }));
  return send(message, options);
};
let changed;
const refreshed = new Promise((resolve) => { changed = resolve; });
const listChanged = { tools: { onChanged: (error, tools) =>
  changed(error ? { error: String(error) } : tools.map((tool) => tool.name)) } };
const client = new Client({ name: "sdk2-test", version: "2.0.0" },
  { versionNegotiation: { mode: "auto" }, ...(action === "subscribe" ? { listChanged } : {}) });
try {
  await client.connect(transport);
  const out = { era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion(),
                server: client.getServerVersion() };
  if (action === "subscribe") {
    const subscription = client.autoOpenedSubscription;
    console.log(JSON.stringify({ era: out.era, honored: subscription ? subscription.honoredFilter : null }));
    console.log(JSON.stringify({ tools: await refreshed }));
    if (kind === "http") console.log(JSON.stringify({ closed: await subscription.closed }));
    await client.close();
    process.exit(0);
  }
  if (action === "basic") {
    out.add = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    out.tools = await client.listTools();
    out.fail = await client.callTool({ name: "fail", arguments: {} });
  } else {
    const abort = new AbortController();
    const call = client.callTool({ name: "approve", arguments: { item: "box" } },
                                 { signal: abort.signal, timeout: 300000 });
    if (action === "abort") {
      const lines = readline.createInterface({ input: process.stdin });
      lines.once("line", () => { lines.close(); abort.abort("the test aborts"); });
    }
    try { out.result = await call; } catch (e) { out.error = String(e); }
  }
  await client.close();
  console.log(JSON.stringify(out));
} catch (e) { console.log(JSON.stringify({ failed: String(e) })); process.exit(1); }
)JS";

/// An SDK 2.x McpServer (serveStdio, or createMcpHandler behind node:http printing its
/// port) with echo, add (outputSchema, structuredContent), confirm (asks the user
/// through the 2026 input_required result: an embedded elicitation), fail (isError), route
/// (an x-mcp-header parameter: over HTTP the SDK checks its Mcp-Param-Region header) and
/// badroute (an x-mcp-header the spec does not allow: a Streamable HTTP client leaves it out).
const char *const SdkServer = R"JS(
import { McpServer, createMcpHandler, fromJsonSchema, inputRequired, acceptedContent }
  from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import http from "node:http";
function makeServer() {
  const server = new McpServer({ name: "sdk2-server", version: "2.4.0" }, { capabilities: { tools: {} } });
  server.registerTool("echo", { description: "Echoes a text",
    inputSchema: fromJsonSchema({ type: "object", properties: { text: { type: "string" } }, required: ["text"] })
  }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("add", { description: "Adds two integers",
    inputSchema: fromJsonSchema({ type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } },
                                  required: ["a", "b"] }),
    outputSchema: fromJsonSchema({ type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] })
  }, async ({ a, b }) => ({ content: [{ type: "text", text: JSON.stringify({ sum: a + b }) }],
                            structuredContent: { sum: a + b } }));
  server.registerTool("confirm", { description: "Asks the user to confirm",
    inputSchema: fromJsonSchema({ type: "object", properties: { item: { type: "string" } }, required: ["item"] })
  }, async ({ item }, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm");
    if (answer === undefined)
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Ship ${item}?`,
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } }) } });
    return { content: [{ type: "text", text: answer.ok ? `shipped ${item}` : `kept ${item}` }] };
  });
  server.registerTool("fail", { description: "Always fails", inputSchema: fromJsonSchema({ type: "object" }) },
    async () => ({ content: [{ type: "text", text: "out of stock" }], isError: true }));
  server.registerTool("route", { description: "Routed by region (x-mcp-header)",
    inputSchema: fromJsonSchema({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" },
                                  text: { type: "string" } }, required: ["region", "text"] })
  }, async ({ region, text }) => ({ content: [{ type: "text", text: `${region}: ${text}` }] }));
  server.registerTool("badroute", { description: "An x-mcp-header on a number: not allowed",
    inputSchema: fromJsonSchema({ type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } })
  }, async () => ({ content: [{ type: "text", text: "never over HTTP" }] }));
  return server;
}
if (process.argv[2] === "http") {
  const handler = createMcpHandler(makeServer);
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

/// The SDK's Client over Streamable HTTP (the SDK's default: the 2025 handshake) with
/// `listChanged.tools`: prints {era, listening: the status of the GET stream the SDK opens
/// after initialize, listChanged} once that stream is open, then {tools: [names]} once
/// the SDK has listed the tools again on notifications/tools/list_changed.
const char *const SdkListener = R"JS(
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
const [url] = process.argv.slice(2);
let opened;
const listening = new Promise((resolve) => { opened = resolve; });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  fetch: async (input, init) => {
    const response = await fetch(input, init);
    if (init && init.method === "GET") opened(response.status);
    return response;
  },
});
let changed;
const refreshed = new Promise((resolve) => { changed = resolve; });
const client = new Client({ name: "sdk2-listener", version: "2.0.0" }, { listChanged: { tools: {
  onChanged: (error, tools) => changed(error ? { error: String(error) } : tools.map((tool) => tool.name)) } } });
try {
  await client.connect(transport);
  console.log(JSON.stringify({ era: client.getProtocolEra(), listening: await listening,
                               listChanged: client.getServerCapabilities().tools.listChanged }));
  const tools = await refreshed;
  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify({ tools }));
} catch (e) { console.log(JSON.stringify({ failed: String(e) })); process.exit(1); }
)JS";

/// `name` with `text` in `dir`, and node_modules beside it: a link to the cache
/// (`link`) or a copy a confined server (nobody, the project folder only) can read.
bool writeScript(const QString &dir, const QString &name, const char *text, bool link)
{
    if (!writeFile(dir + u'/' + name, QByteArray(text)))
        return false;
    const QString target = dir + QStringLiteral("/node_modules");
    if (QFileInfo::exists(target))
        return true;
    if (link)
        return QFile::link(sdkModules(), target);
    QProcess copy;
    copy.start(QStringLiteral("cp"), {QStringLiteral("-r"), sdkModules(), target});
    return copy.waitForFinished(120000) && copy.exitCode() == 0;
}

/// The SDK client script, started (`action`); its output lines are read with nextLine().
struct SdkClientProcess
{
    QProcess node;
    QByteArray out;

    bool start(const QString &scriptDir, const QString &kind, const QString &target, const char *action)
    {
        isolateConfigDir();
        node.setWorkingDirectory(scriptDir);
        node.start(
            QStringLiteral("node"),
            {scriptDir + QStringLiteral("/client.mjs"), kind, target, toolstudioBinary(), QLatin1String(action)});
        return node.waitForStarted(30000);
    }
    /// The next stdout line as JSON (null after `ms` or at the end).
    json nextLine(int ms = 120000)
    {
        QElapsedTimer clock;
        clock.start();
        while (!out.contains('\n') && clock.elapsed() < ms && node.state() == QProcess::Running) {
            node.waitForReadyRead(100);
            out += node.readAllStandardOutput();
        }
        out += node.readAllStandardOutput();
        const qsizetype cut = out.indexOf('\n');
        if (cut < 0) {
            qWarning("node: %s %s", out.constData(), node.readAllStandardError().constData());
            return nullptr;
        }
        const QByteArray line = out.left(cut);
        out.remove(0, cut + 1);
        return json::parse(line.toStdString(), nullptr, false);
    }
    ~SdkClientProcess()
    {
        if (node.state() != QProcess::NotRunning) {
            node.kill();
            node.waitForFinished(10000);
        }
    }
};

/// The project's runs as `toolstudio runs --json` prints them.
json runs(const QString &dir)
{
    const CommandResult result = toolstudio({QStringLiteral("runs"), dir, QStringLiteral("--json")});
    if (result.exitCode != 0)
        qWarning("toolstudio runs: exit %d: %s", result.exitCode, result.err.constData());
    json all = json::array();
    for (const QByteArray &line : result.out.split('\n'))
        if (!line.trimmed().isEmpty())
            all.push_back(json::parse(line.toStdString(), nullptr, false));
    return all;
}

/// The run whose script is `script`, once it has `steps` steps (null after 30 s).
json runWithSteps(const QString &dir, const std::string &script, int steps)
{
    QElapsedTimer clock;
    clock.start();
    json seen;
    while (clock.elapsed() < 30000) {
        seen = runs(dir);
        for (const json &run : seen)
            if (run.value("script", "") == script && run.value("steps", 0) == steps)
                return run;
        QTest::qWait(100);
    }
    qWarning("no run of %s with %d steps; the runs: %s", script.c_str(), steps, seen.dump().c_str());
    return nullptr;
}

/// The status of the step `callId` of run `runId` in the project's journal (read-only, by python3's
/// sqlite3: no command prints a served run's steps).
QString stepStatus(const QString &dir, const json &runId, const char *callId)
{
    QProcess python;
    python.start(QStringLiteral("python3"),
                 {QStringLiteral("-c"),
                  QStringLiteral("import sqlite3, sys\n"
                                 "c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)\n"
                                 "print(','.join(r[0] for r in c.execute("
                                 "'select status from steps where run_id = ? and call_id = ?', sys.argv[2:])))"),
                  dir + QStringLiteral("/.toolstudio/journal.sqlite"), text(runId), QLatin1String(callId)});
    python.waitForFinished(30000);
    return QString::fromUtf8(python.readAllStandardOutput()).trimmed();
}

const QString ServerInfo
    = QStringLiteral("{\"name\":\"toolstudio\",\"title\":\"Tool Studio: served\",\"version\":\"1.0\"}");

/// A running SDK 2.x server over HTTP (node sdk2server.mjs http): its port.
struct SdkHttpServer
{
    QProcess node;
    int port = 0;

    bool start(const QString &dir)
    {
        node.setWorkingDirectory(dir);
        node.start(QStringLiteral("node"), {dir + QStringLiteral("/sdk2server.mjs"), QStringLiteral("http")});
        if (!node.waitForStarted(30000))
            return false;
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains('\n') && clock.elapsed() < 30000 && node.state() == QProcess::Running) {
            node.waitForReadyRead(100);
            out += node.readAllStandardOutput();
        }
        port = out.trimmed().toInt();
        return port > 0;
    }
    ~SdkHttpServer()
    {
        if (node.state() != QProcess::NotRunning) {
            node.kill();
            node.waitForFinished(10000);
        }
    }
};

} // namespace

class TestMcpSdk2 : public QObject
{
    Q_OBJECT

private:
    void sdkClientBasic(const QString &kind);

private Q_SLOTS:
    void init();
    void sdkClientOverStdio();
    void sdkClientOverHttp();
    void sdkClientFollowsToolListChanges();
    void sdkClientSubscribes_data();
    void sdkClientSubscribes();
    void sdkClientManualToolOverStdio();
    void sdkClientManualToolOverHttp();
    void sdkClientAbortsCall_data();
    void sdkClientAbortsCall();
    void studioClientOfSdkServer();
};

void TestMcpSdk2::init()
{
    const QString missing = missingSdk2({QStringLiteral("client"), QStringLiteral("server")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
}

void TestMcpSdk2::sdkClientBasic(const QString &kind)
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    QVERIFY(writeScript(dir.path(), QStringLiteral("client.mjs"), SdkClient, true));
    Server server;
    if (kind == QLatin1String("http"))
        QVERIFY2(server.start(dir.path()), server.err.constData());
    SdkClientProcess client;
    QVERIFY(client.start(dir.path(), kind, kind == QLatin1String("http") ? server.url("/mcp") : dir.path(), "basic"));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"sent\":0}"));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"sent\":2}"));
    const json out = client.nextLine();
    QVERIFY2(out.is_object() && !out.contains("failed"), out.dump().c_str());
    // The SDK negotiated the 2026 revision (server/discover, not initialize).
    QCOMPARE(dumped(out["era"]), QStringLiteral("\"modern\""));
    QCOMPARE(dumped(out["version"]), QStringLiteral("\"2026-07-28\""));
    QCOMPARE(dumped(out["server"]), ServerInfo);
    QCOMPARE(dumped(out["add"]),
             QStringLiteral("{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":") + ServerInfo
                 + QStringLiteral("},\"content\":[{\"text\":\"{\\\"sum\\\":5}\",\"type\":\"text\"}],"
                                  "\"isError\":false,\"structuredContent\":{\"sum\":5}}"));
    const json &tools = out["tools"]["tools"];
    QCOMPARE(tools.size(), std::size_t(4));
    QCOMPARE(dumped(tools[0]["name"]), QStringLiteral("\"add\""));
    QCOMPARE(dumped(tools[0]["inputSchema"]["required"]), QStringLiteral("[\"a\",\"b\"]"));
    QCOMPARE(dumped(tools[0]["outputSchema"]["required"]), QStringLiteral("[\"sum\"]"));
    QCOMPARE(dumped(out["tools"]["ttlMs"]), QStringLiteral("300000"));
    QCOMPARE(dumped(out["fail"]),
             QStringLiteral("{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":") + ServerInfo
                 + QStringLiteral("},\"content\":[{\"text\":\"tool_failed: out of stock\",\"type\":\"text\"}],"
                                  "\"isError\":true}"));
    QVERIFY(client.node.waitForFinished(30000));
    QCOMPARE(client.node.exitCode(), 0);
    if (kind == QLatin1String("http"))
        server.stop();
    // The journal has the client's run: two steps, one succeeded, one failed.
    const json run = runWithSteps(dir.path(), "(MCP " + kind.toStdString() + ": sdk2-test)", 2);
    QVERIFY2(run.is_object(), runs(dir.path()).dump().c_str());
    QCOMPARE(dumped(run["kind"]), QStringLiteral("\"served\""));
    // server/discover's probe (a process of its own over stdio) recorded no run.
    QCOMPARE(runs(dir.path()).size(), std::size_t(1));
}

void TestMcpSdk2::sdkClientOverStdio()
{
    sdkClientBasic(QStringLiteral("stdio"));
}

void TestMcpSdk2::sdkClientOverHttp()
{
    sdkClientBasic(QStringLiteral("http"));
}

void TestMcpSdk2::sdkClientFollowsToolListChanges()
{
    // The SDK lists the tools again by itself when the GET /mcp stream says they changed.
    QTemporaryDir dir;
    writeServedProject(dir.path());
    QVERIFY(writeScript(dir.path(), QStringLiteral("client.mjs"), SdkListener, true));
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    SdkClientProcess client;
    QVERIFY(client.start(dir.path(), server.url("/mcp"), {}, ""));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"era\":\"legacy\",\"listChanged\":true,\"listening\":200}"));
    QFile file(dir.path() + QStringLiteral("/toolstudio.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    json manifest = json::parse(file.readAll().toStdString());
    file.close();
    manifest["tools"].erase(1); // approve
    QVERIFY(writeFile(file.fileName(), QByteArray::fromStdString(manifest.dump(1))));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"tools\":[\"add\",\"fail\",\"huge\"]}"));
    QVERIFY(client.node.waitForFinished(60000));
    QCOMPARE(client.node.exitCode(), 0);
    QVERIFY(server.logged("DELETE /mcp 204"));
}

void TestMcpSdk2::sdkClientSubscribes_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("stdio") << QStringLiteral("stdio");
    QTest::newRow("http") << QStringLiteral("http");
}

void TestMcpSdk2::sdkClientSubscribes()
{
    // In 2026-07-28 the SDK opens subscriptions/listen by itself (listChanged.tools and
    // the server's capability) and lists the tools again on the notification; over HTTP
    // the server's stop ends the subscription gracefully (its closing result).
    QFETCH(QString, kind);
    QTemporaryDir dir;
    writeServedProject(dir.path());
    QVERIFY(writeScript(dir.path(), QStringLiteral("client.mjs"), SdkClient, true));
    Server server;
    const bool http = kind == QLatin1String("http");
    if (http)
        QVERIFY2(server.start(dir.path()), server.err.constData());
    SdkClientProcess client;
    QVERIFY(client.start(dir.path(), kind, http ? server.url("/mcp") : dir.path(), "subscribe"));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"era\":\"modern\",\"honored\":{\"toolsListChanged\":true}}"));
    json manifest = servedManifest(dir.path());
    manifest["tools"].erase(1); // approve
    QVERIFY(replaceManifest(dir.path(), QByteArray::fromStdString(manifest.dump(1))));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"tools\":[\"add\",\"fail\",\"huge\"]}"));
    if (http) {
        QCOMPARE(server.stop(), 0);
        QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"closed\":\"graceful\"}"));
    }
    QVERIFY(client.node.waitForFinished(60000));
    QCOMPARE(client.node.exitCode(), 0);
}

void TestMcpSdk2::sdkClientManualToolOverStdio()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    QVERIFY(writeScript(dir.path(), QStringLiteral("client.mjs"), SdkClient, true));
    SdkClientProcess client;
    QVERIFY(client.start(dir.path(), QStringLiteral("stdio"), dir.path(), "manual"));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"sent\":0}"));
    const json run = runWithSteps(dir.path(), "(MCP stdio: sdk2-test)", 1);
    QVERIFY(run.is_object());
    // The call waits for a person; the SDK client waits with it. The server names its
    // calls mcp-1, mcp-2, … in the order they came.
    const CommandResult answered
        = toolstudio({QStringLiteral("answer"), dir.path(), text(run["id"]), QStringLiteral("mcp-1"),
                      QStringLiteral("--result"), QStringLiteral("\"approved\"")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    const json out = client.nextLine();
    QCOMPARE(dumped(out["version"]), QStringLiteral("\"2026-07-28\""));
    QCOMPARE(dumped(out["result"]["content"]), QStringLiteral("[{\"text\":\"approved\",\"type\":\"text\"}]"));
    QCOMPARE(dumped(out["result"]["isError"]), QStringLiteral("false"));
}

// Over HTTP the SDK client's call waits too, and a second process of the same client
// (clientInfo "sdk2-test", its first call again request id 0) is served meanwhile: in
// the 2026 era each POST is an exchange of its own, not part of a session.
void TestMcpSdk2::sdkClientManualToolOverHttp()
{
    QTemporaryDir dir;
    writeServedProject(dir.path());
    QVERIFY(writeScript(dir.path(), QStringLiteral("client.mjs"), SdkClient, true));
    Server server;
    QVERIFY2(server.start(dir.path()), server.err.constData());
    SdkClientProcess waiting;
    QVERIFY(waiting.start(dir.path(), QStringLiteral("http"), server.url("/mcp"), "manual"));
    QCOMPARE(dumped(waiting.nextLine()), QStringLiteral("{\"sent\":0}"));
    const json run = runWithSteps(dir.path(), "(MCP http: sdk2-test)", 1);
    QVERIFY(run.is_object());

    SdkClientProcess other;
    QVERIFY(other.start(dir.path(), QStringLiteral("http"), server.url("/mcp"), "basic"));
    QCOMPARE(dumped(other.nextLine()), QStringLiteral("{\"sent\":0}"));
    QCOMPARE(dumped(other.nextLine()), QStringLiteral("{\"sent\":2}"));
    const json basic = other.nextLine();
    QCOMPARE(dumped(basic["add"]["structuredContent"]), QStringLiteral("{\"sum\":5}"));
    QCOMPARE(dumped(basic["fail"]["isError"]), QStringLiteral("true"));

    const CommandResult answered
        = toolstudio({QStringLiteral("answer"), dir.path(), text(run["id"]), QStringLiteral("mcp-1"),
                      QStringLiteral("--result"), QStringLiteral("\"approved\"")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    const json out = waiting.nextLine();
    QCOMPARE(dumped(out["result"]["content"]), QStringLiteral("[{\"text\":\"approved\",\"type\":\"text\"}]"));
}

void TestMcpSdk2::sdkClientAbortsCall_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("stdio") << QStringLiteral("stdio");
    QTest::newRow("http") << QStringLiteral("http");
}

// The SDK client aborts its call (AbortController): over stdio it sends
// notifications/cancelled, over HTTP it closes the request's connection. The step
// becomes cancelled.
void TestMcpSdk2::sdkClientAbortsCall()
{
    QFETCH(QString, kind);
    QTemporaryDir dir;
    writeServedProject(dir.path());
    QVERIFY(writeScript(dir.path(), QStringLiteral("client.mjs"), SdkClient, true));
    Server server;
    if (kind == QLatin1String("http"))
        QVERIFY2(server.start(dir.path()), server.err.constData());
    SdkClientProcess client;
    QVERIFY(client.start(dir.path(), kind, kind == QLatin1String("http") ? server.url("/mcp") : dir.path(), "abort"));
    QCOMPARE(dumped(client.nextLine()), QStringLiteral("{\"sent\":0}"));
    const std::string script = "(MCP " + kind.toStdString() + ": sdk2-test)";
    const json run = runWithSteps(dir.path(), script, 1);
    QVERIFY(run.is_object());
    client.node.write("abort\n");
    client.node.closeWriteChannel(); // an open stdin would keep node running
    const json out = client.nextLine();
    QCOMPARE(dumped(out["error"]), QStringLiteral("\"SdkError: the test aborts\""));
    QVERIFY(client.node.waitForFinished(30000));
    if (kind == QLatin1String("http"))
        server.stop();
    // The journal: the step was cancelled.
    QCOMPARE(stepStatus(dir.path(), run["id"], "mcp-1"), QStringLiteral("cancelled"));
}

// The studio's MCP client against an SDK 2.x McpServer, over stdio (a confined server:
// the script and a copy of node_modules in the project folder, which it may read) and
// over Streamable HTTP.
void TestMcpSdk2::studioClientOfSdkServer()
{
    QTemporaryDir dir;
    ::chmod(QFile::encodeName(dir.path()).constData(), 0755); // as root the server runs as nobody
    QVERIFY(writeScript(dir.path(), QStringLiteral("sdk2server.mjs"), SdkServer, false));
    SdkHttpServer web;
    QVERIFY2(web.start(dir.path()), web.node.readAllStandardError().constData());
    const json project
        = {{"name", "client"},
           {"mcp_servers",
            {{"stdio", {{"command", "node"}, {"args", {"sdk2server.mjs"}}}},
             {"web", {{"url", QStringLiteral("http://127.0.0.1:%1/mcp").arg(web.port).toStdString()}}}}}};
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), QByteArray::fromStdString(project.dump())));

    const CommandResult listed = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path(),
                                             QStringLiteral("--json"), QStringLiteral("--trust")});
    QVERIFY2(listed.exitCode == 0, listed.out.constData());
    const json servers = json::parse(listed.out.toStdString(), nullptr, false);
    QVERIFY2(servers.is_array() && servers.size() == 2u, listed.out.constData());
    for (const json &entry : servers) {
        QCOMPARE(dumped(entry["state"]), QStringLiteral("\"ready\""));
        QCOMPARE(dumped(entry["era"]), QStringLiteral("\"modern\""));
        QCOMPARE(dumped(entry["protocol_version"]), QStringLiteral("\"2026-07-28\""));
        QCOMPARE(dumped(entry["server_info"]), QStringLiteral("{\"name\":\"sdk2-server\",\"version\":\"2.4.0\"}"));
        const json &tools = entry["tools"];
        // Over Streamable HTTP badroute is left out (its x-mcp-header is on a number); the
        // spec lets a stdio client ignore x-mcp-header.
        const bool http = entry["name"] == "web";
        QCOMPARE(tools.size(), std::size_t(http ? 5 : 6));
        QCOMPARE(dumped(entry.value("rejected_tools", json())),
                 http ? QStringLiteral("[\"badroute: property 'n': x-mcp-header is only for a property of type "
                                       "string, integer or boolean\"]")
                      : QStringLiteral("null"));
        QCOMPARE(dumped(tools[0]["server_tool"]), QStringLiteral("\"echo\""));
        QCOMPARE(dumped(tools[0]["inputSchema"]),
                 QStringLiteral("{\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],"
                                "\"type\":\"object\"}"));
        QCOMPARE(dumped(tools[1]["server_tool"]), QStringLiteral("\"add\""));
        QCOMPARE(dumped(tools[1]["outputSchema"]),
                 QStringLiteral("{\"properties\":{\"sum\":{\"type\":\"integer\"}},\"required\":[\"sum\"],"
                                "\"type\":\"object\"}"));
        QCOMPARE(dumped(tools[2]["server_tool"]), QStringLiteral("\"confirm\""));
        QCOMPARE(dumped(tools[3]["server_tool"]), QStringLiteral("\"fail\""));
        QCOMPARE(dumped(tools[4]["server_tool"]), QStringLiteral("\"route\""));
    }
    const CommandResult plain
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path(), QStringLiteral("--trust")});
    QVERIFY2(plain.out.contains("stdio  ready  MCP 2026-07-28 (stateless)  sdk2-server 2.4.0  6 tool(s)\n"),
             plain.out.constData());
    QVERIFY2(plain.out.contains("web  ready  MCP 2026-07-28 (stateless)  sdk2-server 2.4.0  5 tool(s)\n"
                                "  (left out: its x-mcp-header parameters break the rules of MCP 2026-07-28: "
                                "badroute: property 'n': x-mcp-header is only for a property of type string, "
                                "integer or boolean)\n"),
             plain.out.constData());

    for (const QString &server : {QStringLiteral("stdio"), QStringLiteral("web")}) {
        auto call = [&](const char *tool, const char *args) {
            return toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), dir.path(), server, QLatin1String(tool),
                               QStringLiteral("--args"), QString::fromUtf8(args), QStringLiteral("--trust")});
        };
        const CommandResult echoed = call("echo", R"({"text":"héllo"})");
        QVERIFY2(echoed.exitCode == 0, echoed.err.constData());
        QCOMPARE(dumped(json::parse(echoed.out.toStdString(), nullptr, false)),
                 QStringLiteral("{\"content\":[{\"text\":\"héllo\",\"type\":\"text\"}]}"));
        const CommandResult added = call("add", R"({"a":2,"b":3})");
        QVERIFY2(added.exitCode == 0, added.err.constData());
        QCOMPARE(dumped(json::parse(added.out.toStdString(), nullptr, false)), QStringLiteral("{\"sum\":5}"));
        // route: over HTTP the call carries Mcp-Param-Region (a value that is not plain
        // ASCII as =?base64?…?=), which the SDK checks against the body (-32020 if not).
        for (const char *region : {"eu-west1", "süd"}) {
            const CommandResult routed = call(
                "route",
                QStringLiteral(R"({"region":"%1","text":"hi"})").arg(QString::fromUtf8(region)).toUtf8().constData());
            QVERIFY2(routed.exitCode == 0, routed.err.constData());
            QCOMPARE(dumped(json::parse(routed.out.toStdString(), nullptr, false)),
                     QStringLiteral("{\"content\":[{\"text\":\"%1: hi\",\"type\":\"text\"}]}")
                         .arg(QString::fromUtf8(region)));
        }
        const CommandResult failed = call("fail", "{}");
        QCOMPARE(failed.exitCode, 1);
        QVERIFY2(
            failed.err.contains(
                QStringLiteral("toolstudio mcp call: %1__fail failed after 1 attempt(s): tool_failed: out of stock")
                    .arg(server)
                    .toUtf8()),
            failed.err.constData());

        // confirm: the server answers input_required with an embedded elicitation; the
        // step waits for a person, who accepts with toolstudio answer; the studio retries
        // the call with the answer and the server's result comes back.
        QProcess confirm;
        confirm.start(toolstudioBinary(),
                      {QStringLiteral("mcp"), QStringLiteral("call"), dir.path(), server, QStringLiteral("confirm"),
                       QStringLiteral("--args"), QStringLiteral(R"({"item":"box"})"), QStringLiteral("--trust")});
        QVERIFY(confirm.waitForStarted(30000));
        json run;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000 && !run.is_object()) {
            for (const json &entry : runs(dir.path()))
                if (entry.value("status", "") == "running")
                    run = entry;
            if (!run.is_object())
                QTest::qWait(100);
        }
        QVERIFY2(run.is_object(), runs(dir.path()).dump().c_str());
        // `toolstudio answer` is refused until the step waits for the person's answer.
        clock.restart();
        while (stepStatus(dir.path(), run["id"], "try-1") != QLatin1String("waiting") && clock.elapsed() < 60000)
            QTest::qWait(100);
        QCOMPARE(stepStatus(dir.path(), run["id"], "try-1"), QStringLiteral("waiting"));
        const CommandResult answered
            = toolstudio({QStringLiteral("answer"), dir.path(), text(run["id"]), QStringLiteral("try-1"),
                          QStringLiteral("--result"), QStringLiteral(R"({"action":"accept","content":{"ok":true}})")});
        QVERIFY2(answered.exitCode == 0, answered.err.constData());
        QVERIFY(confirm.waitForFinished(60000));
        QCOMPARE(confirm.exitCode(), 0);
        // It said what the server asks and how to answer, not waited silently.
        const QString said = QString::fromUtf8(confirm.readAllStandardError());
        QVERIFY2(said.contains(QStringLiteral("toolstudio mcp call: MCP server '%1' asks (elicitation): ").arg(server)),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("toolstudio mcp call: call try-1 (%1__confirm, attempt 1) waits for an "
                                              "answer: toolstudio answer %2 %3 try-1 --question 1 --result JSON")
                                   .arg(server, dir.path(), text(run["id"]))),
                 qPrintable(said));
        QCOMPARE(dumped(json::parse(confirm.readAllStandardOutput().toStdString(), nullptr, false)),
                 QStringLiteral("{\"content\":[{\"text\":\"shipped box\",\"type\":\"text\"}]}"));
    }
}

QTEST_GUILESS_MAIN(TestMcpSdk2)
#include "tst_mcpsdk2.moc"
