// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// SANDBOX.md "The hostile battery": every case is a tiny script run through the real
// launcher (toolstudio-sandbox via SandboxProcess: policy file, bridge, status channel,
// policy-event listener). Each row asserts that the attempt was refused or contained,
// that the outcome is a specific, readable error (the script prints the errno name it
// got, or the run ends on a named limit), and that the studio (this process), a
// journal and a second run started alongside are unaffected. Secrets and sockets are
// planted in a fake home this test creates; the real one is never touched.
#include "asuser.h"
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "pidscgroup.h"
#include "processisolation.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "run/runfolder.h"
#include "sandboxpolicy.h"
#include "sandboxprocess.h"
#include "trustedproject.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <grp.h>
#include <pwd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace {

const QString Python = QStringLiteral("/usr/bin/python3");
const QString Bash = QStringLiteral("/bin/bash");
const QString Node = QStringLiteral("/usr/bin/node");
const QByteArray Secret = "SECRET-KEY-DO-NOT-LEAK";

QString launcher()
{
    return qEnvironmentVariable("TOOLSTUDIO_SANDBOX");
}

void writeFile(const QString &path, const QByteArray &data, mode_t mode = 0644)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(data);
    file.close();
    ::chmod(QFile::encodeName(path).constData(), mode);
}

/// True while a process of group `group` is alive (zombies do not count).
bool groupAlive(qint64 group)
{
    DIR *proc = ::opendir("/proc");
    bool live = false;
    while (const dirent *entry = proc ? ::readdir(proc) : nullptr) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(QString::fromLatin1(entry->d_name)));
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9' || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 2 && fields.at(2).toLongLong() == group && fields.at(0) != "Z" && fields.at(0) != "X")
            live = true;
    }
    if (proc)
        ::closedir(proc);
    return live;
}

/// True when this process holds an fd on a file whose path contains `name`.
bool holdsFdOn(const QString &name)
{
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString &fd : fds.entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)) {
        if (QFile::symLinkTarget(fds.filePath(fd)).contains(name))
            return true;
    }
    return false;
}

/// Helpers every Python case may use: sc() makes a raw syscall and names the errno.
const QString PythonPrelude = QStringLiteral(R"(import ctypes, errno, os, socket, sys, subprocess, time
libc = ctypes.CDLL(None, use_errno=True)
def sc(*a):
    r = libc.syscall(*[ctypes.c_long(x) for x in a])
    return errno.errorcode.get(ctypes.get_errno(), "?") if r == -1 else "allowed"
def err(f):
    try:
        f()
        return "allowed"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
def inchild(f):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(w, f().encode())
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    return os.read(r, 100).decode()
HOME = "@HOME@"
STUDIO = @STUDIO@
OUTSIDE = "@OUTSIDE@"
TARGET = OUTSIDE + "/target"
VICTIM = @VICTIM@
def cs(nr, *a):
    """A raw syscall whose str arguments are passed as C strings."""
    args = [ctypes.c_char_p(x.encode()) if isinstance(x, str) else ctypes.c_long(x) for x in a]
    r = libc.syscall(ctypes.c_long(nr), *args)
    return errno.errorcode.get(ctypes.get_errno(), "?") if r == -1 else "allowed"
)");

struct Outcome
{
    bool finished = false;
    bool timedOut = false;
    int exitCode = -1;
    bool crashed = false;
    QString launcherFailure;
    QByteArray out;
    QByteArray err;
    QList<SandboxPolicyEvent> events;
    int landlockAbi = -1;
    bool groupGone = false;
    SandboxProcess::ProcessLimit processLimit;
    bool cgroupRemoved = false; ///< the run's pids cgroup directory is gone after the run
    SandboxProcess::MemoryLimit memoryLimit;
};

/// For a data row whose tag ends in ", no cgroup": TOOLSTUDIO_CGROUPS=0 (runs get no
/// cgroup, docs/sandbox.md) until the returned guard ends, then as it was.
auto withoutCgroupIfTagged()
{
    const bool noCgroup = QByteArray(QTest::currentDataTag()).endsWith(", no cgroup");
    const QByteArray before = qgetenv("TOOLSTUDIO_CGROUPS");
    if (noCgroup)
        qputenv("TOOLSTUDIO_CGROUPS", "0");
    return qScopeGuard([noCgroup, before] {
        if (noCgroup && before.isNull())
            qunsetenv("TOOLSTUDIO_CGROUPS");
        else if (noCgroup)
            qputenv("TOOLSTUDIO_CGROUPS", before);
    });
}

} // namespace

class TestHostileBattery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void battery_data();
    void battery();
    void bridgeAbuse_data();
    void bridgeAbuse();
    void stopAndTimeoutLeaveNothing_data();
    void stopAndTimeoutLeaveNothing();
    void runFilesAreKept();
    void processBudget_data();
    void processBudget();
    void forkBombIsolation_data();
    void forkBombIsolation();
    void handedToTool_data();
    void handedToTool();
    void validatorAbuse_data();
    void validatorAbuse();
    void warmLauncherTampered_data();
    void warmLauncherTampered();
    void landlockCapReport();
    void memoryPerRun();
    void diskPerRun_data();
    void diskPerRun();
    void residualsReported();
    void interpreterGrant();

private:
    Outcome runScript(const QString &language, const QString &code, const QString &limits, int timeoutMs,
                      bool pidsCgroup = true, bool isolate = true, const QString &interpreter = {});
    std::optional<Project> makeProject(const QString &dir, const QByteArray &script, const QByteArray &limits = "{}",
                                       const QByteArray &extraTools = {});
    void startAlongside(bool forks = false);
    void checkAlongside();
    void checkStudioUnaffected();

    QTemporaryDir m_root{QStringLiteral("/tmp/tst_hostilebattery-XXXXXX")};
    QString m_home;
    /// Outside every work dir, owned by the uid scripts run as (nobody as root, else
    /// this user), granted read-only to every run: what only the sandbox, not the file
    /// modes, keeps a script from changing (issue 16, class 1).
    QString m_outside;
    struct stat m_targetBefore = {};
    int m_niceBefore = 0;
    int m_bus = -1; ///< a listening named unix socket in the fake home
    /// A process of the sandbox uid outside every run (a sleep): signals to it are refused.
    pid_t m_victim = -1;
    std::unique_ptr<QTemporaryDir> m_alongsideDir;
    std::unique_ptr<RunController> m_alongside;
    bool m_alongsideDone = false;
};

void TestHostileBattery::initTestCase()
{
    QVERIFY2(QFileInfo(launcher()).isExecutable(), qPrintable(launcher()));
    QVERIFY(m_root.isValid());
    ::chmod(QFile::encodeName(m_root.path()).constData(), 0755);
    // The fake home: readable and writable for everyone as far as file modes go, so
    // what refuses the script is the sandbox, not the permissions.
    m_home = m_root.path() + QStringLiteral("/home");
    writeFile(m_home + QStringLiteral("/.ssh/id_rsa"), Secret + '\n');
    writeFile(m_home + QStringLiteral("/.bashrc"), "# fake\n", 0666);
    writeFile(m_home + QStringLiteral("/run-user/.keep"), "", 0666);
    for (const QString &dir : {m_home, m_home + QStringLiteral("/.ssh"), m_home + QStringLiteral("/run-user")})
        ::chmod(QFile::encodeName(dir).constData(), 0777);
    qputenv("HOME", m_home.toUtf8());
    qputenv("XDG_CONFIG_HOME", (m_home + QStringLiteral("/.config")).toUtf8());
    qputenv("XDG_RUNTIME_DIR", (m_home + QStringLiteral("/run-user")).toUtf8());
    QStandardPaths::setTestModeEnabled(true);
    // The studio's own settings, where a script must not read them.
    const QString settings
        = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/settings.ini");
    QVERIFY(settings.startsWith(m_home));
    writeFile(settings, "[secrets]\napi_key=" + Secret + '\n');
    writeFile(m_home + QStringLiteral("/.config/toolstudio-settings.ini"), "api_key=" + Secret + '\n');
    // A named socket standing for D-Bus / ssh-agent / Wayland.
    m_bus = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    QVERIFY(m_bus >= 0);
    sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    const QByteArray busPath = QFile::encodeName(m_home + QStringLiteral("/bus"));
    std::memcpy(address.sun_path, busPath.constData(), size_t(busPath.size()));
    QCOMPARE(::bind(m_bus, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    QCOMPARE(::listen(m_bus, 8), 0);
    ::chmod(QFile::encodeName(m_home + QStringLiteral("/bus")).constData(), 0777);
    // What must never reach a child: a secret and session variables of the studio.
    qputenv("SECRET_API_KEY", "sk-test-do-not-leak");
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/0/bus");
    qputenv("DISPLAY", ":0");
    qputenv("SSH_AUTH_SOCK", (m_home + QStringLiteral("/bus")).toUtf8());
    // The metadata target: a dir and a file of the sandbox uid, reachable read-only.
    m_outside = m_root.path() + QStringLiteral("/outside");
    writeFile(m_outside + QStringLiteral("/target"), "unchanged\n", 0644);
    const QByteArray outside = QFile::encodeName(m_outside);
    const QByteArray target = QFile::encodeName(m_outside + QStringLiteral("/target"));
    ::chmod(outside.constData(), 0755);
    if (::geteuid() == 0) {
        const passwd *nobody = ::getpwnam("nobody");
        QVERIFY(nobody);
        QCOMPARE(::chown(outside.constData(), nobody->pw_uid, nobody->pw_gid), 0);
        QCOMPARE(::chown(target.constData(), nobody->pw_uid, nobody->pw_gid), 0);
    }
    // A directory the sandbox uid cannot search (as root: root's 0700), with one file:
    // the metadata broker must not tell which names exist in it.
    writeFile(m_root.path() + QStringLiteral("/private/present"), "x\n", 0600);
    ::chmod(QFile::encodeName(m_root.path() + QStringLiteral("/private")).constData(), 0700);
    QCOMPARE(::stat(target.constData(), &m_targetBefore), 0);
    m_victim = ::fork();
    QVERIFY(m_victim >= 0);
    if (m_victim == 0) {
        if (::geteuid() == 0) {
            const passwd *nobody = ::getpwnam("nobody");
            if (!nobody || ::setgroups(0, nullptr) != 0 || ::setgid(nobody->pw_gid) != 0
                || ::setuid(nobody->pw_uid) != 0)
                ::_exit(127);
        }
        ::execl("/bin/sleep", "sleep", "100000", static_cast<char *>(nullptr));
        ::_exit(127);
    }
    errno = 0;
    m_niceBefore = ::getpriority(PRIO_PROCESS, 0);
}

void TestHostileBattery::cleanupTestCase()
{
    if (m_victim > 0) {
        ::kill(m_victim, SIGKILL);
        ::waitpid(m_victim, nullptr, 0);
    }
    ::close(m_bus);
}

std::optional<Project> TestHostileBattery::makeProject(const QString &dir, const QByteArray &script,
                                                       const QByteArray &limits, const QByteArray &extraTools)
{
    writeFile(dir + QStringLiteral("/scripts/main.py"), script);
    writeFile(
        dir + QStringLiteral("/toolstudio.json"),
        R"({"name": "t", "default_script": "main", "scripts": [{"name": "main", "path": "scripts/main.py"}], "limits": )"
            + limits
            + R"(, "tools": [{"name": "echo", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}},
               "handler": {"kind": "mock", "sequence": [{"result": {"ok": true}}]}})"
            + extraTools + "]}");
    ProjectError error;
    auto project = loadTrusted(dir, &error);
    if (!project)
        qWarning() << error.toString();
    return project;
}

/// A second, well-behaved run with its own journal, started next to every hostile case.
/// With `forks`, it also starts a process every 0.1 s for 1.5 s (the fork bomb row:
/// each needs a free slot in its own process budget while the bomb runs).
void TestHostileBattery::startAlongside(bool forks)
{
    m_alongsideDir = std::make_unique<QTemporaryDir>();
    const QByteArray work
        = forks ? "for i in range(15):\n    subprocess.run(['/bin/true'], check=True)\n    time.sleep(0.1)\n" : "";
    const auto project = makeProject(m_alongsideDir->path(),
                                     "import subprocess, time\nfrom toolstudio import tools\n"
                                     "for i in range(3):\n    tools.echo(n=i)\n    time.sleep(0.05)\n"
                                         + work + "print('alongside ok', flush=True)\n");
    QVERIFY(project);
    m_alongside = std::make_unique<RunController>();
    m_alongside->setJournalPath(m_alongsideDir->path() + QStringLiteral("/journal.sqlite"));
    m_alongsideDone = false;
    connect(m_alongside.get(), &RunController::finished, this, [this] { m_alongsideDone = true; });
    QString error;
    QVERIFY2(m_alongside->start(*project, QString(), &error), qPrintable(error));
}

void TestHostileBattery::checkAlongside()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_alongsideDone, 20000);
    QCOMPARE(m_alongside->record().status, RunStatus::Completed);
    QCOMPARE(m_alongside->engine()->steps().size(), std::size_t(3));
    Journal journal;
    QVERIFY(journal.open(m_alongsideDir->path() + QStringLiteral("/journal.sqlite")));
    const auto run = journal.run(m_alongside->record().id);
    QVERIFY(run);
    QCOMPARE(run->status, RunStatus::Completed);
    QCOMPARE(journal.output(run->id, 1), QByteArray("alongside ok\n"));
    QCOMPARE(journal.steps(run->id).size(), std::size_t(3));
    m_alongside.reset();
}

void TestHostileBattery::checkStudioUnaffected()
{
    // Still here (a kill would have ended the test), not stopped, secrets intact, the
    // bus socket saw no connection.
    QFile secret(m_home + QStringLiteral("/.ssh/id_rsa"));
    QVERIFY(secret.open(QIODevice::ReadOnly));
    QCOMPARE(secret.readAll(), Secret + '\n');
    QFile bashrc(m_home + QStringLiteral("/.bashrc"));
    QVERIFY(bashrc.open(QIODevice::ReadOnly));
    QCOMPARE(bashrc.readAll(), QByteArray("# fake\n"));
    QVERIFY(!QFile::exists(QStringLiteral("/tmp/x-toolstudio-battery")));
    QCOMPARE(QDir(m_home + QStringLiteral("/run-user")).entryList(QDir::Files | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{QStringLiteral(".keep")});
    QCOMPARE(::accept(m_bus, nullptr, nullptr), -1); // no connection waiting
    QCOMPARE(errno, EAGAIN);
    // The metadata target outside the work dirs: same mode, owner, times, no xattr.
    struct stat target = {};
    const QByteArray targetPath = QFile::encodeName(m_outside + QStringLiteral("/target"));
    QCOMPARE(::stat(targetPath.constData(), &target), 0);
    QCOMPARE(target.st_mode, m_targetBefore.st_mode);
    QCOMPARE(target.st_uid, m_targetBefore.st_uid);
    QCOMPARE(target.st_gid, m_targetBefore.st_gid);
    QCOMPARE(target.st_mtim.tv_sec, m_targetBefore.st_mtim.tv_sec);
    QCOMPARE(target.st_mtim.tv_nsec, m_targetBefore.st_mtim.tv_nsec);
    QCOMPARE(target.st_atim.tv_sec, m_targetBefore.st_atim.tv_sec);
    QCOMPARE(::listxattr(targetPath.constData(), nullptr, 0), ssize_t(0));
    struct stat outside = {};
    QCOMPARE(::stat(QFile::encodeName(m_outside).constData(), &outside), 0);
    QCOMPARE(outside.st_mode & 07777, mode_t(0755));
    // The studio's nice value (PRIO_USER, PRIO_PROCESS studio, PRIO_PGRP).
    errno = 0;
    QCOMPARE(::getpriority(PRIO_PROCESS, 0), m_niceBefore);
    // The process of the sandbox uid outside the runs got no signal.
    int status = 0;
    QCOMPARE(::waitpid(m_victim, &status, WNOHANG | WUNTRACED | WCONTINUED), pid_t(0));
}

Outcome TestHostileBattery::runScript(const QString &language, const QString &code, const QString &limits,
                                      int timeoutMs, bool pidsCgroup, bool isolate, const QString &interpreterOverride)
{
    Outcome outcome;
    QTemporaryDir run(m_root.path() + QStringLiteral("/run-XXXXXX"));
    ::chmod(QFile::encodeName(run.path()).constData(), 0755);
    const QString work = run.path() + QStringLiteral("/work");
    const QString runtime = run.path() + QStringLiteral("/runtime");
    QDir().mkpath(work);
    QString script = code;
    script.replace(QStringLiteral("@HOME@"), m_home).replace(QStringLiteral("@STUDIO@"), QString::number(::getpid()));
    script.replace(QStringLiteral("@WORK@"), work).replace(QStringLiteral("@OUTSIDE@"), m_outside);
    script.replace(QStringLiteral("@VICTIM@"), QString::number(m_victim));
    const QString file = runtime + QStringLiteral("/script.") + language;
    writeFile(file, script.toUtf8());
    ::chmod(QFile::encodeName(runtime).constData(), 0755);

    SandboxPolicy policy;
    policy.workDir = work.toStdString();
    const QString interpreter = !interpreterOverride.isEmpty() ? interpreterOverride
        : language == QLatin1String("py")                      ? Python
        : language == QLatin1String("sh")                      ? Bash
                                                               : Node;
    policy.argv = {interpreter.toStdString(), file.toStdString()};
    policy.readPaths = {runtime.toStdString(), m_outside.toStdString()};
    for (const QString &limit : limits.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList pair = limit.split(QLatin1Char('='));
        if (pair.first() == QLatin1String("cpu"))
            policy.limits.cpuSeconds = pair.last().toULongLong();
        else if (pair.first() == QLatin1String("fsize"))
            policy.limits.fileSizeBytes = pair.last().toULongLong();
    }

    SandboxProcess process;
    process.setLauncherPath(launcher());
    process.setPidsCgroupAllowed(pidsCgroup);
    process.setProcessIsolationAllowed(isolate);
    connect(&process, &SandboxProcess::standardOutput, this, [&](const QByteArray &chunk) { outcome.out += chunk; });
    connect(&process, &SandboxProcess::standardError, this, [&](const QByteArray &chunk) { outcome.err += chunk; });
    connect(&process, &SandboxProcess::policyEvent, this,
            [&](const SandboxPolicyEvent &event) { outcome.events.append(event); });
    connect(&process, &SandboxProcess::finished, this, [&](int code, bool crashed, const QString &failure) {
        outcome.finished = true;
        outcome.exitCode = code;
        outcome.crashed = crashed;
        outcome.launcherFailure = failure;
    });
    QString error;
    if (!process.start(policy, 256 * 1024, &error)) {
        outcome.err = error.toUtf8();
        return outcome;
    }
    const qint64 group = process.pid();
    const QDeadlineTimer deadline(timeoutMs);
    while (!outcome.finished && !deadline.hasExpired())
        QTest::qWait(10);
    if (!outcome.finished) {
        outcome.timedOut = true; // the run timeout: the group is killed
        process.killGroup();
        const QDeadlineTimer end(10000);
        while (!outcome.finished && !end.hasExpired())
            QTest::qWait(10);
    }
    outcome.groupGone = process.killGroup() && !groupAlive(group);
    outcome.landlockAbi = process.landlockAbi();
    outcome.processLimit = process.processLimit();
    outcome.memoryLimit = process.memoryLimit();
    outcome.cgroupRemoved = !outcome.processLimit.cgroup.isEmpty() && !QFileInfo::exists(outcome.processLimit.cgroup);
    // A marker a grandchild kept writing must stand still now.
    const QString marker = work + QStringLiteral("/marker");
    if (QFile::exists(marker)) {
        const qint64 before = QFileInfo(marker).size();
        QTest::qWait(300);
        if (QFileInfo(marker).size() != before)
            outcome.groupGone = false;
    }
    QDir(work).removeRecursively();
    return outcome;
}

void TestHostileBattery::battery_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("limits");   ///< "cpu=1 fsize=…" overrides of the default rlimits
    QTest::addColumn<int>("timeoutMs");    ///< the run timeout of this case
    QTest::addColumn<QString>("expected"); ///< the script's last "RESULT …" line; empty: it cannot print one
    QTest::addColumn<QString>("event");    ///< the policy event(s) the studio must see (syscall names), or empty
    QTest::addColumn<int>("signal");       ///< the signal that ends the script (0: none)
    QTest::addColumn<bool>("timedOut");    ///< contained by the run timeout

    const auto py = [](const char *name, const QString &body, const char *expected, const char *event = "",
                       const QString &limits = {}, int signal = 0, bool timedOut = false, int timeoutMs = 20000) {
        QTest::newRow(name) << QStringLiteral("py") << PythonPrelude + body << limits << timeoutMs
                            << QString::fromUtf8(expected) << QString::fromUtf8(event) << signal << timedOut;
    };
    const auto other = [](const char *name, const char *language, const char *body, const char *expected,
                          const char *event = "", int timeoutMs = 20000, bool timedOut = false) {
        QTest::newRow(name) << QString::fromUtf8(language) << QString::fromUtf8(body) << QString() << timeoutMs
                            << QString::fromUtf8(expected) << QString::fromUtf8(event) << 0 << timedOut;
    };
    const auto s = [](const char *text) { return QString::fromUtf8(text); };

    // 1. TCP/UDP over IPv4 and IPv6 to loopback; UDP "DNS" exfiltration.
    py("1 tcp ipv4 loopback", s("print('RESULT', err(lambda: socket.create_connection(('127.0.0.1', 22), 1)))"),
       "RESULT EAFNOSUPPORT", "socket");
    py("1 tcp ipv6 loopback", s("print('RESULT', err(lambda: socket.socket(socket.AF_INET6).connect(('::1', 22))))"),
       "RESULT EAFNOSUPPORT", "socket");
    py("1 udp ipv4 loopback",
       s("print('RESULT', err(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', 53))))"),
       "RESULT EAFNOSUPPORT", "socket");
    py("1 udp ipv6 loopback",
       s("print('RESULT', err(lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).sendto(b'x', ('::1', 53))))"),
       "RESULT EAFNOSUPPORT", "socket");
    py("1 udp dns exfiltration",
       s("try:\n    socket.getaddrinfo('secret-in-a-name.example.com', 53)\n    print('RESULT resolved')\n"
         "except socket.gaierror as e:\n    print('RESULT gaierror')"),
       "RESULT gaierror", "socket");
    other("1 node tcp", "js",
          "require('net').connect(22, '127.0.0.1').on('error', e => console.log('RESULT', e.code));",
          "RESULT EAFNOSUPPORT", "socket");
    other("1 bash /dev/tcp", "sh",
          "if exec 5<>/dev/tcp/127.0.0.1/22; then echo RESULT connected; else echo RESULT refused; fi 2>/dev/null",
          "RESULT refused", "socket");

    // 2. netlink, packet, vsock, AF_ALG, bluetooth, key and XDP sockets (raw numbers:
    // AF_NETLINK 16, AF_PACKET 17, AF_VSOCK 40, AF_ALG 38, AF_BLUETOOTH 31, AF_KEY 15, AF_XDP 44).
    py("2 netlink", s("print('RESULT', sc(41, 16, 3, 0))"), "RESULT EAFNOSUPPORT", "socket");
    py("2 packet", s("print('RESULT', sc(41, 17, 3, 0))"), "RESULT EAFNOSUPPORT", "socket");
    py("2 vsock", s("print('RESULT', sc(41, 40, 1, 0))"), "RESULT EAFNOSUPPORT", "socket");
    py("2 AF_ALG", s("print('RESULT', sc(41, 38, 5, 0))"), "RESULT EAFNOSUPPORT", "socket");
    py("2 bluetooth", s("print('RESULT', sc(41, 31, 3, 0))"), "RESULT EAFNOSUPPORT", "socket");
    py("2 key", s("print('RESULT', sc(41, 15, 3, 2))"), "RESULT EAFNOSUPPORT", "socket");
    py("2 XDP", s("print('RESULT', sc(41, 44, 3, 0))"), "RESULT EAFNOSUPPORT", "socket");

    // 3. AF_UNIX connect to a named socket (stands for D-Bus, ssh-agent, Wayland); abstract socket.
    py("3 unix named socket", s("print('RESULT', err(lambda: socket.socket(socket.AF_UNIX).connect(HOME + '/bus')))"),
       "RESULT EPERM", "socket");
    py("3 unix abstract socket",
       s("print('RESULT', err(lambda: socket.socket(socket.AF_UNIX).connect('\\0toolstudio-test')))"), "RESULT EPERM",
       "socket");

    // 4. io_uring.
    py("4 io_uring setup", s("print('RESULT', sc(425, 8, 0))"), "RESULT EPERM");

    // 5. SysV IPC, POSIX message queues, /dev/shm writes.
    py("5 SysV IPC", s("print('RESULT', sc(29, 0, 4096, 0o1600), sc(64, 0, 1, 0o1600), sc(68, 0, 0o1600))"),
       "RESULT EPERM EPERM EPERM");
    py("5 POSIX message queue", s("print('RESULT', sc(240, 0, 0o102, 0o600, 0))"), "RESULT EPERM");
    py("5 /dev/shm write", s("print('RESULT', err(lambda: open('/dev/shm/toolstudio-x', 'w')))"), "RESULT EACCES");

    // 6. A planted secret in the fake $HOME/.ssh; the studio's own settings.
    py("6 read ~/.ssh secret", s("print('RESULT', err(lambda: open(HOME + '/.ssh/id_rsa').read()))"), "RESULT EACCES");
    py("6 read studio settings",
       s("print('RESULT', err(lambda: open(HOME + '/.config/toolstudio-settings.ini').read()))"), "RESULT EACCES");

    // 7. Write $HOME/.bashrc, /tmp/x, $XDG_RUNTIME_DIR/x; list $HOME.
    py("7 write ~/.bashrc", s("print('RESULT', err(lambda: open(HOME + '/.bashrc', 'a').write('evil')))"),
       "RESULT EACCES");
    py("7 write /tmp/x", s("print('RESULT', err(lambda: open('/tmp/x-toolstudio-battery', 'w')))"), "RESULT EACCES");
    py("7 write XDG_RUNTIME_DIR", s("print('RESULT', err(lambda: open(HOME + '/run-user/x', 'w')))"), "RESULT EACCES");
    py("7 list $HOME", s("print('RESULT', err(lambda: os.listdir(HOME)))"), "RESULT EACCES");

    // 8. Symlink and hardlink to a secret placed in the work dir.
    py("8 symlink to secret",
       s("os.symlink(HOME + '/.ssh/id_rsa', 'link')\nprint('RESULT', err(lambda: open('link').read()))"),
       "RESULT EACCES");
    py("8 hardlink to secret",
       s("r = err(lambda: os.link(HOME + '/.ssh/id_rsa', 'hard'))\n"
         "print('RESULT', r if r != 'allowed' else err(lambda: open('hard').read()))"),
       ::geteuid() == 0 ? "RESULT EPERM" : "RESULT EXDEV");

    // 10. Exec a binary the script wrote in the work dir; memfd_create + execveat.
    py("10 exec written binary",
       s("import shutil\nshutil.copy('/bin/true', 't')\nos.chmod('t', 0o755)\n"
         "print('RESULT', err(lambda: subprocess.run(['./t'])))"),
       "RESULT EACCES");
    py("10 memfd_create + execveat", s("print('RESULT', sc(319, 0, 0), err(lambda: os.memfd_create('x')))"),
       "RESULT EPERM EPERM");

    // 11. Disk fill (file size), inode fill.
    py("11 disk fill",
       s("signal = __import__('signal')\n"
         "f = open('big', 'wb')\nprint('RESULT', err(lambda: [f.write(b'x' * 1048576) for _ in range(64)] and f.flush()))"),
       "RESULT EFBIG", "", QStringLiteral("fsize=8388608"));
    py("11 inode fill", s("i = 0\nwhile True:\n    open('f%d' % i, 'w').close()\n    i += 1"), "", "", {}, 0, true,
       1500);

    // 12. kill(-1); kill(studio); kill(studio | 1<<32); F_SETOWN to the studio; SIGSTOP to the studio.
    py("12 kill(-1)", s("print('RESULT', sc(62, -1, 9))"), "RESULT EPERM", "kill");
    py("12 kill(studio)", s("print('RESULT', sc(62, STUDIO, 15))"), "RESULT EPERM", "kill");
    py("12 kill(studio | 1<<32)", s("print('RESULT', sc(62, STUDIO | (1 << 32), 15))"), "RESULT EPERM", "kill");
    py("12 F_SETOWN to studio", s("print('RESULT', sc(72, 1, 8, STUDIO))"), "RESULT EPERM");
    py("12 SIGSTOP to studio", s("print('RESULT', sc(62, STUDIO, 19), sc(234, STUDIO, STUDIO, 19))"),
       "RESULT EPERM EPERM", "kill tgkill");

    // 13. ptrace(PTRACE_ATTACH, studio), process_vm_readv, pidfd_getfd.
    py("13 ptrace attach", s("print('RESULT', sc(101, 16, STUDIO, 0, 0))"), "RESULT EPERM", "ptrace");
    py("13 process_vm_readv", s("print('RESULT', sc(310, STUDIO, 0, 0, 0, 0, 0))"), "RESULT EPERM", "process_vm_readv");
    py("13 pidfd_getfd", s("print('RESULT', sc(434, STUDIO, 0), sc(438, 0, 0, 0))"), "RESULT EPERM EPERM",
       "pidfd_open pidfd_getfd");

    // 14. /proc/<studio>/mem and environ.
    py("14 /proc/studio/mem", s("print('RESULT', err(lambda: open('/proc/%d/mem' % STUDIO, 'rb')))"), "RESULT EACCES");
    py("14 /proc/studio/environ", s("print('RESULT', err(lambda: open('/proc/%d/environ' % STUDIO, 'rb').read()))"),
       "RESULT EACCES");

    // 15. prlimit on the studio.
    py("15 prlimit studio", s("print('RESULT', sc(302, STUDIO, 7, 0, 0))"), "RESULT EPERM");

    // 16. setsid, setpgid, double fork, then outlive a stop: the grandchild keeps
    // writing a marker; the run timeout kills the group and the marker stands still.
    py("16 setsid setpgid double fork",
       s("if os.fork() == 0:\n    if os.fork() == 0:\n"
         "        r = sc(112) + ' ' + sc(109, 0, 0)\n"
         "        print('RESULT', r, flush=True)\n"
         "        while True:\n            open('marker', 'a').write('x')\n            time.sleep(0.05)\n"
         "    os._exit(0)\ntime.sleep(1000)"),
       "RESULT EPERM EPERM", "", {}, 0, true, 1500);

    // 17. Fork bomb; thread bomb; memory bomb; CPU burn. The fork bomb runs into its
    // run's pids.max (its own cgroup) while the run alongside, started just before it,
    // completes; the bomb is contained by the run timeout.
    other("17 fork bomb", "sh", "b() { b | b & }; b; sleep 100", "", "", 3000, true);
    py("17 thread bomb",
       s("import threading\nev = threading.Event()\nn = 0\ntry:\n    while True:\n"
         "        threading.Thread(target=ev.wait, daemon=True).start()\n        n += 1\n"
         "except RuntimeError:\n    print('RESULT RuntimeError', n < 200, flush=True)\nev.set()\nos._exit(0)"),
       "RESULT RuntimeError True");
    py("17 memory bomb",
       s("try:\n    b = bytearray(3 * 1024 ** 3)\n    print('RESULT allocated')\nexcept MemoryError:\n    print('RESULT MemoryError')"),
       "RESULT MemoryError");
    py("17 CPU burn", s("while True:\n    pass"), "", "", QStringLiteral("cpu=1"), SIGXCPU);

    // 18. A background job that keeps stdout open after the script ends.
    other("18 background job keeps stdout", "sh", "sleep 1000 &\necho RESULT started", "RESULT started");

    // 19. fd exhaustion.
    py("19 fd exhaustion",
       s("fds = []\ntry:\n    while True:\n        fds.append(os.open('/dev/null', os.O_RDONLY))\n"
         "except OSError as e:\n    print('RESULT', errno.errorcode[e.errno], len(fds) < 256)"),
       "RESULT EMFILE True");

    // 20. unshare, clone(CLONE_NEWUSER), clone3, setns.
    py("20 unshare", s("print('RESULT', sc(272, 0x10000000))"), "RESULT EPERM", "unshare");
    py("20 clone NEWUSER", s("print('RESULT', sc(56, 0x10000000 | 17, 0, 0, 0, 0))"), "RESULT EPERM", "clone");
    py("20 clone3", s("print('RESULT', sc(435, 0, 0))"), "RESULT ENOSYS");
    py("20 setns", s("print('RESULT', sc(308, 0, 0))"), "RESULT EPERM", "setns");

    // 21. mount, fsopen, chroot, pivot_root.
    py("21 mount", s("print('RESULT', sc(165, 0, 0, 0, 0, 0))"), "RESULT EPERM", "mount");
    py("21 fsopen", s("print('RESULT', sc(430, 0, 0))"), "RESULT EPERM", "fsopen");
    py("21 chroot", s("print('RESULT', sc(161, 0))"), "RESULT EPERM", "chroot");
    py("21 pivot_root", s("print('RESULT', sc(155, 0, 0))"), "RESULT EPERM", "pivot_root");

    // 22. bpf, perf_event_open, userfaultfd, keyctl, syslog, kexec_load, init_module, iopl.
    py("22 kernel interfaces",
       s("print('RESULT', sc(321, 0, 0, 0), sc(298, 0, 0, -1, -1, 0), sc(323, 0), sc(250, 0, 0, 0), "
         "sc(103, 3, 0, 0), sc(246, 0, 0, 0, 0), sc(175, 0, 0, 0), sc(172, 3))"),
       "RESULT EPERM EPERM EPERM EPERM EPERM EPERM EPERM EPERM");

    // 23. personality(ADDR_NO_RANDOMIZE | READ_IMPLIES_EXEC).
    py("23 personality", s("print('RESULT', sc(135, 0x0040000 | 0x0400000), sc(135, 0xffffffff) != 'allowed')"),
       "RESULT EPERM False");

    // 24. x32 syscall numbers: killed.
    py("24 x32 syscall", s("libc.syscall(0x40000000 | 39)\nprint('RESULT survived')"), "", "", {}, SIGSYS);

    // 25. TIOCSTI plain and with high bits set, TIOCLINUX, open /dev/tty.
    py("25 terminal",
       s("print('RESULT', sc(16, 0, 0x5412, 0), sc(16, 0, 0x5412 | (1 << 32), 0), sc(16, 0, 0x541C, 0), "
         "err(lambda: open('/dev/tty', 'rb')))"),
       "RESULT EPERM EPERM EPERM EACCES");

    // 26. A setuid binary: no privilege gained (no_new_privs).
    py("26 setuid binary",
       s("r = subprocess.run(['/usr/bin/su', 'root', '-c', 'id -u'], stdin=subprocess.DEVNULL, capture_output=True)\n"
         "p = subprocess.run(['/usr/bin/passwd', '-S', 'root'], stdin=subprocess.DEVNULL, capture_output=True)\n"
         "print('RESULT', r.stdout.strip() != b'0' and r.returncode != 0, p.returncode != 0)"),
       "RESULT True True");

    // 27. Dump the environment: no secret, no session variable.
    py("27 environment dump",
       s("bad = sorted(k for k in os.environ if k in ('SECRET_API_KEY', 'DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', "
         "'SSH_AUTH_SOCK', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME'))\n"
         "print('RESULT', bad, any('sk-test' in v or 'SECRET' in v for v in os.environ.values()), os.environ['HOME'] == os.getcwd())"),
       "RESULT [] False True");

    // 28. List open fds: only 0, 1, 2 and 3.
    py("28 open fds",
       s("print('RESULT', ','.join(str(fd) for fd in range(1024) if err(lambda: os.fstat(fd)) == 'allowed'))"),
       "RESULT 0,1,2,3");

    // Issue 16, class 1: file metadata outside the work dir (Landlock does not govern
    // it). TARGET is a file of the sandbox uid outside every work dir, readable by the
    // run: chmod, chown, utime and xattr changes are refused and it stays unchanged
    // (checkStudioUnaffected). Numbers: fchmodat 268, fchmodat2 452, utime 132,
    // utimes 235, futimesat 261, utimensat 280, openat2 437.
    py("30 chmod outside",
       s("print('RESULT', err(lambda: os.chmod(TARGET, 0o666)), err(lambda: os.chmod(OUTSIDE, 0o777)))"),
       "RESULT EPERM EPERM", "chmod");
    py("30 fchmod read-only fd",
       s("fd = os.open(TARGET, os.O_RDONLY)\nprint('RESULT', err(lambda: os.fchmod(fd, 0o666)))"), "RESULT EPERM",
       "fchmod");
    py("30 fchmodat fchmodat2",
       s("d = os.open(OUTSIDE, os.O_RDONLY | os.O_DIRECTORY)\n"
         "r = cs(452, -100, TARGET, 0o666, 0x100)\n"
         "print('RESULT', err(lambda: os.chmod('target', 0o666, dir_fd=d)), cs(268, -100, TARGET, 0o666), "
         "r in ('EPERM', 'ENOSYS'), err(lambda: os.chmod(TARGET, 0o666, follow_symlinks=False)) != 'allowed')"),
       "RESULT EPERM EPERM True True", "fchmodat");
    py("30 chmod via symlink in work dir",
       s("os.symlink(TARGET, 'l')\nprint('RESULT', err(lambda: os.chmod('l', 0o666)))"), "RESULT EPERM", "chmod");
    py("30 chown family",
       s("fd = os.open(TARGET, os.O_RDONLY)\nd = os.open(OUTSIDE, os.O_RDONLY | os.O_DIRECTORY)\nu, g = os.getuid(), os.getgid()\n"
         "print('RESULT', err(lambda: os.chown(TARGET, u, g)), err(lambda: os.lchown(TARGET, u, g)), "
         "err(lambda: os.fchown(fd, u, g)), err(lambda: os.chown('target', u, g, dir_fd=d)))"),
       "RESULT EPERM EPERM EPERM EPERM");
    py("30 utime family",
       s("fd = os.open(TARGET, os.O_RDONLY)\n"
         "print('RESULT', err(lambda: os.utime(TARGET, (0, 0))), err(lambda: os.utime(fd, (0, 0))), "
         "cs(132, TARGET, 0), cs(235, TARGET, 0), cs(261, -100, TARGET, 0), cs(280, -100, TARGET, 0, 0x100))"),
       "RESULT EPERM EPERM EPERM EPERM EPERM EPERM", "utimensat utime utimes futimesat");
    py("30 setxattr family",
       s("fd = os.open(TARGET, os.O_RDONLY)\n"
         "acl = bytes.fromhex('02000000' '01000600ffffffff' '0200060000000000' '04000400ffffffff' '10000600ffffffff' '20000400ffffffff')\n"
         "print('RESULT', err(lambda: os.setxattr(TARGET, 'user.x', b'1')), "
         "err(lambda: os.setxattr(TARGET, 'user.x', b'1', follow_symlinks=False)), err(lambda: os.setxattr(fd, 'user.x', b'1')), "
         "err(lambda: os.setxattr(TARGET, 'system.posix_acl_access', acl)), "
         "err(lambda: os.removexattr(TARGET, 'user.x')), err(lambda: os.removexattr(TARGET, 'user.x', follow_symlinks=False)), "
         "err(lambda: os.removexattr(fd, 'user.x')))"),
       "RESULT ENOTSUP ENOTSUP ENOTSUP ENOTSUP ENOTSUP ENOTSUP ENOTSUP");
    py("30 O_PATH route",
       s("r = err(lambda: os.open(HOME + '/.ssh', os.O_PATH))\n"
         "o = err(lambda: os.open(TARGET, os.O_PATH | os.O_NOFOLLOW))\n"
         "fd = os.open(TARGET, os.O_RDONLY)\n"
         "d = os.open(OUTSIDE, os.O_PATH | os.O_DIRECTORY)\n"
         "print('RESULT', r, o, cs(437, -100, HOME, 0, 24), cs(260, fd, '', os.getuid(), os.getgid(), 0x1000), "
         "cs(260, d, '', os.getuid(), os.getgid(), 0x1000), cs(452, d, '', 0o777, 0x1000) in ('EPERM', 'ENOSYS'), "
         "err(lambda: os.chmod('/proc/self/fd/%d' % d, 0o777)), err(lambda: os.utime(d, (0, 0))) != 'allowed')"),
       "RESULT EPERM EPERM ENOSYS EPERM EPERM True EPERM True");
    py("30 inside the work dir",
       s("import shutil, tempfile\nopen('f', 'w').write('x')\nos.chmod('f', 0o700)\nos.utime('f', (1, 1))\n"
         "os.mkdir('d')\nos.chmod('d', 0o700)\nfd = os.open('f', os.O_RDONLY)\nos.fchmod(fd, 0o600)\n"
         "shutil.copy('f', 'g')\nshutil.copy2('f', 'h')\nt = tempfile.NamedTemporaryFile(dir='.')\n"
         "print('RESULT', oct(os.stat('f').st_mode & 0o777), os.stat('f').st_mtime, oct(os.stat('g').st_mode & 0o777), "
         "os.stat('h').st_mtime, (os.chmod('f', 0o4755), oct(os.stat('f').st_mode & 0o7777))[1])"),
       "RESULT 0o600 1.0 0o600 1.0 0o755");
    // The broker resolves paths only beneath the work dir: resolving them as the studio
    // (root) told ENOENT from EPERM in directories the script cannot search (attack2).
    py("30 chmod outside names nothing",
       s("P = os.path.dirname(OUTSIDE) + '/private'\nd = os.open(OUTSIDE, os.O_RDONLY | os.O_DIRECTORY)\n"
         "print('RESULT', err(lambda: os.chmod(P + '/present', 0o600)), err(lambda: os.chmod(P + '/absent', 0o600)), "
         "err(lambda: os.utime(P + '/absent')), err(lambda: os.chmod('absent', 0o600, dir_fd=d)), "
         "err(lambda: os.chmod('../absent', 0o600)), err(lambda: os.chmod(P + '/absent', 0o600, follow_symlinks=False)))"),
       "RESULT EPERM EPERM EPERM EPERM EPERM EPERM", "chmod utimensat");
    py("30 inside the work dir by other paths",
       s("open('f', 'w').write('x')\nos.mkdir('s')\nw = os.getcwd()\nos.chdir('s')\n"
         "os.chmod('../f', 0o640)\na = oct(os.stat('../f').st_mode & 0o777)\nos.chmod(w + '/f', 0o604)\n"
         "b = oct(os.stat(w + '/s/../f').st_mode & 0o777)\n"
         "os.chmod(w, 0o700)\nos.chdir(w)\nos.symlink('f', 'rel')\nos.chmod('rel', 0o600)\n"
         "print('RESULT', a, b, err(lambda: os.chmod('/', 0o777)), "
         "err(lambda: os.chmod(w + '/absent', 0o600)), oct(os.stat('f').st_mode & 0o777))"),
       "RESULT 0o640 0o604 EPERM ENOENT 0o600", "chmod");
    // The work dir stays private: opened to others (0777), a local user could read the
    // run's data and swap entries in it while the studio copies its files out (attack2).
    py("30 work dir stays private",
       s("print('RESULT', err(lambda: os.chmod('.', 0o777)), err(lambda: os.chmod(os.getcwd(), 0o755)), "
         "err(lambda: os.chmod('.', 0o700)), oct(os.stat('.').st_mode & 0o777), "
         "(os.mkdir('d'), err(lambda: os.chmod('d', 0o755)))[1])"),
       "RESULT EPERM EPERM allowed 0o700 allowed", "chmod");
    py("30 venv in the work dir",
       s("r = subprocess.run([sys.executable, '-m', 'venv', '--without-pip', '--copies', 'v'], capture_output=True)\n"
         "print('RESULT', r.returncode, r.stderr.decode()[-200:].strip() or 'ok', "
         "oct(os.stat('v/bin/python3').st_mode & 0o777))"),
       "RESULT 0 ok 0o755");

    // Issue 16, class 4 and the pre-warmed launcher: setpriority / ioprio_set only on
    // the caller's own process or group (PRIO_USER would renice the waiting launcher,
    // the other runs and, as an ordinary user, the studio). 251 = ioprio_set.
    py("31 setpriority PRIO_USER",
       s("n = os.nice(0)\n"
         "print('RESULT', err(lambda: os.setpriority(os.PRIO_USER, 0, 19)), "
         "err(lambda: os.setpriority(os.PRIO_PROCESS, STUDIO, 19)), err(lambda: os.setpriority(os.PRIO_PGRP, os.getpgid(STUDIO), 19)), "
         "err(lambda: os.setpriority(os.PRIO_USER, os.getuid(), 19)), sc(251, 3, 0, 0x6000), sc(251, 1, STUDIO, 0x6000), "
         "err(lambda: os.setpriority(os.PRIO_PROCESS, 0, n + 1)), err(lambda: os.setpriority(os.PRIO_PGRP, 0, n + 2)), "
         "os.nice(0) - n)"),
       "RESULT EPERM EPERM EPERM EPERM EPERM EPERM allowed allowed 2");

    // Issue 16, class 2: file watching reveals names live in directories Landlock
    // does not let the script list. Refused (ENOSYS), Node's fs.watch throws it.
    py("32 inotify on $HOME",
       s("i = libc.inotify_init1(0)\ne1 = errno.errorcode.get(ctypes.get_errno()) if i == -1 else 'allowed'\n"
         "w = libc.inotify_add_watch(i, HOME.encode(), 0x100)\ne2 = errno.errorcode.get(ctypes.get_errno()) if w == -1 else 'allowed'\n"
         "print('RESULT', e1, e2, sc(253), sc(300, 0, 0), sc(301, 0, 0, 0, 0, 0))"),
       "RESULT ENOSYS ENOSYS ENOSYS ENOSYS ENOSYS");
    other(
        "32 node fs.watch", "js",
        "try { require('fs').watch('.'); console.log('RESULT watching'); } catch (e) { console.log('RESULT', e.code); }",
        "RESULT ENOSYS");

    // Issue 16, class 4, the residual stated in --report (residualsReported): a binary
    // written in the work dir cannot be exec'd (EACCES), but the dynamic loader runs it.
    py("33 loader runs a work dir binary",
       s("import shutil\nshutil.copy('/bin/true', 't')\nos.chmod('t', 0o755)\n"
         "print('RESULT', err(lambda: subprocess.run(['./t'])), "
         "subprocess.run(['/lib64/ld-linux-x86-64.so.2', './t']).returncode)"),
       "RESULT EACCES 0");

    // Issue 16, class 4: what Landlock below ABI 3 / 6 lacks (Debian 12's kernel offers
    // ABI 2; tst_hostilebattery_abi2 runs this table with TOOLSTUDIO_LANDLOCK_ABI_MAX=2).
    // Truncation of a file the uid may write but the run may only read (ABI 3's
    // truncate right; below it seccomp refuses truncate() and read-only O_TRUNC opens).
    py("33 truncate outside",
       s("print('RESULT', err(lambda: os.truncate(TARGET, 0)), err(lambda: os.open(TARGET, os.O_RDONLY | os.O_TRUNC)), "
         "err(lambda: os.open(TARGET, 3 | os.O_TRUNC)), err(lambda: os.open('f', os.O_WRONLY | os.O_CREAT | os.O_TRUNC)) == 'allowed')"),
       "RESULT EACCES EACCES EACCES True");
    // Signals to a process of the sandbox uid outside the run (ABI 6's scoping; below
    // it the studio checks each one): refused, while signals inside the run work.
    py("33 signal outside the run",
       s("signal = __import__('signal')\n"
         "p = subprocess.Popen(['/bin/sleep', '100'])\n"
         "inside = err(lambda: os.kill(p.pid, 0)) + ' ' + err(lambda: p.terminate())\n"
         "print('RESULT', err(lambda: os.kill(VICTIM, signal.SIGTERM)), err(lambda: os.kill(VICTIM, 0)), "
         "sc(200, VICTIM, 19), sc(234, VICTIM, VICTIM, 19), inside, p.wait(), "
         "err(lambda: signal.pthread_kill(__import__('threading').get_ident(), 0)))"),
       "RESULT EPERM EPERM EPERM EPERM allowed allowed -15 allowed");
}

void TestHostileBattery::battery()
{
    if (QSysInfo::currentCpuArchitecture() != QLatin1String("x86_64"))
        QSKIP("the syscall numbers in this table are x86_64's");
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(QString, limits);
    QFETCH(int, timeoutMs);
    QFETCH(QString, expected);
    QFETCH(QString, event);
    QFETCH(int, signal);
    QFETCH(bool, timedOut);
    if (language == QLatin1String("js") && !QFileInfo(Node).isExecutable())
        QSKIP("node is not installed");

    // The second run starts alongside, at the same moment (before the hostile one).
    startAlongside(QByteArray(QTest::currentDataTag()) == "17 fork bomb");
    const Outcome outcome = runScript(language, code, limits, timeoutMs);
    QVERIFY(outcome.finished);
    QCOMPARE(outcome.launcherFailure, QString());
    QVERIFY(outcome.landlockAbi >= 1);
    if (const int cap = qEnvironmentVariableIntValue("TOOLSTUDIO_LANDLOCK_ABI_MAX"); cap > 0)
        QVERIFY2(outcome.landlockAbi <= cap, qPrintable(QString::number(outcome.landlockAbi)));
    // Refused or contained, with a specific error.
    const QList<QByteArray> lines = outcome.out.trimmed().split('\n');
    QByteArray result;
    for (const QByteArray &line : lines) {
        if (line.startsWith("RESULT"))
            result = line;
    }
    QVERIFY2(QString::fromUtf8(result) == expected,
             qPrintable(QStringLiteral("got \"%1\", stderr: %2")
                            .arg(QString::fromUtf8(result), QString::fromUtf8(outcome.err.left(2000)))));
    QCOMPARE(outcome.timedOut, timedOut);
    if (signal) {
        QVERIFY(outcome.crashed);
        QCOMPARE(outcome.exitCode, signal);
    } else if (!timedOut) {
        QVERIFY2(!outcome.crashed, qPrintable(QStringLiteral("signal %1").arg(outcome.exitCode)));
    }
    // The policy events the studio received name the refused calls.
    QStringList seen;
    for (const SandboxPolicyEvent &policyEvent : outcome.events) {
        if (!seen.contains(policyEvent.syscall))
            seen.append(policyEvent.syscall);
        QVERIFY(policyEvent.error > 0);
        QVERIFY(policyEvent.pid > 0);
        QVERIFY(!policyEvent.describe().isEmpty());
    }
    for (const QString &name : event.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        QVERIFY2(seen.contains(name), qPrintable(seen.join(QLatin1Char(','))));
    // Nothing of it is left running, and its pids cgroup went with it.
    QVERIFY(outcome.groupGone);
    if (!outcome.processLimit.cgroup.isEmpty())
        QVERIFY2(outcome.cgroupRemoved, qPrintable(outcome.processLimit.cgroup));
    // The studio, its journal and the run alongside are unaffected — except that under
    // the shared residual (an ordinary user where neither a pids cgroup nor a user
    // namespace is allowed: a Debian 12 chroot, session 34) a fork bomb can starve the
    // run alongside, as docs/sandbox.md says; forkBombIsolation checks that residual is
    // reported with its reason.
    checkStudioUnaffected();
    if (QByteArray(QTest::currentDataTag()) == "17 fork bomb"
        && outcome.processLimit.mechanism == QLatin1String("shared")) {
        QVERIFY(!outcome.processLimit.sharedReason.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(m_alongsideDone, 20000);
        qInfo("the shared residual is in force (%s): the run alongside is not promised its processes",
              qPrintable(outcome.processLimit.sharedReason));
        return;
    }
    checkAlongside();
}

void TestHostileBattery::bridgeAbuse_data()
{
    QTest::addColumn<QByteArray>("script");
    QTest::addColumn<int>("status");    ///< RunStatus of the abusive run
    QTest::addColumn<QString>("error"); ///< expected part of the run's error / the script's last line
    const QByteArray prelude = "import os, socket, sys, json\nfrom toolstudio import tools, ToolError\n";
    QTest::newRow("29 10 MiB line") << prelude
            + "os.write(3, b'{\"type\":\"call\",\"id\":\"a\",\"tool\":\"echo\",\"args\":{\"s\":\"' + b'x' * (10 << 20) + b'\"}}\\n')\nprint('RESULT', os.read(3, 4096)[:300].decode(errors='replace'))\n"
                                    // the id comes first: that one call is refused by id, the run goes on
                                    << int(RunStatus::Completed) << QStringLiteral("\"code\":\"request_too_large\"");
    QTest::newRow("29 endless line") << prelude + "while True:\n    os.write(3, b'x' * 65536)\n"
                                     << int(RunStatus::Failed) << QStringLiteral("protocol error on the tools bridge");
    QTest::newRow("29 nested 100000") << prelude
            + "os.write(3, b'{\"type\":\"call\",\"id\":\"a\",\"tool\":\"echo\",\"args\":' + b'[' * 100000 + b']' * 100000 + b'}\\n')\nimport time; time.sleep(5)\n"
                                      << int(RunStatus::Failed) << QStringLiteral("protocol error on the tools bridge");
    QTest::newRow("29 bad UTF-8") << prelude
            + "os.write(3, b'{\"type\":\"call\",\"id\":\"a\",\"tool\":\"echo\",\"args\":{\"s\":\"\\xff\\xfe\"}}\\n')\nprint('RESULT', os.read(3, 4096)[:200].decode(errors='replace'))\n"
                                  << int(RunStatus::Completed)
                                  << QStringLiteral(
                                         "\"code\":\"invalid_arguments\",\"message\":\"invalid arguments for "
                                         "'echo': invalid UTF-8 at byte 6 of the arguments\"");
    QTest::newRow("29 100000 calls burst") << prelude
            + "line = json.dumps({'type': 'call', 'id': 'x', 'tool': 'echo', 'args': {'n': 1}}).encode() + b'\\n'\n"
              "try:\n    for i in range(100000):\n        tools.echo(n=i)\nexcept ToolError as e:\n    print('RESULT', e.code)\n"
                                           << int(RunStatus::Completed) << QStringLiteral("RESULT max_calls_exceeded");
    QTest::newRow("29 undeclared tool") << prelude
            + "try:\n    tools.call('rm_rf', {})\nexcept Exception as e:\n    print('RESULT', getattr(e, 'code', type(e).__name__))\n"
                                        << int(RunStatus::Completed) << QStringLiteral("RESULT");
    QTest::newRow("29 fd over SCM_RIGHTS")
        << prelude
            + "s = socket.socket(fileno=3)\nfd = os.open('passed-fd-marker', os.O_RDWR | os.O_CREAT)\n"
              "s.sendmsg([b'{\"type\":\"call\",\"id\":\"f\",\"tool\":\"echo\",\"args\":{\"n\":1}}\\n'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, bytes(memoryview(__import__('array').array('i', [fd]))))])\n"
              "print('RESULT', s.recv(4096).decode().strip()[:40])\n"
        << int(RunStatus::Failed) << QStringLiteral("file descriptors passed over the bridge are refused");
    QTest::newRow("29 bridge closed mid-call") << prelude
            + "os.write(3, b'{\"type\":\"call\",\"id\":\"c\",\"tool\":\"echo\",\"args\":{\"n\":1}}\\n')\nos.close(3)\nprint('RESULT closed')\n"
                                               << int(RunStatus::Completed) << QStringLiteral("RESULT closed");
    QTest::newRow("29 stdout flood") << prelude
            + "chunk = 'y' * 65535 + '\\n'\nfor i in range(400):\n    sys.stdout.write(chunk)\nprint('RESULT flooded')\n"
                                     << int(RunStatus::Completed) << QStringLiteral("truncated at 10485760 bytes");
}

void TestHostileBattery::bridgeAbuse()
{
    QFETCH(QByteArray, script);
    QFETCH(int, status);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const auto project = makeProject(dir.path(), script, R"({"run_timeout_seconds": 30})");
    QVERIFY(project);
    startAlongside();
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray out, err;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this,
            [&](int stream, const QByteArray &chunk) { (stream == 1 ? out : err) += chunk; });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QString startError;
    QVERIFY2(controller.start(*project, QString(), &startError), qPrintable(startError));
    QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
    const RunRecord &record = controller.record();
    QVERIFY2(int(record.status) == status,
             qPrintable(record.error + QStringLiteral(" / ") + QString::fromUtf8(err.left(500))));
    const QString everything = record.error + QString::fromUtf8(out.right(4000)) + QString::fromUtf8(err.right(4000));
    QVERIFY2(everything.contains(error), qPrintable(everything.left(3000)));
    QVERIFY(out.size() <= 10 * 1024 * 1024 + 200); // the cap plus the truncation notice
    // The studio's journal still reads back the run.
    Journal journal;
    QVERIFY(journal.open(dir.path() + QStringLiteral("/journal.sqlite")));
    const auto stored = journal.run(record.id);
    QVERIFY(stored);
    QCOMPARE(int(stored->status), status);
    checkStudioUnaffected();
    checkAlongside();
    QVERIFY(!holdsFdOn(QStringLiteral("passed-fd-marker"))); // no fd passed over the bridge was kept
}

void TestHostileBattery::stopAndTimeoutLeaveNothing_data()
{
    QTest::addColumn<bool>("timeout");
    QTest::newRow("stop") << false;
    QTest::newRow("timeout") << true;
}

void TestHostileBattery::stopAndTimeoutLeaveNothing()
{
    QFETCH(bool, timeout);
    QTemporaryDir dir;
    // Children and grandchildren (they try setsid) keep appending to markers in the
    // work dir; the script prints the work dir's path.
    const QByteArray script = R"(import os, time, subprocess
subprocess.Popen(["/bin/sleep", "1000"])
for i in range(3):
    if os.fork() == 0:
        if os.fork() == 0:
            try:
                os.setsid()
            except OSError:
                pass
            while True:
                with open("marker-%d" % i, "a") as f:
                    f.write("x")
                time.sleep(0.05)
        time.sleep(1000)
print(os.getcwd(), flush=True)
time.sleep(1000)
)";
    const auto project
        = makeProject(dir.path(), script,
                      timeout ? R"({"run_timeout_seconds": 5})" : "{}"); // long enough to start all eight under load
    QVERIFY(project);
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray out;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this, [&](int stream, const QByteArray &chunk) {
        if (stream == 1)
            out += chunk;
    });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QVERIFY(controller.start(*project, QString()));
    QTRY_VERIFY_WITH_TIMEOUT(out.endsWith('\n'), 10000);
    const QString work = QString::fromUtf8(out.trimmed());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(work + QStringLiteral("/marker-2")), 10000);
    // Every process of the run, found by its cwd: the script, sleep, the children and
    // the grandchildren that tried setsid (refused: they stay in the run's group).
    const auto processesIn = [](const QString &dir) {
        QMap<QString, QByteArray> found; // pid -> its process group
        for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            if (QFile::symLinkTarget(QStringLiteral("/proc/%1/cwd").arg(pid)).startsWith(dir)) {
                QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
                if (stat.open(QIODevice::ReadOnly)) {
                    const QByteArray line = stat.readAll();
                    found.insert(pid, line.mid(line.lastIndexOf(')') + 2).split(' ').value(2));
                }
            }
        }
        return found;
    };
    // script + sleep + 3 children + 3 grandchildren. One CI run's scan found 7 at Landlock
    // ABI 2 (cause not found; not reproduced): the scan is retried for up to 10 s.
    QTRY_VERIFY2_WITH_TIMEOUT(processesIn(work).size() >= 8, qPrintable(QString::number(processesIn(work).size())),
                              10000);
    const auto before = processesIn(work);
    const QList<QByteArray> groups = before.values();
    for (const QByteArray &group : groups)
        QCOMPARE(group, groups.first());
    const qint64 markerSize = QFileInfo(work + QStringLiteral("/marker-0")).size();
    QTest::qWait(200);
    QVERIFY(QFileInfo(work + QStringLiteral("/marker-0")).size() > markerSize); // the grandchildren do write
    if (!timeout)
        controller.stop();
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    QCOMPARE(controller.record().status, timeout ? RunStatus::TimedOut : RunStatus::Cancelled);
    QVERIFY(!controller.record().error.contains(QStringLiteral("could not be confirmed")));
    // By process group: none of them is left (nor anything in its group).
    QVERIFY(!groupAlive(groups.first().toLongLong()));
    for (const QString &pid : before.keys()) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (stat.open(QIODevice::ReadOnly))
            QVERIFY2(stat.readAll().contains(") Z "), qPrintable(pid));
    }
    // By marker: the grandchildren's markers were kept with the run and stand still.
    const QString kept = controller.outputFilesDir() + QStringLiteral("/marker-0");
    QVERIFY(QFileInfo::exists(kept));
    QVERIFY(!QFileInfo::exists(work)); // the work dir went with the run
    QTest::qWait(300);
    QVERIFY(!QFileInfo::exists(work));
    QVERIFY(processesIn(work).isEmpty());
}

void TestHostileBattery::runFilesAreKept()
{
    QTemporaryDir dir;
    writeFile(dir.path() + QStringLiteral("/files/input.txt"), "input\n");
    writeFile(dir.path() + QStringLiteral("/files/sub/data.csv"), "a,b\n");
    const QByteArray script = R"(import os
assert open("input.txt").read() == "input\n"
open("sub/data.csv", "a").write("1,2\n")
os.makedirs("out", exist_ok=True)
open("out/report.txt", "w").write("report")
os.symlink("/etc/passwd", "link")
for i in range(120):
    open("many-%03d" % i, "w").write("z")
print("written")
)";
    const auto project = makeProject(dir.path(), script);
    QVERIFY(project);
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray err;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this, [&](int stream, const QByteArray &chunk) {
        if (stream == 2)
            err += chunk;
    });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QVERIFY(controller.start(*project, QString()));
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QCOMPARE(controller.record().status, RunStatus::Completed);
    const QList<RunFile> files = controller.outputFiles();
    QCOMPARE(files.size(), 100);
    QCOMPARE(files.at(0).name, QStringLiteral("many-000"));
    QStringList names;
    for (const RunFile &file : files)
        names.append(file.name);
    // Files kept in name order up to the cap: out/… and sub/… sort after many-*.
    QVERIFY(!names.contains(QStringLiteral("input.txt"))); // unchanged input
    QVERIFY(!names.contains(QStringLiteral("link")));      // never a symlink
    QVERIFY(err.contains("[run files: kept 100 files"));
    QVERIFY(err.contains("2 more files"));
    QFile kept(controller.outputFilesDir() + QStringLiteral("/many-000"));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("z"));
    QVERIFY(!QFileInfo::exists(QFileInfo(controller.outputFilesDir()).path() + QStringLiteral("/work")));
}

namespace {

/// The mechanism the launcher puts in force here without a pids cgroup
/// (ProcessIsolation's order): a run uid as root, else a user namespace where the
/// kernel allows one, else the shared residual.
QString isolationWithoutCgroup()
{
    if (::geteuid() == 0)
        return QStringLiteral("run_uid");
    return ProcessIsolation::userNamespaceUnavailable().empty() ? QStringLiteral("user_namespace")
                                                                : QStringLiteral("shared");
}

} // namespace

void TestHostileBattery::processBudget_data()
{
    QTest::addColumn<bool>("pidsCgroup");
    QTest::addColumn<bool>("isolate");
    QTest::newRow("own pids cgroup") << true << true;
    QTest::newRow("no cgroup: run uid or user namespace") << false << true;
    QTest::newRow("residual: shared RLIMIT_NPROC") << false << false;
}

/// SANDBOX.md "Limits", processes (ProcessIsolation): with a writable pids cgroup each
/// run gets its own (pids.max = 64 + 1, RLIMIT_NPROC left as the studio's); without
/// one the launcher gives the run a user of its own — a run uid as root, a user
/// namespace as an ordinary user — with RLIMIT_NPROC = 1 + 64 counted for that run
/// alone, so exactly 64 forks succeed whatever else the same user runs; where neither
/// is possible (or switched off) the residual, RLIMIT_NPROC = the sandbox user's tasks
/// + 64, is reported with its reason.
void TestHostileBattery::processBudget()
{
    QFETCH(bool, pidsCgroup);
    QFETCH(bool, isolate);
    const PidsCgroup::Probe probe = PidsCgroup::probe();
    if (pidsCgroup && probe.parent.empty())
        QSKIP(qPrintable(QStringLiteral("no writable pids cgroup here: ") + QString::fromStdString(probe.why)));
    rlimit studio = {};
    QCOMPARE(::getrlimit(RLIMIT_NPROC, &studio), 0);
    const QString code
        = PythonPrelude
        + QStringLiteral(
              "import resource\n"
              "soft = resource.getrlimit(resource.RLIMIT_NPROC)[0]\n"
              "line = [l for l in open('/proc/self/cgroup').read().splitlines() if ':pids:' in l or l.startswith('0::')]\n"
              "print('NPROC', soft)\n"
              "print('UID', os.getuid())\n"
              "print('UIDMAP', ' '.join(open('/proc/self/uid_map').read().split()))\n"
              "print('CGROUP', ' '.join(line))\n"
              "kids = []\n"
              "try:\n"
              "    for i in range(100):\n"
              "        pid = os.fork()\n"
              "        if pid == 0:\n"
              "            time.sleep(5)\n"
              "            os._exit(0)\n"
              "        kids.append(pid)\n"
              "except OSError as e:\n"
              "    print('RESULT', errno.errorcode[e.errno], len(kids))\n");
    const Outcome outcome = runScript(QStringLiteral("py"), code, QString(), 20000, pidsCgroup, isolate);
    QVERIFY(outcome.finished);
    QCOMPARE(outcome.launcherFailure, QString());
    QMap<QByteArray, QByteArray> printed;
    for (const QByteArray &line : outcome.out.trimmed().split('\n'))
        printed.insert(line.left(line.indexOf(' ')), line.mid(line.indexOf(' ') + 1));
    const SandboxProcess::ProcessLimit &limit = outcome.processLimit;
    const QString mechanism = pidsCgroup ? QStringLiteral("pids_cgroup")
        : isolate                        ? isolationWithoutCgroup()
                                         : QStringLiteral("shared");
    QCOMPARE(limit.mechanism, mechanism);
    if (pidsCgroup) {
        QVERIFY(limit.cgroup.startsWith(QString::fromStdString(probe.parent) + QStringLiteral("/toolstudio-run-")));
        QCOMPARE(limit.cgroupVersion, probe.version);
        QCOMPARE(limit.maxTasks, quint64(65));
        QCOMPARE(limit.fallbackReason, QString());
        // The script is in it, RLIMIT_NPROC is the studio's, and the 65th task fails.
        QVERIFY2(printed.value("CGROUP").contains("/" + QFileInfo(limit.cgroup).fileName().toUtf8() + " "),
                 printed.value("CGROUP"));
        QCOMPARE(printed.value("NPROC"),
                 studio.rlim_cur == RLIM_INFINITY ? QByteArray("-1") : QByteArray::number(quint64(studio.rlim_cur)));
        QCOMPARE(printed.value("RESULT"), QByteArray("EAGAIN 64"));
        QVERIFY(outcome.cgroupRemoved);
    } else if (mechanism != QLatin1String("shared")) {
        QCOMPARE(limit.cgroup, QString());
        QCOMPARE(limit.fallbackReason, QStringLiteral("switched off for this run"));
        QCOMPARE(limit.sharedReason, QString());
        QVERIFY(!printed.value("CGROUP").contains("toolstudio-run-"));
        // A user of its own: the launcher was its only task, so exactly 64 forks
        // succeed, however many tasks the sandbox user (or the studio's user) has.
        QCOMPARE(limit.maxTasks, quint64(65));
        QCOMPARE(printed.value("NPROC"), QByteArray("65"));
        QCOMPARE(printed.value("RESULT"), QByteArray("EAGAIN 64"));
        if (mechanism == QLatin1String("run_uid")) {
            QVERIFY2(ProcessIsolation::isRunUid(uid_t(printed.value("UID").toULongLong())), printed.value("UID"));
        } else {
            // The user's own uid, mapped to itself in a namespace of the run's own.
            const QByteArray uid = QByteArray::number(::getuid());
            QCOMPARE(printed.value("UID"), uid);
            QCOMPARE(printed.value("UIDMAP"), uid + ' ' + uid + " 1");
        }
    } else {
        // The residual, reported with its reason: RLIMIT_NPROC = the sandbox user's
        // tasks at start + 64, which other runs of that user share. How many forks
        // succeed depends on what else that user runs meanwhile: not checked.
        QCOMPARE(limit.cgroup, QString());
        QCOMPARE(limit.fallbackReason, QStringLiteral("switched off for this run"));
        QVERIFY(!limit.sharedReason.isEmpty());
        if (!isolate)
            QCOMPARE(limit.sharedReason, QStringLiteral("switched off in the policy (isolate_processes false)"));
        const qint64 nproc = printed.value("NPROC").toLongLong();
        QVERIFY2(nproc >= 65 && nproc < 10000000, printed.value("NPROC"));
        QCOMPARE(qint64(limit.maxTasks), nproc);
        QVERIFY2(printed.value("UIDMAP") == "0 0 4294967295", printed.value("UIDMAP"));
    }
    QVERIFY(outcome.groupGone);
}

void TestHostileBattery::forkBombIsolation_data()
{
    QTest::addColumn<bool>("pidsCgroup");
    QTest::addColumn<bool>("isolate");
    QTest::newRow("own pids cgroup") << true << true;
    QTest::newRow("no cgroup: run uid or user namespace") << false << true;
    QTest::newRow("residual: shared RLIMIT_NPROC") << false << false;
}

/// Issue 16 class 4: a fork bomb in one run must not starve a run started alongside,
/// with whatever mechanism is in force (ProcessIsolation). The run alongside starts
/// first; the bomb forks until its budget refuses and keeps trying (each freed slot
/// taken again); then the run alongside needs 20 processes at once. Under the shared
/// residual that cannot be promised (there the run alongside typically gets none): the
/// row checks that the residual is what the studio was told, with its reason.
void TestHostileBattery::forkBombIsolation()
{
    QFETCH(bool, pidsCgroup);
    QFETCH(bool, isolate);
    const PidsCgroup::Probe probe = PidsCgroup::probe();
    if (pidsCgroup && probe.parent.empty())
        QSKIP(qPrintable(QStringLiteral("no writable pids cgroup here: ") + QString::fromStdString(probe.why)));
    const QString mechanism = pidsCgroup ? QStringLiteral("pids_cgroup")
        : isolate                        ? isolationWithoutCgroup()
                                         : QStringLiteral("shared");
    struct Run
    {
        QTemporaryDir dir;
        SandboxProcess process;
        QByteArray out;
        bool finished = false;
    };
    const auto start = [&](Run &run, const QByteArray &code) {
        ::chmod(QFile::encodeName(run.dir.path()).constData(), 0755);
        const QString work = run.dir.path() + QStringLiteral("/work");
        QDir().mkpath(work);
        writeFile(run.dir.path() + QStringLiteral("/runtime/script.py"), code);
        ::chmod(QFile::encodeName(run.dir.path() + QStringLiteral("/runtime")).constData(), 0755);
        SandboxPolicy policy;
        policy.workDir = work.toStdString();
        policy.argv = {Python.toStdString(), (run.dir.path() + QStringLiteral("/runtime/script.py")).toStdString()};
        policy.readPaths = {(run.dir.path() + QStringLiteral("/runtime")).toStdString()};
        run.process.setLauncherPath(launcher());
        run.process.setPidsCgroupAllowed(pidsCgroup);
        run.process.setProcessIsolationAllowed(isolate);
        connect(&run.process, &SandboxProcess::standardOutput, this, [&run](const QByteArray &c) { run.out += c; });
        connect(&run.process, &SandboxProcess::finished, this, [&run] { run.finished = true; });
        QString error;
        return run.process.start(policy, 256 * 1024, &error);
    };
    // The run alongside starts first (its budget is taken then, as a real run's would
    // be) and waits for "go" in its work dir; then the bomb fills its own budget and
    // keeps pressing on it; then the run alongside needs 20 processes at once.
    Run bomb, alongside;
    QVERIFY(start(alongside,
                  "import errno, os, time\n"
                  "while not os.path.exists('go'):\n"
                  "    time.sleep(0.02)\n"
                  "kids = []\n"
                  "try:\n"
                  "    for i in range(20):\n"
                  "        pid = os.fork()\n"
                  "        if pid == 0:\n"
                  "            time.sleep(0.5)\n"
                  "            os._exit(0)\n"
                  "        kids.append(pid)\n"
                  "    print('RESULT ok', len(kids), flush=True)\n"
                  "except OSError as e:\n"
                  "    print('RESULT', errno.errorcode[e.errno], len(kids), flush=True)\n"
                  "for k in kids:\n"
                  "    os.waitpid(k, 0)\n"));
    QTRY_VERIFY_WITH_TIMEOUT(!alongside.process.processLimit().mechanism.isEmpty() || alongside.finished, 20000);
    QVERIFY(start(bomb,
                  "import errno, os, time\n"
                  "n = 0\nfull = False\nend = time.time() + 8\n"
                  "while time.time() < end:\n"
                  "    try:\n"
                  "        if os.fork() == 0:\n"
                  "            time.sleep(4)\n"
                  "            os._exit(0)\n"
                  "        n += 1\n"
                  "    except OSError as e:\n"
                  "        if not full:\n"
                  "            print('FULL', errno.errorcode[e.errno], n, flush=True)\n"
                  "            full = True\n"
                  "        time.sleep(0.001)\n"));
    QTRY_VERIFY_WITH_TIMEOUT(bomb.out.contains("FULL") || bomb.finished, 20000);
    QVERIFY2(bomb.out.startsWith("FULL EAGAIN "), bomb.out.constData());
    writeFile(alongside.dir.path() + QStringLiteral("/work/go"), "");
    QTRY_VERIFY_WITH_TIMEOUT(alongside.finished, 20000);
    const bool bombStillRunning = !bomb.finished;
    QCOMPARE(bomb.process.processLimit().mechanism, mechanism);
    QCOMPARE(alongside.process.processLimit().mechanism, mechanism);
    QVERIFY(bomb.process.killGroup());
    QVERIFY(alongside.process.killGroup());
    QVERIFY(bombStillRunning); // the bomb was pressing on its budget the whole time
    if (mechanism != QLatin1String("shared")) {
        QCOMPARE(bomb.out, QByteArray("FULL EAGAIN 64\n"));
        QCOMPARE(alongside.out, QByteArray("RESULT ok 20\n"));
    } else {
        // The residual: told to the studio, with its reason (and in --report).
        QVERIFY(!alongside.process.processLimit().sharedReason.isEmpty());
        QVERIFY2(alongside.out.startsWith("RESULT "), alongside.out.constData());
    }
}

void TestHostileBattery::handedToTool_data()
{
    // Rows 8 and 9 "handed to a tool": the script plants a path in its work dir and
    // hands it to a command tool whose "file_args" make the studio open it
    // (WorkDirFile: openat2 beneath the work dir). The script prints the outcome.
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("expected"); ///< the script's RESULT line
    const QByteArray hint
        = "; name a regular file the script wrote in its work dir, relative to it (e.g. \"out/report.csv\")";
    QTest::newRow("8 plain file is read")
        << QByteArray("open('plain.txt', 'w').write('hello from the script')\ncall('plain.txt')")
        << QByteArray("RESULT ok hello from the script");
    QTest::newRow("8 symlink to secret")
        << QByteArray("os.symlink(HOME + '/.ssh/id_rsa', 'link')\ncall('link')")
        << "RESULT invalid_arguments argument 'path': \"link\" is or passes through a symbolic link" + hint
            + " [path_symlink]";
    QTest::newRow("8 symlinked directory")
        << QByteArray("os.symlink(HOME + '/.ssh', 'dir')\ncall('dir/id_rsa')")
        << "RESULT invalid_arguments argument 'path': \"dir/id_rsa\" is or passes through a symbolic link" + hint
            + " [path_symlink]";
    QTest::newRow("8 hardlink to secret")
        << QByteArray("print('LINK', err(lambda: os.link(HOME + '/.ssh/id_rsa', 'hard')))\ncall('hard')")
        << "RESULT invalid_arguments argument 'path': \"hard\" does not exist in the work dir" + hint
            + " [path_not_found]";
    QTest::newRow("8 hardlink in work dir")
        << QByteArray("open('a', 'w').write('x')\nos.link('a', 'b')\ncall('b')")
        << "RESULT invalid_arguments argument 'path': \"b\" has 2 hard links (it may share its contents with a file outside the work dir)"
            + hint + " [path_hard_link]";
    QTest::newRow("8 fifo") << QByteArray("os.mkfifo('pipe')\ncall('pipe')")
                            << "RESULT invalid_arguments argument 'path': \"pipe\" is not a regular file" + hint
            + " [path_not_regular]";
    QTest::newRow("9 traversal")
        << QByteArray("call('../../../home/.ssh/id_rsa')")
        << "RESULT invalid_arguments argument 'path': \"../../../home/.ssh/id_rsa\" leaves the work dir (\"..\")" + hint
            + " [path_traversal]";
    QTest::newRow("9 absolute path")
        << QByteArray("call(HOME + '/.ssh/id_rsa')")
        << QByteArray("RESULT invalid_arguments argument 'path': \"@HOME@/.ssh/id_rsa\" is an absolute path") + hint
            + " [path_absolute]";
    QTest::newRow("9 NUL byte")
        << QByteArray("open('plain.txt', 'w').write('x')\ncall('plain.txt\\0../../x')")
        << "RESULT invalid_arguments argument 'path': \"plain.txt\\x00../../x\" contains a NUL byte" + hint
            + " [path_nul_byte]";
    // Bad UTF-8 in the path: the shim cannot even encode it, so the raw line goes out
    // on fd 3; the bridge fails that call (invalid_arguments) before any handler sees it.
    QTest::newRow("9 bad UTF-8") << QByteArray(
        "os.write(3, b'{\"type\":\"call\",\"id\":\"u\",\"tool\":\"readfile\",\"args\":{\"path\":\"bad\\xffname\"}}\\n')\n"
        "r = json.loads(os.read(3, 65536))['error']\nprint('RESULT', r['code'], r['message'])")
                                 << QByteArray("RESULT invalid_arguments invalid arguments for 'readfile': "
                                               "invalid UTF-8 at byte 12 of the arguments");
    // The same, as a root without cgroups runs them (a fresh chroot; TOOLSTUDIO_CGROUPS=0):
    // the script has a run uid of its own and its files are private to it (umask 077,
    // work dir 0700), while the command runs as the sandbox user. The command still
    // reads the script's plain file (a sealed copy: SealedCopy); the rest stays refused.
    QTest::newRow("8 plain file is read, no cgroup")
        << QByteArray("print('UID', os.getuid())\nopen('plain.txt', 'w').write('hello from the script')\n"
                      "call('plain.txt')")
        << QByteArray("RESULT ok hello from the script");
    QTest::newRow("8 symlink to secret, no cgroup")
        << QByteArray("print('UID', os.getuid())\nos.symlink(HOME + '/.ssh/id_rsa', 'link')\ncall('link')")
        << "RESULT invalid_arguments argument 'path': \"link\" is or passes through a symbolic link" + hint
            + " [path_symlink]";
    QTest::newRow("8 fifo, no cgroup") << QByteArray("print('UID', os.getuid())\nos.mkfifo('pipe')\ncall('pipe')")
                                       << "RESULT invalid_arguments argument 'path': \"pipe\" is not a regular file"
            + hint + " [path_not_regular]";
    QTest::newRow("9 traversal, no cgroup")
        << QByteArray("print('UID', os.getuid())\ncall('../../../home/.ssh/id_rsa')")
        << "RESULT invalid_arguments argument 'path': \"../../../home/.ssh/id_rsa\" leaves the work dir (\"..\")" + hint
            + " [path_traversal]";
}

void TestHostileBattery::handedToTool()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, expected);
    QTemporaryDir dir;
    // The command reads the file it was handed and answers with its contents.
    const QByteArray tool
        = R"json(, {"name": "readfile", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "handler": {"kind": "command", "file_args": ["path"], "command": ["/usr/bin/python3", "-c",
        "import json, sys; a = json.load(sys.stdin); print(json.dumps({'fd': a['path'], 'content': open(a['path']).read()}))"]}})json";
    const QByteArray script
        = "import os, errno, json\nfrom toolstudio import tools, ToolError\nHOME = " + QByteArray("'") + m_home.toUtf8()
        + "'\n"
          "def err(f):\n    try:\n        f()\n        return 'allowed'\n    except OSError as e:\n        return errno.errorcode.get(e.errno)\n"
          "def call(path):\n    try:\n        r = tools.readfile(path=path)\n        print('RESULT ok', r['content'], flush=True)\n"
          "    except ToolError as e:\n        print('RESULT', e.code, e.args[0], flush=True)\n"
        + body + "\n";
    const auto project = makeProject(dir.path(), script, R"({"run_timeout_seconds": 30})", tool);
    QVERIFY(project);
    startAlongside();
    // The run (started below) without cgroups; the run alongside keeps what it has.
    const auto cgroupsBack = withoutCgroupIfTagged();
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray out, err;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this,
            [&](int stream, const QByteArray &chunk) { (stream == 1 ? out : err) += chunk; });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QString startError;
    QVERIFY2(controller.start(*project, QString(), &startError), qPrintable(startError));
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(controller.record().status == RunStatus::Completed,
             qPrintable(controller.record().error + QString::fromUtf8(err)));
    QByteArray result, uid;
    for (const QByteArray &line : out.split('\n')) {
        if (line.startsWith("RESULT"))
            result = line;
        if (line.startsWith("UID "))
            uid = line.mid(4);
    }
    expected.replace("@HOME@", m_home.toUtf8());
    QCOMPARE(result, expected);
    // As root the mode in force was the chroot's: a run uid (the command runs as the
    // sandbox user); as an ordinary user, a user namespace with the user's own uid.
    const bool noCgroup = QByteArray(QTest::currentDataTag()).endsWith(", no cgroup");
    if (noCgroup && ::geteuid() == 0)
        QVERIFY2(ProcessIsolation::isRunUid(uid_t(uid.toULongLong())), uid.constData());
    else if (noCgroup)
        QCOMPARE(uid, QByteArray::number(::getuid()));
    if (QByteArray(QTest::currentDataTag()) == "8 hardlink to secret")
        QVERIFY2(out.contains("LINK EPERM") || out.contains("LINK EXDEV"), out); // the kernel refused the link itself
    checkStudioUnaffected();
    checkAlongside();
}

void TestHostileBattery::validatorAbuse_data()
{
    // Issue 16 class 3: arguments within the request cap that crashed the studio
    // (std::regex recursing per character), held the run thread for minutes (quadratic
    // uniqueItems, exponential backtracking) or slipped past maximum (uint64). Each call
    // is answered with the exact invalid_arguments message, the run goes on.
    QTest::addColumn<QByteArray>("call");
    QTest::addColumn<QByteArray>("expected"); ///< the script's RESULT line
    const QByteArray abandoned = " was abandoned at the match limit (1000000 steps): the pattern backtracks too much "
                                 "on it; simplify the pattern (e.g. no nested quantifiers) or send a shorter value";
    QTest::newRow("catastrophic pattern")
        << QByteArray("tools.check(code='a' * 5000 + '!')")
        << "RESULT invalid_arguments invalid arguments for 'check' at /code: matching this string (5001 bytes) "
           "against the pattern ^(a+)+$"
            + abandoned;
    QTest::newRow("catastrophic pattern under not in anyOf")
        << QByteArray("tools.check(tags='a' * 5000 + '!')")
        << "RESULT invalid_arguments invalid arguments for 'check' at /tags: matching this string (5001 bytes) "
           "against the pattern ^(a|aa)+$"
            + abandoned;
    QTest::newRow("200000 characters against a pattern")
        << QByteArray("tools.check(text='1' * 200000)") << QByteArray("RESULT ok True");
    QTest::newRow("200000 characters as a date-time")
        << QByteArray("tools.check(when='1' * 200000)")
        << QByteArray("RESULT invalid_arguments invalid arguments for 'check' at /when: expected a date-time (RFC "
                      "3339, e.g. 2026-12-01T16:52:45Z)");
    QTest::newRow("uniqueItems 40000, duplicate at the end")
        << QByteArray("tools.check(ids=list(range(39999)) + [0])")
        << QByteArray("RESULT invalid_arguments invalid arguments for 'check' at /ids: items 0 and 39999 are equal; "
                      "items must be unique");
    // valijson read 2^64-1 as the int64 -1: it passed "maximum": 100 and reached the handler.
    QTest::newRow("2^64-1 against maximum 100")
        << QByteArray("tools.check(m=2**64 - 1)")
        << QByteArray("RESULT invalid_arguments invalid arguments for 'check' at /m: expected number less than or "
                      "equal to 100");
    QTest::newRow("2^64-1 against maximum 2^63")
        << QByteArray("tools.check(n=2**64 - 1)")
        << QByteArray("RESULT invalid_arguments invalid arguments for 'check' at /n: expected number less than or "
                      "equal to 9223372036854775808");
}

void TestHostileBattery::validatorAbuse()
{
    QFETCH(QByteArray, call);
    QFETCH(QByteArray, expected);
    QTemporaryDir dir;
    const QByteArray tool = R"json(, {"name": "check", "input_schema": {"type": "object", "additionalProperties": false,
        "properties": {"code": {"type": "string", "pattern": "^(a+)+$"},
                       "text": {"type": "string", "pattern": "^([0-9]|[a-z])+$"},
                       "when": {"type": "string", "format": "date-time"},
                       "ids": {"type": "array", "uniqueItems": true},
                       "n": {"type": "integer", "maximum": 9223372036854775808},
                       "m": {"type": "integer", "maximum": 100},
                       "tags": {"anyOf": [{"not": {"pattern": "^(a|aa)+$"}}, {"type": "integer"}]}}},
        "handler": {"kind": "mock", "sequence": [{"result": true}]}})json";
    const QByteArray script = "from toolstudio import tools, ToolError\n"
                              "try:\n    r = "
        + call
        + "\n    print('RESULT ok', r, flush=True)\n"
          "except ToolError as e:\n    print('RESULT', e.code, e.args[0], flush=True)\n"
          "print('RESULT after', tools.echo(n=1)['ok'], flush=True)\n";
    const auto project = makeProject(dir.path(), script, R"({"run_timeout_seconds": 30})", tool);
    QVERIFY(project);
    startAlongside();
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray out, err;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this,
            [&](int stream, const QByteArray &chunk) { (stream == 1 ? out : err) += chunk; });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QString startError;
    QElapsedTimer timer;
    timer.start();
    QVERIFY2(controller.start(*project, QString(), &startError), qPrintable(startError));
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(controller.record().status == RunStatus::Completed,
             qPrintable(controller.record().error + QString::fromUtf8(err)));
    QList<QByteArray> results;
    for (const QByteArray &line : out.split('\n'))
        if (line.startsWith("RESULT"))
            results << line;
    QCOMPARE(results.size(), 2);
    QCOMPARE(results[0], expected);
    QCOMPARE(results[1], QByteArray("RESULT after True")); // the run thread is free for the next call
    QVERIFY2(timer.elapsed() < 15000, qPrintable(QString::number(timer.elapsed())));
    checkStudioUnaffected();
    checkAlongside();
}

void TestHostileBattery::warmLauncherTampered_data()
{
    QTest::addColumn<QString>("tamper");  ///< what changes while the launcher waits for "go"
    QTest::addColumn<QString>("failure"); ///< part of the launcher's failure; empty: the run starts
    QTest::newRow("untouched") << QString() << QString();
    QTest::newRow("reniced") << QStringLiteral("nice") << QStringLiteral("nice value changed");
    QTest::newRow("work dir chmod") << QStringLiteral("chmod") << QStringLiteral("work dir changed mode");
}

/// Issue 16, class 1: a pre-warmed launcher waits with the sandbox uid, so a
/// concurrent run could (before seccomp refused it, rows 30/31) renice it or chmod its
/// work dir, and the next run inherited both. The launcher now checks both before it
/// execs; go() then fails and the studio starts the run cold (RunController::start).
void TestHostileBattery::warmLauncherTampered()
{
    QFETCH(QString, tamper);
    QFETCH(QString, failure);
    QTemporaryDir run(m_root.path() + QStringLiteral("/warm-XXXXXX"));
    ::chmod(QFile::encodeName(run.path()).constData(), 0755);
    const QString work = run.path() + QStringLiteral("/work");
    QDir().mkpath(work);
    ::chmod(QFile::encodeName(work).constData(), 0700);
    SandboxPolicy policy;
    policy.workDir = work.toStdString();
    policy.argv = {Bash.toStdString(), "-c", "echo started"};
    policy.waitForGo = true;
    SandboxProcess process;
    process.setLauncherPath(launcher());
    QByteArray out;
    bool finished = false;
    QString launcherFailure;
    connect(&process, &SandboxProcess::standardOutput, this, [&](const QByteArray &chunk) { out += chunk; });
    connect(&process, &SandboxProcess::finished, this, [&](int, bool, const QString &why) {
        finished = true;
        launcherFailure = why;
    });
    QString error;
    QVERIFY2(process.start(policy, 256 * 1024, &error), qPrintable(error));
    QVERIFY(process.waitForReady(10000));
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, id_t(process.pid()));
    QCOMPARE(errno, 0);
    if (tamper == QLatin1String("nice"))
        QCOMPARE(::setpriority(PRIO_PROCESS, id_t(process.pid()), std::min(nice + 3, 19)), 0);
    else if (tamper == QLatin1String("chmod"))
        QCOMPARE(::chmod(QFile::encodeName(work).constData(), 0777), 0);
    const bool going = process.go();
    QCOMPARE(going, failure.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    if (failure.isEmpty()) {
        QCOMPARE(out, QByteArray("started\n"));
        QCOMPARE(launcherFailure, QString());
    } else {
        QVERIFY2(launcherFailure.contains(failure), qPrintable(launcherFailure));
        QVERIFY(!out.contains("started"));
    }
    QVERIFY(process.killGroup());
}

/// Issue 16, class 4: memory is bounded per run, not per process. Three children
/// holding 1 GiB each against the run's 2 GiB: the kernel kills one at the run's
/// bound and the run fails with a "memory limit" error. Without a memory cgroup the
/// residual (RLIMIT_DATA per process) is reported instead — and nothing is allocated.
void TestHostileBattery::memoryPerRun()
{
    const PidsCgroup::Probe memory = PidsCgroup::probe("memory");
    const PidsCgroup::Probe pids = PidsCgroup::probe();
    const bool bounded = memory.version == 1 || (memory.version == 2 && pids.version == 2);
    if (!bounded) {
        const Outcome outcome = runScript(QStringLiteral("py"), QStringLiteral("print('RESULT ok')"), {}, 20000);
        QCOMPARE(outcome.memoryLimit.mechanism, QStringLiteral("per_process"));
        QVERIFY2(outcome.memoryLimit.reason.contains(QStringLiteral("memory")), qPrintable(outcome.memoryLimit.reason));
        QProcess report;
        report.start(launcher(), {QStringLiteral("--report")});
        report.waitForFinished(20000);
        QVERIFY(report.readAllStandardOutput().contains("\nmemory: per_process - RLIMIT_DATA"));
        return;
    }
    QTemporaryDir dir;
    const QByteArray script = R"py(import subprocess, sys
child = "b = b'x' * (1 << 30)\nimport time\ntime.sleep(3)\nprint('held', flush=True)"
procs = [subprocess.Popen([sys.executable, '-c', child]) for _ in range(3)]
print('RESULT', sorted(p.wait() for p in procs), flush=True)
)py";
    const auto project = makeProject(dir.path(), script);
    QVERIFY(project);
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray out;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this, [&](int stream, const QByteArray &chunk) {
        if (stream == 1)
            out += chunk;
    });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QVERIFY(controller.start(*project, QString()));
    QTRY_VERIFY_WITH_TIMEOUT(done, 150000);
    QVERIFY2(out.contains("RESULT [-9, "), out.constData()); // killed at the bound, not by RLIMIT_DATA
    QCOMPARE(controller.record().status, RunStatus::Failed);
    QVERIFY2(controller.record().error.startsWith(
                 QStringLiteral("memory limit: the run's processes together reached the run's memory limit of 2048 MiB "
                                "(memory cgroup); the kernel killed ")),
             qPrintable(controller.record().error));
    checkStudioUnaffected();
}

/// Issue 16, class 4: the bytes a run keeps in its work dir, all files together, are
/// bounded by limits.work_dir_mb (16 MiB here): the run is killed, fails with "disk
/// limit" and its files are removed — with cgroups and without (TOOLSTUDIO_CGROUPS=0:
/// a run uid as root, a user namespace or the shared residual as an ordinary user; the
/// bound is the studio's own walk, whatever the launcher could set up).
void TestHostileBattery::diskPerRun_data()
{
    QTest::addColumn<QByteArray>("script");
    QTest::addColumn<QByteArray>("printed"); // on stdout before the kill
    const QByteArray fourFiles = R"py(import os, time
for i in range(4):
    try:
        with open('big%d' % i, 'wb') as f:
            for _ in range(200):
                f.write(b'x' * 1048576)
    except OSError as e:
        print('stopped big%d' % i, e.errno, flush=True)
time.sleep(60)
print('RESULT not killed', flush=True)
)py";
    // 100 bytes each: one 4 KiB block on ext4 and tmpfs.
    const QByteArray smallFiles = R"py(import os, time
print('looping', flush=True)
i = 0
while i < 100000:
    with open('f%d' % i, 'wb') as f:
        f.write(b'y' * 100)
    i += 1
time.sleep(60)
print('RESULT not killed', flush=True)
)py";
    // 15 MiB in a directory closed to its owner (the studio's user, as an ordinary user),
    // then 4 MiB beside it.
    const QByteArray closedDir = R"py(import os, time
os.mkdir('d')
for i in range(15):
    with open('d/%d' % i, 'wb') as f:
        f.write(b'z' * 1048576)
os.chmod('d', 0)
print('closed', flush=True)
with open('beside', 'wb') as f:
    f.write(b'z' * 4194304)
time.sleep(60)
print('RESULT not killed', flush=True)
)py";
    for (const char *suffix : {"", ", no cgroup"}) {
        QTest::addRow("four files of 200 MiB%s", suffix) << fourFiles << QByteArray("stopped big0 27");
        QTest::addRow("loop of small files%s", suffix) << smallFiles << QByteArray("looping");
        QTest::addRow("closed directory%s", suffix) << closedDir << QByteArray("closed");
    }
}

void TestHostileBattery::diskPerRun()
{
    QFETCH(QByteArray, script);
    QFETCH(QByteArray, printed);
    QTemporaryDir dir;
    const auto project = makeProject(dir.path(), script, R"({"work_dir_mb": 16, "run_timeout_seconds": 120})");
    QVERIFY(project);
    QCOMPARE(project->limits.workDirBytes, 16ll << 20);
    const auto cgroupsBack = withoutCgroupIfTagged();
    RunController controller;
    controller.setJournalPath(dir.path() + QStringLiteral("/journal.sqlite"));
    QByteArray out;
    bool done = false;
    connect(&controller, &RunController::outputReceived, this, [&](int stream, const QByteArray &chunk) {
        if (stream == 1)
            out += chunk;
    });
    connect(&controller, &RunController::finished, this, [&] { done = true; });
    QVERIFY(controller.start(*project, QString()));
    QTRY_VERIFY_WITH_TIMEOUT(done, 150000);
    QVERIFY2(out.contains(printed), out.constData());
    QVERIFY2(!out.contains("RESULT not killed"), out.constData());
    QCOMPARE(controller.record().status, RunStatus::Failed);
    QVERIFY2(controller.record().error.startsWith(
                 QStringLiteral("disk limit: the run wrote more than 16 MiB to its work dir (limits.work_dir_mb; ")),
             qPrintable(controller.record().error));
    QVERIFY2(controller.record().error.endsWith(
                 QStringLiteral(" MiB counted); its process group was killed and its files were removed")),
             qPrintable(controller.record().error));
    QVERIFY(controller.outputFiles().isEmpty());
    const QString runDir = RunFolder::runsDir() + QLatin1Char('/') + controller.record().id;
    QVERIFY2(!QFileInfo::exists(runDir + QStringLiteral("/work")), qPrintable(runDir));
    QVERIFY2(!QFileInfo::exists(runDir + QStringLiteral("/files-out")), qPrintable(runDir));
}

/// Issue 16, classes 2 and 4: what is not closed yet is stated in --report exactly
/// (bytes written per run, the loader route around the non-executable work dir, /proc).
void TestHostileBattery::residualsReported()
{
    QProcess process;
    process.start(launcher(), {QStringLiteral("--report")});
    process.waitForFinished(20000);
    const QByteArray report = process.readAllStandardOutput();
    QVERIFY2(report.contains("\ndisk: per_run - each run started by the studio: its work dir's files together at most "
                             "the project's limits.work_dir_mb (default 1024 MiB;"),
             report.constData());
    QVERIFY(report.contains("a file written there can still be run through the dynamic loader "
                            "(/lib64/ld-linux-x86-64.so.2 ./binary) or loaded with dlopen/mmap(PROT_EXEC)"));
    QVERIFY(report.contains("/proc is readable as a tree (no mount namespace with a fresh procfs yet): /proc/net/*"));
}

/// Issue 16, class 4: TOOLSTUDIO_LANDLOCK_ABI_MAX caps the ABI and --report says so,
/// with what stands in for each missing rule (and the residual run by hand).
void TestHostileBattery::landlockCapReport()
{
    const auto report = [](const QByteArray &cap) {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TOOLSTUDIO_LANDLOCK_ABI_MAX"), QString::fromLatin1(cap));
        process.setProcessEnvironment(environment);
        process.start(launcher(), {QStringLiteral("--report")});
        process.waitForFinished(20000);
        return process.readAllStandardOutput();
    };
    const QByteArray capped = report("2");
    QVERIFY2(capped.contains("\nlandlock: ABI 2 (the kernel offers ")
                 && capped.contains(", capped by TOOLSTUDIO_LANDLOCK_ABI_MAX=2;"),
             capped.constData());
    QVERIFY(capped.contains("truncate (ABI 3): not used (needs ABI 3)"));
    QVERIFY(capped.contains("TCP bind/connect (ABI 4): not used (needs ABI 4) - seccomp refuses socket() of every "
                            "family, connect and bind anyway"));
    QVERIFY(capped.contains("scoping (ABI 6): not used (needs ABI 6) - signals: the studio checks each one naming "
                            "another pid"));
    QVERIFY(capped.contains("RESIDUAL run by hand (no studio): signals to other processes of the sandbox uid are not "
                            "refused"));
    QVERIFY(report("x").contains("landlock cap: TOOLSTUDIO_LANDLOCK_ABI_MAX=x is not an ABI number"));
}

/// Issue 16, class 2: an interpreter at <dir>/bin/<name> (a copy in ~/bin) made <dir>,
/// the home, readable and executable. Now only its own file and lib trees are granted,
/// and a lib tree in the home is refused with a message naming it.
void TestHostileBattery::interpreterGrant()
{
    const QString copy = m_home + QStringLiteral("/bin/python3");
    QDir().mkpath(m_home + QStringLiteral("/bin"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(QFileInfo(Python).canonicalFilePath(), copy));
    ::chmod(QFile::encodeName(copy).constData(), 0755);
    const QString code
        = PythonPrelude
        + QStringLiteral(
              "print('RESULT', err(lambda: open(HOME + '/.ssh/id_rsa').read()), err(lambda: os.listdir(HOME)), "
              "err(lambda: os.listdir(HOME + '/bin')))");
    const Outcome outcome = runScript(QStringLiteral("py"), code, {}, 20000, true, true, copy);
    QCOMPARE(outcome.launcherFailure, QString());
    QVERIFY2(outcome.out.contains("RESULT EACCES EACCES EACCES\n"), (outcome.out + outcome.err).constData());
    QVERIFY(!outcome.out.contains(Secret));

    // ~/lib beside ~/bin: the home's own folder, not the interpreter's library.
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/lib")));
    const Outcome refused = runScript(QStringLiteral("py"), code, {}, 20000, true, true, copy);
    QDir(m_home + QStringLiteral("/lib")).removeRecursively();
    QVERIFY(refused.finished);
    QVERIFY2(refused.launcherFailure.contains(QStringLiteral("would be granted its library tree %1/lib in %1, which is "
                                                             "or contains %1")
                                                  .arg(m_home)),
             qPrintable(refused.launcherFailure));
    QVERIFY(!refused.out.contains("RESULT"));
    QFile::remove(copy);
    checkStudioUnaffected();
}

TOOLSTUDIO_TEST_MAIN_AS_USER(TestHostileBattery)
#include "tst_hostilebattery.moc"
