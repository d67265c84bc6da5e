// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The studio as an MCP server over stdio (issue 22 item 3): `toolstudio serve
// --mcp-stdio` with a 2025 client driven by raw JSON-RPC: initialize and the revisions
// it settles on, a list and a call (a durable step of a served run, named by a printable
// client name), the bad inputs (malformed JSON, batches, ids of every type, deep JSON,
// an oversized line, unknown methods and tools), tool errors and a result over 1 MiB, a
// client that leaves mid-call, cancels a call or does not read, and `--studio-tools`.
// The 2026-07-28 era is tst_mcpservermodern's, HTTP sessions tst_mcpserverhttp's, tool
// list changes tst_mcpserverlistchanges's, other clients tst_mcpserverclients's.

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "mcprequests.h"
#include "servedproject.h"
#include "servedruns.h"
#include "serverprocess.h"
#include "stdioserver.h"
#include "testfiles.h"
#include "waitingrun.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using nlohmann::json;

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
    void stdioClientCancelsACall();
    void stdioClientNotReading();
    void stdioStudioTools();
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

QTEST_GUILESS_MAIN(TestMcpServer)
#include "tst_mcpserver.moc"
