// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Trusted code, confined (issue 16 class 5; docs/sandbox.md "Trusted code"): the
// Python tool worker and command tools run under toolstudio-sandbox's tool_worker
// profile. A tool file tries, at import and in its function, to read a key in a fake
// $HOME, write outside its dirs and dump its environment; a command tool the same.
// Every attempt is refused, none of the studio's variables is visible, a granted
// secret is; the code never runs as root; a stuck attempt restarts the worker; a
// runaway allocation ends in MemoryError.
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/pythonhandler.h"
#include "project/project.h"
#include "python/secrets.h"
#include "python/toolsandbox.h"
#include "python/toolworker.h"
#include "trustedproject.h"

#include "handlerattempt.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

namespace {

using json = nlohmann::json;

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qWarning() << "cannot write" << path;
    file.write(data);
}

/// The probe both tools run: each attempt's outcome as "ok" or "Type: [Errno N] text".
QByteArray probeCode(const QString &home, const QString &outsideTmp)
{
    return QStringLiteral(R"(import os

HOME = %1
OUTSIDE_TMP = %2

def attempt(action):
    try:
        action()
        return "ok"
    except OSError as e:
        return f"{type(e).__name__}: [Errno {e.errno}] {e.strerror}"

def read_key():
    with open(os.path.join(HOME, ".ssh", "id_rsa")) as f:
        f.read()

def write(path):
    def action():
        with open(path, "w") as f:
            f.write("pwned")
    return action

def probe(where):
    return {
        "read_key": attempt(read_key),
        "write_home": attempt(write(os.path.join(HOME, "pwned-" + where))),
        "write_tmp": attempt(write(OUTSIDE_TMP + "-" + where)),
        "write_scratch": attempt(write(os.path.join(os.environ.get("HOME", "/nonexistent"), "ok-" + where))),
    }

def report(import_time):
    return {"import": import_time, "call": probe("call"), "env": sorted(os.environ),
            "granted": os.environ.get("GRANTED_KEY", ""), "uid": os.getuid(),
            "home_is_studio_home": os.environ.get("HOME") == HOME}
)")
        .arg(QString::fromStdString(json(home.toStdString()).dump()),
             QString::fromStdString(json(outsideTmp.toStdString()).dump()))
        .toUtf8();
}

} // namespace

class TestTrustedConfine : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;    ///< the studio's (fake) HOME, with ~/.ssh/id_rsa
    QTemporaryDir m_outside; ///< a folder in /tmp outside every grant
    QTemporaryDir m_project;
    QString m_outsideTmp;

    HandlerOutcome runAttempt(ToolHandler *handler, const QString &tool, const json &args, int number = 1)
    {
        return runHandlerAttempt(*handler, m_project.path(), tool, args, number);
    }

    void checkRefused(const json &attempts, const char *where)
    {
        const std::string denied = "PermissionError: [Errno 13] Permission denied";
        QVERIFY2(attempts.is_object(), where);
        QCOMPARE(attempts.value("read_key", std::string()), denied);
        QCOMPARE(attempts.value("write_home", std::string()), denied);
        QCOMPARE(attempts.value("write_tmp", std::string()), denied);
        QCOMPARE(attempts.value("write_scratch", std::string()), std::string("ok"));
    }

    void checkReport(const json &report, const QStringList &expectedEnv)
    {
        QStringList env;
        for (const auto &name : report["env"])
            env << QString::fromStdString(name.get<std::string>());
        QCOMPARE(env, expectedEnv); // nothing of the studio's: no TOOLSTUDIO_TEST_SECRET, PYTHONPATH, NODE_OPTIONS
        QCOMPARE(report.value("granted", std::string()), std::string("granted-7c1e55d0"));
        QCOMPARE(report.value("home_is_studio_home", true), false);
        if (::geteuid() == 0)
            QVERIFY2(report.value("uid", 0) != 0, "the tool ran as root");
        checkRefused(report["call"], "call");
        if (QTest::currentTestFailed())
            return;
        for (const char *name : {"pwned-import", "pwned-call"})
            QVERIFY2(!QFile::exists(m_home.filePath(QString::fromLatin1(name))), name);
        for (const char *suffix : {"-import", "-call"})
            QVERIFY2(!QFile::exists(m_outsideTmp + QString::fromLatin1(suffix)), suffix);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_home.isValid() && m_outside.isValid() && m_project.isValid());
        writeFile(m_home.filePath(QStringLiteral(".ssh/id_rsa")), "-----BEGIN FAKE KEY-----\n");
        m_outsideTmp = m_outside.filePath(QStringLiteral("x"));
        // The studio's environment: what must not reach trusted code.
        qputenv("HOME", m_home.path().toUtf8());
        qputenv("TOOLSTUDIO_TEST_SECRET", "leak");
        qputenv("PYTHONPATH", "/nonexistent/studio-pythonpath");
        qputenv("NODE_OPTIONS", "--require /nonexistent/studio.js");

        const QByteArray probe = probeCode(m_home.path(), m_outsideTmp);
        writeFile(m_project.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"confined\"}");
        writeFile(m_project.filePath(QStringLiteral("tools/probe.py")),
                  probe
                      + "\nIMPORT_TIME = probe(\"import\")\n\n"
                        "class Tools:\n"
                        "    def report(self) -> dict:\n"
                        "        \"\"\"What the tool could do.\"\"\"\n"
                        "        return report(IMPORT_TIME)\n\n"
                        "    def pid(self) -> int:\n"
                        "        \"\"\"The worker's pid.\"\"\"\n"
                        "        return os.getpid()\n\n"
                        "    def stuck(self, seconds: float) -> int:\n"
                        "        \"\"\"Sleeps in its thread.\"\"\"\n"
                        "        import time\n"
                        "        open(os.path.expanduser(\"~/stuck-started\"), \"w\").close()\n"
                        "        time.sleep(seconds)\n"
                        "        return os.getpid()\n\n"
                        "    def hog(self) -> int:\n"
                        "        \"\"\"Allocates 3 GiB.\"\"\"\n"
                        "        return len(bytearray(3 << 30))\n");
        writeFile(m_project.filePath(QStringLiteral("bin/cmdprobe.py")),
                  probe
                      + "\nimport json, sys\nsys.stdin.readline()\n"
                        "print(json.dumps(report(probe(\"import\"))))\n");
        Secrets secrets = Secrets::load(m_project.path());
        QVERIFY(secrets.set(QStringLiteral("GRANTED_KEY"), QStringLiteral("granted-7c1e55d0")));
        QVERIFY(secrets.save());
    }

    void cleanupTestCase() { QFile::remove(Secrets::filePath(m_project.path())); }

    /// Loading the project imports the tool file (describe): its import-time attempts
    /// are refused there too.
    void loadingRunsConfined()
    {
        ProjectError error;
        const auto project = loadTrusted(m_project.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QVERIFY(project->tool(QStringLiteral("report")));
        QVERIFY2(!QFile::exists(m_home.filePath(QStringLiteral("pwned-import"))), "describe wrote into $HOME");
        QVERIFY2(!QFile::exists(m_outsideTmp + QStringLiteral("-import")), "describe wrote into /tmp");
    }

    void pythonToolConfined()
    {
        PythonHandler handler;
        const HandlerOutcome outcome = runAttempt(&handler, QStringLiteral("report"), json::object());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        checkRefused(outcome.result["import"], "import");
        if (QTest::currentTestFailed())
            return;
        checkReport(outcome.result,
                    {QStringLiteral("GRANTED_KEY"), QStringLiteral("HOME"), QStringLiteral("LANG"),
                     QStringLiteral("LC_ALL"), QStringLiteral("PATH"), QStringLiteral("PYTHONDONTWRITEBYTECODE"),
                     QStringLiteral("PYTHONIOENCODING"), QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("TMPDIR")});
    }

    void commandToolConfined()
    {
        CommandHandler handler({QStringLiteral("python3"), QStringLiteral("bin/cmdprobe.py")});
        const HandlerOutcome outcome = runAttempt(&handler, QStringLiteral("cmd_probe"), json::object());
        QVERIFY2(outcome.ok, (outcome.error.message + "\n" + outcome.output.toStdString()).c_str());
        checkReport(outcome.result,
                    {QStringLiteral("GRANTED_KEY"), QStringLiteral("HOME"), QStringLiteral("LANG"),
                     QStringLiteral("LC_ALL"), QStringLiteral("PATH"), QStringLiteral("PYTHONDONTWRITEBYTECODE"),
                     QStringLiteral("PYTHONIOENCODING"), QStringLiteral("TMPDIR"), QStringLiteral("TOOLSTUDIO_ATTEMPT"),
                     QStringLiteral("TOOLSTUDIO_CALL_ID"), QStringLiteral("TOOLSTUDIO_IDEMPOTENCY_KEY"),
                     QStringLiteral("TOOLSTUDIO_RUN_ID"), QStringLiteral("TOOLSTUDIO_TOOL")});
    }

    /// A sync method that outlives its timeout: cancelling it does not stop its thread,
    /// so the next attempt runs in a fresh worker and its output says why.
    void stuckAttemptRestartsTheWorker()
    {
        ToolWorker *worker = ToolWorker::forProject(m_project.path());
        PythonHandler first;
        const HandlerOutcome before = runAttempt(&first, QStringLiteral("pid"), json::object());
        QVERIFY2(before.ok, before.error.message.c_str());
        const qint64 oldPid = before.result.get<qint64>();
        QSignalSpy restarted(worker, &ToolWorker::restarted);

        PythonHandler stuck;
        bool finished = false;
        connect(&stuck, &ToolHandler::finished, this, [&finished] { finished = true; });
        HandlerRequest request;
        request.tool = QStringLiteral("stuck");
        request.args = json{{"seconds", 120}};
        request.projectDir = m_project.path();
        stuck.start(request);
        // The method is sleeping in its thread (it says so in its scratch dir, its HOME).
        QString error;
        const auto sandbox = ToolSandbox::forProject(QFileInfo(m_project.path()).canonicalFilePath(), &error);
        QVERIFY2(sandbox, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(sandbox->scratchDir() + QStringLiteral("/stuck-started")), 20000);
        stuck.cancel(); // what an attempt timeout does
        QCOMPARE(stuck.cancelReport(), ToolWorker::cancelReport());

        PythonHandler retry;
        const HandlerOutcome after = runAttempt(&retry, QStringLiteral("pid"), json::object(), 2);
        QVERIFY2(after.ok, after.error.message.c_str());
        QVERIFY2(after.result.get<qint64>() != oldPid, "the retry ran in the worker of the stuck attempt");
        QCOMPARE(after.output,
                 QByteArray("[tool worker] the tool worker was restarted: attempt did not stop after its "
                            "timeout\n"));
        QCOMPARE(restarted.count(), 1);
        QVERIFY(!finished); // the cancelled attempt never reports
        QVERIFY2(::kill(pid_t(oldPid), 0) != 0, "the stuck worker still runs");
    }

    void runawayMemoryEndsInMemoryError()
    {
        PythonHandler handler;
        const HandlerOutcome outcome = runAttempt(&handler, QStringLiteral("hog"), json::object());
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message), QStringLiteral("MemoryError: "));
        PythonHandler after;
        QVERIFY(runAttempt(&after, QStringLiteral("pid"), json::object()).ok); // the worker lives on
    }
};

QTEST_GUILESS_MAIN(TestTrustedConfine)
#include "tst_trustedconfine.moc"
