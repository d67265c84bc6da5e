// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Seed 003's API on `toolstudio serve` (issue 22, part 2), request by request: the
// issue's curl commands unchanged against the default port 3112, a Python urllib client
// looping while the status is tool_call_required (several calls in one round, many
// rounds, is_error, an undeclared tool, Bash), files in and out, /v1/exec, the bad inputs
// (malformed JSON, unknown fields, an unknown session, bad files) and a timeout.
// tst_programmaticsessions has a session's continuations, tst_programmaticrestart a
// session that outlives a restart of the studio.

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "programmaticserver.h"
#include "serverprocess.h"

#include <nlohmann/json.hpp>

namespace {

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

HttpReply postRaw(const Server &server, const QByteArray &body)
{
    return curl({QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                 QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                 QStringLiteral("@-"), server.url("/v1/exec/programmatic")},
                body);
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

} // namespace

class TestProgrammatic : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initProgrammaticTestCase(&m_dir, &m_server); }

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

private:
    QTemporaryDir m_dir;
    Server m_server;
};

QTEST_GUILESS_MAIN(TestProgrammatic)
#include "tst_programmatic.moc"
