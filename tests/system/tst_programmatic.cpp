// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Seed 003's API on `toolstudio serve` (issue 22, part 2): the issue's curl commands
// unchanged against the default port 3112, a Python urllib client looping while the
// status is tool_call_required (several calls in one round, many rounds, is_error,
// an undeclared tool, Bash, files in and out, /v1/exec), and the bad inputs: malformed
// JSON, unknown fields, forged and reused tokens, unknown call ids, a result over
// 1 MiB, an expired session, a timeout, two clients continuing one session at once.
// A session outlives a restart of the studio (SIGTERM or SIGKILL while it waits for
// tool results): the client continues with its token.

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "clirunner.h"
#include "serverprocess.h"
#include "testfiles.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <vector>

namespace {

/// A project with no tools of its own: a served session's tools are the request's.
void writeEmptyProject(const QString &dir)
{
    QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), "{\"name\": \"served\", \"tools\": []}\n"));
}

// clang-format off
/// The issue's first command, as it is printed there.
const char *const SeedFirst = R"~(curl -sX POST http://localhost:3112/v1/exec/programmatic -H 'Content-Type: application/json' -d '{
  "language": "python",
  "code": "rate = get_exchange_rate(base=\"USD\", quote=\"EUR\")\nprint(f\"100 USD = {100 * rate} EUR\")",
  "tools": [{"name": "get_exchange_rate", "description": "Return the exchange rate between two currencies.",
             "parameters": {"type": "object", "properties": {"base": {"type": "string"}, "quote": {"type": "string"}},
                            "required": ["base", "quote"]}}]}')~";

/// The issue's second command; its session id, token and call id are the page's
/// examples, replaced by those of the first reply.
const char *const SeedSecond = R"~(curl -sX POST http://localhost:3112/v1/exec/programmatic -H 'Content-Type: application/json' -d '{
  "code": "", "session_id": "Kd8vN2mPxQ7wLzR4bYtCa", "continuation_token": "eyJhbGciOi...",
  "tool_results": [{"call_id": "call_7fZq2NkP", "result": 0.92}]}')~";
// clang-format on

/// A shell command line's output (curl -s prints the body only) parsed as JSON.
nlohmann::json shell(const QString &commandLine)
{
    QProcess process;
    process.start(QStringLiteral("sh"), {QStringLiteral("-c"), commandLine});
    process.waitForFinished(120000);
    return nlohmann::json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
}

/// A client of seed 003's API written with Python's urllib, as a code interpreter's
/// client is: POSTs the request, then loops while the status is tool_call_required,
/// answering each call from `answers` by tool name ({"echo": true} returns the call's
/// arguments, {"result": V} returns V, {"error": M} reports is_error with M). Prints
/// {"rounds": [[tool names of each round]], "final": last body, "http": its status}.
const char *const LoopClient = R"~(
import json, sys, urllib.request, urllib.error
spec = json.load(sys.stdin)
def post(body):
    req = urllib.request.Request(spec["url"], data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        r = urllib.request.urlopen(req, timeout=120)
        return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)
rounds = []
status, reply = post(spec["request"])
while status == 200 and reply["status"] == "tool_call_required":
    rounds.append([c["name"] for c in reply["tool_calls"]])
    results = []
    for call in reply["tool_calls"]:
        answer = spec["answers"][call["name"]]
        if "error" in answer:
            results.append({"call_id": call["id"], "result": None, "is_error": True, "error_message": answer["error"]})
        else:
            results.append({"call_id": call["id"], "result": call["arguments"] if answer.get("echo") else answer["result"]})
    status, reply = post({"session_id": reply["session_id"], "continuation_token": reply["continuation_token"],
                          "tool_results": results})
print(json.dumps({"rounds": rounds, "final": reply, "http": status}))
)~";

nlohmann::json loopClient(const QString &url, const nlohmann::json &request, const nlohmann::json &answers)
{
    QProcess process;
    process.start(QStringLiteral("python3"), {QStringLiteral("-c"), QString::fromUtf8(LoopClient)});
    process.waitForStarted();
    process.write(QByteArray::fromStdString(
        nlohmann::json{{"url", url.toStdString()}, {"request", request}, {"answers", answers}}.dump()));
    process.closeWriteChannel();
    process.waitForFinished(180000);
    const QByteArray out = process.readAllStandardOutput();
    if (out.isEmpty())
        qWarning("%s", process.readAllStandardError().constData());
    return nlohmann::json::parse(out.toStdString(), nullptr, false);
}

/// A POST with curl, the body from stdin.
HttpReply post(const Server &server, const char *path, const nlohmann::json &body)
{
    return curl({QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                 QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                 QStringLiteral("@-"), server.url(path)},
                QByteArray::fromStdString(body.dump()));
}

HttpReply postRaw(const Server &server, const QByteArray &body)
{
    return curl({QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                 QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                 QStringLiteral("@-"), server.url("/v1/exec/programmatic")},
                body);
}

/// One tool `step(n)` the client answers; the program calls it twice in a row.
nlohmann::json twoStepRequest(const std::string &extraCode = {})
{
    return {{"code", "a = step(n=1)\nb = step(n=2)\n" + extraCode + "print(a, b)\n"},
            {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}};
}

nlohmann::json continuation(const HttpReply &reply, const nlohmann::json &results)
{
    return {{"session_id", reply.body.value("session_id", "")},
            {"continuation_token", reply.body.value("continuation_token", "")},
            {"tool_results", results}};
}

const char *const RateTool
    = R"~([{"name": "get_exchange_rate", "parameters": {"type": "object", "properties": {"base": {"type": "string"}, "quote": {"type": "string"}}}}])~";

/// A request {"code": CODE, "tools": RateTool} (plus `extra` members).
QByteArray rateRequest(const std::string &code, const nlohmann::json &extra = nlohmann::json::object())
{
    nlohmann::json request = {{"code", code}, {"tools", nlohmann::json::parse(RateTool)}};
    request.update(extra);
    return QByteArray::fromStdString(request.dump());
}

/// GET /v1/runs/{session}/pending until the call `callId` waits (at most 60 s): the
/// pending list as JSON text, the last one seen.
QString pendingOnceItWaits(const Server &server, const QString &session, const char *callId)
{
    QElapsedTimer clock;
    clock.start();
    QString waiting;
    const QString quoted = QLatin1Char('"') + QLatin1String(callId) + QLatin1Char('"');
    while (clock.elapsed() < 60000) {
        HttpReply pending = curl({server.url("/v1/runs/") + session + QStringLiteral("/pending")});
        waiting = dumped(pending.body.value("pending", nlohmann::json()));
        if (waiting.contains(quoted))
            break;
        QThread::msleep(100);
    }
    return waiting;
}

/// Continues `reply` with `result` for call `callId`; the session must complete.
void continueToTheEnd(const Server &server, const HttpReply &reply, const char *callId, int result,
                      const QString &stdoutText, int callsMade)
{
    HttpReply done
        = post(server, "/v1/exec/programmatic", continuation(reply, {{{"call_id", callId}, {"result", result}}}));
    QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
    QCOMPARE(text(done.body.value("stdout", "")), stdoutText);
    QCOMPARE(done.body.value("tool_calls_made", -1), callsMade);
}

/// The seed page's first request (its example, as JSON).
nlohmann::json seedRequest()
{
    return {{"language", "python"},
            {"code", "rate = get_exchange_rate(base=\"USD\", quote=\"EUR\")\nprint(f\"100 USD = {100 * rate} EUR\")"},
            {"tools",
             {{{"name", "get_exchange_rate"},
               {"description", "Return the exchange rate between two currencies."},
               {"parameters",
                {{"type", "object"},
                 {"properties", {{"base", {{"type", "string"}}}, {"quote", {{"type", "string"}}}}},
                 {"required", {"base", "quote"}}}}}}}};
}

/// Stops `server` as `how` says ("SIGTERM" or "SIGKILL") and serves `dir` again in it.
bool restart(Server &server, const QString &dir, const QByteArray &how, const QStringList &extra = {})
{
    if (how == "SIGKILL") {
        server.process.kill();
        server.process.waitForFinished(30000);
    } else {
        server.stop();
    }
    server.out.clear();
    server.err.clear();
    return server.start(dir, extra);
}

} // namespace

class TestProgrammatic : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!toolstudioBinary().isEmpty(), "TOOLSTUDIO_BINARY is not set (run through ctest)");
        if (QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty())
            QSKIP("curl is not installed (apt-get install curl): these tests drive the server with the real curl");
        writeEmptyProject(m_dir.path());
        QVERIFY2(m_server.start(m_dir.path()), m_server.err.constData());
    }

    // The issue's two curl commands, unchanged, against `toolstudio serve` on its
    // default port 3112; the session is a run of kind `served` in the journal.
    void seedCurlFlow()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        if (!server.start(dir.path(), {}, 3112)) {
            if (server.err.contains("in use"))
                QSKIP("port 3112 is in use on this machine: the issue's curl commands need it");
            QFAIL(server.err.constData());
        }
        nlohmann::json first = shell(QString::fromUtf8(SeedFirst));
        QCOMPARE(text(first.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(
            dumped(first.value("tool_calls", nlohmann::json())),
            QStringLiteral(R"~([{"arguments":{"base":"USD","quote":"EUR"},"id":"c1","name":"get_exchange_rate"}])~"));
        QCOMPARE(text(first.value("partial_stdout", "x")), QString());
        QCOMPARE(text(first.value("partial_stderr", "x")), QString());
        const QString session = text(first.value("session_id", ""));
        const QString token = text(first.value("continuation_token", ""));
        QCOMPARE(token.size(), 43); // 32 random bytes, base64url
        QString second = QString::fromUtf8(SeedSecond);
        second.replace(QStringLiteral("Kd8vN2mPxQ7wLzR4bYtCa"), session)
            .replace(QStringLiteral("eyJhbGciOi..."), token)
            .replace(QStringLiteral("call_7fZq2NkP"), QStringLiteral("c1"));
        nlohmann::json done = shell(second);
        QCOMPARE(text(done.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.value("session_id", "")), session);
        QCOMPARE(text(done.value("stdout", "")), QStringLiteral("100 USD = 92.0 EUR\n"));
        QCOMPARE(text(done.value("stderr", "x")), QString());
        QCOMPARE(dumped(done.value("files", nlohmann::json())), QStringLiteral("[]"));
        QCOMPARE(done.value("tool_calls_made", -1), 1);
        QVERIFY(done.value("execution_time", nlohmann::json()).is_number_integer());

        // The session is a run of kind `served`, its call a step with the client's result.
        HttpReply run = curl({server.url("/v1/runs/") + session});
        QCOMPARE(run.status, 200);
        QCOMPARE(text(run.body["run"].value("kind", "")), QStringLiteral("served"));
        QCOMPARE(text(run.body["run"].value("status", "")), QStringLiteral("completed"));
        QCOMPARE(dumped(run.body["steps"][0].value("result", nlohmann::json())), QStringLiteral("0.92"));

        // The same continuation again: the session has ended.
        nlohmann::json again = shell(second);
        QCOMPARE(text(again.value("status", "")), QStringLiteral("error"));
        QCOMPARE(text(again["error"].value("code", "")), QStringLiteral("session_ended"));
    }

    void pythonClient_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<QByteArray>("answers");
        QTest::addColumn<QString>("rounds");
        QTest::addColumn<QString>("stdoutText");
        QTest::addColumn<int>("callsMade");

        QTest::newRow("seed example") << rateRequest("rate = get_exchange_rate(base=\"USD\", quote=\"EUR\")\n"
                                                     "print(f\"100 USD = {100 * rate} EUR\")")
                                      << QByteArray(R"~({"get_exchange_rate": {"result": 0.92}})~")
                                      << QStringLiteral(R"~([["get_exchange_rate"]])~")
                                      << QStringLiteral("100 USD = 92.0 EUR\n") << 1;
        QTest::newRow("positional arguments by the schema's order")
            << rateRequest("print(get_exchange_rate('USD', 'EUR'))")
            << QByteArray(R"~({"get_exchange_rate": {"echo": true}})~")
            << QStringLiteral(R"~([["get_exchange_rate"]])~") << QStringLiteral("{'base': 'USD', 'quote': 'EUR'}\n")
            << 1;
        QTest::newRow("three calls in flight, one round") << QByteArray::fromStdString(nlohmann::json{
            {"code",
             "import asyncio\nfrom toolstudio import tools\n"
             "async def main():\n"
             "    got = await asyncio.gather(*(tools.lookup(key=k) for k in 'abc'))\n"
             "    print([g['key'] for g in got])\n"
             "asyncio.run(main())"},
            {"tools", {{{"name", "lookup"}}}}}.dump()) << QByteArray(R"~({"lookup": {"echo": true}})~")
                                                          << QStringLiteral(R"~([["lookup","lookup","lookup"]])~")
                                                          << QStringLiteral("['a', 'b', 'c']\n") << 3;
        QTest::newRow("three rounds") << QByteArray::fromStdString(nlohmann::json{
            {"code",
             "total = 0\n"
             "for i in range(3):\n"
             "    total += add(n=i)['n']\n"
             "    print('round', i, flush=True)\n"
             "print('total', total)"},
            {"tools", {{{"name", "add"}}}}}.dump())
                                      << QByteArray(R"~({"add": {"echo": true}})~")
                                      << QStringLiteral(R"~([["add"],["add"],["add"]])~")
                                      << QStringLiteral("round 0\nround 1\nround 2\ntotal 3\n") << 3;
        QTest::newRow("is_error reaches the program as a ToolError")
            << rateRequest("try:\n"
                           "    get_exchange_rate(base='USD', quote='EUR')\n"
                           "except ToolError as e:\n"
                           "    print('failed:', e.code, e.message)")
            << QByteArray(R"~({"get_exchange_rate": {"error": "Rate provider timed out"}})~")
            << QStringLiteral(R"~([["get_exchange_rate"]])~")
            << QStringLiteral("failed: tool_failed Rate provider timed out\n") << 1;
        QTest::newRow("an undeclared tool is refused with unknown_tool")
            << rateRequest("from toolstudio import tools\n"
                           "try:\n"
                           "    tools.convert(amount=1)\n"
                           "except ToolError as e:\n"
                           "    print(e.code)")
            << QByteArray("{}") << QStringLiteral("[]") << QStringLiteral("unknown_tool\n") << 1;
        QTest::newRow("bash: the tool command")
            << rateRequest("rate=$(tool get_exchange_rate base=USD quote=EUR)\necho \"rate $rate\"",
                           {{"language", "bash"}})
            << QByteArray(R"~({"get_exchange_rate": {"result": 0.92}})~")
            << QStringLiteral(R"~([["get_exchange_rate"]])~") << QStringLiteral("rate 0.92\n") << 1;
    }

    // Python's urllib as a code interpreter's client: loops while tool_call_required.
    void pythonClient()
    {
        QFETCH(QByteArray, request);
        QFETCH(QByteArray, answers);
        QFETCH(QString, rounds);
        QFETCH(QString, stdoutText);
        QFETCH(int, callsMade);
        nlohmann::json out
            = loopClient(m_server.url("/v1/exec/programmatic"), nlohmann::json::parse(request.toStdString()),
                         nlohmann::json::parse(answers.toStdString()));
        QVERIFY2(out.is_object(), "the client printed no JSON");
        nlohmann::json &final = out["final"];
        QVERIFY2(out.value("http", 0) == 200, out.dump().c_str());
        QCOMPARE(text(final.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(dumped(out["rounds"]), rounds);
        QCOMPARE(text(final.value("stdout", "")), stdoutText);
        QCOMPARE(text(final.value("stderr", "x")), QString());
        QCOMPARE(final.value("tool_calls_made", -1), callsMade);
        QCOMPARE(final.value("exit_code", -1), 0);
    }

    // `files` in and out: names and base64 contents; only new or changed files come back.
    void filesInAndOut()
    {
        nlohmann::json out = loopClient(
            m_server.url("/v1/exec"),
            {{"code", "data = open('in/data.txt').read()\nopen('out.txt', 'w').write(data.upper())\nprint(len(data))"},
             {"files", {{{"name", "in/data.txt"}, {"content", "aGVsbG8gd29ybGQ="}}}}},
            nlohmann::json::object());
        nlohmann::json &final = out["final"];
        QCOMPARE(text(final.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(final.value("stdout", "")), QStringLiteral("11\n"));
        QCOMPARE(dumped(final["files"]), QStringLiteral(R"~([{"content":"SEVMTE8gV09STEQ=","name":"out.txt"}])~"));
        QCOMPARE(final.value("tool_calls_made", -1), 0);
    }

    // /v1/exec: code without tools; a non-zero exit is a completed program with its status.
    void execWithoutTools()
    {
        HttpReply reply
            = post(m_server, "/v1/exec", {{"code", "import sys\nprint(6 * 7)\nsys.exit(3)"}, {"lang", "python"}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(text(reply.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(reply.body.value("stdout", "")), QStringLiteral("42\n"));
        QCOMPARE(reply.body.value("exit_code", -1), 3);
        HttpReply tools = post(m_server, "/v1/exec", {{"code", "print(1)"}, {"tools", nlohmann::json::array()}});
        QCOMPARE(tools.status, 400);
        QCOMPARE(errorCode(tools), QByteArray("unknown_field"));
        QCOMPARE(errorMessage(tools),
                 QByteArray("unknown field 'tools' in the request (fields: code, language, lang, files, timeout); "
                            "tools and continuations are for POST /v1/exec/programmatic"));
    }

    void badRequests_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("code");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("malformed JSON")
            << QByteArray(R"~({"code": )~") << 400 << QByteArray("invalid_json")
            << QByteArray("the body is not valid JSON: syntax error while parsing value - unexpected end of input; "
                          "expected '[', '{', or a literal (byte offset 9)");
        QTest::newRow("unknown field")
            << QByteArray(R"~({"code": "print(1)", "langauge": "python"})~") << 400 << QByteArray("unknown_field")
            << QByteArray("unknown field 'langauge' in the request (fields: code, language, lang, tools, files, "
                          "timeout, session_id, continuation_token, tool_results)");
        QTest::newRow("unknown field in a tool")
            << QByteArray(R"~({"code": "print(1)", "tools": [{"name": "a", "input_schema": {}}]})~") << 400
            << QByteArray("unknown_field")
            << QByteArray("unknown field 'input_schema' in tools[0] (fields: name, description, parameters)");
        QTest::newRow("unknown field in a result")
            << QByteArray(
                   R"~({"session_id": "s", "continuation_token": "t", "tool_results": [{"call_id": "c1", "value": 1}]})~")
            << 400 << QByteArray("unknown_field")
            << QByteArray(
                   "unknown field 'value' in tool_results[0] (fields: call_id, result, is_error, error_message)");
        QTest::newRow("unsupported language")
            << QByteArray(R"~({"code": "puts 1", "language": "ruby"})~") << 400 << QByteArray("unsupported_language")
            << QByteArray("language 'ruby' is not supported: use \"python\" or \"bash\"");
        QTest::newRow("tools on a continuation")
            << QByteArray(R"~({"session_id": "s", "continuation_token": "t", "tool_results": [], "tools": []})~") << 400
            << QByteArray("bad_request")
            << QByteArray("'tools' belongs to the request that starts a session; a continuation sends session_id, "
                          "continuation_token and tool_results");
        QTest::newRow("unknown session")
            << QByteArray(R"~({"session_id": "nope", "continuation_token": "t", "tool_results": []})~") << 404
            << QByteArray("unknown_session")
            << QByteArray("no session 'nope' on this server: a session_id comes from a tool_call_required response "
                          "of this server");
        QTest::newRow("bad base64") << QByteArray(
            R"~({"code": "print(1)", "files": [{"name": "a.txt", "content": "@@"}]})~")
                                    << 400 << QByteArray("bad_request")
                                    << QByteArray("files[0]: the content of 'a.txt' is not valid base64");
        QTest::newRow("file outside the work dir")
            << QByteArray(R"~({"code": "print(1)", "files": [{"name": "../a.txt", "content": ""}]})~") << 400
            << QByteArray("bad_request")
            << QByteArray("files[0]: 'name' must be a relative path such as \"data/input.csv\" (no '..', no leading "
                          "'/', at most 255 bytes)");
    }

    // Bad input: an error status, {"status": "error", "error": {"code", "message"}}.
    void badRequests()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QByteArray, code);
        QFETCH(QByteArray, message);
        HttpReply reply = postRaw(m_server, body);
        QCOMPARE(reply.status, status);
        QCOMPARE(text(reply.body.value("status", "")), QStringLiteral("error"));
        QCOMPARE(errorCode(reply), code);
        QCOMPARE(errorMessage(reply), message);
    }

    // A forged token, an unknown call id and a result over 1 MiB are refused without
    // using the token up; a token works once (reused: refused); the session goes on.
    void tokensAndCallIds()
    {
        HttpReply first = post(m_server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));

        nlohmann::json forged = continuation(first, {{{"call_id", "c1"}, {"result", 10}}});
        forged["continuation_token"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        HttpReply refused = post(m_server, "/v1/exec/programmatic", forged);
        QCOMPARE(refused.status, 403);
        QCOMPARE(errorCode(refused), QByteArray("invalid_token"));
        QCOMPARE(errorMessage(refused),
                 QByteArray("the continuation_token is not the current one of session " + session.toUtf8()
                            + ": a token works once, for the session whose latest response issued it"));

        HttpReply unknownCall
            = post(m_server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c9"}, {"result", 10}}}));
        QCOMPARE(unknownCall.status, 404);
        QCOMPARE(errorCode(unknownCall), QByteArray("unknown_call"));
        QCOMPARE(errorMessage(unknownCall),
                 QByteArray("session " + session.toUtf8()
                            + " has no call 'c9' waiting for a result; the calls waiting are: c1"));

        HttpReply tooLarge = post(m_server, "/v1/exec/programmatic",
                                  continuation(first, {{{"call_id", "c1"}, {"result", std::string(1 << 20, 'x')}}}));
        QCOMPARE(tooLarge.status, 413);
        QCOMPARE(errorCode(tooLarge), QByteArray("result_too_large"));
        QCOMPARE(errorMessage(tooLarge),
                 QByteArray("tool_results[0]: the result of call 'c1' is 1048578 bytes as compact JSON; a result may "
                            "have at most 1048576 bytes (1 MiB)"));

        const nlohmann::json good = continuation(first, {{{"call_id", "c1"}, {"result", 10}}});
        HttpReply second = post(m_server, "/v1/exec/programmatic", good);
        QCOMPARE(second.status, 200);
        QCOMPARE(text(second.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(second.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QVERIFY(second.body.value("continuation_token", "") != first.body.value("continuation_token", ""));

        // The used token again (a client whose reply was lost retries): the same reply,
        // with the current token; the result is not delivered twice.
        HttpReply reused = post(m_server, "/v1/exec/programmatic", good);
        QCOMPARE(reused.status, 200);
        QCOMPARE(dumped(reused.body), dumped(second.body));
        // The current token with no results lists the call that waits again; the first
        // token is then two continuations old: refused.
        HttpReply listed = post(m_server, "/v1/exec/programmatic", continuation(second, nlohmann::json::array()));
        QCOMPARE(listed.status, 200);
        QCOMPARE(dumped(listed.body["tool_calls"]), dumped(second.body["tool_calls"]));
        HttpReply tooOld = post(m_server, "/v1/exec/programmatic", good);
        QCOMPARE(tooOld.status, 403);
        QCOMPARE(errorCode(tooOld), QByteArray("invalid_token"));
        second = listed;

        HttpReply done
            = post(m_server, "/v1/exec/programmatic", continuation(second, {{{"call_id", "c2"}, {"result", 20}}}));
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("10 20\n"));
        QCOMPARE(done.body.value("tool_calls_made", -1), 2);
    }

    // A person ends a served call first (here through seed 004's route, as the window's
    // Pending Calls dock or `toolstudio answer` would): the client's result for it is
    // refused with the reason, and the session goes on with the next call.
    void answeredByAPersonFirst()
    {
        HttpReply first = post(m_server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        HttpReply byPerson = post(m_server, ("/v1/runs/" + session.toUtf8() + "/calls/c1").constData(),
                                  {{"type", "tool.result"}, {"id", "c1"}, {"result", 5}});
        QCOMPARE(byPerson.status, 200);
        // The program goes on to its second call (the journal shows it waiting).
        const QString waiting = pendingOnceItWaits(m_server, session, "c2");
        QVERIFY2(waiting.contains(QLatin1String("\"c2\"")), qPrintable(waiting));
        HttpReply late
            = post(m_server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 10}}}));
        QCOMPARE(late.status, 409);
        QCOMPARE(errorCode(late), QByteArray("already_ended"));
        QCOMPARE(errorMessage(late),
                 QByteArray("call 'c1' already has a result, given by a person (in the window, with toolstudio answer "
                            "or POST /v1/runs/{run}/calls/{call_id}); nothing was delivered"));
        // The token is still good: an empty continuation lists the call that waits now.
        HttpReply next = post(m_server, "/v1/exec/programmatic", continuation(first, nlohmann::json::array()));
        QCOMPARE(dumped(next.body.value("tool_calls", nlohmann::json())),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        HttpReply done
            = post(m_server, "/v1/exec/programmatic", continuation(next, {{{"call_id", "c2"}, {"result", 6}}}));
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("5 6\n"));
    }

    // Two clients continue one session with the same token at once: one goes on, the
    // other gets 409 session_busy (the program sleeps after the result, so the first
    // is still being answered when the second arrives). The body goes as an argument:
    // stdin written to a second QProcess would wait for the first to finish.
    void twoClientsAtOnce()
    {
        HttpReply first
            = post(m_server, "/v1/exec/programmatic",
                   {{"code", "import time\nv = step()\ntime.sleep(4)\nprint(v)\n"}, {"tools", {{{"name", "step"}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QByteArray body
            = QByteArray::fromStdString(continuation(first, {{{"call_id", "c1"}, {"result", "ok"}}}).dump());
        QList<QProcess *> clients;
        for (int i = 0; i < 2; ++i) {
            auto *process = new QProcess(this);
            process->start(QStringLiteral("curl"),
                           {QStringLiteral("-s"), QStringLiteral("-w"), QStringLiteral("\n%{http_code}"),
                            QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("--data-binary"),
                            QString::fromUtf8(body), m_server.url("/v1/exec/programmatic")});
            clients << process;
        }
        QStringList statuses;
        QByteArray busyBody;
        for (QProcess *process : std::as_const(clients)) {
            QVERIFY(process->waitForFinished(60000));
            const QByteArray out = process->readAllStandardOutput();
            const QByteArray status = out.mid(out.lastIndexOf('\n') + 1);
            statuses << QString::fromLatin1(status);
            if (status == "409")
                busyBody = out.left(out.lastIndexOf('\n'));
            delete process;
        }
        statuses.sort();
        QCOMPARE(statuses, QStringList({QStringLiteral("200"), QStringLiteral("409")}));
        nlohmann::json busy = nlohmann::json::parse(busyBody.toStdString(), nullptr, false);
        QCOMPARE(text(busy["error"].value("code", "")), QStringLiteral("session_busy"));
    }

    // A client posts a continuation and closes its connection before the reply (curl
    // --max-time 1; the program sleeps 3 s after the result): the server goes on
    // serving other clients, and the session stays usable: the same continuation again
    // gets the reply that was lost, and the session completes.
    void clientDisconnectsMidSession()
    {
        HttpReply first = post(m_server, "/v1/exec/programmatic",
                               {{"code", "import time\nv = step(n=1)\ntime.sleep(3)\nw = step(n=2)\nprint(v, w)\n"},
                                {"tools", {{{"name", "step"}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        const nlohmann::json body = continuation(first, {{{"call_id", "c1"}, {"result", 1}}});
        HttpReply cut
            = curl({QStringLiteral("--max-time"), QStringLiteral("1"), QStringLiteral("-X"), QStringLiteral("POST"),
                    QStringLiteral("--data-binary"), QStringLiteral("@-"), m_server.url("/v1/exec/programmatic")},
                   QByteArray::fromStdString(body.dump()));
        QCOMPARE(cut.status, 0); // no reply: curl gave up and closed the connection

        // Another client is served meanwhile.
        HttpReply other = post(m_server, "/v1/exec", {{"code", "print('other')"}});
        QCOMPARE(other.status, 200);
        QCOMPARE(text(other.body.value("stdout", "")), QStringLiteral("other\n"));

        // Once the program waits for c2 (the journal says so), the lost reply is asked again.
        const QString waiting = pendingOnceItWaits(m_server, session, "c2");
        QVERIFY2(waiting.contains(QLatin1String("\"c2\"")), qPrintable(waiting));
        HttpReply again = post(m_server, "/v1/exec/programmatic", body);
        QCOMPARE(again.status, 200);
        QCOMPARE(text(again.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(again.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        continueToTheEnd(m_server, again, "c2", 2, QStringLiteral("1 2\n"), 2);
    }

    // The wait hint is untrusted input: a script that sends it in a flood, with any
    // content, before and between its calls, and never calls at all, is served as
    // any other; its calls still come back (the hint just says "reply now").
    void waitHintFlood()
    {
        const std::string code = "import os\n"
                                 "fd = int(os.environ['TOOLSTUDIO_BRIDGE_FD'])\n"
                                 "hint = b'{\"type\":\"wait\"}\\n' + b'{\"type\":\"wait\",\"x\":[1,{\"y\":null}]}\\n'\n"
                                 "for _ in range(20000):\n"
                                 "    os.write(fd, hint)\n"
                                 "a = step(n=1)\n"
                                 "for _ in range(20000):\n"
                                 "    os.write(fd, hint)\n"
                                 "print(a)\n";
        HttpReply first = post(m_server, "/v1/exec/programmatic", {{"code", code}, {"tools", {{{"name", "step"}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(first.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":1},"id":"c1","name":"step"}])~"));
        continueToTheEnd(m_server, first, "c1", 7, QStringLiteral("7\n"), 1);
    }

    // `timeout` spans the whole loop; a program over it is stopped: status error.
    void timeoutStopsTheProgram()
    {
        HttpReply reply = post(m_server, "/v1/exec/programmatic",
                               {{"code", "import time\nprint('start', flush=True)\ntime.sleep(60)"}, {"timeout", 1}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(text(reply.body.value("status", "")), QStringLiteral("error"));
        QCOMPARE(text(reply.body["error"].value("code", "")), QStringLiteral("timeout"));
        QCOMPARE(text(reply.body["error"].value("message", "")),
                 QStringLiteral("the program did not finish within its timeout of 1 s (time spent waiting for tool "
                                "results counts); it was stopped"));
        QCOMPARE(text(reply.body.value("stdout", "")), QStringLiteral("start\n"));
    }

    // A paused session nobody continues expires (--session-expiry 1): its program is
    // stopped, and a late continuation gets 410 session_expired.
    void expiredSession()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path(), {QStringLiteral("--session-expiry"), QStringLiteral("1")}),
                 server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        // Wait until the run has ended (the expiry stopped it), as the journal says.
        QElapsedTimer clock;
        clock.start();
        QString status;
        while (clock.elapsed() < 60000) {
            status = text(curl({server.url("/v1/runs/") + session}).body["run"].value("status", ""));
            if (status == QLatin1String("cancelled"))
                break;
            QThread::msleep(200);
        }
        QCOMPARE(status, QStringLiteral("cancelled"));
        HttpReply late
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QCOMPARE(late.status, 410);
        QCOMPARE(errorCode(late), QByteArray("session_expired"));
        QCOMPARE(errorMessage(late),
                 QByteArray("session " + session.toUtf8()
                            + " expired: no continuation came within 1 s (toolstudio serve --session-expiry); its "
                              "program was stopped"));
    }

    // A session waiting for tool results outlives its studio: stopped (SIGTERM) or
    // killed (SIGKILL) and started again, the server goes on with it when the client
    // continues with its token. Only the token's SHA-256 is kept on disk.
    void restartKeepsTheSession_data()
    {
        QTest::addColumn<QByteArray>("how");
        QTest::newRow("SIGTERM") << QByteArray("SIGTERM");
        QTest::newRow("SIGKILL") << QByteArray("SIGKILL");
    }
    void restartKeepsTheSession()
    {
        QFETCH(QByteArray, how);
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", seedRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(
            dumped(first.body["tool_calls"]),
            QStringLiteral(R"~([{"arguments":{"base":"USD","quote":"EUR"},"id":"c1","name":"get_exchange_rate"}])~"));
        const QString session = text(first.body.value("session_id", ""));
        const QByteArray token = QByteArray::fromStdString(first.body.value("continuation_token", ""));
        QVERIFY(restart(server, dir.path(), how));

        // What the server kept of the session (docs/server.md "A restart"): every file
        // it has there, 0600, without the token.
        QByteArray kept;
        const QDir served(dir.path() + QStringLiteral("/.toolstudio/served"));
        const QStringList files = served.entryList({session + QStringLiteral(".*")}, QDir::Files);
        QCOMPARE(files.size(), 2); // the start request and the state
        for (const QString &name : files) {
            QFile file(served.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                     QFileDevice::Permissions());
            kept += file.readAll();
        }
        QVERIFY2(!kept.contains(token), kept.constData());
        QVERIFY2(kept.contains(QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex()), kept.constData());

        HttpReply done
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 0.92}}}));
        QCOMPARE(done.status, 200);
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.body.value("session_id", "")), session);
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("100 USD = 92.0 EUR\n"));
        QCOMPARE(text(done.body.value("stderr", "x")), QString());
        QCOMPARE(done.body.value("tool_calls_made", -1), 1);

        // One run, resumed: one step with the client's result.
        HttpReply run = curl({server.url("/v1/runs/") + session});
        QCOMPARE(text(run.body["run"].value("kind", "")), QStringLiteral("served"));
        QCOMPARE(text(run.body["run"].value("status", "")), QStringLiteral("completed"));
        QCOMPARE(run.body["steps"].size(), std::size_t(1));
        QCOMPARE(text(run.body["steps"][0].value("call_id", "")), QStringLiteral("c1"));
        QCOMPARE(dumped(run.body["steps"][0].value("result", nlohmann::json())), QStringLiteral("0.92"));
        QCOMPARE(text(run.body["output"].value("stdout", "")), QStringLiteral("100 USD = 92.0 EUR\n"));

        // Its end outlives a restart too.
        QVERIFY(restart(server, dir.path(), how));
        HttpReply again
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 0.92}}}));
        QCOMPARE(again.status, 410);
        QCOMPARE(errorCode(again), QByteArray("session_ended"));
    }

    // A program paused at its second call, killed and revived: the first call is
    // answered from the journal (not asked again), the second gets the client's result,
    // the output is the whole program's once; partial output already sent is not sent twice.
    void restartMemoizesEarlierCalls()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        const nlohmann::json request
            = {{"code", "print('start')\na = step(n=1)\nprint('a', a)\nb = step(n=2)\nprint(a, b)\n"},
               {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}};
        HttpReply first = post(server, "/v1/exec/programmatic", request);
        QCOMPARE(text(first.body.value("partial_stdout", "")), QStringLiteral("start\n"));
        HttpReply second
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
        QCOMPARE(dumped(second.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QCOMPARE(text(second.body.value("partial_stdout", "")), QStringLiteral("a 7\n"));
        const QString session = text(second.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGKILL"));

        HttpReply done
            = post(server, "/v1/exec/programmatic", continuation(second, {{{"call_id", "c2"}, {"result", 8}}}));
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("start\na 7\n7 8\n"));
        QCOMPARE(done.body.value("tool_calls_made", -1), 2);
        HttpReply run = curl({server.url("/v1/runs/") + session});
        QCOMPARE(run.body["steps"].size(), std::size_t(2));
        QCOMPARE(dumped(run.body["steps"][0].value("result", nlohmann::json())), QStringLiteral("7"));
        QCOMPARE(dumped(run.body["steps"][1].value("result", nlohmann::json())), QStringLiteral("8"));
        QCOMPARE(text(run.body["output"].value("stdout", "")), QStringLiteral("start\na 7\n7 8\n"));
    }

    // After a restart: a forged token gets 403, a result for a call the session does not
    // wait for 404 unknown_call — nothing is started or delivered, the token stays
    // good; a continuation whose reply was lost (the earlier token) gets that reply.
    void badContinuationsAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        HttpReply lost
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
        QCOMPARE(text(lost.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(lost.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGTERM"));

        nlohmann::json forged = continuation(lost, {{{"call_id", "c2"}, {"result", 8}}});
        forged["continuation_token"] = std::string(43, 'A');
        HttpReply refused = post(server, "/v1/exec/programmatic", forged);
        QCOMPARE(refused.status, 403);
        QCOMPARE(errorCode(refused), QByteArray("invalid_token"));
        HttpReply unknown
            = post(server, "/v1/exec/programmatic", continuation(lost, {{{"call_id", "c9"}, {"result", 8}}}));
        QCOMPARE(unknown.status, 404);
        QCOMPARE(errorCode(unknown), QByteArray("unknown_call"));
        QCOMPARE(errorMessage(unknown),
                 QByteArray("session " + session.toUtf8()
                            + " has no call 'c9' waiting for a result; the calls waiting are: c2"));

        // The first continuation again (its reply "lost"): the reply again, with a new token.
        HttpReply resent
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
        QCOMPARE(text(resent.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(resent.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QVERIFY(resent.body.value("continuation_token", "") != lost.body.value("continuation_token", ""));
        continueToTheEnd(server, resent, "c2", 8, QStringLiteral("7 8\n"), 2);
    }

    // Files planted in .toolstudio/served/ (the project folder may come from someone
    // else): a state slot or a start request nested 400 000 levels deep is refused as
    // any outside JSON, not copied until the stack overflows (attack26 F1, F2); the
    // server answers and goes on serving.
    void plantedDeepFilesAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        server.process.kill();
        server.process.waitForFinished(30000);
        const QString served = dir.path() + QStringLiteral("/.toolstudio/served/");
        const QByteArray deep = QByteArray(400000, '[') + QByteArray(400000, ']');
        QVERIFY(writeFile(served + QStringLiteral("planted-1.state.json"), "{\"serial\":1,\"waiting\":" + deep + "}"));
        QVERIFY(writeFile(served + session + QStringLiteral(".start.json"),
                          "{\"language\":\"python\",\"tools\":[],\"x\":" + deep + "}"));
        QVERIFY(restart(server, dir.path(), "SIGKILL"));

        nlohmann::json planted = continuation(first, {{{"call_id", "c1"}, {"result", 1}}});
        planted["session_id"] = "planted-1";
        const HttpReply unknown = post(server, "/v1/exec/programmatic", planted);
        QVERIFY2(unknown.status == 404, unknown.body.dump().c_str());
        const HttpReply ended
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QVERIFY2(ended.status == 410, ended.body.dump().c_str());
        QCOMPARE(errorCode(ended), QByteArray("session_ended"));
        QCOMPARE(errorMessage(ended),
                 QByteArray("session " + session.toUtf8()
                            + " cannot go on: the request that started it is no longer kept in .toolstudio/served/"));
        QCOMPARE(server.process.state(), QProcess::Running);
    }

    // Expiry counts from the pause, across the restart: 410 session_expired, the run cancelled.
    void expiredAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        QElapsedTimer sincePause; // the pause came before the reply
        sincePause.start();
        const QString session = text(first.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGKILL", {QStringLiteral("--session-expiry"), QStringLiteral("1")}));
        while (sincePause.elapsed() < 1100)
            QThread::msleep(50);
        HttpReply late
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QCOMPARE(late.status, 410);
        QCOMPARE(errorCode(late), QByteArray("session_expired"));
        QCOMPARE(errorMessage(late),
                 QByteArray("session " + session.toUtf8()
                            + " expired: no continuation came within 1 s (toolstudio serve --session-expiry); its "
                              "program was stopped"));
        QCOMPARE(text(curl({server.url("/v1/runs/") + session}).body["run"].value("status", "")),
                 QStringLiteral("cancelled"));
    }

    // A program that calls something else when run again (here: random arguments) is
    // stopped with the reason; the client is not handed a result meant for another call.
    void divergentProgramAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic",
                               {{"code", "import secrets\nprint(step(n=secrets.token_hex(8)))\n"},
                                {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGTERM"));
        HttpReply done
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("error"));
        QCOMPARE(text(done.body["error"].value("code", "")), QStringLiteral("resume_diverged"));
        const QString message = text(done.body["error"].value("message", ""));
        QVERIFY2(message.startsWith(QStringLiteral("session %1 cannot go on after the studio restarted: its program, "
                                                   "run again from its start, made step({\"n\":\"")
                                        .arg(session)),
                 qPrintable(message));
        QVERIFY2(message.endsWith(QStringLiteral(
                     "(step 2), a call its journal does not have, before the calls it was waiting on (c1 (step 1)). "
                     "Calls are matched by tool, arguments and the number of identical calls before them, so a "
                     "program whose calls depend on time, randomness or changed input diverges; it was stopped and "
                     "nothing was delivered")),
                 qPrintable(message));
        QCOMPARE(text(done.body.value("stdout", "x")), QString());
    }

    // Programs that run while their client waits each hold one of the server's HTTP
    // threads: at most 8 at once (a 9th start is 503 too_many_running, nothing runs),
    // and the other routes are answered meanwhile (attack28 F2: 16 sleeping programs
    // held every thread; GET / waited 23 s).
    void programsWaitedForAreBounded()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        const QByteArray body = R"~({"code": "import time\ntime.sleep(8)\nprint('done')", "timeout": 120})~";
        std::vector<std::unique_ptr<QProcess>> clients;
        for (int i = 0; i < 8; ++i) {
            clients.push_back(std::make_unique<QProcess>());
            clients.back()->start(QStringLiteral("curl"),
                                  {QStringLiteral("-s"), QStringLiteral("-X"), QStringLiteral("POST"),
                                   QStringLiteral("--data-binary"), QString::fromUtf8(body), server.url("/v1/exec")});
        }
        const auto running = [&server] {
            int count = 0;
            for (const nlohmann::json &run : curl({server.url("/v1/runs")}).body.value("runs", nlohmann::json::array()))
                count += run.value("status", "") == "running" ? 1 : 0;
            return count;
        };
        QTRY_COMPARE_WITH_TIMEOUT(running(), 8, 60000);
        const HttpReply refused = post(server, "/v1/exec", {{"code", "print(1)"}});
        QCOMPARE(refused.status, 503);
        QCOMPARE(errorCode(refused), QByteArray("too_many_running"));
        QCOMPARE(errorMessage(refused),
                 QByteArray("8 programs are running while their clients wait for the reply, the most this server "
                            "holds at once (each holds one of its threads); nothing was started or continued: retry "
                            "when one has paused for a tool or ended"));
        QCOMPARE(running(), 8);
        QCOMPARE(curl({server.url("/")}).status, 200);
        for (const auto &client : clients) {
            QVERIFY(client->waitForFinished(120000));
            const nlohmann::json done
                = nlohmann::json::parse(client->readAllStandardOutput().toStdString(), nullptr, false);
            QCOMPARE(text(done.value("stdout", "")), QStringLiteral("done\n"));
        }
        QCOMPARE(text(post(server, "/v1/exec", {{"code", "print(1)"}}).body.value("stdout", "")),
                 QStringLiteral("1\n"));
    }

    // Revived sessions count against the 16 a server runs at once: continuations of
    // many old sessions cannot start more programs than that.
    void revivedSessionsAreBounded()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        QList<HttpReply> paused;
        for (int i = 0; i < 16; ++i) {
            paused << post(server, "/v1/exec/programmatic", twoStepRequest());
            QCOMPARE(text(paused.last().body.value("status", "")), QStringLiteral("tool_call_required"));
        }
        QVERIFY(restart(server, dir.path(), "SIGTERM"));

        // One new session and 15 revived ones, each paused at its next call, fill it.
        HttpReply fresh = post(server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(fresh.body.value("status", "")), QStringLiteral("tool_call_required"));
        for (int i = 0; i < 15; ++i) {
            HttpReply next
                = post(server, "/v1/exec/programmatic", continuation(paused[i], {{{"call_id", "c1"}, {"result", i}}}));
            QCOMPARE(text(next.body.value("status", "")), QStringLiteral("tool_call_required"));
        }
        HttpReply refused
            = post(server, "/v1/exec/programmatic", continuation(paused[15], {{{"call_id", "c1"}, {"result", 15}}}));
        QCOMPARE(refused.status, 503);
        QCOMPARE(errorCode(refused), QByteArray("too_many_sessions"));

        // Once one ends, it goes on.
        HttpReply ended
            = post(server, "/v1/exec/programmatic", continuation(fresh, {{{"call_id", "c1"}, {"result", 1}}}));
        continueToTheEnd(server, ended, "c2", 2, QStringLiteral("1 2\n"), 2);
        HttpReply revived
            = post(server, "/v1/exec/programmatic", continuation(paused[15], {{{"call_id", "c1"}, {"result", 15}}}));
        QCOMPARE(text(revived.body.value("status", "")), QStringLiteral("tool_call_required"));
    }

    // The studio dies after a continuation was taken, while the program runs on (here:
    // sleeps before its next call), so the client never gets the reply. Its retry with
    // the same token (*A lost reply*) resumes the run without delivering anything again
    // — the journal has the result — and gets the next call, with a new token. Stopped
    // gracefully instead, the server stops that program: the session has ended.
    void stoppedWhileTheProgramRunsOn_data()
    {
        QTest::addColumn<QByteArray>("how");
        QTest::newRow("SIGKILL") << QByteArray("SIGKILL");
        QTest::newRow("SIGTERM") << QByteArray("SIGTERM");
    }
    void stoppedWhileTheProgramRunsOn()
    {
        QFETCH(QByteArray, how);
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        const nlohmann::json request
            = {{"code", "import time\na = step(n=1)\ntime.sleep(3)\nb = step(n=2)\nprint(a, b)\n"},
               {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}};
        HttpReply first = post(server, "/v1/exec/programmatic", request);
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        // The continuation whose reply is lost: curl in the background, killed with the server.
        QProcess lostClient;
        lostClient.start(QStringLiteral("curl"),
                         {QStringLiteral("-s"), QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                          QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                          QString::fromStdString(continuation(first, {{{"call_id", "c1"}, {"result", 7}}}).dump()),
                          server.url("/v1/exec/programmatic")});
        QElapsedTimer clock;
        clock.start();
        QString status;
        while (clock.elapsed() < 60000) {
            HttpReply run = curl({server.url("/v1/runs/") + session});
            status = run.body.is_object() && !run.body["steps"].empty() ? text(run.body["steps"][0].value("status", ""))
                                                                        : QString();
            if (status == QLatin1String("succeeded"))
                break;
            QThread::msleep(50);
        }
        QCOMPARE(status, QStringLiteral("succeeded"));
        QVERIFY(restart(server, dir.path(), how));
        lostClient.waitForFinished(30000);
        if (how == "SIGTERM") {
            HttpReply ended
                = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
            QCOMPARE(ended.status, 410);
            QCOMPARE(errorCode(ended), QByteArray("session_ended"));
            QCOMPARE(errorMessage(ended),
                     QByteArray("session " + session.toUtf8()
                                + " was stopped with its server while its program ran; start a "
                                  "new one"));
            return;
        }

        // Its results are not read again: 99 goes nowhere.
        HttpReply again
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 99}}}));
        QCOMPARE(text(again.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(again.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QVERIFY(again.body.value("continuation_token", "") != first.body.value("continuation_token", ""));
        continueToTheEnd(server, again, "c2", 8, QStringLiteral("7 8\n"), 2);
    }

private:
    QTemporaryDir m_dir;
    Server m_server;
};

QTEST_GUILESS_MAIN(TestProgrammatic)
#include "tst_programmatic.moc"
