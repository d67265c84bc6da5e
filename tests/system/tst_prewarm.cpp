// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pre-warmed starts (docs/sandbox.md "Pre-warmed start"): RunController keeps one
// launcher waiting for the next run (WarmLauncher) and hands the script over with go().
#include "engine/stepengine.h"
#include "enginefixture.h"
#include "journal/journal.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "run/warmlauncher.h"
#include "sandboxprocess.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

/// Reads its input file, prints its run id and where HOME is, calls a tool, leaves a
/// file, and prints its pid last (a pre-warmed launcher execs the script in place).
const QByteArray PythonScript = "import os\n"
                                "print(open('input.txt').read().strip())\n"
                                "home = os.environ['HOME']\n"
                                "print(os.environ['TOOLSTUDIO_RUN_ID'])\n"
                                "print(home == os.getcwd(), home == os.environ['TMPDIR'],\n"
                                "      home.endswith('/' + os.environ['TOOLSTUDIO_RUN_ID'] + '/work'))\n"
                                "print(echo(text='hi'))\n"
                                "open('out.txt', 'w').write('written')\n"
                                "open('input.txt', 'a').write('changed')\n"
                                "print('pid', os.getpid())\n";

const QByteArray BashScript
    = "read -r line < input.txt; echo \"bash $line\"; echo \"$TOOLSTUDIO_RUN_ID\"; echo \"pid $$\"\n";

bool processGone(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == -1 && errno == ESRCH;
}

} // namespace

class TestPrewarm : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    /// A project with a Python default script, a Bash script and files/input.txt.
    std::optional<Project> makeProject()
    {
        writeFile(m_dir.path() + QStringLiteral("/scripts/main.py"), PythonScript);
        writeFile(m_dir.path() + QStringLiteral("/scripts/other.sh"), BashScript);
        writeFile(m_dir.path() + QStringLiteral("/files/input.txt"), "from files\n");
        writeFile(
            m_dir.path() + QStringLiteral("/toolstudio.json"),
            "{\"name\": \"t\", \"default_script\": \"main\", \"scripts\": [{\"name\": \"main\", \"path\": "
            "\"scripts/main.py\"}, {\"name\": \"other\", \"path\": \"scripts/other.sh\"}], \"tools\": [{\"name\": "
            "\"echo\", \"input_schema\": {\"type\": \"object\"}, \"handler\": {\"kind\": \"mock\", \"sequence\": "
            "[{\"result\": \"echoed\"}]}}]}");
        return loadProject(m_dir.path());
    }

    /// Waits until the controller's launcher for the next run is ready.
    /// True once `pid` has exited (a zombie or gone): its pipes are closed then. SIGKILL
    /// is delivered, not done, when kill() returns: on a loaded machine the launcher
    /// still held its handover pipe when the next run came (the Debian 12 chroot run of
    /// session 34), so the run went to a launcher about to die.
    static bool exited(qint64 pid)
    {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            return true;
        const QByteArray text = stat.readAll();
        const qsizetype close = text.lastIndexOf(')');
        return close < 0 || text.mid(close + 2, 1) == "Z";
    }

    static bool waitForWarm(RunController &controller)
    {
        return QTest::qWaitFor([&] { return controller.warmLauncher()->isReady(); }, 10000);
    }

    /// What a person sees of a run, with the run id (it differs) replaced.
    static QByteArray visible(const RunResult &run)
    {
        QByteArray out = run.stdoutText;
        out.truncate(out.lastIndexOf("pid "));
        QByteArray text = out + "|" + run.stderrText + "|" + runStatusName(run.record.status).toUtf8() + "|"
            + QByteArray::number(run.record.exitCode) + "|";
        for (const Step &step : run.steps)
            text += step.tool.toUtf8() + "=" + QByteArray::fromStdString(step.result ? step.result->dump() : "") + ";";
        for (const RunFile &file : run.files)
            text += file.name.toUtf8() + ":" + QByteArray::number(file.size) + ";";
        return text.replace(run.record.id.toUtf8(), "<run>");
    }

    /// The journal's view of the run, with the run id replaced.
    static QByteArray journaled(const QString &journalPath, const QString &runId)
    {
        Journal journal;
        if (!journal.open(journalPath))
            return "no journal";
        QByteArray out = journal.output(runId, 1);
        out.truncate(out.lastIndexOf("pid "));
        QByteArray text = out + "|" + journal.output(runId, 2) + "|";
        const auto record = journal.run(runId);
        if (record)
            text += runStatusName(record->status).toUtf8() + "|" + record->scriptPath.toUtf8() + "|";
        for (const Step &step : journal.steps(runId))
            text += step.tool.toUtf8() + "=" + QByteArray::fromStdString(step.result ? step.result->dump() : "") + ";";
        for (PolicyEvent event : journal.events(runId)) {
            event.detail.erase("pids_cgroup"); // the run's own cgroup: a different name each run
            text += policyEventKindName(event.kind).toUtf8() + QByteArray::fromStdString(event.detail.dump()) + ";";
        }
        return text.replace(runId.toUtf8(), "<run>");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (RunController::interpreterFor(QStringLiteral("x.py")).isEmpty())
            QSKIP("python3 is not installed");
    }

    void warmRunMatchesColdRun()
    {
        const auto project = makeProject();
        QVERIFY(project);
        QTemporaryDir journalDir;
        const QString journalPath = journalDir.filePath(QStringLiteral("journal.sqlite"));

        RunController cold;
        cold.setJournalPath(journalPath);
        cold.warmLauncher()->setEnabled(false);
        const RunResult coldRun = runToEnd(cold, *project);
        QCOMPARE(coldRun.record.status, RunStatus::Completed);
        QCOMPARE(cold.warmLauncher()->pid(), qint64(0)); // switched off: nothing prepared

        RunController controller;
        controller.setJournalPath(journalPath);
        QCOMPARE(controller.warmLauncher()->pid(), qint64(0)); // nothing before the first run
        const RunResult first = runToEnd(controller, *project);
        QVERIFY(waitForWarm(controller));
        const qint64 warmPid = controller.warmLauncher()->pid();
        const QString warmDir = controller.warmLauncher()->runDir();
        QVERIFY(QFileInfo(warmDir + QStringLiteral("/work")).isDir());
        const RunResult warm = runToEnd(controller, *project);
        // The waiting launcher became the run: its folder was renamed to the run's.
        QVERIFY(!QFileInfo::exists(warmDir));
        QVERIFY(processGone(warmPid));
        QCOMPARE(warm.record.status, RunStatus::Completed);
        QVERIFY(warm.stdoutText.endsWith("pid " + QByteArray::number(warmPid) + "\n"));

        const QByteArray expected = "from files\n<run>\nTrue True True\nechoed\n||completed|0|echo=\"echoed\";"
                                    "input.txt:18;out.txt:7;";
        QCOMPARE(visible(coldRun), expected);
        QCOMPARE(visible(first), expected);
        QCOMPARE(visible(warm), expected);
        QCOMPARE(journaled(journalPath, warm.record.id), journaled(journalPath, coldRun.record.id));
        QVERIFY(journaled(journalPath, warm.record.id).contains("sandbox_applied{"));
        QVERIFY(controller.landlockAbi() >= 0);
    }

    void otherInterpreterIsDiscarded()
    {
        if (RunController::interpreterFor(QStringLiteral("x.sh")).isEmpty())
            QSKIP("bash is not installed");
        const auto project = makeProject();
        QVERIFY(project);
        RunController controller;
        controller.setJournalPath(QString());
        QCOMPARE(runToEnd(controller, *project).record.status, RunStatus::Completed);
        QVERIFY(waitForWarm(controller)); // prepared for python3
        const qint64 warmPid = controller.warmLauncher()->pid();
        const QString warmDir = controller.warmLauncher()->runDir();
        const QString warmCgroup = controller.warmLauncher()->cgroup();

        const RunResult bash = runToEnd(controller, *project, QStringLiteral("scripts/other.sh"));
        QCOMPARE(bash.record.status, RunStatus::Completed);
        QVERIFY(bash.stdoutText.startsWith("bash from files\n" + bash.record.id.toUtf8() + "\npid "));
        QVERIFY(!bash.stdoutText.endsWith("pid " + QByteArray::number(warmPid) + "\n"));
        QVERIFY(processGone(warmPid));
        QVERIFY(!QFileInfo::exists(warmDir));
        if (!warmCgroup.isEmpty())
            QVERIFY(!QFileInfo::exists(warmCgroup));
        // The next one is prepared for bash, the interpreter of the last run.
        QVERIFY(waitForWarm(controller));
        const qint64 bashPid = controller.warmLauncher()->pid();
        const RunResult again = runToEnd(controller, *project, QStringLiteral("scripts/other.sh"));
        QCOMPARE(again.stdoutText,
                 "bash from files\n" + again.record.id.toUtf8() + "\npid " + QByteArray::number(bashPid) + "\n");
    }

    void deadLauncherTakesTheColdPath()
    {
        const auto project = makeProject();
        QVERIFY(project);
        RunController controller;
        controller.setJournalPath(QString());
        runToEnd(controller, *project);
        QVERIFY(waitForWarm(controller));
        const QString warmDir = controller.warmLauncher()->runDir();
        const qint64 warmPid = controller.warmLauncher()->pid();
        QCOMPARE(::kill(pid_t(warmPid), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(exited(warmPid), 10000);
        const RunResult run = runToEnd(controller, *project);
        QCOMPARE(run.record.status, RunStatus::Completed);
        QVERIFY(!run.stdoutText.endsWith("pid " + QByteArray::number(warmPid) + "\n"));
        QCOMPARE(visible(run),
                 QByteArray("from files\n<run>\nTrue True True\nechoed\n||completed|0|"
                            "echo=\"echoed\";input.txt:18;out.txt:7;"));
        QVERIFY(!QFileInfo::exists(warmDir));
    }

    void quitLeavesNothingBehind()
    {
        const auto project = makeProject();
        QVERIFY(project);
        qint64 pid = 0;
        QString dir;
        QString cgroup;
        {
            RunController controller;
            controller.setJournalPath(QString());
            runToEnd(controller, *project);
            QVERIFY(waitForWarm(controller));
            pid = controller.warmLauncher()->pid();
            dir = controller.warmLauncher()->runDir();
            cgroup = controller.warmLauncher()->cgroup();
            QVERIFY(!processGone(pid));
            QVERIFY(QFileInfo(dir).isDir());
        }
        QVERIFY(processGone(pid));
        QVERIFY(!QFileInfo::exists(dir));
        if (!cgroup.isEmpty())
            QVERIFY(!QFileInfo::exists(cgroup));
    }

    /// The handover may rename the work dir, never swap it: a name for another
    /// directory ends the launcher at its workdir step, before the script runs.
    void handoverNamingAnotherDirIsRefused()
    {
        QTemporaryDir run(QStringLiteral("/tmp/tst_prewarm-XXXXXX"));
        QTemporaryDir other(QStringLiteral("/tmp/tst_prewarm-XXXXXX"));
        const auto searchable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
            | QFileDevice::ExeGroup | QFileDevice::ExeOther;
        QFile::setPermissions(run.path(), searchable);
        QFile::setPermissions(other.path(), searchable);
        QVERIFY(QDir().mkpath(run.filePath(QStringLiteral("work"))));
        SandboxPolicy policy;
        policy.workDir = run.filePath(QStringLiteral("work")).toStdString();
        policy.argv = {"/bin/sh", "-c", "echo ran"};
        policy.waitForGo = true;
        SandboxProcess process;
        QByteArray out;
        connect(&process, &SandboxProcess::standardOutput, this, [&out](const QByteArray &chunk) { out += chunk; });
        QSignalSpy finished(&process, &SandboxProcess::finished);
        QString error;
        QVERIFY2(process.start(policy, 4096, &error), qPrintable(error));
        QVERIFY(process.waitForReady(10000));
        // The launcher refuses the handover before it confirms "going": go() says so
        // (RunController then starts the run cold).
        QVERIFY(!process.go({other.path().toStdString(), {}, {{"A", "b"}}}));
        QVERIFY(finished.size() == 1 || finished.wait(10000));
        QCOMPARE(finished.at(0).at(0).toInt(), SandboxExit::WorkDir);
        QCOMPARE(finished.at(0).at(2).toString(),
                 QStringLiteral("toolstudio-sandbox: workdir: the \"go\" handover names %1, which is not the work "
                                "dir the sandbox entered")
                     .arg(other.path()));
        QCOMPARE(out, QByteArray());
    }

    void handoverJsonIsChecked()
    {
        const SandboxGo go = SandboxGo::fromJson(
            nlohmann::json::parse(SandboxGo{"/w", {"s.py"}, {{"TOOLSTUDIO_RUN_ID", "r1"}}}.toJson().dump()));
        QCOMPARE(QString::fromStdString(go.workDir), QStringLiteral("/w"));
        QCOMPARE(go.argv, std::vector<std::string>{"s.py"});
        QCOMPARE(go.env.size(), std::size_t(1));
        const auto refusal = [](const char *text) {
            try {
                SandboxGo::fromJson(nlohmann::json::parse(text));
            } catch (const std::runtime_error &error) {
                return QString::fromUtf8(error.what());
            }
            return QString();
        };
        QCOMPARE(refusal("{\"argv\": \"s.py\"}"), QStringLiteral("policy field \"argv\": must be an array of strings"));
        QCOMPARE(refusal("{\"work_dir\": \"rel\"}"),
                 QStringLiteral("policy field \"work_dir\": must be an absolute path"));
        QCOMPARE(refusal("{\"env\": {\"A=B\": \"x\"}}"),
                 QStringLiteral("policy field \"env\": \"A=B\" is not a valid variable name"));
        QCOMPARE(refusal("{\"script\": \"x\"}"), QStringLiteral("policy field \"script\": unknown field"));
    }

    void environmentSwitchesItOff()
    {
        qputenv("TOOLSTUDIO_PREWARM", "0");
        const auto project = makeProject();
        QVERIFY(project);
        RunController controller;
        controller.setJournalPath(QString());
        qunsetenv("TOOLSTUDIO_PREWARM");
        QVERIFY(!controller.warmLauncher()->isEnabled());
        QCOMPARE(runToEnd(controller, *project).record.status, RunStatus::Completed);
        QTest::qWait(200);
        QCOMPARE(controller.warmLauncher()->pid(), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestPrewarm)
#include "tst_prewarm.moc"
