// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The studio's MCP server at `POST /mcp` on `toolstudio serve` with 2025 clients:
// sessions (opened, used, deleted), what it refuses (a missing token, a foreign Origin,
// no session, a batch, a revision it does not speak), two clients on one session, the
// cap on calls running at once, and `--step-mode` (every call held, decided through the
// decision route or `toolstudio answer`).

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "mcprequests.h"
#include "servedproject.h"
#include "servedruns.h"
#include "serverprocess.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <vector>

using nlohmann::json;

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

class TestMcpServerHttp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void httpSessions();
    void httpRefusals();
    void httpTwoClientsOneSession();
    void httpRunningCallsCapped();
    void httpStepMode();
};

void TestMcpServerHttp::httpSessions()
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

void TestMcpServerHttp::httpRefusals()
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

void TestMcpServerHttp::httpTwoClientsOneSession()
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
void TestMcpServerHttp::httpRunningCallsCapped()
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

// `toolstudio serve --step-mode` (docs/server.md "Step mode for served calls"): every
// MCP call is held; pending lists it held, `toolstudio answer` is refused, and the
// decision route (or `toolstudio answer --continue / --instead`) decides it.
void TestMcpServerHttp::httpStepMode()
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

QTEST_GUILESS_MAIN(TestMcpServerHttp)
#include "tst_mcpserverhttp.moc"
