// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The tools bridge end to end (real launcher, sandbox, shims, engine): the seed scripts
// of issue 4 in Python, Node and Bash; limits exact to the byte; encodings; truly
// concurrent calls; and SANDBOX.md's "bridge abuse" row (battery 29), each case a
// tiny script that writes raw bytes to fd 3. Every case asserts the exact outcome a
// user would see: the run's status and error, or the reply the script got.

#include "engine/stepengine.h"
#include "enginefixture.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "trustedproject.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(data);
}

/// reply_at_cap answers a string whose compact JSON is exactly 1 MiB; reply_over_cap
/// one byte more.
QByteArray testTools()
{
    const QByteArray atCap(1024 * 1024 - 2, 'r');
    return "[\n"
           "  {\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}}, \"required\": [\"text\"]},\n"
           "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": \"echoed\"}]}},\n"
           "  {\"name\": \"second\", \"input_schema\": {\"type\": \"object\"},\n"
           "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1, \"delay_seconds\": 1.0}]}},\n"
           "  {\"name\": \"getCustomer\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"}}, \"required\": [\"id\"]},\n"
           "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {\"id\": \"cus_1\", \"seats\": 3}}]}},\n"
           "  {\"name\": \"get_exchange_rate\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"base\": {\"type\": \"string\"}, \"quote\": {\"type\": \"string\"}}},\n"
           "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 0.92}]}},\n"
           "  {\"name\": \"reply_at_cap\", \"input_schema\": {\"type\": \"object\"},\n"
           "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": \""
        + atCap
        + "\"}]}},\n"
          "  {\"name\": \"reply_over_cap\", \"input_schema\": {\"type\": \"object\"},\n"
          "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": \""
        + atCap
        + "r\"}]}}\n"
          "]";
}

/// Python helpers for raw bridge I/O, prepended to the abuse scripts.
const QByteArray RawBridge
    = "import os, json, time, socket\n"
      "_buf = b''\n"
      "def send(b):\n"
      "    view = memoryview(b)\n"
      "    while view:\n"
      "        view = view[os.write(3, view):]\n"
      "def recv():\n"
      "    global _buf\n"
      "    while b'\\n' not in _buf:\n"
      "        chunk = os.read(3, 65536)\n"
      "        if not chunk: raise SystemExit('bridge closed')\n"
      "        _buf += chunk\n"
      "    line, _buf = _buf.split(b'\\n', 1)\n"
      "    return json.loads(line)\n"
      "def call(i, tool='echo', args=None):\n"
      "    return json.dumps({'type': 'call', 'id': f'c{i}', 'tool': tool, 'args': args if args is not None else {'text': 'hi'}}).encode() + b'\\n'\n";

} // namespace

class TestBridgeAbuse : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;

    /// Runs `source` as scripts/main.<suffix> of the test project.
    RunResult run(const QByteArray &source, const QString &suffix = QStringLiteral("py"), bool journal = true)
    {
        const QString script = m_dir.filePath(QStringLiteral("scripts/main.") + suffix);
        writeFile(script, source);
        RunController controller;
        controller.setJournalPath(journal ? m_dir.filePath(QStringLiteral("journal.sqlite")) : QString());
        return runToEnd(controller, *m_project, script, 60000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeFile(
            m_dir.filePath(QStringLiteral("toolstudio.json")),
            "{\"name\": \"abuse\", \"default_script\": \"main\", \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],"
            " \"tools\": "
                + testTools() + "}");
        ProjectError error;
        m_project = loadTrusted(m_dir.path(), &error);
        QVERIFY2(m_project, qPrintable(error.toString()));
    }

    // --- the seed scripts, unchanged ---------------------------------------------

    void seedScripts_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("output");
        QTest::newRow("node inngest_tools")
            << QStringLiteral("js")
            << QByteArray(
                   "const { tools } = require(\"inngest_tools\"); async function main() { const customer = await "
                   "tools.getCustomer(\"cus_1\"); console.log(customer.seats); } main();\n")
            << QByteArray("3\n");
        QTest::newRow("node toolstudio Promise.all")
            << QStringLiteral("js")
            << QByteArray(
                   "const { tools, ToolError } = require('toolstudio');\n"
                   "Promise.all([tools.getCustomer('cus_1'), tools.get_exchange_rate({ base: 'USD', quote: 'EUR' })])\n"
                   "  .then(([c, r]) => console.log(c.seats, r));\n")
            << QByteArray("3 0.92\n");
        QTest::newRow("python inngest_tools")
            << QStringLiteral("py")
            << QByteArray(
                   "import asyncio\nfrom inngest_tools import tools\n"
                   "async def main():\n    customer = await tools.getCustomer('cus_1')\n    print(customer['seats'])\n"
                   "asyncio.run(main())\n")
            << QByteArray("3\n");
        QTest::newRow("python module level")
            << QStringLiteral("py")
            << QByteArray("rate = get_exchange_rate(base=\"USD\", quote=\"EUR\")\nprint(rate)\n")
            << QByteArray("0.92\n");
        QTest::newRow("bash") << QStringLiteral("sh")
                              << QByteArray("customer=$(tool getCustomer id=cus_1)\necho \"$customer\"\n"
                                            "tool get_exchange_rate '{\"base\":\"USD\",\"quote\":\"EUR\"}'\n"
                                            "tool nope; echo \"status $?\"\n")
                              << QByteArray("{\"id\":\"cus_1\",\"seats\":3}\n0.92\nstatus 1\n");
    }

    void seedScripts()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, output);
        const RunResult result = run(source, suffix);
        QCOMPARE(result.stdoutText, output);
        QCOMPARE(result.record.status, RunStatus::Completed);
    }

    void encodingsRoundTrip_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        // emoji, CJK, e + combining acute, NUL; the mock echo tool answers "echoed", so
        // the round trip is checked on the step's args (what the studio got) and on
        // the script's own print of what it sent.
        QTest::newRow("python") << QStringLiteral("py")
                                << QByteArray(
                                       "import sys\ns = '\xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81 \\x00'\n"
                                       "print(echo(text=s))\n");
        QTest::newRow("node")
            << QStringLiteral("js")
            << QByteArray(
                   "require('toolstudio').tools.echo({ text: '\xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81 \\u0000' })"
                   ".then((r) => console.log(r));\n");
        QTest::newRow("bash")
            << QStringLiteral("sh")
            << QByteArray(
                   "tool echo '{\"text\":\"\xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81 \\u0000\"}' | tr -d '\"'\n");
    }

    void encodingsRoundTrip()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        const RunResult result = run(source, suffix);
        QCOMPARE(result.stdoutText, QByteArray("echoed\n"));
        QCOMPARE(result.steps.size(), std::size_t(1));
        QCOMPARE(QByteArray::fromStdString(result.steps[0].args.dump()),
                 QByteArray("{\"text\":\"\xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81 \\u0000\"}"));
    }

    // --- concurrency ---------------------------------------------------------------

    void threeOneSecondCallsOverlap()
    {
        const RunResult result = run("import asyncio, time\nfrom toolstudio import tools\n"
                                     "async def main():\n"
                                     "    return await asyncio.gather(tools.second(), tools.second(), tools.second())\n"
                                     "t = time.monotonic()\nprint(asyncio.run(main()))\n"
                                     "print(f'gather: {time.monotonic() - t:.2f} s', file=__import__('sys').stderr)\n");
        QCOMPARE(result.stdoutText, QByteArray("[1, 1, 1]\n"));
        QCOMPARE(result.steps.size(), std::size_t(3));
        // Structural, not timed: all three started before the first one ended.
        qint64 firstEnd = std::numeric_limits<qint64>::max();
        qint64 lastStart = 0;
        for (const Step &step : result.steps) {
            firstEnd = std::min(firstEnd, step.endedAt);
            lastStart = std::max(lastStart, step.startedAt);
        }
        QVERIFY2(lastStart < firstEnd,
                 qPrintable(QStringLiteral("last start %1, first end %2").arg(lastStart).arg(firstEnd)));
        qInfo("three 1-second mock calls: %s (whole run %lld ms)", result.stderrText.trimmed().constData(),
              result.elapsedMs);
    }

    // --- limits exact to the byte ---------------------------------------------------

    void requestCapIsExact()
    {
        // {"text":"…"} is 11 bytes + the string: 262133 x's make exactly 256 KiB.
        const RunResult result = run("from toolstudio import tools, ToolError\n"
                                     "for n in (262144 - 11, 262144 - 10):\n"
                                     "    try:\n"
                                     "        print(tools.echo(text='x' * n))\n"
                                     "    except ToolError as e:\n"
                                     "        print(e.code, e.message)\n");
        QCOMPARE(result.stdoutText,
                 QByteArray(
                     "echoed\nrequest_too_large arguments of echo are 262145 bytes; the request limit is 262144 bytes "
                     "(limits.request_bytes)\n"));
        QCOMPARE(result.record.status, RunStatus::Completed);
        // The shim refuses the call over the cap itself (TOOLSTUDIO_REQUEST_BYTES): it
        // is never sent, so the studio recorded only the first.
        QCOMPARE(result.steps.size(), std::size_t(1));
        QCOMPARE(result.steps.at(0).status, StepStatus::Succeeded);
    }

    void hugeArgumentFailsAlone_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("output");
        const QByteArray refusal
            = "request_too_large arguments of echo are 50000011 bytes; the request limit is 262144 bytes "
              "(limits.request_bytes)\n";
        QTest::newRow("python 50 MB") << QStringLiteral("py")
                                      << QByteArray("from toolstudio import tools, ToolError\n"
                                                    "try:\n    tools.echo(text='x' * 50_000_000)\n"
                                                    "except ToolError as e:\n    print(e.code, e.message)\n"
                                                    "print(tools.echo(text='next'))\n")
                                      << refusal + "echoed\n";
        QTest::newRow("node 50 MB") << QStringLiteral("js")
                                    << QByteArray("const { tools } = require('toolstudio');\n(async () => {\n"
                                                  "  try { await tools.echo({ text: 'x'.repeat(50000000) }); }\n"
                                                  "  catch (e) { console.log(e.code, e.message); }\n"
                                                  "  console.log(await tools.echo({ text: 'next' }));\n})();\n")
                                    << refusal + "echoed\n";
        QTest::newRow("bash 1 MB")
            << QStringLiteral("sh")
            << QByteArray("big=$(head -c 1000000 /dev/zero | tr '\\0' x)\n"
                          "tool echo \"{\\\"text\\\":\\\"$big\\\"}\"; echo \"status $? $TOOL_ERROR_CODE\"\n"
                          "tool echo text=next\n")
            << QByteArray("status 1 request_too_large\n\"echoed\"\n");
    }

    void hugeArgumentFailsAlone()
    {
        // Refused in the script's own process (nothing sent), with both sizes; the next
        // call of the same script goes through.
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, output);
        const RunResult result = run(source, suffix);
        QCOMPARE(result.stdoutText, output);
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.steps.size(), std::size_t(1));
        QCOMPARE(result.steps.at(0).status, StepStatus::Succeeded);
        if (suffix == QLatin1String("sh"))
            QCOMPARE(result.stderrText,
                     QByteArray("tool echo: request_too_large: arguments of echo are 1000011 bytes; the request "
                                "limit is 262144 bytes (limits.request_bytes)\n"));
    }

    void oversizedRawCallFailsAlone()
    {
        // Written raw (no shim check), 1 MB: over the bridge's line bound, so the studio
        // never reads it whole, yet answers it by the id in its prefix and goes on.
        const RunResult result
            = run(RawBridge
                  + "send(b'{\"type\":\"call\",\"id\":\"big\",\"tool\":\"echo\",\"args\":{\"text\":\"'"
                    " + b'x' * 1000000 + b'\"}}\\n')\n"
                    "send(call(2))\n"
                    "replies = {r['id']: r for r in (recv(), recv())}\n"
                    "print(replies['big']['error']['code'])\n"
                    "print(replies['big']['error']['message'])\n"
                    "print(replies['c2']['value'])\n");
        QCOMPARE(result.stdoutText,
                 QByteArray("request_too_large\n"
                            "the call of echo is 1000059 bytes on the bridge; the request limit is 262144 bytes "
                            "of arguments (limits.request_bytes), so it was not read\n"
                            "echoed\n"));
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.steps.size(), std::size_t(2));
        QCOMPARE(result.steps.at(0).status, StepStatus::Failed);
        QCOMPARE(result.steps.at(0).error->codeName(), QStringLiteral("request_too_large"));
        QCOMPARE(result.steps.at(0).tool, QStringLiteral("echo"));
    }

    void replyCapIsExact()
    {
        const RunResult result = run("from toolstudio import tools, ToolError\n"
                                     "print(len(tools.reply_at_cap()))\n"
                                     "try:\n"
                                     "    tools.reply_over_cap()\n"
                                     "except ToolError as e:\n"
                                     "    print(e.code, e.message)\n");
        QCOMPARE(
            result.stdoutText,
            QByteArray("1048574\nreply_too_large result of reply_over_cap is 1048577 bytes; the reply limit is 1048576 "
                       "bytes (limits.reply_bytes)\n"));
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.steps.at(0).status, StepStatus::Succeeded);
        QCOMPARE(result.steps.at(1).status, StepStatus::Failed); // never stuck running
        QCOMPARE(result.steps.at(1).error->codeName(), QStringLiteral("reply_too_large"));
    }

    // --- SANDBOX.md battery row 29: bridge abuse -------------------------------------

    void malformedLinesEndTheRun_data()
    {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QString>("error");
        QTest::newRow("10 MiB line")
            << QByteArray("send(b'x' * (10 << 20) + b'\\n')\ntime.sleep(30)\n")
            << QStringLiteral("protocol error on the tools bridge: a bridge line exceeds the limit of 327680 bytes (");
        QTest::newRow("line that never ends")
            << QByteArray("send(b'x' * (10 << 20))\ntime.sleep(30)\n")
            << QStringLiteral("protocol error on the tools bridge: a bridge line exceeds the limit of 327680 bytes (");
        QTest::newRow("nested 100000 deep")
            << QByteArray("send(b'[' * 100000 + b'\\n')\ntime.sleep(30)\n")
            << QStringLiteral(
                   "protocol error on the tools bridge: JSON nested deeper than 128 levels at byte offset 128");
        QTest::newRow("bad UTF-8, no id")
            << QByteArray("send(b'\\xff\\xfe garbage\\n')\ntime.sleep(30)\n")
            << QStringLiteral("protocol error on the tools bridge: invalid UTF-8 at byte offset 0");
        QTest::newRow("unknown type")
            << QByteArray("send(b'{\"type\":\"result\",\"id\":\"c1\"}\\n')\ntime.sleep(30)\n")
            << QStringLiteral("protocol error on the tools bridge: unknown bridge message type \"result\"");
        QTest::newRow("fd passed with SCM_RIGHTS")
            << QByteArray(
                   "s = socket.socket(fileno=3)\n"
                   "s.sendmsg([call(1)], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, bytes(memoryview(bytearray((0).to_bytes(4, 'little')))))])\n"
                   "time.sleep(30)\n")
            << QStringLiteral(
                   "protocol error on the tools bridge: file descriptors passed over the bridge are refused");
        QTest::newRow("closed mid-line")
            << QByteArray("send(b'{\"type\":\"call\"')\nos.close(3)\ntime.sleep(30)\n")
            << QStringLiteral(
                   "protocol error on the tools bridge: the bridge closed in the middle of a line (14 bytes without '\\n')");
    }

    void malformedLinesEndTheRun()
    {
        QFETCH(QByteArray, source);
        QFETCH(QString, error);
        const RunResult result = run(RawBridge + source);
        QCOMPARE(result.record.status, RunStatus::Failed);
        QVERIFY2(result.record.error.startsWith(error), qPrintable(result.record.error));
        QVERIFY2(result.elapsedMs < 25000, "ended by the studio, not by the script's sleep");
    }

    void malformedCallWithAnIdFailsAlone_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QByteArray>("code");
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<int>("steps"); ///< a call whose arguments are bad is a step of its own
        QTest::newRow("bad UTF-8 in the arguments")
            << QByteArray("b'{\"type\":\"call\",\"id\":\"bad\",\"tool\":\"echo\",\"args\":{\"text\":\"\\xc3\\x28\"}}'")
            << QByteArray("invalid_arguments")
            << QByteArray("invalid arguments for 'echo': invalid UTF-8 at byte 9 of the arguments") << 3;
        QTest::newRow("lone surrogate in the arguments")
            << QByteArray("b'{\"type\":\"call\",\"id\":\"bad\",\"tool\":\"echo\",\"args\":{\"text\":\"\\\\ud800\"}}'")
            << QByteArray("invalid_arguments")
            << QByteArray("invalid arguments for 'echo': lone UTF-16 surrogate escape \\ud800 at byte 9 of the "
                          "arguments")
            << 3;
        QTest::newRow("arguments not JSON")
            << QByteArray("b'{\"type\":\"call\",\"id\":\"bad\",\"tool\":\"echo\",\"args\":{\"text\": }}'")
            << QByteArray("invalid_arguments")
            << QByteArray("invalid arguments for 'echo': not valid JSON at byte 9 of the arguments: syntax error "
                          "while parsing value - unexpected '}'; expected '[', '{', or a literal")
            << 3;
        QTest::newRow("args not a container")
            << QByteArray("b'{\"type\":\"call\",\"id\":\"bad\",\"tool\":\"echo\",\"args\":3}'")
            << QByteArray("invalid_arguments")
            << QByteArray("invalid arguments for 'echo': the arguments must be a JSON object or array, not a number")
            << 3;
        // Outside the arguments the call cannot be named as a tool's: a protocol_error
        // reply to its id, no step.
        QTest::newRow("bad UTF-8 in the tool name")
            << QByteArray("b'{\"type\":\"call\",\"id\":\"bad\",\"tool\":\"ec\\xc3\\x28ho\",\"args\":{}}'")
            << QByteArray("protocol_error") << QByteArray("invalid UTF-8 at byte offset 36") << 2;
    }

    void malformedCallWithAnIdFailsAlone()
    {
        QFETCH(QByteArray, line);
        QFETCH(QByteArray, code);
        QFETCH(QByteArray, message);
        QFETCH(int, steps);
        // A good call in flight, the malformed one, another good one: only the middle one fails.
        const RunResult result = run(RawBridge + "send(call(1))\nsend(" + line
                                     + " + b'\\n')\nsend(call(2))\n"
                                       "replies = {r['id']: r for r in (recv(), recv(), recv())}\n"
                                       "print(replies['c1']['value'], replies['c2']['value'])\n"
                                       "print(replies['bad']['error']['code'])\n"
                                       "print(replies['bad']['error']['message'])\n");
        QCOMPARE(result.stdoutText, "echoed echoed\n" + code + '\n' + message + '\n');
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.steps.size(), std::size_t(steps));
    }

    void undeclaredToolIsRefused()
    {
        const RunResult result
            = run(RawBridge + "send(call(1, 'rm_rf'))\nr = recv()\nprint(r['error']['code'], r['error']['message'])\n");
        QCOMPARE(result.stdoutText, QByteArray("unknown_tool no tool named 'rm_rf' in this project\n"));
        QCOMPARE(result.record.status, RunStatus::Completed);
    }

    void hundredThousandCallsInABurst()
    {
        // Written in one burst by a thread while the main thread reads the replies.
        const RunResult result = run(
            RawBridge
                + "import threading, collections\n"
                  "N = 100000\n"
                  "threading.Thread(target=lambda: send(b''.join(call(i) for i in range(N))), daemon=True).start()\n"
                  "codes = collections.Counter()\n"
                  "for _ in range(N):\n"
                  "    r = recv()\n"
                  "    codes[r['error']['code'] if r['type'] == 'error' else 'ok'] += 1\n"
                  "print(sorted(codes.items()))\n",
            QStringLiteral("py"), false);
        QCOMPARE(result.stdoutText, QByteArray("[('max_calls_exceeded', 99900), ('ok', 100)]\n"));
        QCOMPARE(result.record.status, RunStatus::Completed);
        // 100 calls within the budget and the first one past it (issue 16: the 99 899
        // after it are answered and counted, not recorded; tst_runbudget).
        QCOMPARE(result.steps.size(), std::size_t(101));
    }

    void bridgeClosedMidCall()
    {
        // The script sends a call and goes away without waiting: the run ends, the
        // step is not left running.
        const RunResult result = run(RawBridge + "send(call(1, 'second'))\nos.close(3)\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        QCOMPARE(result.steps.size(), std::size_t(1));
        QVERIFY(result.steps[0].status != StepStatus::Running);
    }

    void stdoutFloodIsCapped()
    {
        const RunResult result = run(
            "import sys\nfor _ in range(40):\n    sys.stdout.write('x' * (1 << 20))\nprint(echo(text='still here'), file=sys.stderr)\n");
        QCOMPARE(result.record.status, RunStatus::Completed);
        QVERIFY(result.stdoutText.startsWith(QByteArray(10 * 1024 * 1024, 'x')));
        QVERIFY2(result.stdoutText.endsWith("[stdout truncated at 10485760 bytes; the rest was discarded]\n"
                                            "[stdout: 31457280 more bytes past the cap were discarded]\n"),
                 result.stdoutText.right(100).constData());
        QCOMPARE(result.stderrText, QByteArray("echoed\n"));
    }
};

QTEST_GUILESS_MAIN(TestBridgeAbuse)
#include "tst_bridgeabuse.moc"
