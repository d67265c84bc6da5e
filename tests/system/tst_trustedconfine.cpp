// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Trusted code, confined (issue 16 class 5; docs/sandbox.md "Trusted code"): the
// Python tool worker and command tools run under toolstudio-sandbox's tool_worker
// profile. A tool file tries, at import and in its function, to read a key in a fake
// $HOME, write outside its dirs and dump its environment; a command tool the same.
// Every attempt is refused, none of the studio's variables is visible, a granted
// secret is; the code never runs as root; a stuck attempt restarts the worker; a
// runaway allocation ends in MemoryError. The tool_worker seccomp filter refuses the
// kernel surface (ptrace, mount, namespaces, bpf, keyctl, io_uring, …) while a call
// still gets its answer; the network works, and with the project's
// `sandbox.tools_network: false` no socket but AF_UNIX can be made.
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/pythonhandler.h"
#include "pidscgroup.h"
#include "project/project.h"
#include "python/secrets.h"
#include "python/toolsandbox.h"
#include "python/toolworker.h"
#include "run/runfolder.h"
#include "trustedproject.h"

#include "handlerattempt.h"
#include "trustedconfineprobes.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <atomic>
#include <csignal>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <thread>
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

/// A TCP server on 127.0.0.1 that answers every connection with a fixed HTTP reply.
class LocalServer
{
public:
    LocalServer()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address = {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
            || ::listen(m_fd, 16) != 0 || ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
            return;
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~LocalServer()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int port() const { return m_port; }
    int connections() const { return m_connections; }

private:
    void serve()
    {
        while (!m_stop) {
            pollfd entry = {m_fd, POLLIN, 0};
            if (::poll(&entry, 1, 100) <= 0)
                continue;
            const int client = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0)
                continue;
            ++m_connections;
            char request[2048];
            pollfd wait = {client, POLLIN, 0};
            if (::poll(&wait, 1, 2000) > 0 && ::recv(client, request, sizeof request, 0) > 0) {
                static constexpr char Reply[]
                    = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\npong-4a7e";
                (void)!::send(client, Reply, sizeof Reply - 1, MSG_NOSIGNAL);
            }
            ::close(client);
        }
    }

    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_connections{0};
    std::thread m_thread;
};

} // namespace

class TestTrustedConfine : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;    ///< the studio's (fake) HOME, with ~/.ssh/id_rsa
    QTemporaryDir m_outside; ///< a folder in /tmp outside every grant
    QTemporaryDir m_project;
    QTemporaryDir m_offline; ///< a project with "sandbox": {"tools_network": false}
    QString m_outsideTmp;
    LocalServer m_server;

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
                        "    def threads(self, count: int) -> int:\n"
                        "        \"\"\"Starts and joins `count` threads.\"\"\"\n"
                        "        import threading\n"
                        "        started = [threading.Thread(target=lambda: None) for _ in range(count)]\n"
                        "        for thread in started:\n"
                        "            thread.start()\n"
                        "        for thread in started:\n"
                        "            thread.join()\n"
                        "        return len(started)\n\n"
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
        QVERIFY(m_offline.isValid());
        QVERIFY(m_server.port() > 0);
        writeFile(m_offline.filePath(QStringLiteral("toolstudio.json")),
                  "{\"name\": \"offline\", \"sandbox\": {\"tools_network\": false}}");
        for (const QTemporaryDir *project : {&m_project, &m_offline}) {
            writeFile(project->filePath(QStringLiteral("tools/net.py")), NetworkTool);
            writeFile(project->filePath(QStringLiteral("bin/surface.py")), SurfaceProbe);
        }
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

    /// The tool_worker seccomp filter: each call of the kernel surface refused with
    /// EPERM, the tool call still answered (a Python tool, then a command tool).
    void kernelSurfaceRefused()
    {
        const json refused = {{"ptrace", "EPERM"},      {"mount", "EPERM"},       {"unshare", "EPERM"},
                              {"bpf", "EPERM"},         {"keyctl", "EPERM"},      {"io_uring_setup", "EPERM"},
                              {"userfaultfd", "EPERM"}, {"personality", "EPERM"}, {"perf_event_open", "EPERM"}};
        PythonHandler python;
        const HandlerOutcome outcome = runAttempt(&python, QStringLiteral("surface"), json::object());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QString::fromStdString(outcome.result.dump()), QString::fromStdString(refused.dump()));

        CommandHandler command({QStringLiteral("python3"), QStringLiteral("bin/surface.py")});
        const HandlerOutcome fromCommand = runAttempt(&command, QStringLiteral("cmd_surface"), json::object());
        QVERIFY2(fromCommand.ok, (fromCommand.error.message + "\n" + fromCommand.output.toStdString()).c_str());
        QCOMPARE(QString::fromStdString(fromCommand.result.dump()), QString::fromStdString(refused.dump()));
    }

    /// By default the tools have the network: an HTTP request (requests, or urllib) and
    /// a TCP connect reach the local server; UDP and AF_UNIX pairs work.
    void networkByDefault()
    {
        PythonHandler handler;
        const int before = m_server.connections();
        const HandlerOutcome outcome = runAttempt(&handler, QStringLiteral("fetch"), json{{"port", m_server.port()}});
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QString::fromStdString(outcome.result.dump()),
                 QStringLiteral(R"({"http":"pong-4a7e","tcp":"ok","udp":"ok","unix":"ok"})"));
        QTRY_COMPARE_WITH_TIMEOUT(m_server.connections(), before + 2, 10000); // the server accepts on its thread
    }

    /// `"sandbox": {"tools_network": false}`: no socket but AF_UNIX, for the Python
    /// worker and a command tool alike; nothing reaches the server.
    void networkOffRefused()
    {
        const QString refused = QStringLiteral("OSError: [Errno 97] Address family not supported by protocol");
        const QString expected = QStringLiteral(R"({"http":"%1","tcp":"%1","udp":"%1","unix":"ok"})").arg(refused);
        const int before = m_server.connections();
        PythonHandler handler;
        const HandlerOutcome outcome
            = runHandlerAttempt(handler, m_offline.path(), QStringLiteral("fetch"), json{{"port", m_server.port()}});
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QString::fromStdString(outcome.result.dump()), expected);
        QCOMPARE(m_server.connections(), before);
    }

    /// Trusted-code folders a dead studio left in $TMPDIR are swept like stale run
    /// folders: unlocked (or lockless and a day old) folders of the studio's uid go,
    /// held, young, foreign-named and symlinked ones stay, nothing is followed.
    void staleToolFoldersSwept()
    {
        QTemporaryDir tmp; // stands for $TMPDIR
        QTemporaryDir outside;
        QVERIFY(tmp.isValid() && outside.isValid());
        const auto folder = [&](const char *name) { return tmp.filePath(QString::fromLatin1(name)); };
        // What a killed studio leaves: the .lock is there, nobody holds it; a read-only
        // dir inside (a tool may leave one).
        writeFile(folder("toolstudio-tools-dead01/.lock"), "");
        writeFile(folder("toolstudio-tools-dead01/scratch/deep/a/b/file"), "x");
        QVERIFY(QFile::setPermissions(folder("toolstudio-tools-dead01/scratch/deep"),
                                      QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        // A live studio's: its lock is held.
        writeFile(folder("toolstudio-tools-live01/.lock"), "");
        const int held = ::open(QFile::encodeName(folder("toolstudio-tools-live01/.lock")).constData(), O_RDWR);
        QVERIFY(held >= 0 && ::flock(held, LOCK_EX) == 0);
        // Lockless: being created now (kept), or a day old (an older studio's: removed).
        QVERIFY(QDir().mkpath(folder("toolstudio-tools-young1/scratch")));
        QVERIFY(QDir().mkpath(folder("toolstudio-tools-old001/scratch")));
        const timeval twoDaysAgo[2] = {{::time(nullptr) - 2 * 86400, 0}, {::time(nullptr) - 2 * 86400, 0}};
        QCOMPARE(::utimes(QFile::encodeName(folder("toolstudio-tools-old001")).constData(), twoDaysAgo), 0);
        // Not the studio's name; a symlink by the right name to an unlocked folder.
        writeFile(folder("toolstudio-other/.lock"), "");
        writeFile(outside.filePath(QStringLiteral("target/.lock")), "");
        QVERIFY(QFile::link(outside.filePath(QStringLiteral("target")), folder("toolstudio-tools-link01")));
        // As root: another uid's unlocked folder is that user's.
        const bool root = ::geteuid() == 0;
        if (root) {
            writeFile(folder("toolstudio-tools-nobody/.lock"), "");
            QCOMPARE(::chown(QFile::encodeName(folder("toolstudio-tools-nobody")).constData(), 65534, 65534), 0);
        }

        QCOMPARE(RunFolder::sweepStaleToolFolders(tmp.path()), 2);
        ::close(held);
        QVERIFY(!QFileInfo::exists(folder("toolstudio-tools-dead01")));
        QVERIFY(!QFileInfo::exists(folder("toolstudio-tools-old001")));
        QVERIFY(QFileInfo::exists(folder("toolstudio-tools-live01/.lock")));
        QVERIFY(QFileInfo::exists(folder("toolstudio-tools-young1/scratch")));
        QVERIFY(QFileInfo::exists(folder("toolstudio-other/.lock")));
        QVERIFY(QFileInfo(folder("toolstudio-tools-link01")).isSymLink());
        QVERIFY(QFileInfo::exists(outside.filePath(QStringLiteral("target/.lock"))));
        if (root)
            QVERIFY(QFileInfo::exists(folder("toolstudio-tools-nobody/.lock")));

        // The studio's own live folder (ToolSandbox) holds its lock: a sweep of the real
        // temp dir leaves it.
        QString error;
        const auto sandbox = ToolSandbox::forProject(QFileInfo(m_project.path()).canonicalFilePath(), &error);
        QVERIFY2(sandbox, qPrintable(error));
        RunFolder::sweepStaleToolFolders(QDir::tempPath());
        QVERIFY(QFileInfo::exists(sandbox->scratchDir()));
        QVERIFY(QFileInfo::exists(QFileInfo(sandbox->scratchDir()).absolutePath() + QStringLiteral("/.lock")));
    }

    /// The worker's tasks count against a budget of their own: 100 processes of the
    /// sandbox user started after the worker (another run's fork bomb — as root, runs in
    /// pids cgroups are nobody too —, or an ordinary user's desktop) do not leave it
    /// unable to start a thread (CI once saw "can't start new thread" while the battery's
    /// fork bomb ran alongside). Before, RLIMIT_NPROC was the user's task count at the
    /// launch + 64.
    void workerNotStarvedByTheUsersOtherTasks()
    {
        if (ToolSandbox::studioIsRoot()
            && (qEnvironmentVariable("TOOLSTUDIO_CGROUPS") == QLatin1String("0") || PidsCgroup::probe().parent.empty()))
            QSKIP("as root without a pids cgroup the tool worker shares RLIMIT_NPROC with nobody's other "
                  "tasks (docs/sandbox.md \"Trusted code\", residuals)");
        PythonHandler first;
        const HandlerOutcome before = runAttempt(&first, QStringLiteral("pid"), json::object());
        QVERIFY2(before.ok, before.error.message.c_str());

        uid_t uid = ::getuid();
        gid_t gid = ::getgid();
        if (ToolSandbox::studioIsRoot()) {
            const passwd *nobody = ::getpwnam("nobody");
            QVERIFY(nobody);
            uid = nobody->pw_uid;
            gid = nobody->pw_gid;
        }
        std::vector<pid_t> others;
        const auto reap = qScopeGuard([&others] {
            for (const pid_t pid : others)
                ::kill(pid, SIGKILL);
            for (const pid_t pid : others)
                ::waitpid(pid, nullptr, 0);
        });
        for (int i = 0; i < 100; ++i) {
            const pid_t pid = ::fork();
            if (pid == 0) {
                if (::getuid() != uid && (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0))
                    ::_exit(126);
                ::execl("/bin/sleep", "sleep", "60", static_cast<char *>(nullptr));
                ::_exit(127);
            }
            QVERIFY(pid > 0);
            others.push_back(pid);
        }

        PythonHandler after;
        const HandlerOutcome outcome = runAttempt(&after, QStringLiteral("threads"), json{{"count", 20}});
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(outcome.result.dump(), std::string("20"));
        PythonHandler again;
        QCOMPARE(runAttempt(&again, QStringLiteral("pid"), json::object()).result.dump(),
                 before.result.dump()); // the same worker
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
