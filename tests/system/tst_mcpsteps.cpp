// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// MCP tools as project tools and their calls as durable steps (issue 21 §2, §3, §7),
// end to end through the built toolstudio: scripts of `toolstudio run` calling the npm
// reference server "everything" (installed by ./toolstudio.sh test into
// TOOLSTUDIO_MCP_SERVERS_DIR) and tests/data/mcp/fakeserver.py in its `steps` mode
// (isError, structuredContent, a crash mid-call, garbage on stdout, a call never
// answered); replay; `toolstudio mcp call`; `toolstudio tools list`.
#include "clirunner.h"
#include "journalsteps.h"
#include "mcp/mcpexchangetext.h"
#include "testfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

constexpr auto EverythingEntry = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";

/// "SEQUENCE TOOL STATUS" of every final step event, in order.
QByteArray stepLines(const QByteArray &out)
{
    QByteArray lines;
    for (const json &step : jsonEvents(out, "step")) {
        const std::string status = step.value("status", "");
        if (status == "succeeded" || status == "failed" || status == "memoized")
            lines += QByteArray::number(step.value("sequence", 0)) + ' '
                + QByteArray::fromStdString(step.value("tool", "")) + ' ' + QByteArray::fromStdString(status) + '\n';
    }
    return lines;
}

QString runIdOf(const QByteArray &out)
{
    const auto runs = jsonEvents(out, "run");
    return runs.empty() ? QString() : QString::fromStdString(runs.front().value("id", ""));
}

} // namespace

class TestMcpSteps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void scriptCallsReferenceServer_data();
    void scriptCallsReferenceServer();
    void fakeServerCallsAsSteps();
    void lateRecordKeepsTheRunsToolIndex();
    void replayDoesNotReachTheServer();
    void callCommand();
    void callCommandRefusesBadInput();
    void callCommandPrintsTheProtocolAsItComes();
    void toolsListNamesAFailedServer();

private:
    QString writeScript(const QString &name, const QByteArray &source);

    QTemporaryDir m_dir;
    QString m_project;
    bool m_everything = false;
};

void TestMcpSteps::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_project = m_dir.filePath(QStringLiteral("project"));
    QVERIFY(writeFile(m_project + QStringLiteral("/srv/fakeserver.py"), fileBytes(mcpFixture("fakeserver.py"))));
    // A server runs confined to the project folder (docs/mcp.md): the reference server's
    // packages are copied into it, as `npm install` in the project would put them.
    const QString modules = referenceServerModules();
    m_everything = !modules.isEmpty()
        && QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), modules, m_project}) == 0;
    QByteArray servers = R"("fake": {"command": "python3", "args": ["srv/fakeserver.py", "steps"]})";
    if (m_everything)
        servers += R"(, "everything": {"command": "node", "args": [")" + QByteArray(EverythingEntry) + "\"]}";
    QVERIFY(writeFile(m_project + QStringLiteral("/toolstudio.json"),
                      R"({"name": "mcpsteps", "retry": {"max_attempts": 2, "initial_backoff_seconds": 0.01,
  "attempt_timeout_seconds": 3}, "mcp_servers": {)"
                          + servers + "}}\n"));
}

QString TestMcpSteps::writeScript(const QString &name, const QByteArray &source)
{
    const QString path = m_project + QStringLiteral("/scripts/") + name;
    return writeFile(path, source) ? path : QString();
}

void TestMcpSteps::scriptCallsReferenceServer_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QByteArray>("source");
    QTest::newRow("python") << QStringLiteral("everything.py")
                            << QByteArray("from toolstudio import tools\n"
                                          "print(tools['everything__echo'](message='héllo')['content'][0]['text'])\n"
                                          "print(tools.call('everything__get-sum', {'a': 2, 'b': 40})"
                                          "['content'][0]['text'])\n");
    QTest::newRow("node") << QStringLiteral("everything.js")
                          << QByteArray("const { tools } = require('toolstudio');\n"
                                        "(async () => {\n"
                                        "  console.log((await tools['everything__echo']({ message: 'héllo' }))"
                                        ".content[0].text);\n"
                                        "  console.log((await tools.call('everything__get-sum', { a: 2, b: 40 }))"
                                        ".content[0].text);\n"
                                        "})();\n");
}

void TestMcpSteps::scriptCallsReferenceServer()
{
    if (!m_everything)
        QSKIP(ReferenceServerMissing);
    QFETCH(QString, script);
    QFETCH(QByteArray, source);
    const QString path = writeScript(script, source);
    const CommandResult run = toolstudio({QStringLiteral("run"), m_project, path, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.out + run.err);
    QCOMPARE(scriptStdout(run.out), QByteArray("Echo: héllo\nThe sum of 2 and 40 is 42.\n"));
    QCOMPARE(stepLines(run.out), QByteArray("1 everything__echo succeeded\n2 everything__get-sum succeeded\n"));

    // Replayed: both answered from the journal, the script prints the same.
    const CommandResult replay
        = toolstudio({QStringLiteral("replay"), m_project, runIdOf(run.out), QStringLiteral("--json")});
    QVERIFY2(replay.exitCode == 0, replay.out + replay.err);
    QCOMPARE(scriptStdout(replay.out), QByteArray("Echo: héllo\nThe sum of 2 and 40 is 42.\n"));
    QCOMPARE(stepLines(replay.out), QByteArray("1 everything__echo memoized\n2 everything__get-sum memoized\n"));
}

void TestMcpSteps::fakeServerCallsAsSteps()
{
    const QString path = writeScript(QStringLiteral("fake.py"),
                                     "import json\nfrom toolstudio import tools, ToolError\n"
                                     "def show(name, **args):\n"
                                     "    try:\n"
                                     "        print(name, json.dumps(tools[name](**args), sort_keys=True))\n"
                                     "    except ToolError as e:\n"
                                     "        print(name, e.code, e.retryable, e.attempts, e.message)\n"
                                     "show('fake__echo', text='hi')\n"
                                     "show('fake__sum', a=2, b=3)\n"
                                     "show('fake__sum', a=2)\n"
                                     "show('fake__badsum')\n"
                                     "show('fake__fail')\n"
                                     "show('fake__flaky')\n"
                                     "show('fake__garbage')\n"
                                     "show('fake__hang')\n"
                                     "show('fake__calls')\n");
    const CommandResult run = toolstudio({QStringLiteral("run"), m_project, path, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.out + run.err);
    // - sum without b is refused against the inputSchema before the server sees it;
    // - badsum's structuredContent misses the tool's outputSchema;
    // - fail's isError is tool_failed with its text, not retried;
    // - flaky's server dies on attempt 1 (retryable) and is started again for attempt 2;
    // - a non-JSON line on stdout is skipped;
    // - hang is cancelled at each attempt's timeout (notifications/cancelled, counted by
    //   the server: requests 8 and 9 of the restarted server's session).
    // Compared line by line: QCOMPARE names the first line that differs.
    QCOMPARE(
        QString::fromUtf8(scriptStdout(run.out)).split(u'\n'),
        QStringList({
            QStringLiteral("fake__echo {\"content\": [{\"text\": \"echo: hi\", \"type\": \"text\"}]}"),
            QStringLiteral("fake__sum {\"sum\": 5}"),
            QStringLiteral("fake__sum invalid_arguments False 0 invalid arguments for 'fake__sum' at /b: required "
                           "property is missing"),
            QStringLiteral("fake__badsum tool_failed False 1 result of fake__badsum does not match output_schema "
                           "at /sum: required property is missing"),
            QStringLiteral("fake__fail tool_failed False 1 the tool says no"),
            QStringLiteral("fake__flaky {\"content\": [{\"text\": \"flaky: attempt 2, call 1 of this process\", "
                           "\"type\": \"text\"}]}"),
            QStringLiteral("fake__garbage {\"content\": [{\"text\": \"after garbage\", \"type\": \"text\"}]}"),
            // A run's engine is on the run thread; the pool answers on the main thread
            // (MainThreadHandler), which words the cancel without the request's number.
            QStringLiteral("fake__hang timeout True 2 attempt 2 timed out after 3 s (attempt_timeout_seconds = 3); "
                           "notifications/cancelled sent to the tool's MCP server"),
            QStringLiteral("fake__calls {\"content\": [{\"text\": \"{\\\"calls\\\": 5, \\\"cancelled\\\": [10, 11]}\", "
                           "\"type\": \"text\"}]}"),
            QString(),
        }));
    // The timed-out attempts of hang are journaled with their records, made on the main
    // thread after the run's thread ended them (LateProtocols): the request, then the
    // notifications/cancelled for it.
    const std::vector<Step> steps = journalSteps(m_project, runIdOf(run.out));
    const auto hang = std::find_if(steps.begin(), steps.end(),
                                   [](const Step &step) { return step.tool == QLatin1String("fake__hang"); });
    QVERIFY(hang != steps.end());
    QCOMPARE(int(hang->attempts.size()), 2);
    for (const Attempt &attempt : hang->attempts) {
        QStringList rows;
        for (const json &entry : attempt.protocol.value("messages", json::array()))
            rows << McpExchangeText::summary(entry);
        QCOMPARE(rows,
                 QStringList({QStringLiteral("→ request tools/call #%1").arg(attempt.number + 9),
                              QStringLiteral("→ notification notifications/cancelled #%1").arg(attempt.number + 9)}));
    }
}

// attack40: a call the script's end cancels is journaled with its record after the
// run's end was recorded (LateProtocols): that late step write must leave the run's
// by-tool rows (runs.tools_indexed, schema 6) complete, not drop them for good.
void TestMcpSteps::lateRecordKeepsTheRunsToolIndex()
{
    const QString path = writeScript(QStringLiteral("endsmidcall.py"),
                                     "import os, threading, time\n"
                                     "from toolstudio import tools\n"
                                     "threading.Thread(target=lambda: tools['fake__hang'](), daemon=True).start()\n"
                                     "time.sleep(1)\n"
                                     "os._exit(0)\n");
    const CommandResult run = toolstudio({QStringLiteral("run"), m_project, path, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.out + run.err);
    const QString runId = runIdOf(run.out);
    const std::vector<Step> steps = journalSteps(m_project, runId);
    QCOMPARE(int(steps.size()), 1);
    QCOMPARE(steps[0].status, StepStatus::Cancelled);
    QCOMPARE(int(steps[0].attempts.size()), 1);
    QStringList rows;
    for (const json &entry : steps[0].attempts[0].protocol.value("messages", json::array()))
        rows << McpExchangeText::summary(entry).section(u'#', 0, 0);
    QCOMPARE(rows,
             QStringList(
                 {QStringLiteral("→ request tools/call "), QStringLiteral("→ notification notifications/cancelled ")}));
    // Read as another process would, once the command has ended (indexTools at close).
    int indexed = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(m_project + QStringLiteral("/.toolstudio/journal.sqlite"));
        QVERIFY(db.open());
        QSqlQuery query(db);
        QVERIFY(query.exec(QStringLiteral("SELECT tools_indexed FROM runs WHERE id = '%1'").arg(runId)));
        QVERIFY(query.next());
        indexed = query.value(0).toInt();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    QCOMPARE(indexed, 1);
}

void TestMcpSteps::replayDoesNotReachTheServer()
{
    const QString path = writeScript(QStringLiteral("replayed.py"),
                                     "from toolstudio import tools\n"
                                     "print(tools['fake__echo'](text='one')['content'][0]['text'])\n"
                                     "print(tools['fake__sum'](a=1, b=2)['sum'])\n");
    const CommandResult run = toolstudio({QStringLiteral("run"), m_project, path, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.out + run.err);
    QCOMPARE(scriptStdout(run.out), QByteArray("echo: one\n3\n"));
    // The script gains a last call; replayed, the first two are memoized and the new
    // one, run for real, finds that the (new) server process got no call before it.
    QVERIFY(writeFile(path, fileBytes(path) + "print(tools['fake__calls']()['content'][0]['text'])\n"));
    const CommandResult replay
        = toolstudio({QStringLiteral("replay"), m_project, runIdOf(run.out), QStringLiteral("--json")});
    QCOMPARE(scriptStdout(replay.out), QByteArray("echo: one\n3\n{\"calls\": 1, \"cancelled\": []}\n"));
    QCOMPARE(stepLines(replay.out),
             QByteArray("1 fake__echo memoized\n2 fake__sum memoized\n3 fake__calls succeeded\n"));
}

void TestMcpSteps::callCommand()
{
    // One call, journaled as a one-step run; the attempt's output is the server's stderr
    // during the call, which names the idempotency key the request's _meta carried.
    const CommandResult echo
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), m_project, QStringLiteral("fake"),
                      QStringLiteral("echo"), QStringLiteral("--args"), QStringLiteral("{\"text\": \"hi\"}")});
    QVERIFY2(echo.exitCode == 0, echo.out + echo.err);
    QCOMPARE(echo.out,
             QByteArray("{\n  \"content\": [\n    {\n      \"text\": \"echo: hi\",\n      \"type\": "
                        "\"text\"\n    }\n  ]\n}\n"));
    QString runId;
    for (const QByteArray &line : echo.err.split('\n'))
        if (line.startsWith("run "))
            runId = QString::fromUtf8(line.mid(4));
    QVERIFY2(!runId.isEmpty(), echo.err.constData());
    QVERIFY2(echo.err.contains("attempt 1 output:\necho: key=" + runId.toUtf8() + ":fake__echo:"),
             echo.err.constData());

    const CommandResult runs = toolstudio({QStringLiteral("runs"), m_project, QStringLiteral("--json")});
    QVERIFY2(runs.out.contains(runId.toUtf8()), runs.out.constData());
    // The run is labelled as what made it, not "(Try it)" (the Tool dock's form).
    const CommandResult listed = toolstudio({QStringLiteral("runs"), m_project});
    QByteArray line;
    for (const QByteArray &each : listed.out.split('\n'))
        if (each.startsWith(runId.toUtf8()))
            line = each;
    QVERIFY2(line.endsWith("  1 step  (mcp call fake echo)"), listed.out.constData());

    const CommandResult failed = toolstudio(
        {QStringLiteral("mcp"), QStringLiteral("call"), m_project, QStringLiteral("fake"), QStringLiteral("fail")});
    QCOMPARE(failed.exitCode, 1);
    QVERIFY2(failed.err.contains("toolstudio mcp call: fake__fail failed after 1 attempt(s): tool_failed: the tool "
                                 "says no"),
             failed.err.constData());

    if (!m_everything)
        return;
    const CommandResult sum
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), m_project, QStringLiteral("everything"),
                      QStringLiteral("get-sum"), QStringLiteral("--args"), QStringLiteral("{\"a\": 2, \"b\": 40}")});
    QVERIFY2(sum.exitCode == 0, sum.out + sum.err);
    QCOMPARE(sum.out,
             QByteArray("{\n  \"content\": [\n    {\n      \"text\": \"The sum of 2 and 40 is 42.\",\n"
                        "      \"type\": \"text\"\n    }\n  ]\n}\n"));
}

// `mcp call --protocol` prints each attempt's rows while it runs, and an attempt ended
// by its timeout (which journals no record) with the notifications/cancelled sent.
void TestMcpSteps::callCommandPrintsTheProtocolAsItComes()
{
    QProcess call;
    call.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    call.setStandardInputFile(QProcess::nullDevice());
    call.start(toolstudioBinary(),
               withTrust({QStringLiteral("mcp"), QStringLiteral("call"), m_project, QStringLiteral("fake"),
                          QStringLiteral("hang"), QStringLiteral("--protocol")}));
    QVERIFY(call.waitForStarted());
    // Attempt 1 waits 3 s for its timeout: its request is printed before that.
    QByteArray err;
    QVERIFY(QTest::qWaitFor([&] { return (err += call.readAllStandardError()).contains("→ request tools/call #"); },
                            30000));
    QCOMPARE(call.state(), QProcess::Running);
    QVERIFY2(err.startsWith("attempt 1 protocol:\n  +"), err.constData());
    QVERIFY2(!err.contains("notifications/cancelled"), err.constData());
    QVERIFY(call.waitForFinished(60000));
    err += call.readAllStandardError();
    QCOMPARE(call.exitCode(), 1);
    // Each attempt: its request, then the cancellation sent at its timeout; once each.
    const QList<QByteArray> lines = err.split('\n');
    QStringList rows;
    for (const QByteArray &line : lines)
        if (line.startsWith("attempt ") || line.startsWith("  +"))
            rows << QString::fromUtf8(line.startsWith("  +") ? line.mid(line.indexOf("  ", 3) + 2) : line);
    QCOMPARE(rows.size(), 6);
    QCOMPARE(rows.at(0), QStringLiteral("attempt 1 protocol:"));
    QVERIFY2(rows.at(1).startsWith(QStringLiteral("→ request tools/call #")), qPrintable(rows.at(1)));
    // The cancellation names the request it gives up (`requestId`).
    const QString first = rows.at(1).section(u'#', 1);
    QCOMPARE(rows.at(2), QStringLiteral("→ notification notifications/cancelled #") + first);
    QCOMPARE(rows.at(3), QStringLiteral("attempt 2 protocol:"));
    QVERIFY2(rows.at(4).startsWith(QStringLiteral("→ request tools/call #")), qPrintable(rows.at(4)));
    QCOMPARE(rows.at(5), QStringLiteral("→ notification notifications/cancelled #") + rows.at(4).section(u'#', 1));
    QVERIFY2(err.contains("toolstudio mcp call: fake__hang failed after 2 attempt(s): timeout: attempt 2 timed out "
                          "after 3 s (attempt_timeout_seconds = 3)"),
             err.constData());
}

void TestMcpSteps::callCommandRefusesBadInput()
{
    const CommandResult notObject
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), m_project, QStringLiteral("fake"),
                      QStringLiteral("echo"), QStringLiteral("--args"), QStringLiteral("[1]")});
    QCOMPARE(notObject.exitCode, 2);
    QCOMPARE(notObject.err,
             QByteArray("toolstudio mcp call: --args must be a JSON object, e.g. --args '{\"message\": \"hi\"}'\n"));
    const CommandResult noServer = toolstudio(
        {QStringLiteral("mcp"), QStringLiteral("call"), m_project, QStringLiteral("nope"), QStringLiteral("echo")});
    QCOMPARE(noServer.exitCode, 2);
    QCOMPARE(noServer.err,
             QByteArray("toolstudio mcp call: the project has no MCP server \"nope\" (it has: ")
                 + (m_everything ? "everything, fake)\n" : "fake)\n"));
}

void TestMcpSteps::toolsListNamesAFailedServer()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "two", "mcp_servers": {
  "broken": {"command": "python3", "args": ["srv/missing.py"]},
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "steps"]}}})"));
    const CommandResult list = toolstudio({QStringLiteral("tools"), QStringLiteral("list"), dir.path()});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    QCOMPARE(list.out,
             QByteArray("fake__echo\tmcp\tmcp_servers.fake\nfake__sum\tmcp\tmcp_servers.fake\n"
                        "fake__badsum\tmcp\tmcp_servers.fake\nfake__fail\tmcp\tmcp_servers.fake\n"
                        "fake__flaky\tmcp\tmcp_servers.fake\nfake__garbage\tmcp\tmcp_servers.fake\n"
                        "fake__hang\tmcp\tmcp_servers.fake\nfake__calls\tmcp\tmcp_servers.fake\n"
                        "fake__progress\tmcp\tmcp_servers.fake\nfake__blocks\tmcp\tmcp_servers.fake\n"
                        "fake__change\tmcp\tmcp_servers.fake\n"));
    QVERIFY2(list.err.contains("warning: MCP server 'broken' failed: "), list.err.constData());
    QVERIFY2(list.err.contains("srv/missing.py"), list.err.constData());
}

QTEST_GUILESS_MAIN(TestMcpSteps)
#include "tst_mcpsteps.moc"
