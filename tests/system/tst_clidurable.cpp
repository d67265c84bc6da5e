// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The durable-step commands as a user runs them from a shell (issue 5 item 13):
// `toolstudio answer` for a run waiting in another process (and the run timeout that
// is paused meanwhile), `toolstudio run --step`, `toolstudio replay --from/--args`
// (rerun from a step) and cassettes (`--save-cassette`, `--cassette`).

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "journal/journal.h"
#include "waitingrun.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <vector>

#include <csignal>
#include <unistd.h>

namespace {

constexpr int ExitCompleted = 0;
constexpr int ExitRunFailed = 1;
constexpr int ExitBadInput = 2;

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

QByteArray stepSummary(const nlohmann::json &step)
{
    return QByteArray::number(step.value("sequence", 0)) + ' ' + QByteArray::fromStdString(step.value("status", ""))
        + ' ' + QByteArray::fromStdString(step["args"].dump());
}

/// A project with one mock tool `lookup` answering "a", "b", "c" in turn, and a
/// script calling it three times, printing each value (or the error it got).
void writeLookupProject(const QString &dir, const QByteArray &keys = "[\"x\", \"y\", \"z\"]")
{
    writeFile(dir + QStringLiteral("/scripts/main.py"),
              "from toolstudio import tools, ToolError\n"
              "for key in "
                  + keys
                  + ":\n"
                    "    try:\n"
                    "        print(key, tools.lookup(key=key), flush=True)\n"
                    "    except ToolError as e:\n"
                    "        print(key, 'error', e.code, flush=True)\n");
    writeFile(dir + QStringLiteral("/toolstudio.json"),
              "{\"name\": \"lookup\", \"default_script\": \"main\",\n"
              " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
              " \"retry\": {\"max_attempts\": 1},\n"
              " \"tools\": [{\"name\": \"lookup\", \"description\": \"Look a key up\",\n"
              "   \"input_schema\": {\"type\": \"object\", \"properties\": {\"key\": {\"type\": \"string\"}},"
              " \"required\": [\"key\"]},\n"
              "   \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": \"a\"}, {\"result\": \"b\"},"
              " {\"result\": \"c\"}]}}]}\n");
}

/// A project whose one manual tool `approve` waits for a person; `runTimeout` is
/// the run timeout in seconds.
void writeManualProject(const QString &dir, int runTimeout)
{
    writeFile(dir + QStringLiteral("/scripts/main.py"),
              "from toolstudio import tools, ToolError\n"
              "try:\n"
              "    print('approved:', tools.approve(item='invoice 7'), flush=True)\n"
              "except ToolError as e:\n"
              "    print('refused:', e.code, e.message, flush=True)\n");
    writeFile(dir + QStringLiteral("/toolstudio.json"),
              "{\"name\": \"approve\", \"default_script\": \"main\",\n"
              " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
              " \"limits\": {\"run_timeout_seconds\": "
                  + QByteArray::number(runTimeout)
                  + "},\n"
                    " \"retry\": {\"max_attempts\": 1},\n"
                    " \"tools\": [{\"name\": \"approve\", \"description\": \"A person approves an item\",\n"
                    "   \"input_schema\": {\"type\": \"object\", \"properties\": {\"item\": {\"type\": \"string\"}}},\n"
                    "   \"handler\": {\"kind\": \"manual\"}}]}\n");
}

/// `toolstudio run DIR --step --json` in the background with the decisions `input`
/// written to its stdin, which stays open, until step `sequence` is held.
struct HeldRun
{
    QProcess process;
    QString runId;
    QByteArray out;
    QByteArray err;

    bool start(const QString &dir, const QByteArray &input, int sequence, const QByteArray &key)
    {
        process.setProgram(toolstudioBinary());
        process.setArguments(
            withTrust({QStringLiteral("run"), dir, QStringLiteral("--step"), QStringLiteral("--json")}));
        process.start();
        if (!process.waitForStarted())
            return false;
        process.write(input);
        const QByteArray held
            = "[step " + QByteArray::number(sequence) + "] lookup {\"key\":\"" + key + "\"} is held (step mode)";
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
            err += process.readAllStandardError();
            const auto runs = jsonEvents(out, "run");
            if (err.contains(held) && !runs.empty()) {
                runId = QString::fromStdString(runs.front().value("id", ""));
                return true;
            }
            if (process.state() == QProcess::NotRunning)
                return false;
        }
        return false;
    }

    void finish()
    {
        if (!process.waitForFinished(30000))
            process.kill();
        out += process.readAllStandardOutput();
        err += process.readAllStandardError();
    }
};

/// The answers `toolstudio answer` left in the journal of `dir` for `runId` that no
/// process took up yet (pending_answers rows in state `new`).
size_t unresolvedAnswers(const QString &dir, const QString &runId)
{
    Journal journal;
    if (!journal.open(dir + QStringLiteral("/.toolstudio/journal.sqlite")))
        return size_t(-1);
    return journal.newPendingAnswers(runId).size();
}

} // namespace

class TestCliDurable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answerFromAnotherProcess_data()
    {
        QTest::addColumn<QStringList>("answer");
        QTest::addColumn<QByteArray>("scriptOutput");
        QTest::addColumn<QByteArray>("stepStatus");
        QTest::newRow("result") << QStringList{QStringLiteral("--result"), QStringLiteral("\"yes, paid\"")}
                                << QByteArray("approved: yes, paid\n") << QByteArray("succeeded");
        QTest::newRow("error, not retryable")
            << QStringList{QStringLiteral("--error"), QStringLiteral("over budget")}
            << QByteArray("refused: tool_failed over budget\n") << QByteArray("failed");
    }

    void answerFromAnotherProcess()
    {
        QFETCH(QStringList, answer);
        QFETCH(QByteArray, scriptOutput);
        QFETCH(QByteArray, stepStatus);
        QTemporaryDir dir;
        writeManualProject(dir.path(), 300);
        WaitingRun run;
        QVERIFY2(run.start(dir.path()), run.err.constData());

        const CommandResult answered
            = toolstudio(QStringList{QStringLiteral("answer"), dir.path(), run.runId, run.callId} + answer);
        QCOMPARE(answered.err, QByteArray());
        QCOMPARE(answered.exitCode, ExitCompleted);
        QCOMPARE(answered.out,
                 QStringLiteral("accepted: %1 attempt 1 of run %2\n").arg(run.callId, run.runId).toUtf8());

        run.finish();
        QCOMPARE(run.process.exitCode(), ExitCompleted);
        QCOMPARE(scriptStdout(run.out), scriptOutput);
        const auto steps = jsonEvents(run.out, "step");
        QCOMPARE(steps.size(), size_t(1));
        QCOMPARE(QByteArray::fromStdString(steps.front().value("status", "")), stepStatus);

        // The same answer again: the call is finished; refused at once, run unchanged.
        const CommandResult again
            = toolstudio(QStringList{QStringLiteral("answer"), dir.path(), run.runId, run.callId} + answer);
        QCOMPARE(again.exitCode, ExitRunFailed);
        QCOMPARE(again.err,
                 QStringLiteral("toolstudio answer: call '%1' already finished (%2)\n")
                     .arg(run.callId, QString::fromLatin1(stepStatus))
                     .toUtf8());
    }

    void answerRefusesBadInput_data()
    {
        QTest::addColumn<QString>("runId");  // "*" = the real run
        QTest::addColumn<QString>("callId"); // "*" = the real call
        QTest::addColumn<QStringList>("answer");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message"); // %1 = the run id
        QTest::newRow("both result and error")
            << QStringLiteral("*") << QStringLiteral("*")
            << QStringList{QStringLiteral("--result"), QStringLiteral("1"), QStringLiteral("--error"),
                           QStringLiteral("x")}
            << ExitBadInput
            << QStringLiteral("give exactly one of --result JSON, --error MESSAGE, --model NAME and --preferred-model");
        QTest::newRow("neither")
            << QStringLiteral("*") << QStringLiteral("*") << QStringList() << ExitBadInput
            << QStringLiteral("give exactly one of --result JSON, --error MESSAGE, --model NAME and --preferred-model");
        QTest::newRow("result not JSON") << QStringLiteral("*") << QStringLiteral("*")
                                         << QStringList{QStringLiteral("--result"), QStringLiteral("yes")}
                                         << ExitBadInput
                                         << QStringLiteral(
                                                "--result is not valid JSON (strings need quotes: '\"text\"')");
        QTest::newRow("unknown run") << QStringLiteral("no-such-run") << QStringLiteral("*")
                                     << QStringList{QStringLiteral("--result"), QStringLiteral("1")} << ExitBadInput
                                     << QStringLiteral("no run 'no-such-run' in this project");
        QTest::newRow("unknown call") << QStringLiteral("*") << QStringLiteral("call-99")
                                      << QStringList{QStringLiteral("--result"), QStringLiteral("1")} << ExitRunFailed
                                      << QStringLiteral("run %1 has no call 'call-99'");
    }

    void answerRefusesBadInput()
    {
        QFETCH(QString, runId);
        QFETCH(QString, callId);
        QFETCH(QStringList, answer);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        writeManualProject(dir.path(), 300);
        WaitingRun run;
        QVERIFY2(run.start(dir.path()), run.err.constData());
        const QString useRun = runId == QLatin1String("*") ? run.runId : runId;
        const QString useCall = callId == QLatin1String("*") ? run.callId : callId;

        const CommandResult refused
            = toolstudio(QStringList{QStringLiteral("answer"), dir.path(), useRun, useCall} + answer);
        QCOMPARE(refused.exitCode, exitCode);
        QCOMPARE(QString::fromUtf8(refused.err),
                 QStringLiteral("toolstudio answer: ") + QString(message).replace(QLatin1String("%1"), run.runId)
                     + QLatin1Char('\n'));

        // The refused answer changed nothing: the call still waits and takes a real one.
        const CommandResult answered = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                                   QStringLiteral("--result"), QStringLiteral("\"ok\"")});
        QCOMPARE(answered.exitCode, ExitCompleted);
        run.finish();
        QCOMPARE(scriptStdout(run.out), QByteArray("approved: ok\n"));
    }

    // A resumed run keeps the start it had: `toolstudio runs` shows when it first
    // started, not when it was resumed.
    // A call held by step mode does not wait for an answer: `answer` refuses it at once
    // and writes nothing (it used to wait 10 s, fail, and leave the answer in the
    // journal); the holder's decisions go on as before.
    void answerRefusesACallHeldByStepMode()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        HeldRun run;
        QVERIFY2(run.start(dir.path(), QByteArray(), 1, "x"), run.err.constData());
        QElapsedTimer clock;
        clock.start();
        const CommandResult refused = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, QStringLiteral("c1"),
                                                  QStringLiteral("--result"), QStringLiteral("\"fromcli\"")});
        QCOMPARE(
            QString::fromUtf8(refused.err),
            QStringLiteral("toolstudio answer: call c1 is held by step mode, not waiting for an answer: continue, "
                           "answer instead or fail it where it is held (the window's Pending Calls dock, or the stdin "
                           "of toolstudio run --step); nothing was written\n"));
        QCOMPARE(refused.exitCode, ExitBadInput);
        QCOMPARE(refused.out, QByteArray());
        QVERIFY2(clock.elapsed() < 9000, "refused at once, not after the 10 s wait");
        QCOMPARE(unresolvedAnswers(dir.path(), run.runId), size_t(0));

        run.process.write("c\nc\nc\n");
        run.process.closeWriteChannel();
        run.finish();
        QCOMPARE(run.process.exitCode(), ExitCompleted);
        QCOMPARE(scriptStdout(run.out), QByteArray("x a\ny b\nz c\n"));
    }

    // The studio holding c2 is killed: the run is suspended with c2 held, not waiting
    // for an answer, and resuming runs its handler. `answer` says so and writes
    // nothing (it used to print "kept: … applied when it is resumed", and the resume
    // then dropped the answer).
    void answerRefusesASuspendedRunsHeldCall()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        HeldRun run;
        QVERIFY2(run.start(dir.path(), "c\n", 2, "y"), run.err.constData());
        run.process.kill(); // SIGKILL while c2 is held
        run.finish();
        const CommandResult listed = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(
            QByteArray::fromStdString(nlohmann::json::parse(listed.out.trimmed().toStdString()).value("status", "")),
            QByteArray("suspended"));

        const CommandResult refused = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, QStringLiteral("c2"),
                                                  QStringLiteral("--result"), QStringLiteral("\"INJECTED\"")});
        QCOMPARE(
            QString::fromUtf8(refused.err),
            QStringLiteral("toolstudio answer: call c2 was held by step mode when run %1 was suspended, not waiting "
                           "for an answer; nothing was written. Resuming runs its handler (toolstudio resume %2 %1); "
                           "to answer it instead, resume the run in the window with Step Mode on and choose Answer "
                           "Instead\n")
                .arg(run.runId, dir.path()));
        QCOMPARE(refused.exitCode, ExitBadInput);
        QCOMPARE(refused.out, QByteArray());
        QCOMPARE(unresolvedAnswers(dir.path(), run.runId), size_t(0));

        // What the message promises: resume runs c2's handler.
        const CommandResult resumed
            = toolstudio({QStringLiteral("resume"), dir.path(), run.runId, QStringLiteral("--json")});
        QCOMPARE(resumed.exitCode, ExitCompleted);
        QCOMPARE(scriptStdout(resumed.out), QByteArray("x a\ny b\nz c\n"));
    }

    void resumeKeepsTheStartTime()
    {
        QTemporaryDir dir;
        writeManualProject(dir.path(), 60);
        WaitingRun run;
        QVERIFY2(run.start(dir.path()), run.err.constData());
        run.process.kill(); // the studio dies while the call waits: the run is suspended
        run.finish();
        const CommandResult listed = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
        const nlohmann::json suspended = nlohmann::json::parse(listed.out.trimmed().toStdString());
        QCOMPARE(QByteArray::fromStdString(suspended.value("status", "")), QByteArray("suspended"));
        const qint64 startedAt = suspended.value("started_at", qint64(0));
        QVERIFY(startedAt > 0);
        const CommandResult textBefore = toolstudio({QStringLiteral("runs"), dir.path()});

        QTest::qWait(1100); // the text listing shows seconds
        writeFile(dir.filePath(QStringLiteral("answers.json")), "{\"approve\": \"yes\"}");
        const CommandResult resumed
            = toolstudio({QStringLiteral("resume"), dir.path(), run.runId, QStringLiteral("--answers"),
                          dir.filePath(QStringLiteral("answers.json"))});
        QCOMPARE(resumed.exitCode, ExitCompleted);
        const CommandResult after = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
        const nlohmann::json completed = nlohmann::json::parse(after.out.trimmed().toStdString());
        QCOMPARE(QByteArray::fromStdString(completed.value("status", "")), QByteArray("completed"));
        QCOMPARE(completed.value("started_at", qint64(0)), startedAt);
        QVERIFY(completed.value("ended_at", qint64(0)) >= startedAt + 1100);
        // The text listing: the same start (the status column changed, nothing else).
        const QByteArray textAfter = toolstudio({QStringLiteral("runs"), dir.path()}).out;
        QCOMPARE(textAfter, QByteArray(textBefore.out).replace("suspended", "completed"));
    }

    // The run folder of a studio killed mid-run stays (its lock is released), and the
    // next studio that starts a run removes it; a run that ends removes its own.
    void killedStudiosRunFolderIsSwept()
    {
        QTemporaryDir dir;
        writeManualProject(dir.path(), 60);
        WaitingRun run;
        QVERIFY2(run.start(dir.path()), run.err.constData());
        const QString folder = QDir::tempPath() + QStringLiteral("/toolstudio-%1/runs/").arg(::getuid()) + run.runId;
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/.lock")));
        run.process.kill();
        run.finish();
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/runtime")));

        QTemporaryDir other;
        writeLookupProject(other.path());
        const CommandResult next = toolstudio({QStringLiteral("run"), other.path(), QStringLiteral("--json")});
        QCOMPARE(next.exitCode, ExitCompleted);
        QVERIFY2(!QFileInfo::exists(folder), qPrintable(folder));
        const auto started = jsonEvents(next.out, "run");
        QCOMPARE(started.size(), size_t(1));
        const QString own = QDir::tempPath() + QStringLiteral("/toolstudio-%1/runs/").arg(::getuid())
            + QString::fromStdString(started.front().value("id", ""));
        QVERIFY2(!QFileInfo::exists(own), qPrintable(own));
    }

    void runTimeoutPausedWhileWaiting()
    {
        // A 2 s run timeout, a person who answers after 3 s: the run completes, because
        // time spent waiting for a person does not count against the run timeout.
        QTemporaryDir dir;
        writeManualProject(dir.path(), 2);
        WaitingRun run;
        QVERIFY2(run.start(dir.path()), run.err.constData());
        QTest::qWait(3000);
        QCOMPARE(run.process.state(), QProcess::Running);
        const CommandResult answered = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                                   QStringLiteral("--result"), QStringLiteral("\"late\"")});
        QCOMPARE(answered.exitCode, ExitCompleted);
        run.finish();
        QCOMPARE(scriptStdout(run.out), QByteArray("approved: late\n"));
        const auto end = jsonEvents(run.out, "end");
        QCOMPARE(end.size(), size_t(1));
        QCOMPARE(QByteArray::fromStdString(end.front().value("status", "")), QByteArray("completed"));
        QVERIFY2(end.front().value("duration_ms", 0) >= 3000, end.front().dump().c_str());
    }

    void runTimeoutStillFiresWithoutAPerson()
    {
        // The same 2 s bound fires when the script itself runs too long.
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/scripts/main.py"), "import time\ntime.sleep(30)\n");
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                  "{\"name\": \"slow\", \"default_script\": \"main\",\n"
                  " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
                  " \"limits\": {\"run_timeout_seconds\": 2}, \"tools\": []}\n");
        const CommandResult result = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(result.exitCode, ExitRunFailed);
        const auto end = jsonEvents(result.out, "end");
        QCOMPARE(end.size(), size_t(1));
        QCOMPARE(QByteArray::fromStdString(end.front().value("status", "")), QByteArray("timed_out"));
        const QByteArray error = QByteArray::fromStdString(end.front().value("error", ""));
        QVERIFY2(error.contains("run timeout") && error.contains("2 s"), error.constData());
    }

    void stepModeDecisions_data()
    {
        QTest::addColumn<QByteArray>("decisions"); // stdin, one line per held call
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QByteArrayList>("statuses");
        QTest::newRow("continue each") << QByteArray("c\nc\nc\n") << QByteArray("x a\ny b\nz c\n")
                                       << QByteArrayList{"succeeded", "succeeded", "succeeded"};
        QTest::newRow("answer instead") << QByteArray("c\na \"manual\"\nc\n") << QByteArray("x a\ny manual\nz b\n")
                                        << QByteArrayList{"succeeded", "succeeded", "succeeded"};
        QTest::newRow("fail") << QByteArray("f boom\nc\nc\n") << QByteArray("x error tool_failed\ny a\nz b\n")
                              << QByteArrayList{"failed", "succeeded", "succeeded"};
        QTest::newRow("time out") << QByteArray("c\nt\nc\n") << QByteArray("x a\ny error timeout\nz b\n")
                                  << QByteArrayList{"succeeded", "failed", "succeeded"};
        QTest::newRow("continue to end") << QByteArray("e\n") << QByteArray("x a\ny b\nz c\n")
                                         << QByteArrayList{"succeeded", "succeeded", "succeeded"};
        QTest::newRow("end of input = continue to end")
            << QByteArray("") << QByteArray("x a\ny b\nz c\n") << QByteArrayList{"succeeded", "succeeded", "succeeded"};
        QTest::newRow("unknown decision asked again") << QByteArray("maybe\nc\ne\n") << QByteArray("x a\ny b\nz c\n")
                                                      << QByteArrayList{"succeeded", "succeeded", "succeeded"};
        QTest::newRow("answer not JSON asked again") << QByteArray("a manual\nc\ne\n") << QByteArray("x a\ny b\nz c\n")
                                                     << QByteArrayList{"succeeded", "succeeded", "succeeded"};
    }

    void stepModeDecisions()
    {
        QFETCH(QByteArray, decisions);
        QFETCH(QByteArray, output);
        QFETCH(QByteArrayList, statuses);
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        const CommandResult result = toolstudio(
            {QStringLiteral("run"), dir.path(), QStringLiteral("--step"), QStringLiteral("--json")}, decisions);
        QCOMPARE(scriptStdout(result.out), output);
        const auto steps = jsonEvents(result.out, "step");
        QByteArrayList got;
        for (const nlohmann::json &step : steps)
            got << QByteArray::fromStdString(step.value("status", ""));
        QCOMPARE(got, statuses);
        QCOMPARE(result.exitCode, ExitCompleted);
        if (decisions.startsWith("maybe"))
            QVERIFY2(result.err.contains("unknown decision 'maybe'"), result.err.constData());
        else if (decisions.startsWith("a manual")) // plain words, not the JSON parser's
            QVERIFY2(
                result.err.contains("That is not JSON (it stops being JSON at character 1). An answer here is "
                                    "JSON, e.g. {\"key\": \"value\"}, or \"text in double quotes\", or a number\n"),
                result.err.constData());
        else
            QVERIFY2(result.err.contains("[step 1] lookup {\"key\":\"x\"} is held (step mode)"),
                     result.err.constData());
    }

    void rerunFromStepWithEditedArgs()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(first.exitCode, ExitCompleted);
        QCOMPARE(scriptStdout(first.out), QByteArray("x a\ny b\nz c\n"));
        const QString runId = QString::fromStdString(jsonEvents(first.out, "run").front().value("id", ""));

        const CommandResult rerun
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--from"), QStringLiteral("2"),
                          QStringLiteral("--args"), QStringLiteral("{\"key\": \"Y\"}"), QStringLiteral("--json")});
        QCOMPARE(rerun.err, QByteArray());
        QCOMPARE(rerun.exitCode, ExitCompleted);
        const auto steps = jsonEvents(rerun.out, "step");
        QCOMPARE(steps.size(), size_t(3));
        QCOMPARE(stepSummary(steps[0]), QByteArray("1 memoized {\"key\":\"x\"}"));
        QCOMPARE(stepSummary(steps[1]), QByteArray("2 succeeded {\"key\":\"Y\"}"));
        QCOMPARE(stepSummary(steps[2]), QByteArray("3 succeeded {\"key\":\"z\"}"));
        // Step 1 is the journal's "a"; steps 2 and 3 ran the mock for real again.
        QCOMPARE(scriptStdout(rerun.out).left(4), QByteArray("x a\n"));

        // The runs list names the rerun and its source run.
        const CommandResult runs = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(runs.out.contains("\"kind\":\"rerun\"")
                     && runs.out.contains("\"source_run\":\"" + runId.toUtf8() + '"'),
                 runs.out.constData());
    }

    void rerunChecksEditedArgsAgainstTheSchema()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        const QString runId = QString::fromStdString(jsonEvents(first.out, "run").front().value("id", ""));

        const CommandResult rerun
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--from"), QStringLiteral("2"),
                          QStringLiteral("--args"), QStringLiteral("{\"key\": 5}"), QStringLiteral("--json")});
        const auto steps = jsonEvents(rerun.out, "step");
        QCOMPARE(steps.size(), size_t(3));
        QCOMPARE(stepSummary(steps[1]), QByteArray("2 failed {\"key\":5}"));
        QCOMPARE(QByteArray::fromStdString(steps[1]["error"].value("code", "")), QByteArray("invalid_arguments"));
        const QByteArray message = QByteArray::fromStdString(steps[1]["error"].value("message", ""));
        QVERIFY2(message.startsWith("invalid edited arguments for 'lookup' at /key: "), message.constData());
        // The script caught the refusal; step 3 ran for real.
        QCOMPARE(scriptStdout(rerun.out), QByteArray("x a\ny error invalid_arguments\nz b\n"));
    }

    void rerunRefusesBadInput_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("from zero") << QStringList{QStringLiteral("--from"), QStringLiteral("0")}
                                   << QByteArray("toolstudio replay: --from needs a step number (1, 2, …)\n");
        QTest::newRow("from word") << QStringList{QStringLiteral("--from"), QStringLiteral("two")}
                                   << QByteArray("toolstudio replay: --from needs a step number (1, 2, …)\n");
        QTest::newRow("args not JSON")
            << QStringList{QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--args"),
                           QStringLiteral("{n:7")}
            << QByteArray("toolstudio replay: --args is not valid JSON at line 1, column 3: syntax error while parsing "
                          "object key - invalid literal; last read: '{n:'; expected string literal (keys and strings "
                          "need double quotes, e.g. '{\"n\": 7}')\n");
        // Issue 16: 60 000 levels (under the 128 KiB a single argv string may hold) used to
        // be parsed whole and crash the studio when validated.
        QTest::newRow("args nested too deep")
            << QStringList{QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--args"),
                           QStringLiteral("{\"n\": ") + QString(60000, QLatin1Char('['))
                               + QString(60000, QLatin1Char(']')) + QLatin1Char('}')}
            << QByteArray("toolstudio replay: --args is not valid JSON at line 1, column 134: nested deeper than 128 "
                          "levels (keys and strings need double quotes, e.g. '{\"n\": 7}')\n");
        QTest::newRow("args number too large")
            << QStringList{QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--args"),
                           QStringLiteral("{\"n\": 1e999}")}
            << QByteArray("toolstudio replay: --args is not valid JSON at line 1, column 7: number overflow parsing "
                          "'1e999' (keys and strings need double quotes, e.g. '{\"n\": 7}')\n");
        QTest::newRow("args not an object") << QStringList{QStringLiteral("--from"), QStringLiteral("2"),
                                                           QStringLiteral("--args"), QStringLiteral("[7]")}
                                            << QByteArray("toolstudio replay: --args must be a JSON object\n");
    }

    void rerunRefusesBadInput()
    {
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, message);
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        const QString runId = QString::fromStdString(jsonEvents(first.out, "run").front().value("id", ""));
        const CommandResult rerun = toolstudio(QStringList{QStringLiteral("replay"), dir.path(), runId} + extra);
        QCOMPARE(rerun.exitCode, ExitBadInput);
        QCOMPARE(rerun.err, message);
    }

    void cassetteRunsOffline()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(first.exitCode, ExitCompleted);
        const QString runId = QString::fromStdString(jsonEvents(first.out, "run").front().value("id", ""));
        const QString cassette = dir.path() + QStringLiteral("/demo.cassette.json");

        const CommandResult saved
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--save-cassette"), cassette});
        QCOMPARE(saved.exitCode, ExitCompleted);
        QCOMPARE(saved.out, QStringLiteral("cassette of run %1 written to %2\n").arg(runId, cassette).toUtf8());

        // Offline: every call is answered from the cassette, the output is the same.
        const CommandResult offline = toolstudio({QStringLiteral("replay"), dir.path(), QStringLiteral("-"),
                                                  QStringLiteral("--cassette"), cassette, QStringLiteral("--json")});
        QCOMPARE(offline.exitCode, ExitCompleted);
        QCOMPARE(scriptStdout(offline.out), QByteArray("x a\ny b\nz c\n"));
        QByteArrayList statuses;
        for (const nlohmann::json &step : jsonEvents(offline.out, "step"))
            statuses << QByteArray::fromStdString(step.value("status", ""));
        QCOMPARE(statuses, (QByteArrayList{"memoized", "memoized", "memoized"}));

        // A changed script diverges at its first different call, named on stderr.
        writeLookupProject(dir.path(), "[\"x\", \"w\", \"z\"]");
        const CommandResult changed
            = toolstudio({QStringLiteral("replay"), dir.path(), QStringLiteral("scripts/main.py"),
                          QStringLiteral("--cassette"), cassette, QStringLiteral("--json")});
        // Offline nothing runs for real: the line says what happens instead.
        QVERIFY2(changed.err.contains("divergence at step 2: step 2: expected lookup({\"key\":\"y\"}), got "
                                      "lookup({\"key\":\"w\"}); no recorded call has this tool and these "
                                      "arguments. Calls are matched by tool, arguments and the number of identical "
                                      "calls before them, not by arrival order, so a script whose arguments depend on "
                                      "completion order (or on time, randomness or changed input) diverges \u2014 "
                                      "offline, so this call and every later one fails (not in the cassette)\n"),
                 changed.err.constData());
        QVERIFY2(!changed.err.contains("for real"), changed.err.constData());
        const auto steps = jsonEvents(changed.out, "step");
        QCOMPARE(steps.size(), size_t(3));
        QCOMPARE(stepSummary(steps[0]), QByteArray("1 memoized {\"key\":\"x\"}"));
        // Offline, a call that is not in the cassette fails instead of running a tool.
        QCOMPARE(stepSummary(steps[1]), QByteArray("2 failed {\"key\":\"w\"}"));
        QCOMPARE(QByteArray::fromStdString(steps[1]["error"].value("message", "")),
                 QByteArray("offline: this call is not in the cassette (no real tool runs against a cassette)"));
        QCOMPARE(scriptStdout(changed.out), QByteArray("x a\nw error tool_failed\nz error tool_failed\n"));
    }

    void cassetteRefusesBadFiles_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("not JSON") << QByteArray("{cassette");
        QTest::newRow("another format") << QByteArray("{\"format\": \"toolstudio-run\", \"steps\": []}");
    }

    void cassetteRefusesBadFiles()
    {
        QFETCH(QByteArray, contents);
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        const QString cassette = dir.path() + QStringLiteral("/bad.json");
        writeFile(cassette, contents);
        const CommandResult result = toolstudio(
            {QStringLiteral("replay"), dir.path(), QStringLiteral("-"), QStringLiteral("--cassette"), cassette});
        QCOMPARE(result.exitCode, ExitBadInput);
        QVERIFY2(result.err.startsWith("toolstudio replay: ") && result.err.contains(cassette.toUtf8()),
                 result.err.constData());
        // Nothing ran: no run was recorded (--json: one line per run).
        const CommandResult runs = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(runs.out, QByteArray());
    }

    /// Ctrl-C on `toolstudio run` (issue: the process died at once with status 130 and
    /// no end line): the run is stopped like the window's Stop, the end line and how to
    /// go on are printed, the exit status is 1, and the journal's run is not `running`.
    void interruptStopsTheRun()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path()); // the manifest; a script calling lookup every 0.2 s:
        writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                  "import time\n"
                  "from toolstudio import tools\n"
                  "for i in range(300):\n"
                  "    tools.lookup(key=str(i))\n"
                  "    time.sleep(0.2)\n");
        QProcess process;
        process.setProgram(toolstudioBinary());
        process.setArguments(withTrust({QStringLiteral("run"), dir.path()}));
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        QVERIFY(process.waitForStarted());
        QByteArray out;
        while (!out.contains("[step 1] ") && process.state() == QProcess::Running) {
            process.waitForReadyRead(1000);
            out += process.readAllStandardOutput();
        }
        QVERIFY2(out.contains("[step 1] lookup succeeded"), out.constData());
        QCOMPARE(::kill(pid_t(process.processId()), SIGINT), 0);
        QVERIFY(process.waitForFinished(30000));
        out += process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit); // not killed by the signal
        QCOMPARE(process.exitCode(), ExitRunFailed);
        const QString runId = QString::fromUtf8(out.split('\n').first().split(' ').value(1)).chopped(1);
        const QRegularExpression endLine(
            QStringLiteral("\\nrun %1 cancelled in [0-9.]+ m?s \\([0-9]+ steps?\\): "
                           "stopped by the user; the script's process group was killed\\n$")
                .arg(QRegularExpression::escape(runId)));
        QVERIFY2(endLine.match(QString::fromUtf8(out)).hasMatch(), out.constData());
        QCOMPARE(err,
                 (QStringLiteral("toolstudio run: stopped by SIGINT (Ctrl-C); run %1 is cancelled (only a suspended "
                                 "run can be resumed); run it again with its recorded steps memoized: "
                                 "toolstudio replay %2 %1\n")
                      .arg(runId, dir.path()))
                     .toUtf8());
        const CommandResult runs = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
        const nlohmann::json run = nlohmann::json::parse(runs.out.split('\n').first().toStdString());
        QCOMPARE(QByteArray::fromStdString(run.value("status", "")), QByteArray("cancelled"));
    }

    /// A call the sandbox refuses is shown headless too (issue: only the journal had
    /// it): one stderr line per policy event, a {"event": "policy"} line with --json.
    void sandboxRefusalsArePrinted()
    {
        QTemporaryDir dir;
        writeLookupProject(dir.path());
        writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                  "import socket\n"
                  "try:\n"
                  "    socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
                  "    print('opened')\n"
                  "except OSError as e:\n"
                  "    print('refused', e.errno)\n");
        const CommandResult text = toolstudio({QStringLiteral("run"), dir.path()});
        QCOMPARE(text.exitCode, ExitCompleted);
        QVERIFY2(text.out.contains("\nrefused 97\n"), text.out.constData()); // EAFNOSUPPORT
        const QRegularExpression line(QStringLiteral(
            "^\\[policy\\] sandbox_refused: socket\\(AF_INET, SOCK_STREAM\\) refused: EAFNOSUPPORT \\(pid [0-9]+\\)\\n$"));
        QVERIFY2(line.match(QString::fromUtf8(text.err)).hasMatch(), text.err.constData());

        const CommandResult json = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, ExitCompleted);
        QCOMPARE(json.err, QByteArray());
        const auto policy = jsonEvents(json.out, "policy");
        QCOMPARE(policy.size(), size_t(1));
        nlohmann::json event = policy.front();
        QVERIFY(event["at"].is_number_integer() && event["at"].get<qint64>() > 0);
        QVERIFY(event["detail"]["pid"].is_number_integer() && event["detail"]["pid"].get<int>() > 0);
        const std::string pid = std::to_string(event["detail"]["pid"].get<int>());
        event.erase("at");
        event["detail"].erase("pid");
        QCOMPARE(QByteArray::fromStdString(event.dump()),
                 QByteArray(
                     "{\"detail\":{\"arguments\":\"AF_INET, SOCK_STREAM\",\"errno\":97,\"errno_name\":\"EAFNOSUPPORT\","
                     "\"syscall\":\"socket\",\"text\":\"socket(AF_INET, SOCK_STREAM) refused: EAFNOSUPPORT (pid ")
                     + QByteArray::fromStdString(pid)
                     + ")\"},\"event\":\"policy\",\"kind\":\"sandbox_refused\",\"sequence\":0}");
    }

    /// A command tool killed by a signal names the signal (issue: "killed by a signal").
    void commandKilledBySignalNamesIt()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                  "from toolstudio import tools, ToolError\n"
                  "try:\n"
                  "    tools.crash()\n"
                  "except ToolError as e:\n"
                  "    print(e.code)\n");
        writeFile(
            dir.filePath(QStringLiteral("toolstudio.json")),
            "{\"name\": \"crash\", \"default_script\": \"main\",\n"
            " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
            " \"retry\": {\"max_attempts\": 1},\n"
            " \"tools\": [{\"name\": \"crash\", \"description\": \"Dies of SIGSEGV\",\n"
            "   \"input_schema\": {\"type\": \"object\"},\n"
            "   \"handler\": {\"kind\": \"command\", \"command\": [\"sh\", \"-c\", \"echo boom >&2; kill -SEGV $$\"]}}]}\n");
        const CommandResult result = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        const auto steps = jsonEvents(result.out, "step");
        QCOMPARE(steps.size(), size_t(1));
        QCOMPARE(QByteArray::fromStdString(steps[0]["error"].value("message", "")),
                 QByteArray("boom (command was killed by SIGSEGV, signal 11)"));
    }

    // Several processes opening a journal that no one has set up yet at the same moment
    // (a served client's run, `toolstudio runs` from a shell, the window): one sets the
    // schema up, the others wait for it; none fails and the journal is left usable.
    // Before the fix 6 concurrent opens of an empty journal.sqlite broke it in 2 trials of 6.
    void newJournalOpenedByManyAtOnce()
    {
        constexpr int Trials = 2;
        constexpr int Processes = 6;
        for (int trial = 0; trial < Trials; ++trial) {
            QTemporaryDir dir;
            writeLookupProject(dir.path());
            const QString journalPath = dir.path() + QStringLiteral("/.toolstudio/journal.sqlite");
            writeFile(journalPath, QByteArray());
            isolateConfigDir();
            std::vector<std::unique_ptr<QProcess>> openers;
            for (int i = 0; i < Processes; ++i) {
                openers.push_back(std::make_unique<QProcess>());
                openers.back()->setProgram(toolstudioBinary());
                openers.back()->setArguments({QStringLiteral("runs"), dir.path(), QStringLiteral("--json")});
                openers.back()->setStandardInputFile(QProcess::nullDevice());
            }
            for (const auto &opener : openers)
                opener->start();
            for (const auto &opener : openers) {
                QVERIFY(opener->waitForFinished(60000));
                const QByteArray err = opener->readAllStandardError();
                QVERIFY2(opener->exitCode() == ExitCompleted, err.constData());
                QCOMPARE(opener->readAllStandardOutput(), QByteArray()); // --json: a line per run, none yet
            }
            const CommandResult run = toolstudio({QStringLiteral("run"), dir.path()});
            QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
            for (const char *line : {"\nx a\n", "\ny b\n", "\nz c\n"})
                QVERIFY2(run.out.contains(line), run.out.constData());
            Journal journal;
            QString error;
            QVERIFY2(journal.open(journalPath, &error), qPrintable(error));
            QCOMPARE(journal.runs().size(), size_t(1));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliDurable)
#include "tst_clidurable.moc"
