// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// End-to-end runs: the real launcher, sandbox, Python shim, bridge, engine and journal.

#include "engine/stepengine.h"
#include "enginefixture.h"
#include "journal/journal.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "run/runfolder.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <map>

#include <ctime>

#include <sys/time.h>

namespace {

/// Compact JSON text, for comparing JSON values with QCOMPARE.
QByteArray dumped(const nlohmann::json &value)
{
    return QByteArray::fromStdString(value.dump());
}

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

/// The tools every test project declares: a mock `echo`, a flaky mock, a manual tool.
const QByteArray TestTools = R"([
  {"name": "echo", "input_schema": {"type": "object", "properties": {"text": {"type": "string"}, "times": {"type": "integer"}}, "required": ["text"]},
   "handler": {"kind": "mock", "sequence": [{"result": "echoed"}]}},
  {"name": "flaky", "input_schema": {"type": "object"},
   "retry": {"max_attempts": 3, "initial_backoff_seconds": 0.01, "jitter": 0},
   "handler": {"kind": "mock", "sequence": [{"error": "service down", "retryable": true}, {"error": "still down", "retryable": true}, {"result": {"ok": true}}]}},
  {"name": "slow", "input_schema": {"type": "object"},
   "handler": {"kind": "mock", "sequence": [{"result": 1, "delay_seconds": 0.3}]}},
  {"name": "ask", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}},
   "handler": {"kind": "manual"}}
])";

} // namespace

class TestRunController : public QObject
{
    Q_OBJECT

private:
    /// A project in `dir` whose default script is `script` (Python).
    std::optional<Project> makeProject(const QTemporaryDir &dir, const QByteArray &script,
                                       const QByteArray &limits = "{}")
    {
        writeFile(dir.path() + QStringLiteral("/scripts/main.py"), script);
        writeFile(
            dir.path() + QStringLiteral("/toolstudio.json"),
            R"({"name": "t", "default_script": "main", "scripts": [{"name": "main", "path": "scripts/main.py"}], "limits": )"
                + limits + R"(, "tools": )" + TestTools + "}");
        return loadProject(dir.path());
    }

private Q_SLOTS:
    void exampleRuns_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QByteArray>("args");
        QTest::addColumn<QByteArray>("result");
        QTest::newRow("exchange-rate") << QStringLiteral("exchange-rate") << QByteArray("100 USD = 92.0 EUR\n")
                                       << QStringLiteral("get_exchange_rate")
                                       << QByteArray("{\"base\":\"USD\",\"quote\":\"EUR\"}") << QByteArray("0.92");
        // The positional argument is mapped to "id", the schema's first property.
        QTest::newRow("customer-seats") << QStringLiteral("customer-seats") << QByteArray("30\n")
                                        << QStringLiteral("getCustomer") << QByteArray("{\"id\":\"cus_1\"}")
                                        << QByteArray("{\"id\":\"cus_1\",\"name\":\"Acme\",\"seats\":3}");
    }

    void exampleRuns()
    {
        QFETCH(QString, example);
        QFETCH(QByteArray, output);
        QFETCH(QString, tool);
        QFETCH(QByteArray, args);
        QFETCH(QByteArray, result);
        const auto project = loadExample(example);
        QVERIFY(project);
        QTemporaryDir journalDir;
        RunController controller;
        controller.setJournalPath(journalDir.filePath(QStringLiteral("journal.sqlite")));
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.stdoutText, output);
        QCOMPARE(run.record.status, RunStatus::Completed);
        QCOMPARE(run.steps.size(), std::size_t(1));
        QCOMPARE(run.steps[0].tool, tool);
        QCOMPARE(run.steps[0].status, StepStatus::Succeeded);
        QCOMPARE(dumped(run.steps[0].args), args);
        QCOMPARE(dumped(*run.steps[0].result), result);

        // The journal holds the same run, step and output.
        Journal journal;
        QVERIFY(journal.open(journalDir.filePath(QStringLiteral("journal.sqlite"))));
        const auto record = journal.run(run.record.id);
        QVERIFY(record);
        QCOMPARE(record->status, RunStatus::Completed);
        const auto steps = journal.steps(run.record.id);
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].status, StepStatus::Succeeded);
        QCOMPARE(dumped(*steps[0].result), result);
        QCOMPARE(journal.output(run.record.id, 1), output);
    }

    void renderReportWaitsForAPerson()
    {
        const auto project = loadExample(QStringLiteral("render-report"));
        QVERIFY(project);
        QTemporaryDir journalDir;
        RunController controller;
        controller.setJournalPath(journalDir.filePath(QStringLiteral("journal.sqlite")));
        QByteArray out;
        connect(&controller, &RunController::outputReceived, this, [&out](int stream, const QByteArray &chunk) {
            if (stream == 1)
                out += chunk;
        });
        QSignalSpy pending(&controller, &RunController::pendingCallOpened);
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY(controller.start(*project, QString()));
        QVERIFY(pending.wait(20000));
        QCOMPARE(controller.status(), RunStatus::Waiting);
        const Step step = pending.at(0).at(0).value<Step>();
        QCOMPARE(step.tool, QStringLiteral("render_report"));
        QCOMPARE(step.status, StepStatus::Waiting);

        // An answer for another attempt is refused and changes nothing.
        QString reason;
        ManualAnswer answer;
        answer.result = "https://reports.example.com/q3";
        QVERIFY(!controller.answerAndWait(step.callId, 2, answer, &reason));
        QVERIFY(!reason.isEmpty());
        QCOMPARE(controller.status(), RunStatus::Waiting);

        QVERIFY2(controller.answerAndWait(step.callId, 1, answer, &reason), qPrintable(reason));
        QVERIFY(finished.wait(20000));
        QCOMPARE(controller.record().status, RunStatus::Completed);
        QCOMPARE(out, QByteArray("Report ready: https://reports.example.com/q3\n"));
        // A second answer to the finished call is refused.
        QVERIFY(!controller.answerAndWait(step.callId, 1, answer, &reason));
    }

    // Issue 18: an answer is posted, never waited for. The run thread is kept busy for
    // 1.5 s (as by a slow validation or handler); answer() returns at once, the caller's
    // event loop keeps turning, and the outcome comes back once the run thread is free.
    void postedAnswerDoesNotWaitForABusyRunThread()
    {
        const auto project = loadExample(QStringLiteral("render-report"));
        QVERIFY(project);
        QTemporaryDir journalDir;
        RunController controller;
        controller.setJournalPath(journalDir.filePath(QStringLiteral("journal.sqlite")));
        QSignalSpy pending(&controller, &RunController::pendingCallOpened);
        QSignalSpy closed(&controller, &RunController::pendingCallClosed);
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY(controller.start(*project, QString()));
        QVERIFY(pending.wait(20000));
        const Step step = pending.at(0).at(0).value<Step>();

        constexpr int BusyMs = 1500;
        QMetaObject::invokeMethod(
            controller.engine(), [] { QThread::msleep(BusyMs); }, Qt::QueuedConnection);
        ManualAnswer answer;
        answer.result = "https://reports.example.com/q3";
        int outcomes = 0;
        bool accepted = false;
        QString reason = QStringLiteral("not yet");
        QElapsedTimer clock;
        clock.start();
        controller.answer(step.callId, 1, answer, this, [&](bool ok, const QString &why) {
            ++outcomes;
            accepted = ok;
            reason = why;
        });
        QVERIFY2(clock.elapsed() < 200, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(outcomes, 0); // queued, never called from inside answer()
        // The caller's event loop turns while the run thread is busy.
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(50);
        QTRY_COMPARE_WITH_TIMEOUT(outcomes, 1, 10000);
        QVERIFY2(clock.elapsed() >= BusyMs - 100, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks)));
        QVERIFY2(accepted, qPrintable(reason));
        QCOMPARE(reason, QString());
        QTRY_COMPARE(closed.size(), 1);
        // The run may have ended while the loop above turned: wait() would wait for a second end.
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(controller.record().status, RunStatus::Completed);

        // After the run: refused with the engine's reason, handed back the same way.
        outcomes = 0;
        controller.answer(step.callId, 1, answer, this, [&](bool ok, const QString &why) {
            ++outcomes;
            accepted = ok;
            reason = why;
        });
        QCOMPARE(outcomes, 0);
        QTRY_COMPARE(outcomes, 1);
        QVERIFY(!accepted);
        QVERIFY(!reason.isEmpty());

        // A gone context gets nothing.
        auto *context = new QObject;
        bool called = false;
        controller.continueStep(step.callId, context, [&called](bool, const QString &) { called = true; });
        delete context;
        QTest::qWait(100);
        QVERIFY(!called);
    }

    void scriptSyntaxErrorFailsTheRun()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "print('unclosed'\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Failed);
        QVERIFY2(run.stderrText.contains("SyntaxError"), run.stderrText.constData());
        QCOMPARE(run.record.error, QStringLiteral("the script exited with status 1"));
        QCOMPARE(run.steps.size(), std::size_t(0));
    }

    void toolErrorsReachTheScript_data()
    {
        QTest::addColumn<QByteArray>("call");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("undeclared tool") << QByteArray("tools.nope(x=1)") << QByteArray("unknown_tool ");
        QTest::newRow("missing required") << QByteArray("tools.echo(times=2)") << QByteArray("invalid_arguments /text");
        QTest::newRow("wrong type") << QByteArray("tools.echo(text='a', times='two')")
                                    << QByteArray("invalid_arguments /times");
    }

    void toolErrorsReachTheScript()
    {
        QFETCH(QByteArray, call);
        QFETCH(QByteArray, expected);
        QTemporaryDir dir;
        const auto project = makeProject(dir,
                                         "from toolstudio import tools, ToolError\n"
                                         "try:\n    "
                                             + call
                                             + "\n"
                                               "except ToolError as e:\n"
                                               "    print(e.code, e.details.get('pointer', ''))\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Completed);
        QCOMPARE(run.stdoutText, expected + '\n');
        QCOMPARE(run.steps.size(), std::size_t(1));
        QCOMPARE(run.steps[0].status, StepStatus::Failed);
        QCOMPARE(run.steps[0].attempts.size(), std::size_t(0)); // the handler never ran
    }

    void flakyMockSucceedsOnTheThirdAttempt()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "print(flaky())\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.stdoutText, QByteArray("{'ok': True}\n"));
        QCOMPARE(run.steps.size(), std::size_t(1));
        QCOMPARE(run.steps[0].status, StepStatus::Succeeded);
        QCOMPARE(run.steps[0].attempts.size(), std::size_t(3));
        QCOMPARE(run.steps[0].attemptsText(), QStringLiteral("3/3"));
    }

    void hundredAndFirstCallIsRefused()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir,
                                         "from toolstudio import tools, ToolError\n"
                                         "for i in range(100):\n    tools.echo(text=str(i))\n"
                                         "try:\n    tools.echo(text='one too many')\n"
                                         "except ToolError as e:\n    print(e.code)\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.stdoutText, QByteArray("max_calls_exceeded\n"));
        QCOMPARE(run.steps.size(), std::size_t(101));
        QCOMPARE(run.steps[99].status, StepStatus::Succeeded);
        QCOMPARE(run.steps[100].status, StepStatus::Failed);
    }

    /// stepsUpdated (the views' feed): every batch in sequence order with one entry per
    /// step; together the batches cover every step, and the last state each step was
    /// reported in is its final one — delivered before finished().
    void batchedUpdatesCoverEveryStepOnceInOrder()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir,
                                         "import asyncio\nfrom toolstudio import tools\n"
                                         "for i in range(40):\n    tools.echo(text=str(i))\n"
                                         "async def main():\n"
                                         "    return await asyncio.gather(*[tools.echo(text='g') for _ in range(20)])\n"
                                         "asyncio.run(main())\nprint(flaky())\n");
        QVERIFY(project);
        RunController controller;
        std::map<int, Step> latest;
        int batches = 0;
        bool finishedSeen = false;
        bool batchAfterFinished = false;
        connect(&controller, &RunController::stepsUpdated, this, [&](const QList<Step> &steps) {
            ++batches;
            batchAfterFinished |= finishedSeen;
            QVERIFY(!steps.isEmpty());
            for (qsizetype i = 1; i < steps.size(); ++i)
                QVERIFY2(steps[i - 1].sequence < steps[i].sequence, "a batch is in sequence order, one entry per step");
            for (const Step &step : steps)
                latest[step.sequence] = step;
        });
        connect(&controller, &RunController::finished, this, [&] { finishedSeen = true; });
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Completed);
        QCOMPARE(run.steps.size(), std::size_t(61));
        QVERIFY(!batchAfterFinished);
        QCOMPARE(int(latest.size()), 61);
        for (const Step &step : run.steps) {
            QCOMPARE(latest[step.sequence].status, step.status);
            QCOMPARE(latest[step.sequence].attempts.size(), step.attempts.size());
        }
        QCOMPARE(latest[61].status, StepStatus::Succeeded);
        QCOMPARE(latest[61].attempts.size(), std::size_t(3));
        QVERIFY(batches >= 1);
    }

    void positionalAndKeywordArguments()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir,
                                         "from toolstudio import tools\n"
                                         "tools.echo('a', 2)\n"
                                         "tools.echo('b', times=3)\n"
                                         "echo(text='c')\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Completed);
        QCOMPARE(run.steps.size(), std::size_t(3));
        QCOMPARE(dumped(run.steps[0].args), dumped(nlohmann::json{{"text", "a"}, {"times", 2}}));
        QCOMPARE(dumped(run.steps[1].args), dumped(nlohmann::json{{"text", "b"}, {"times", 3}}));
        QCOMPARE(dumped(run.steps[2].args), dumped(nlohmann::json{{"text", "c"}}));
    }

    void asyncCallsAreInFlightTogether()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir,
                                         "import asyncio\nfrom toolstudio import tools\n"
                                         "async def main():\n"
                                         "    return await asyncio.gather(tools.slow(), tools.slow(), tools.slow())\n"
                                         "print(asyncio.run(main()))\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.stdoutText, QByteArray("[1, 1, 1]\n"));
        QCOMPARE(run.steps.size(), std::size_t(3));
        // All three were started before the first one ended.
        QVERIFY(run.steps[2].startedAt < run.steps[0].endedAt);
    }

    void stopCancelsAWaitingRun()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "print(ask(q='?'))\n");
        QVERIFY(project);
        RunController controller;
        QSignalSpy pending(&controller, &RunController::pendingCallOpened);
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY(controller.start(*project, QString()));
        QVERIFY(pending.wait(20000));
        controller.stop();
        QVERIFY(finished.wait(10000));
        QCOMPARE(controller.record().status, RunStatus::Cancelled);
        QCOMPARE(controller.engine()->steps().at(0).status, StepStatus::Cancelled);
    }

    void runTimeoutKillsTheScript()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "while True:\n    pass\n", R"({"run_timeout_seconds": 1})");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::TimedOut);
        QVERIFY2(run.record.error.contains(QLatin1String("run timeout")), qPrintable(run.record.error));
    }

    void garbageOnTheBridgeIsAProtocolError()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "import os, time\nos.write(3, b'this is not json\\n')\ntime.sleep(30)\n");
        QVERIFY(project);
        RunController controller;
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Failed);
        QVERIFY2(run.record.error.startsWith(QLatin1String("protocol error on the tools bridge")),
                 qPrintable(run.record.error));
    }

    void chosenInterpreterIsUsedOrRefused()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "import sys\nprint(sys.executable)\n");
        QVERIFY(project);
        RunController controller;
        QString error;
        controller.setInterpreter(QStringLiteral("python"), dir.filePath(QStringLiteral("no-such-python")));
        QVERIFY(!controller.start(*project, QString(), &error));
        QCOMPARE(error,
                 QStringLiteral("the python interpreter set in the preferences (%1) is not an executable file; "
                                "correct it, or clear it to use the default")
                     .arg(dir.filePath(QStringLiteral("no-such-python"))));
        QVERIFY(!controller.isActive());

        controller.setInterpreter(QStringLiteral("python"), QStringLiteral("/usr/bin/python3.11"));
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Completed);
        QCOMPARE(run.stdoutText, QByteArray("/usr/bin/python3.11\n"));
    }

    // A run's folder (<tmp>/toolstudio-<uid>/runs/<id>: runtime/, work/)
    // is removed when the run ends, however it ends.
    void runFolderRemovedWhenTheRunEnds_data()
    {
        QTest::addColumn<QByteArray>("script");
        QTest::addColumn<QByteArray>("limits");
        QTest::addColumn<int>("status");
        QTest::newRow("completed") << QByteArray("print('done')\n") << QByteArray("{}") << int(RunStatus::Completed);
        QTest::newRow("script fails") << QByteArray("raise SystemExit(3)\n") << QByteArray("{}")
                                      << int(RunStatus::Failed);
        QTest::newRow("script crashes") << QByteArray("import os\nos.abort()\n") << QByteArray("{}")
                                        << int(RunStatus::Failed);
        QTest::newRow("timed out") << QByteArray("while True:\n    pass\n")
                                   << QByteArray("{\"run_timeout_seconds\": 1}") << int(RunStatus::TimedOut);
    }

    void runFolderRemovedWhenTheRunEnds()
    {
        QFETCH(QByteArray, script);
        QFETCH(QByteArray, limits);
        QFETCH(int, status);
        QTemporaryDir dir;
        const auto project = makeProject(dir, script, limits);
        QVERIFY(project);
        RunController controller;
        QString folder;
        bool preparedWhileRunning = false;
        connect(&controller, &RunController::started, this, [&](const QString &runId) {
            folder = RunFolder::runsDir() + QLatin1Char('/') + runId;
            preparedWhileRunning = QFileInfo(folder + QStringLiteral("/work")).isDir()
                && QFileInfo(folder + QStringLiteral("/runtime")).isDir();
        });
        const RunResult run = runToEnd(controller, *project);
        QVERIFY2(int(run.record.status) == status, qPrintable(run.record.error + QString::fromUtf8(run.stderrText)));
        QVERIFY(preparedWhileRunning);
        QVERIFY2(!QFileInfo::exists(folder), qPrintable(folder));
    }

    // Files the script left are kept (files-out/) until the next run starts; the rest of
    // the folder goes when the run ends, and the files when the controller goes.
    void runFilesStayUntilTheNextRun()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "open('out.txt', 'w').write('kept')\n");
        QVERIFY(project);
        QString first;
        QString second;
        {
            RunController controller;
            QCOMPARE(runToEnd(controller, *project).record.status, RunStatus::Completed);
            first = RunFolder::runsDir() + QLatin1Char('/') + controller.record().id;
            QCOMPARE(controller.outputFilesDir(), first + QStringLiteral("/files-out"));
            QFile kept(controller.outputFilesDir() + QStringLiteral("/out.txt"));
            QVERIFY(kept.open(QIODevice::ReadOnly));
            QCOMPARE(kept.readAll(), QByteArray("kept"));
            QCOMPARE(QDir(first).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                     QStringList{QStringLiteral("files-out")});
            QCOMPARE(runToEnd(controller, *project).record.status, RunStatus::Completed);
            second = RunFolder::runsDir() + QLatin1Char('/') + controller.record().id;
            QVERIFY(!QFileInfo::exists(first));
            QVERIFY(QFileInfo::exists(second + QStringLiteral("/files-out/out.txt")));
        }
        QVERIFY(!QFileInfo::exists(second));
    }

    // Folders of studios that died are swept; folders held by a live studio (its lock
    // taken) are kept, and so are unlocked ones younger than a day (being created, or
    // from a studio before folders were locked).
    void staleRunFoldersAreSwept()
    {
        QTemporaryDir runs;
        const auto make = [&runs](const QString &name, bool withLock) {
            QDir().mkpath(runs.filePath(name + QStringLiteral("/runtime/python")));
            writeFile(runs.filePath(name + QStringLiteral("/policy.json")), "{}");
            if (withLock)
                writeFile(runs.filePath(name + QStringLiteral("/.lock")), "");
            return runs.filePath(name);
        };
        const QString dead = make(QStringLiteral("20260101T000000-dead"), true); // its studio crashed
        const QString young = make(QStringLiteral("20260101T000000-new0"), false);
        const QString old = make(QStringLiteral("20260101T000000-old0"), false);
        const struct timeval twoDaysAgo[2] = {{time(nullptr) - 2 * 86400, 0}, {time(nullptr) - 2 * 86400, 0}};
        QCOMPARE(::utimes(QFile::encodeName(old).constData(), twoDaysAgo), 0);
        RunFolder live;
        QString error;
        QVERIFY2(live.create(runs.filePath(QStringLiteral("20260101T000000-live")), &error), qPrintable(error));
        QDir().mkpath(live.path() + QStringLiteral("/work"));

        QCOMPARE(RunFolder::sweepStale(runs.path()), 2);
        QVERIFY(!QFileInfo::exists(dead));
        QVERIFY(!QFileInfo::exists(old));
        QVERIFY(QFileInfo::exists(young));
        QVERIFY(QFileInfo::exists(live.path() + QStringLiteral("/work")));

        // A second studio cannot take a folder that is held.
        RunFolder other;
        QVERIFY(!other.create(live.path(), &error));
        QCOMPARE(error, QStringLiteral("the run folder %1 is in use by another Tool Studio").arg(live.path()));
        // Released (its studio is done): removed with its lock.
        const QString livePath = live.path();
        live.remove();
        QVERIFY(!QFileInfo::exists(livePath));
    }

    void missingScriptIsRefused()
    {
        QTemporaryDir dir;
        const auto project = makeProject(dir, "print(1)\n");
        QVERIFY(project);
        RunController controller;
        QString error;
        QVERIFY(!controller.start(*project, QStringLiteral("scripts/nope.py"), &error));
        QCOMPARE(error, QStringLiteral("script not found: %1/scripts/nope.py").arg(dir.path()));
        QVERIFY(!controller.isActive());
    }
};

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_runcontroller.moc"
