// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The three language shims (resources/runtime/{python,node,bash}) against a scripted
// studio: the test owns the studio's end of a socketpair (a real BridgeChannel) and
// answers calls however the case needs — out of order, twice, for unknown ids — while
// python3, node or bash runs the shim from the source tree with the bridge on fd 3,
// under LANG=C and C.UTF-8.

#include "bridgechannel.h"
#include "bridgemessage.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <functional>
#include <sys/socket.h>
#include <unistd.h>

namespace {

using nlohmann::json;

constexpr std::size_t RequestCap = 256 * 1024 + 64 * 1024;

QString runtimeDir()
{
    return qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/resources/runtime");
}

struct ScriptRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    std::vector<BridgeCall> calls; ///< as the studio received them
};

/// Answers one call; `calls` holds every call received so far (this one last).
using Studio = std::function<void(BridgeChannel &channel, const std::vector<BridgeCall> &calls)>;

/// Runs `source` (language by `suffix`: py, js, sh) with the shim on its path and the
/// bridge on fd 3 answered by `studio`.
ScriptRun runScript(const QString &suffix, const QByteArray &source, const QString &lang, const Studio &studio,
                    bool withBridge = true)
{
    ScriptRun run;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("script.") + suffix);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return run;
    file.write(source);
    file.close();

    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return run;
    BridgeChannel channel(fds[0], RequestCap);
    QObject::connect(&channel, &BridgeChannel::callReceived, &channel, [&](const BridgeCall &call) {
        run.calls.push_back(call);
        studio(channel, run.calls);
    });
    const int child = fds[1];

    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("LANG"), lang);
    env.insert(QStringLiteral("LC_ALL"), lang);
    env.insert(QStringLiteral("PYTHONPATH"), runtimeDir() + QStringLiteral("/python"));
    env.insert(QStringLiteral("NODE_PATH"), runtimeDir() + QStringLiteral("/node"));
    env.insert(QStringLiteral("BASH_ENV"), runtimeDir() + QStringLiteral("/bash/toolstudio.sh"));
    if (withBridge)
        env.insert(QStringLiteral("TOOLSTUDIO_BRIDGE_FD"), QStringLiteral("3"));

    QProcess process;
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(dir.path());
    process.setChildProcessModifier([child] {
        if (child == 3)
            ::fcntl(3, F_SETFD, 0);
        else
            ::dup2(child, 3); // dup2 clears FD_CLOEXEC on 3
    });
    const QString program = suffix == QLatin1String("py") ? QStringLiteral("/usr/bin/python3")
        : suffix == QLatin1String("js")                   ? QStringLiteral("/usr/bin/node")
                                                          : QStringLiteral("/bin/bash");
    process.start(program, {path});
    ::close(child);
    if (!process.waitForStarted(10000))
        return run;
    // Keep the event loop turning (the channel lives on it) until the script ends.
    QSignalSpy finished(&process, &QProcess::finished);
    if (!finished.wait(30000)) {
        process.kill();
        process.waitForFinished();
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

/// Echoes each call's args as its result.
void echoStudio(BridgeChannel &channel, const std::vector<BridgeCall> &calls)
{
    channel.send(BridgeProtocol::encodeResult(calls.back().id, calls.back().args));
}

// "😀 日本語 e◌́ \0 end": emoji (4-byte UTF-8), CJK, e + a combining acute (must not be
// normalised to é), NUL. As compact JSON, the same bytes in every language.
const QByteArray Mixed = "\xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E e\xCC\x81 \\u0000 end";
const QByteArray MixedJson = "{\"text\":\"" + Mixed + "\"}";

} // namespace

class TestShims : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(runtimeDir() + QStringLiteral("/node/toolstudio/index.js")),
                 "TOOLSTUDIO_SOURCE_DIR must point at the source tree");
    }

    void encodingsRoundTrip_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QByteArray>("source");
        const QByteArray python = "import sys, json\nfrom toolstudio import tools\n"
                                  "r = tools.echo(text='"
            + QByteArray(Mixed).replace("\\u0000", "\\x00")
            + "')\n"
              "sys.stdout.buffer.write(json.dumps(r, ensure_ascii=False, separators=(',', ':')).encode('utf-8') + b'\\n')\n";
        const QByteArray node = "const { tools } = require('toolstudio');\n"
                                "tools.echo({ text: '"
            + Mixed + "' }).then((r) => process.stdout.write(JSON.stringify(r) + '\\n'));\n";
        const QByteArray bash = "tool echo '" + MixedJson + "'\n";
        for (const QString &lang : {QStringLiteral("C"), QStringLiteral("C.UTF-8")}) {
            QTest::addRow("python %s", qPrintable(lang)) << QStringLiteral("py") << lang << python;
            QTest::addRow("node %s", qPrintable(lang)) << QStringLiteral("js") << lang << node;
            QTest::addRow("bash %s", qPrintable(lang)) << QStringLiteral("sh") << lang << bash;
        }
    }

    void encodingsRoundTrip()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, lang);
        QFETCH(QByteArray, source);
        const ScriptRun run = runScript(suffix, source, lang, echoStudio);
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.calls.size(), std::size_t(1));
        QCOMPARE(QByteArray::fromStdString(run.calls[0].args.dump()), MixedJson); // what the studio got
        QCOMPARE(run.out, MixedJson + '\n');                                      // what the script got back
    }

    void bashKeyValueArguments()
    {
        const ScriptRun run = runScript(QStringLiteral("sh"),
                                        "tool echo k=v 'q=say \"hi\"\\ok' n:=3 flag:=true list:='[1, 2]' u=\xC3\xA9\n"
                                        "tool echo\n"
                                        "tool echo ''\n"
                                        "tool echo '  \t '\n"
                                        "tool echo '{\"a\": 1'\n",
                                        QStringLiteral("C"), echoStudio);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.calls.size(), std::size_t(5));
        QCOMPARE(
            QByteArray::fromStdString(run.calls[0].args.dump()),
            QByteArray(
                "{\"flag\":true,\"k\":\"v\",\"list\":[1,2],\"n\":3,\"q\":\"say \\\"hi\\\"\\\\ok\",\"u\":\"\xC3\xA9\"}"));
        // No argument, an empty one or a blank one: {} (issue 17 item 4).
        for (std::size_t i : {1, 2, 3})
            QCOMPARE(QByteArray::fromStdString(run.calls[i].args.dump()), QByteArray("{}"));
        // JSON that does not parse goes out as it is: that call alone fails, in the studio.
        QCOMPARE(QString::fromStdString(run.calls[4].argumentsError),
                 QStringLiteral("not valid JSON at byte 7 of the arguments: syntax error while parsing object - "
                                "unexpected end of input; expected '}'"));
    }

    void bashExitStatuses_data()
    {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("reply"); // "" = echo
        QTest::addColumn<bool>("withBridge");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("stderrText");
        const QByteArray call = "tool echo x=1\necho \"status $?\"\n";
        QTest::newRow("ok") << call << QByteArray() << true << 0 << QByteArray();
        QTest::newRow("tool error") << call << QByteArray("tool_failed") << true << 1
                                    << QByteArray("tool echo: tool_failed: it \"broke\"\n\tbadly\n");
        QTest::newRow("protocol_error reply") << call << QByteArray("protocol_error") << true << 3
                                              << QByteArray("tool echo: protocol_error: it \"broke\"\n\tbadly\n");
        QTest::newRow("no bridge")
            << call << QByteArray() << false << 3
            << QByteArray("tool echo: protocol_error: no tools bridge: run this script from Tool Studio\n");
        QTest::newRow("usage") << QByteArray("tool\necho \"status $?\"\n") << QByteArray() << true << 2
                               << QByteArray("usage: tool NAME ['{json}' | key=value | key:=json ...]\n");
        QTest::newRow("bad word")
            << QByteArray("tool echo oops\necho \"status $?\"\n") << QByteArray() << true << 2
            << QByteArray(
                   "tool echo: 'oops' is neither key=value nor key:=json (one JSON object or array may be given alone)\n");
        QTest::newRow("unknown reply id") << call << QByteArray("bogus-id") << true << 3 << QByteArray();
    }

    void bashExitStatuses()
    {
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, reply);
        QFETCH(bool, withBridge);
        QFETCH(int, status);
        QFETCH(QByteArray, stderrText);
        const ScriptRun run = runScript(
            QStringLiteral("sh"), source, QStringLiteral("C.UTF-8"),
            [reply](BridgeChannel &channel, const std::vector<BridgeCall> &calls) {
                if (reply.isEmpty())
                    return echoStudio(channel, calls);
                if (reply == "bogus-id")
                    return channel.send(BridgeProtocol::encodeResult("bogus-id", 1));
                BridgeError error;
                error.code = reply.toStdString();
                error.message = "it \"broke\"\n\tbadly";
                error.attempts = 1;
                channel.send(BridgeProtocol::encodeError(calls.back().id, error));
            },
            withBridge);
        const QByteArray result = status == 0 ? QByteArray("{\"x\":\"1\"}\n") : QByteArray();
        QCOMPARE(run.out, result + "status " + QByteArray::number(status) + '\n');
        if (!stderrText.isEmpty())
            QCOMPARE(run.err, stderrText);
        else if (status != 0)
            QVERIFY2(run.err.startsWith("tool echo: protocol_error: the studio sent a reply that is not for call s"),
                     run.err.constData());
    }

    void concurrentCallsMatchedById_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        QTest::newRow("python asyncio.gather")
            << QStringLiteral("py")
            << QByteArray("import asyncio\nfrom toolstudio import tools\n"
                          "async def main():\n"
                          "    return await asyncio.gather(tools.echo(n=1), tools.echo(n=2), tools.echo(n=3))\n"
                          "print([r['n'] for r in asyncio.run(main())])\n");
        QTest::newRow("node Promise.all")
            << QStringLiteral("js")
            << QByteArray("const { tools } = require('inngest_tools');\n"
                          "Promise.all([tools.echo({ n: 1 }), tools.echo({ n: 2 }), tools.echo({ n: 3 })])\n"
                          "  .then((rs) => console.log(JSON.stringify(rs.map((r) => r.n))));\n");
    }

    void concurrentCallsMatchedById()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        // The studio answers only once all three calls are in flight, last first.
        const ScriptRun run = runScript(suffix, source, QStringLiteral("C.UTF-8"),
                                        [](BridgeChannel &channel, const std::vector<BridgeCall> &calls) {
                                            if (calls.size() < 3)
                                                return;
                                            for (auto it = calls.rbegin(); it != calls.rend(); ++it)
                                                channel.send(BridgeProtocol::encodeResult(it->id, it->args));
                                        });
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(QByteArray(run.out).replace(' ', ""), QByteArray("[1,2,3]\n"));
        QCOMPARE(run.calls.size(), std::size_t(3));
    }

    void unknownOrDuplicateReplyIsProtocolError_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<bool>("duplicate");
        const QByteArray python = "from toolstudio import tools, ToolError\n"
                                  "for i in range(2):\n"
                                  "    try:\n"
                                  "        print(tools.echo(n=i)['n'])\n"
                                  "    except ToolError as e:\n"
                                  "        print(e.code)\n";
        const QByteArray node
            = "const { tools } = require('toolstudio');\n"
              "(async () => {\n"
              "  for (let i = 0; i < 2; ++i) {\n"
              "    try { console.log((await tools.echo({ n: i })).n); } catch (e) { console.log(e.code); }\n"
              "  }\n"
              "})();\n";
        const QByteArray bash = "tool echo n:=0; echo $?\ntool echo n:=1; echo $?\n";
        for (const bool duplicate : {false, true}) {
            const char *what = duplicate ? "duplicate" : "unknown";
            QTest::addRow("python %s", what) << QStringLiteral("py") << python << duplicate;
            QTest::addRow("node %s", what) << QStringLiteral("js") << node << duplicate;
            QTest::addRow("bash %s", what) << QStringLiteral("sh") << bash << duplicate;
        }
    }

    void unknownOrDuplicateReplyIsProtocolError()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        QFETCH(bool, duplicate);
        // duplicate: the first call is answered twice; unknown: the second call is
        // answered for an id never used.
        const ScriptRun run = runScript(suffix, source, QStringLiteral("C.UTF-8"),
                                        [duplicate](BridgeChannel &channel, const std::vector<BridgeCall> &calls) {
                                            if (calls.size() == 1) {
                                                const std::string line
                                                    = BridgeProtocol::encodeResult(calls[0].id, calls[0].args);
                                                channel.send(duplicate ? line + line : line);
                                            } else if (!duplicate) {
                                                channel.send(BridgeProtocol::encodeResult("nobody", 1));
                                            }
                                        });
        if (suffix == QLatin1String("sh")) {
            QCOMPARE(run.out, QByteArray("{\"n\":0}\n0\n3\n"));
            QVERIFY2(run.err.contains("protocol_error"), run.err.constData());
        } else {
            QCOMPARE(run.out, QByteArray("0\nprotocol_error\n"));
        }
    }

    void nodeSeedScriptRunsUnchanged()
    {
        // The seed script, verbatim.
        const ScriptRun run
            = runScript(QStringLiteral("js"),
                        "const { tools } = require(\"inngest_tools\"); async function main() { const customer = "
                        "await tools.getCustomer(\"cus_1\"); console.log(customer.seats); } main();\n",
                        QStringLiteral("C.UTF-8"), [](BridgeChannel &channel, const std::vector<BridgeCall> &calls) {
                            channel.send(BridgeProtocol::encodeResult(calls.back().id, json{{"seats", 3}}));
                        });
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.out, QByteArray("3\n"));
        QCOMPARE(run.calls.at(0).tool, std::string("getCustomer"));
        QCOMPARE(QByteArray::fromStdString(run.calls.at(0).args.dump()), QByteArray("[\"cus_1\"]"));
    }

    void nodeToolErrorRejects()
    {
        const ScriptRun run = runScript(
            QStringLiteral("js"),
            "const { tools, ToolError } = require('toolstudio');\n"
            "tools.echo({}).catch((e) => console.log(e instanceof ToolError, e.code, e.message, e.retryable, e.attempts, e.details.pointer));\n",
            QStringLiteral("C"), [](BridgeChannel &channel, const std::vector<BridgeCall> &calls) {
                BridgeError error;
                error.code = "invalid_arguments";
                error.message = "missing text";
                error.retryable = false;
                error.details = {{"pointer", "/text"}};
                channel.send(BridgeProtocol::encodeError(calls.back().id, error));
            });
        QCOMPARE(run.out, QByteArray("true invalid_arguments missing text false 0 /text\n"));
    }

    // A failed call the script does not catch: its stderr shows the script's own frames
    // and then "ToolError: code: message", and no frame from the shim's files.
    void uncaughtToolErrorShowsTheScriptsFrames_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("expectedTail");
        QTest::addColumn<int>("exitCode"); // an uncaught error in a thread does not fail Python
        QTest::newRow("python blocking")
            << QStringLiteral("py")
            << QByteArray(
                   "from toolstudio import tools\n\ndef fetch():\n    return tools.getCustomer(\"cus_1\")\n\nfetch()\n")
            << QByteArray("Traceback (most recent call last):\n"
                          "  File \"script.py\", line 6, in <module>\n"
                          "    fetch()\n"
                          "  File \"script.py\", line 4, in fetch\n"
                          "    return tools.getCustomer(\"cus_1\")\n"
                          "           ^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
                          "ToolError: tool_failed: boom\n")
            << 1;
        QTest::newRow("python awaited")
            << QStringLiteral("py")
            << QByteArray(
                   "import asyncio\nfrom toolstudio import tools\n\nasync def main():\n    await tools.getCustomer(\"cus_1\")\n\nasyncio.run(main())\n")
            << QByteArray("  File \"script.py\", line 5, in main\n"
                          "    await tools.getCustomer(\"cus_1\")\n"
                          "ToolError: tool_failed: boom\n")
            << 1;
        QTest::newRow("python thread")
            << QStringLiteral("py")
            << QByteArray(
                   "import threading\nfrom toolstudio import tools\n\nthreading.Thread(target=lambda: tools.getCustomer()).start()\n")
            << QByteArray("  File \"script.py\", line 4, in <lambda>\n"
                          "    threading.Thread(target=lambda: tools.getCustomer()).start()\n"
                          "                                    ^^^^^^^^^^^^^^^^^^^\n"
                          "ToolError: tool_failed: boom\n")
            << 0;
        QTest::newRow("node")
            << QStringLiteral("js")
            << QByteArray(
                   "const { tools } = require('toolstudio');\nasync function main() {\n  await tools.getCustomer('cus_1');\n}\nmain();\n")
            << QByteArray("    at async main (script.js:3:3) {\n"
                          "  code: 'tool_failed',\n"
                          "  retryable: true,\n"
                          "  attempts: 0,\n"
                          "  details: {}\n"
                          "}\n")
            << 1;
    }

    void uncaughtToolErrorShowsTheScriptsFrames()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, expectedTail);
        QFETCH(int, exitCode);
        const ScriptRun run = runScript(suffix, source, QStringLiteral("C.UTF-8"),
                                        [](BridgeChannel &channel, const std::vector<BridgeCall> &calls) {
                                            BridgeError error;
                                            error.code = "tool_failed";
                                            error.message = "boom";
                                            error.retryable = true;
                                            channel.send(BridgeProtocol::encodeError(calls.back().id, error));
                                        });
        QCOMPARE(run.exitCode, exitCode);
        QString err = QString::fromUtf8(run.err);
        // The script's temporary directory differs per run.
        err.replace(QRegularExpression(QStringLiteral("/[^\"(]*/(script\\.(py|js))")), QStringLiteral("\\1"));
        QVERIFY2(!err.contains(QLatin1String("toolstudio/")), qPrintable(err));
        if (suffix == QLatin1String("js")) {
            QVERIFY2(err.contains(QLatin1String("ToolError: tool_failed: boom\n")), qPrintable(err));
            const QString tail = QString::fromUtf8(expectedTail);
            QVERIFY2(err.contains(tail), qPrintable(err));
        } else {
            QVERIFY2(err.endsWith(QString::fromUtf8(expectedTail)), qPrintable(err));
        }
    }

    void studioClosingTheBridgeFailsPendingCalls_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("python")
            << QStringLiteral("py")
            << QByteArray(
                   "from toolstudio import tools, ToolError\ntry:\n    tools.echo()\nexcept ToolError as e:\n    print(e.code)\n")
            << QByteArray("protocol_error\n");
        QTest::newRow("node") << QStringLiteral("js")
                              << QByteArray("require('toolstudio').tools.echo().catch((e) => console.log(e.code));\n")
                              << QByteArray("protocol_error\n");
        QTest::newRow("bash") << QStringLiteral("sh") << QByteArray("tool echo; echo $?\n") << QByteArray("3\n");
    }

    void studioClosingTheBridgeFailsPendingCalls()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, expected);
        const ScriptRun run
            = runScript(suffix, source, QStringLiteral("C.UTF-8"),
                        [](BridgeChannel &channel, const std::vector<BridgeCall> &) { channel.close(); });
        QCOMPARE(run.out, expected);
    }
};

QTEST_GUILESS_MAIN(TestShims)
#include "tst_shims.moc"
