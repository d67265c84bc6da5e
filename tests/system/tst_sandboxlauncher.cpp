// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgechannel.h"
#include "pidscgroup.h"
#include "policylistener.h"
#include "processisolation.h"
#include "sandboxpolicy.h"
#include "sandboxprocess.h"
#include "workdirfile.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const QString Python = QStringLiteral("/usr/bin/python3");

QString launcher()
{
    const QString path = qEnvironmentVariable("TOOLSTUDIO_SANDBOX");
    return path.isEmpty() ? SandboxProcess::defaultLauncherPath() : path;
}

bool isRoot()
{
    return ::geteuid() == 0;
}

/// A work dir under /tmp that the sandbox user ('nobody' when the tests run as root)
/// can enter and write: 0777 on the dir, /tmp itself is searchable.
struct WorkDir
{
    QTemporaryDir dir{QStringLiteral("/tmp/tst_sandboxlauncher-XXXXXX")};
    WorkDir() { ::chmod(QFile::encodeName(dir.path()).constData(), 0777); }
    QString path() const { return dir.path(); }
    std::string std() const { return dir.path().toStdString(); }
};

struct Result
{
    bool finished = false;
    int exitCode = -1;
    bool crashed = false;
    QString launcherFailure;
    QByteArray out;
    QByteArray err;
};

/// Runs the launcher from the command line, as a person would.
Result runCli(const QStringList &arguments)
{
    QProcess process;
    process.setProgram(launcher());
    process.setArguments(arguments);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
    Result result;
    if (!process.waitForFinished(30000))
        return result;
    result.finished = true;
    result.crashed = process.exitStatus() == QProcess::CrashExit;
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QStringList pythonCli(const WorkDir &work, const QString &code)
{
    return {QStringLiteral("--workdir"), work.path(), QStringLiteral("--"), Python, QStringLiteral("-c"), code};
}

SandboxPolicy pythonPolicy(const WorkDir &work, const QString &code)
{
    SandboxPolicy policy;
    policy.workDir = work.std();
    policy.argv = {Python.toStdString(), "-c", code.toStdString()};
    return policy;
}

/// Runs `policy` through SandboxProcess (the studio's way: policy file, bridge on fd 3)
/// and waits for the end. `whileRunning` is called once the process started.
Result runSandboxed(const SandboxPolicy &policy, const std::function<void(SandboxProcess &)> &whileRunning = {},
                    int timeoutMs = 30000)
{
    Result result;
    SandboxProcess process;
    process.setLauncherPath(launcher());
    QObject::connect(&process, &SandboxProcess::standardOutput, &process,
                     [&](const QByteArray &chunk) { result.out += chunk; });
    QObject::connect(&process, &SandboxProcess::standardError, &process,
                     [&](const QByteArray &chunk) { result.err += chunk; });
    QObject::connect(&process, &SandboxProcess::finished, &process,
                     [&](int code, bool crashed, const QString &failure) {
                         result.finished = true;
                         result.exitCode = code;
                         result.crashed = crashed;
                         result.launcherFailure = failure;
                     });
    QString error;
    if (!process.start(policy, 256 * 1024, &error)) {
        result.err = error.toUtf8();
        return result;
    }
    if (whileRunning)
        whileRunning(process);
    const QDeadlineTimer deadline(timeoutMs);
    while (!result.finished && !deadline.hasExpired())
        QTest::qWait(10);
    return result;
}

QString scriptPrelude()
{
    return QStringLiteral(R"(import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def sc(*a):
    r = libc.syscall(*[ctypes.c_long(x) for x in a])
    return errno.errorcode.get(ctypes.get_errno(), "?") if r == -1 else "allowed"
def sock(*a):
    try:
        socket.socket(*a).close()
        return "allowed"
    except OSError as e:
        return errno.errorcode[e.errno]
def inchild(f):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(w, f().encode())
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    return os.read(r, 100).decode()
def pair(kind):
    try:
        socket.socketpair(socket.AF_UNIX, kind)
        return "allowed"
    except OSError as e:
        return errno.errorcode[e.errno]
)");
}

const QString ListFds = QStringLiteral(R"(import os
fds = []
for fd in range(1024):
    try:
        os.fstat(fd)
        fds.append(str(fd))
    except OSError:
        pass
print(",".join(fds)))");

/// State letter of /proc/<pid>/stat, or 0 when the process is gone.
char processState(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 || close + 2 >= line.size() ? 0 : line.at(close + 2);
}

} // namespace

class TestSandboxLauncher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void help();
    void usageErrors_data();
    void usageErrors();
    void badPolicyFile_data();
    void badPolicyFile();
    void parentCheck();
    void missingInterpreter();
    void missingInterpreterThroughSandboxProcess();
    void scriptExitCodeIsNotALauncherFailure();
    void environmentIsAllowListed();
    void environmentWithoutBridge();
    void openFdsWithBridge();
    void openFdsWithoutBridge();
    void cwdIsWorkDir();
    void runsAsNobodyWhenRoot();
    void refusesToHandOverSystemDirs_data();
    void refusesToHandOverSystemDirs();
    void limits();
    void refusals_data();
    void refusals();
    void foreignAbiIsKilled();
    void ordinaryWorkStillRuns();
    void ordinaryWorkloads_data();
    void ordinaryWorkloads();
    void scriptCannotFakeLauncherFailure();
    void policyEventsReachTheStudio();
    void landlockConfinesFiles();
    void workDirTreeIsHandedOver();
    void report();
    void userNamespaceAsOrdinaryUser();
    void bridgeRoundTrip();
    void killGroupKillsBackgroundChildren();
    void killGroupAfterLeaderExited();
    void policyRoundTrip();
    void policyErrors_data();
    void policyErrors();
    void stepNames();
    void preWarmedStart();
    void workDirFile_data();
    void workDirFile();

private:
    int m_leakedFd = -1;
};

void TestSandboxLauncher::initTestCase()
{
    QVERIFY2(QFileInfo(launcher()).isExecutable(), qPrintable(launcher()));
    QVERIFY(QFileInfo(Python).isExecutable());
    // What must never reach the child: a secret and a session variable in the studio's
    // environment, and an fd the studio forgot to mark close-on-exec.
    qputenv("SECRET_API_KEY", "sk-test-do-not-leak");
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/0/bus");
    m_leakedFd = ::open("/dev/null", O_RDONLY); // no O_CLOEXEC on purpose
    QVERIFY(m_leakedFd > 2);
}

void TestSandboxLauncher::help()
{
    const Result result = runCli({QStringLiteral("--help")});
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, 0);
    QVERIFY(result.out.startsWith("Usage:\n  toolstudio-sandbox --policy FILE | --policy-fd N\n"));
    QCOMPARE(result.err, QByteArray());
}

void TestSandboxLauncher::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("stderr");
    QTest::newRow("unknown option") << QStringList{QStringLiteral(
        "--bogus")} << QByteArray("toolstudio-sandbox: usage: unknown option --bogus; run toolstudio-sandbox --help\n");
    QTest::newRow("no program") << QStringList{QStringLiteral("--workdir"), QStringLiteral("/tmp")}
                                << QByteArray(
                                       "toolstudio-sandbox: usage: no program to run; run toolstudio-sandbox --help\n");
    QTest::newRow("missing value") << QStringList{QStringLiteral(
        "--user")} << QByteArray("toolstudio-sandbox: usage: --user needs a value; run toolstudio-sandbox --help\n");
    QTest::newRow("bridge fd 2")
        << QStringList{QStringLiteral("--workdir"), QStringLiteral("/tmp"), QStringLiteral("--bridge-fd"),
                       QStringLiteral("2"),         QStringLiteral("--"),   Python}
        << QByteArray(
               "toolstudio-sandbox: usage: --bridge-fd needs a file descriptor number of 3 or more, not \"2\"\n");
    QTest::newRow("policy file missing")
        << QStringList{QStringLiteral("--policy"), QStringLiteral("/nonexistent/policy.json")}
        << QByteArray(
               "toolstudio-sandbox: usage: cannot read the policy file /nonexistent/policy.json: No such file or directory\n");
    QTest::newRow("policy plus program")
        << QStringList{QStringLiteral("--policy"), QStringLiteral("/x"), QStringLiteral("--"), Python}
        << QByteArray(
               "toolstudio-sandbox: usage: --policy or --policy-fd cannot be combined with other options or a program; run "
               "toolstudio-sandbox --help\n");
}

void TestSandboxLauncher::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, stderr);
    const Result result = runCli(arguments);
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, SandboxExit::Usage);
    QCOMPARE(result.err, stderr);
    QCOMPARE(result.out, QByteArray());
}

void TestSandboxLauncher::badPolicyFile_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("reason");
    QTest::newRow("not JSON") << QByteArray("{") << QByteArray("[json.exception.parse_error.101]");
    QTest::newRow("empty argv") << QByteArray(R"({"work_dir":"/tmp","argv":[]})")
                                << QByteArray("policy field \"argv\": must name a program to run");
    QTest::newRow("typo") << QByteArray(R"({"work_dir":"/tmp","argv":["x"],"workdir":"/"})")
                          << QByteArray("policy field \"workdir\": unknown field");
}

void TestSandboxLauncher::badPolicyFile()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, reason);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("policy.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(json);
    out.close();
    const Result result = runCli({QStringLiteral("--policy"), file});
    QCOMPARE(result.exitCode, SandboxExit::Usage);
    const QByteArray prefix = "toolstudio-sandbox: usage: policy file " + QFile::encodeName(file) + ": ";
    QVERIFY2(result.err.startsWith(prefix + reason), result.err.constData());
    QCOMPARE(result.err.count('\n'), 1);
    QVERIFY(result.err.endsWith('\n'));
}

void TestSandboxLauncher::parentCheck()
{
    // A policy naming another parent stands for a studio that died before the
    // launcher's PR_SET_PDEATHSIG: nothing may run.
    WorkDir work;
    SandboxPolicy policy = pythonPolicy(work, QStringLiteral("print('ran')"));
    policy.parentPid = 1;
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("policy.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(policy.toJson().dump()));
    out.close();
    const Result result = runCli({QStringLiteral("--policy"), file});
    QCOMPARE(result.exitCode, SandboxExit::Parent);
    QCOMPARE(result.err,
             QByteArray("toolstudio-sandbox: parent: the process that started the sandbox (pid 1) exited "
                        "before the sandbox was set up; nothing to run for\n"));
    QCOMPARE(result.out, QByteArray());
}

void TestSandboxLauncher::missingInterpreter()
{
    WorkDir work;
    const Result result = runCli({QStringLiteral("--workdir"), work.path(), QStringLiteral("--"),
                                  QStringLiteral("/usr/bin/python-missing"), QStringLiteral("x.py")});
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, SandboxExit::Exec);
    QCOMPARE(result.exitCode, 130);
    QCOMPARE(result.err,
             QByteArray("toolstudio-sandbox: exec: cannot run /usr/bin/python-missing: No such file or "
                        "directory; install the interpreter or set its path in Settings\n"));
    QCOMPARE(result.out, QByteArray());

    const Result onPath
        = runCli({QStringLiteral("--workdir"), work.path(), QStringLiteral("--"), QStringLiteral("python-missing")});
    QCOMPARE(onPath.exitCode, 130);
    QCOMPARE(onPath.err,
             QByteArray("toolstudio-sandbox: exec: python-missing was not found on PATH "
                        "(/usr/local/bin:/usr/bin:/bin); install it or give its absolute path\n"));
}

void TestSandboxLauncher::missingInterpreterThroughSandboxProcess()
{
    WorkDir work;
    SandboxPolicy policy = pythonPolicy(work, QString());
    policy.argv = {"/usr/bin/python-missing"};
    const Result result = runSandboxed(policy);
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, 130);
    QVERIFY(!result.crashed);
    QCOMPARE(result.launcherFailure,
             QStringLiteral("toolstudio-sandbox: exec: cannot run /usr/bin/python-missing: No "
                            "such file or directory; install the interpreter or set its path in Settings"));
}

void TestSandboxLauncher::scriptExitCodeIsNotALauncherFailure()
{
    WorkDir work;
    const Result result
        = runSandboxed(pythonPolicy(work, QStringLiteral("import sys; sys.stderr.write('boom\\n'); sys.exit(125)")));
    QCOMPARE(result.exitCode, 125);
    QCOMPARE(result.err, QByteArray("boom\n"));
    QCOMPARE(result.launcherFailure, QString());
}

void TestSandboxLauncher::environmentIsAllowListed()
{
    WorkDir work;
    SandboxPolicy policy = pythonPolicy(work, QStringLiteral("import os, json; print(json.dumps(dict(os.environ)))"));
    policy.env = {{"PYTHONPATH", "/opt/toolstudio/shim"}};
    const Result result = runSandboxed(policy);
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    const QJsonObject env = QJsonDocument::fromJson(result.out).object();
    const QJsonObject expected{
        {QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin")},
        {QStringLiteral("HOME"), work.path()},
        {QStringLiteral("TMPDIR"), work.path()},
        {QStringLiteral("LANG"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("PYTHONIOENCODING"), QStringLiteral("utf-8")},
        {QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1")},
        {QStringLiteral("TOOLSTUDIO_BRIDGE_FD"), QStringLiteral("3")},
        {QStringLiteral("PYTHONPATH"), QStringLiteral("/opt/toolstudio/shim")},
    };
    QCOMPARE(env, expected);
    QVERIFY(!result.out.contains("sk-test-do-not-leak"));
    QVERIFY(!env.contains(QStringLiteral("SECRET_API_KEY")));
    QVERIFY(!env.contains(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")));
}

void TestSandboxLauncher::environmentWithoutBridge()
{
    WorkDir work;
    const Result result = runCli(pythonCli(work, QStringLiteral("import os; print(' '.join(sorted(os.environ)))")));
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QByteArray("HOME LANG LC_ALL PATH PYTHONDONTWRITEBYTECODE PYTHONIOENCODING TMPDIR\n"));
}

void TestSandboxLauncher::openFdsWithBridge()
{
    WorkDir work;
    const Result result = runSandboxed(pythonPolicy(work, ListFds));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out, QByteArray("0,1,2,3\n"));
}

void TestSandboxLauncher::openFdsWithoutBridge()
{
    WorkDir work;
    const Result result = runCli(pythonCli(work, ListFds));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out, QByteArray("0,1,2\n"));
}

void TestSandboxLauncher::cwdIsWorkDir()
{
    WorkDir work;
    const Result result = runSandboxed(
        pythonPolicy(work, QStringLiteral("import os; print(os.getcwd()); open('out.txt', 'w').write('x')")));
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QDir(work.path()).canonicalPath().toUtf8() + '\n');
    QVERIFY(QFile::exists(work.path() + QStringLiteral("/out.txt")));
}

void TestSandboxLauncher::runsAsNobodyWhenRoot()
{
    if (!isRoot())
        QSKIP("the user switch happens only when the launcher runs as root");
    const passwd *nobody = ::getpwnam("nobody");
    QVERIFY(nobody);
    const QString code
        = QStringLiteral("import os; print(os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups())");
    // Through the studio: nobody in the run's pids cgroup, or (no writable cgroup) a run
    // uid of its own; with isolation switched off, nobody.
    for (const bool isolate : {true, false}) {
        WorkDir work;
        SandboxPolicy policy = pythonPolicy(work, code);
        policy.isolateProcesses = isolate;
        const Result result = runSandboxed(policy);
        QCOMPARE(result.err, QByteArray());
        const QList<QByteArray> ids = result.out.trimmed().split(' ');
        QCOMPARE(ids.size(), 5);
        const uid_t uid = uid_t(ids[0].toULongLong());
        const bool runUid = ProcessIsolation::isRunUid(uid);
        QVERIFY2(uid == nobody->pw_uid || (isolate && runUid), result.out.constData());
        const QByteArray gid = runUid ? ids[0] : QByteArray::number(nobody->pw_gid);
        QCOMPARE(result.out, ids[0] + ' ' + ids[0] + ' ' + gid + ' ' + gid + " []\n");
        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(work.path()).constData(), &info), 0);
        QCOMPARE(info.st_uid, uid);            // the work dir was handed over
        QCOMPARE(info.st_mode & 07777, 0700u); // private to the sandbox user (issue 16, class 2)
    }
    // By hand (no cgroup): a run uid of its own, its work dir private to it.
    WorkDir work;
    const Result byHand = runCli(pythonCli(work, code));
    QCOMPARE(byHand.err, QByteArray());
    const QByteArray uid = byHand.out.left(byHand.out.indexOf(' '));
    QVERIFY2(ProcessIsolation::isRunUid(uid_t(uid.toULongLong())), byHand.out.constData());
    QCOMPARE(byHand.out, uid + ' ' + uid + ' ' + uid + ' ' + uid + " []\n");

    // Status lines of the script's own process: no capability is left.
    const Result caps = runCli(pythonCli(
        work,
        QStringLiteral(
            "print(' '.join(l.split()[1] for l in open('/proc/self/status') if l.startswith(('CapEff', 'CapPrm', 'NoNewPrivs'))))")));
    QCOMPARE(caps.out, QByteArray("0000000000000000 0000000000000000 1\n"));
}

void TestSandboxLauncher::refusesToHandOverSystemDirs_data()
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("reason");
    QTest::newRow("root") << QStringLiteral("/") << QStringLiteral("it is a top-level directory");
    QTest::newRow("/tmp itself") << QStringLiteral("/tmp") << QStringLiteral("it is a top-level directory");
    QTest::newRow("/usr/lib") << QStringLiteral("/usr/lib") << QStringLiteral("it is under /usr");
    QTest::newRow("/etc/ssl") << QStringLiteral("/etc/ssl") << QStringLiteral("it is under /etc");
}

void TestSandboxLauncher::refusesToHandOverSystemDirs()
{
    if (!isRoot())
        QSKIP("the work dir is handed over only when the launcher runs as root");
    QFETCH(QString, dir);
    QFETCH(QString, reason);
    struct stat before = {};
    QCOMPARE(::stat(QFile::encodeName(dir).constData(), &before), 0);
    const Result result = runCli({QStringLiteral("--workdir"), dir, QStringLiteral("--"), QStringLiteral("/bin/true")});
    QCOMPARE(result.exitCode, SandboxExit::Credentials);
    // To a run uid of its own (ProcessIsolation): no cgroup by hand.
    const QRegularExpression expected(
        QStringLiteral("^toolstudio-sandbox: credentials: refusing to hand %1 to run uid 19000\\d{5}: %2; "
                       "use a directory of its own for the run \\(e\\.g\\. under /tmp\\)\n$")
            .arg(QRegularExpression::escape(dir), QRegularExpression::escape(reason)));
    QVERIFY2(expected.match(QString::fromUtf8(result.err)).hasMatch(), result.err.constData());
    struct stat after = {};
    QCOMPARE(::stat(QFile::encodeName(dir).constData(), &after), 0);
    QCOMPARE(after.st_uid, before.st_uid);
}

void TestSandboxLauncher::limits()
{
    WorkDir work;
    const Result result = runSandboxed(pythonPolicy(work, QStringLiteral(R"(import resource as r
for name in ("CORE", "CPU", "DATA", "FSIZE", "NOFILE", "MEMLOCK", "MSGQUEUE"):
    print(name, *r.getrlimit(getattr(r, "RLIMIT_" + name)))
soft, hard = r.getrlimit(r.RLIMIT_NPROC)
print("NPROC", soft == hard, soft >= 65))")));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out,
             QByteArray("CORE 0 0\nCPU 305 306\nDATA 2147483648 2147483648\nFSIZE 268435456 268435456\n"
                        "NOFILE 256 256\nMEMLOCK 0 0\nMSGQUEUE 0 0\nNPROC True True\n"));
}

void TestSandboxLauncher::refusals_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("expected");
    // Syscall numbers are x86_64's (the test skips elsewhere).
    QTest::newRow("socket AF_INET") << QStringLiteral("sock(socket.AF_INET, socket.SOCK_STREAM)")
                                    << QStringLiteral("EAFNOSUPPORT");
    QTest::newRow("socket AF_INET6 UDP") << QStringLiteral("sock(socket.AF_INET6, socket.SOCK_DGRAM)")
                                         << QStringLiteral("EAFNOSUPPORT");
    QTest::newRow("socket AF_NETLINK") << QStringLiteral("sock(socket.AF_NETLINK, socket.SOCK_RAW, 0)")
                                       << QStringLiteral("EAFNOSUPPORT");
    QTest::newRow("socket AF_PACKET") << QStringLiteral("sock(socket.AF_PACKET, socket.SOCK_RAW, 0)")
                                      << QStringLiteral("EAFNOSUPPORT");
    QTest::newRow("socket AF_VSOCK") << QStringLiteral("sock(socket.AF_VSOCK, socket.SOCK_STREAM)")
                                     << QStringLiteral("EAFNOSUPPORT");
    QTest::newRow("socket AF_UNIX") << QStringLiteral("sock(socket.AF_UNIX, socket.SOCK_DGRAM)")
                                    << QStringLiteral("EPERM");
    QTest::newRow("socket AF_UNIX, junk high bits")
        << QStringLiteral("sc(41, 1 | (1 << 32), 1, 0)") << QStringLiteral("EAFNOSUPPORT");
    QTest::newRow("socketpair stream") << QStringLiteral("pair(socket.SOCK_STREAM)") << QStringLiteral("allowed");
    QTest::newRow("socketpair dgram") << QStringLiteral("pair(socket.SOCK_DGRAM)") << QStringLiteral("EPERM");
    QTest::newRow("connect") << QStringLiteral("sc(42, 3, 0, 0)") << QStringLiteral("EACCES");
    QTest::newRow("ptrace traceme") << QStringLiteral("inchild(lambda: sc(101, 0, 0, 0, 0))")
                                    << QStringLiteral("EPERM");
    QTest::newRow("ptrace attach parent")
        << QStringLiteral("sc(101, 16, os.getppid(), 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("process_vm_readv") << QStringLiteral("sc(310, os.getppid(), 0, 0, 0, 0, 0)")
                                      << QStringLiteral("EPERM");
    QTest::newRow("pidfd_getfd") << QStringLiteral("sc(438, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("unshare newuser") << QStringLiteral("sc(272, 0x10000000)") << QStringLiteral("EPERM");
    QTest::newRow("clone newuser") << QStringLiteral("sc(56, 0x10000000 | 17, 0, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("clone newnet") << QStringLiteral("sc(56, 0x40000000 | 17, 0, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("clone3") << QStringLiteral("sc(435, 0, 0)") << QStringLiteral("ENOSYS");
    QTest::newRow("mount") << QStringLiteral("sc(165, 0, 0, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("fsopen") << QStringLiteral("sc(430, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("chroot") << QStringLiteral("sc(161, 0)") << QStringLiteral("EPERM");
    QTest::newRow("bpf") << QStringLiteral("sc(321, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("perf_event_open") << QStringLiteral("sc(298, 0, 0, -1, -1, 0)") << QStringLiteral("EPERM");
    QTest::newRow("userfaultfd") << QStringLiteral("sc(323, 0)") << QStringLiteral("EPERM");
    QTest::newRow("keyctl") << QStringLiteral("sc(250, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("io_uring_setup") << QStringLiteral("sc(425, 8, 0)") << QStringLiteral("EPERM");
    QTest::newRow("init_module") << QStringLiteral("sc(175, 0, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("iopl") << QStringLiteral("sc(172, 3)") << QStringLiteral("EPERM");
    // In a forked child: the script itself already leads its session, so the kernel
    // would refuse these there anyway.
    QTest::newRow("setsid") << QStringLiteral("inchild(lambda: sc(112))") << QStringLiteral("EPERM");
    QTest::newRow("setpgid") << QStringLiteral("inchild(lambda: sc(109, 0, 0))") << QStringLiteral("EPERM");
    QTest::newRow("kill(-1)") << QStringLiteral("sc(62, -1, 0)") << QStringLiteral("EPERM");
    QTest::newRow("kill(-1), junk high bits")
        << QStringLiteral("sc(62, 0xffffffff | (5 << 32), 0)") << QStringLiteral("EPERM");
    QTest::newRow("kill(0) own group") << QStringLiteral("sc(62, 0, 0)") << QStringLiteral("allowed");
    QTest::newRow("ioctl TIOCSTI") << QStringLiteral("sc(16, 0, 0x5412, 0)") << QStringLiteral("EPERM");
    QTest::newRow("ioctl TIOCSTI, junk high bits")
        << QStringLiteral("sc(16, 0, 0x5412 | (1 << 32), 0)") << QStringLiteral("EPERM");
    QTest::newRow("ioctl TIOCLINUX") << QStringLiteral("sc(16, 0, 0x541C, 0)") << QStringLiteral("EPERM");
    QTest::newRow("prlimit64 on parent") << QStringLiteral("sc(302, os.getppid(), 7, 0, 0)") << QStringLiteral("EPERM");
    QTest::newRow("prlimit64 on itself") << QStringLiteral("sc(302, 0, 7, 0, 0)") << QStringLiteral("allowed");
    QTest::newRow("fcntl F_SETOWN") << QStringLiteral("sc(72, 0, 8, os.getppid())") << QStringLiteral("EPERM");
    QTest::newRow("msgget") << QStringLiteral("sc(68, 0, 0)") << QStringLiteral("EPERM");
}

void TestSandboxLauncher::refusals()
{
    if (QSysInfo::currentCpuArchitecture() != QLatin1String("x86_64"))
        QSKIP("the syscall numbers in this table are x86_64's");
    QFETCH(QString, expression);
    QFETCH(QString, expected);
    WorkDir work;
    const Result result
        = runCli(pythonCli(work, scriptPrelude() + QStringLiteral("print(") + expression + QStringLiteral(")")));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(QString::fromUtf8(result.out).trimmed(), expected);
}

void TestSandboxLauncher::foreignAbiIsKilled()
{
    if (QSysInfo::currentCpuArchitecture() != QLatin1String("x86_64"))
        QSKIP("x32 exists on x86_64 only");
    WorkDir work;
    // getpid with the x32 bit set: the filter's bad-arch action kills the process.
    const Result result = runCli(pythonCli(
        work, QStringLiteral("import ctypes; ctypes.CDLL(None).syscall(0x40000000 | 39); print('survived')")));
    QVERIFY(result.crashed);
    QCOMPARE(result.exitCode, int(SIGSYS));
    QCOMPARE(result.out, QByteArray());
}

void TestSandboxLauncher::ordinaryWorkStillRuns()
{
    WorkDir work;
    const Result result
        = runSandboxed(pythonPolicy(work, QStringLiteral(R"(import os, subprocess, threading, tempfile, json
pid = os.fork()
if pid == 0:
    os._exit(7)
print("fork", os.waitpid(pid, 0)[1] >> 8)
print("subprocess", subprocess.run(["/bin/echo", "hi"], capture_output=True, text=True).stdout.strip())
out = []
t = threading.Thread(target=lambda: out.append("thread"))
t.start(); t.join()
print(out[0])
with tempfile.NamedTemporaryFile("w", dir=".", delete=False) as f:
    f.write("x")
print("tempfile", os.path.dirname(f.name) == os.getcwd())
print(json.dumps({"ü": 1}, ensure_ascii=False)))")));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QByteArray("fork 7\nsubprocess hi\nthread\ntempfile True\n{\"ü\": 1}\n"));
}

void TestSandboxLauncher::ordinaryWorkloads_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("script");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("python") << Python
                            << QStringLiteral(R"PY(import json, re, sqlite3, threading, subprocess, tempfile, os
db = sqlite3.connect(":memory:")
db.execute("create table t (x)")
db.executemany("insert into t values (?)", [(i,) for i in range(100)])
print("sqlite", db.execute("select sum(x) from t").fetchone()[0])
print("json", json.loads(json.dumps({"a": [1, 2]}))["a"][1], "re", re.sub(r"(\d+)", r"<\1>", "a1b22"))
out = []
threads = [threading.Thread(target=lambda i=i: out.append(i)) for i in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
print("threads", sorted(out) == list(range(8)))
print("ls", subprocess.run(["ls"], capture_output=True, text=True, check=True).stdout.split())
with tempfile.NamedTemporaryFile("w", dir=".", delete=False) as f:
    f.write("y" * 20_000_000)
print("large", len(open(f.name).read()), os.path.dirname(f.name) == os.getcwd())
os.unlink(f.name)
)PY") << QByteArray("sqlite 4950\njson 2 re a<1>b<22>\nthreads True\nls ['a.txt', 'sub']\nlarge 20000000 True\n");
    QTest::newRow("bash") << QStringLiteral("/bin/bash") << QStringLiteral(R"SH(set -e
printf '3\n1\n2\n' | sort | tr '\n' ' '; echo
echo hello world | sed 's/world/sandbox/'
awk 'BEGIN { s = 0; for (i = 1; i <= 10; i++) s += i; print "awk", s }'
x=$( (cd sub && pwd) ); echo "subshell ${x##*/}"
cat <<END | wc -l
one
two
END
head -c 3 a.txt; echo
mkdir -p d && mv a.txt d/ && ls d
diff <(echo same) <(echo same) && echo procsub
)SH") << QByteArray("1 2 3 \nhello sandbox\nawk 55\nsubshell sub\n2\nabc\na.txt\nprocsub\n");
    QTest::newRow("node") << QStringLiteral("/usr/bin/node") << QStringLiteral(R"JS(const fs = require("fs/promises");
(async () => {
  await fs.writeFile("round.json", JSON.stringify({n: [1, 2, 3], s: "ü"}));
  const back = JSON.parse(await fs.readFile("round.json", "utf8"));
  await new Promise(resolve => setTimeout(resolve, 20));
  const b = Buffer.from(back.s + "x");
  console.log("json", back.n.length, back.s, "buffer", b.length, b.toString("hex"));
  console.log("dir", (await fs.readdir(".")).sort().join(","));
})();
)JS") << QByteArray("json 3 ü buffer 3 c3bc78\ndir a.txt,round.json,sub\n");
}

void TestSandboxLauncher::ordinaryWorkloads()
{
    // Also run by CTest as tst_sandboxlauncher_kill_unlisted, with
    // TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1: a call missing from the allow-list kills.
    QFETCH(QString, program);
    QFETCH(QString, script);
    QFETCH(QByteArray, expected);
    if (!QFileInfo(program).isExecutable())
        QSKIP("interpreter not installed");
    WorkDir work;
    QDir(work.path()).mkdir(QStringLiteral("sub"));
    QFile input(work.path() + QStringLiteral("/a.txt"));
    QVERIFY(input.open(QIODevice::WriteOnly));
    input.write("abcdef\n");
    input.close();
    QTemporaryDir runtime(QStringLiteral("/tmp/tst_sandboxlauncher-rt-XXXXXX"));
    ::chmod(QFile::encodeName(runtime.path()).constData(), 0755);
    const QString file = runtime.path() + QStringLiteral("/script");
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(script.toUtf8());
    out.close();
    ::chmod(QFile::encodeName(file).constData(), 0644);
    SandboxPolicy policy;
    policy.workDir = work.std();
    policy.argv = {program.toStdString(), file.toStdString()};
    if (program.endsWith(QLatin1String("node")))
        policy.argv.insert(policy.argv.begin() + 1, "--max-old-space-size=1536");
    policy.readPaths = {runtime.path().toStdString()};
    const Result result = runSandboxed(policy);
    QVERIFY2(
        !result.crashed,
        qPrintable(
            QStringLiteral("killed by signal %1; stderr: %2").arg(result.exitCode).arg(QString::fromUtf8(result.err))));
    QCOMPARE(QString::fromUtf8(result.err), QString());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(QString::fromUtf8(result.out), QString::fromUtf8(expected));
}

void TestSandboxLauncher::scriptCannotFakeLauncherFailure()
{
    // The launcher's own line and status, printed by the script: still the script's exit.
    WorkDir work;
    const Result result = runSandboxed(pythonPolicy(
        work,
        QStringLiteral(
            "import sys; sys.stderr.write('toolstudio-sandbox: exec: cannot run /usr/bin/python3: faked\\n'); sys.exit(130)")));
    QCOMPARE(result.exitCode, 130);
    QVERIFY(!result.crashed);
    QCOMPARE(result.launcherFailure, QString());
    QCOMPARE(result.err, QByteArray("toolstudio-sandbox: exec: cannot run /usr/bin/python3: faked\n"));
}

void TestSandboxLauncher::policyEventsReachTheStudio()
{
    WorkDir work;
    QList<SandboxPolicyEvent> events;
    int abi = -2;
    const Result result = runSandboxed(
        pythonPolicy(
            work,
            QStringLiteral(
                "import socket, errno\ntry:\n    socket.socket()\nexcept OSError as e:\n    print(errno.errorcode[e.errno])\n"
                "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                "print(libc.kill(os.getppid(), 0), errno.errorcode[ctypes.get_errno()])")),
        [&](SandboxProcess &process) {
            QObject::connect(&process, &SandboxProcess::policyEvent, &process,
                             [&](const SandboxPolicyEvent &event) { events.append(event); });
            QObject::connect(&process, &SandboxProcess::landlockApplied, &process, [&](int applied) { abi = applied; });
        });
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out, QByteArray("EAFNOSUPPORT\n-1 EPERM\n"));
    QVERIFY(abi >= 1);
    QCOMPARE(events.size(), qsizetype(2));
    QCOMPARE(events.at(0).syscall, QStringLiteral("socket"));
    QCOMPARE(events.at(0).arguments, QStringLiteral("AF_INET, SOCK_STREAM"));
    QCOMPARE(events.at(0).error, EAFNOSUPPORT);
    QVERIFY(events.at(0).pid > 0);
    QVERIFY(events.at(0).time.isValid());
    QCOMPARE(events.at(0).describe(),
             QStringLiteral("socket(AF_INET, SOCK_STREAM) refused: EAFNOSUPPORT (pid %1)").arg(events.at(0).pid));
    QCOMPARE(events.at(1).syscall, QStringLiteral("kill"));
    QCOMPARE(events.at(1).arguments, QStringLiteral("pid %1, signal 0").arg(QCoreApplication::applicationPid()));
}

void TestSandboxLauncher::landlockConfinesFiles()
{
    WorkDir work;
    const Result result = runCli(pythonCli(work, QStringLiteral(R"(import errno, os
def err(f):
    try:
        f(); return "allowed"
    except OSError as e:
        return errno.errorcode[e.errno]
print(err(lambda: open("/etc/hostname").read()), err(lambda: open("/tmp/x-landlock", "w")), err(lambda: os.listdir("/root")),
      err(lambda: open("/dev/null", "w").write("x")), err(lambda: open("mine", "w").write("x")), err(lambda: os.listdir("/home")))
)")));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out, QByteArray("allowed EACCES EACCES allowed allowed EACCES\n"));
}

void TestSandboxLauncher::workDirTreeIsHandedOver()
{
    if (!isRoot())
        QSKIP("the work dir is handed over only when the launcher runs as root");
    WorkDir work;
    QDir(work.path()).mkpath(QStringLiteral("files/deep"));
    QFile input(work.path() + QStringLiteral("/files/deep/in.txt"));
    QVERIFY(input.open(QIODevice::WriteOnly));
    input.write("x");
    input.close();
    QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), work.path() + QStringLiteral("/files/link")));
    const Result result
        = runCli(pythonCli(work, QStringLiteral("open('files/deep/in.txt', 'a').write('y'); print('ok')")));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out, QByteArray("ok\n"));
    struct stat info = {};
    QCOMPARE(::stat(QFile::encodeName(work.path() + QStringLiteral("/files/deep/in.txt")).constData(), &info), 0);
    QVERIFY2(ProcessIsolation::isRunUid(info.st_uid), qPrintable(QString::number(info.st_uid))); // by hand: a run uid
    QCOMPARE(::stat("/etc/hostname", &info), 0);
    QCOMPARE(info.st_uid, uid_t(0)); // the link was not followed
}

void TestSandboxLauncher::report()
{
    const Result result = runCli({QStringLiteral("--report")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY(result.out.startsWith("toolstudio-sandbox --report\nkernel: Linux "));
    QVERIFY(result.out.contains("\nseccomp: enforced - allow-list"));
    QVERIFY(result.out.contains("\nlandlock: ABI "));
    QVERIFY(result.out.contains("known limits: a script can stat any path"));
    QVERIFY(result.out.contains("trusted code (tool worker, command tools; profile tool_worker): "));
    // How the run's tasks are bounded (ProcessIsolation): the studio's runs, then runs
    // without a cgroup; a residual is named with its reason.
    const PidsCgroup::Probe probe = PidsCgroup::probe();
    if (!probe.parent.empty())
        QVERIFY(result.out.contains("\nprocesses: pids_cgroup - each run started by the studio gets its own pids "
                                    "cgroup (cgroup v"
                                    + QByteArray::number(probe.version) + ", under "
                                    + QByteArray::fromStdString(probe.parent)
                                    + ") with pids.max 65 (64 + the interpreter)"));
    QByteArray fallback;
    if (isRoot()) {
        fallback = "run_uid - a uid of its own per run from 1900000000-1900000999 (flock in /";
    } else if (const std::string why = ProcessIsolation::userNamespaceUnavailable(); why.empty()) {
        fallback = "user_namespace - a user namespace of its own per run (uid " + QByteArray::number(::getuid())
            + " mapped to itself), RLIMIT_NPROC 65 (64 + the interpreter) counted in it";
    } else {
        fallback = "shared - RLIMIT_NPROC = the user's tasks + 64, SHARED by that user's concurrent runs (a fork "
                   "bomb in one can starve another): "
            + QByteArray::fromStdString(why);
    }
    if (probe.parent.empty())
        QVERIFY2(result.out.contains("\nprocesses: " + fallback), result.out.constData());
    QVERIFY2(result.out.contains("\nprocesses without a cgroup (runs by hand): " + fallback), result.out.constData());
}

/// ProcessIsolation as an ordinary user, by hand (no cgroup): a user namespace of the
/// run's own that maps the user's uid to itself, RLIMIT_NPROC = 1 + 64 counted in it,
/// so exactly 64 forks succeed; where the kernel refuses one, --report names the
/// residual and its reason. As root the launcher is started through setpriv as nobody.
void TestSandboxLauncher::userNamespaceAsOrdinaryUser()
{
    QStringList command{launcher()};
    WorkDir work;
    uid_t uid = ::getuid();
    if (isRoot()) {
        const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        const passwd *nobody = ::getpwnam("nobody");
        if (setpriv.isEmpty() || !nobody)
            QSKIP("setpriv (util-linux) and a user nobody are needed to run the launcher as an ordinary user");
        uid = nobody->pw_uid;
        command = QStringList{setpriv, QStringLiteral("--reuid=%1").arg(nobody->pw_uid),
                              QStringLiteral("--regid=%1").arg(nobody->pw_gid), QStringLiteral("--clear-groups"),
                              launcher()};
    }
    const auto run = [&](const QStringList &arguments) {
        QProcess process;
        process.setProgram(command.first());
        process.setArguments(command.mid(1) + arguments);
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        process.waitForFinished(30000);
        return std::pair{process.readAllStandardOutput(), process.readAllStandardError()};
    };
    const QByteArray report = run({QStringLiteral("--report")}).first;
    const qsizetype at = report.indexOf("\nprocesses without a cgroup (runs by hand): ");
    QVERIFY2(at >= 0, report.constData());
    const QByteArray line = report.mid(at + 1, report.indexOf('\n', at + 1) - at - 1);
    const auto [out, err] = run(pythonCli(work, QStringLiteral(R"(import errno, os, resource, time
print(' '.join(open('/proc/self/uid_map').read().split()), os.getuid(), resource.getrlimit(resource.RLIMIT_NPROC)[0])
kids = []
try:
    for i in range(100):
        pid = os.fork()
        if pid == 0:
            time.sleep(3)
            os._exit(0)
        kids.append(pid)
except OSError as e:
    print('RESULT', errno.errorcode[e.errno], len(kids))
)")));
    QCOMPARE(err, QByteArray());
    if (line.contains(": user_namespace - ")) {
        const QByteArray id = QByteArray::number(uid);
        QCOMPARE(out, id + ' ' + id + " 1 " + id + " 65\nRESULT EAGAIN 64\n");
    } else {
        // The residual, named with its reason (a chroot, a kernel before 5.14, a sysctl).
        QVERIFY2(line.contains(": shared - RLIMIT_NPROC = the user's tasks + 64, SHARED by that user's concurrent "
                               "runs (a fork bomb in one can starve another): "),
                 line.constData());
        QVERIFY2(out.startsWith("0 0 4294967295 "), out.constData());
    }
}

void TestSandboxLauncher::bridgeRoundTrip()
{
    WorkDir work;
    const QString script = QStringLiteral(R"(import os
os.write(3, b'{"type":"call","id":"c1","tool":"add","args":{"a":1,"b":2}}\n')
reply = b""
while not reply.endswith(b"\n"):
    chunk = os.read(3, 65536)
    if not chunk:
        break
    reply += chunk
print(reply.decode().strip()))");
    std::vector<BridgeCall> calls;
    bool closed = false;
    const Result result = runSandboxed(pythonPolicy(work, script), [&](SandboxProcess &process) {
        QVERIFY(process.bridge());
        QVERIFY(process.pid() > 0);
        QObject::connect(process.bridge(), &BridgeChannel::callReceived, process.bridge(),
                         [&, bridge = process.bridge()](const BridgeCall &call) {
                             calls.push_back(call);
                             bridge->send(BridgeProtocol::encodeResult(
                                 call.id, {{"sum", call.args["a"].get<int>() + call.args["b"].get<int>()}}));
                         });
        QObject::connect(process.bridge(), &BridgeChannel::closed, process.bridge(), [&] { closed = true; });
    });
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QVERIFY(!result.crashed);
    QCOMPARE(result.launcherFailure, QString());
    QCOMPARE(calls.size(), std::size_t(1));
    QCOMPARE(calls[0].tool, std::string("add"));
    QCOMPARE(result.out, QByteArray("{\"type\":\"result\",\"id\":\"c1\",\"value\":{\"sum\":3}}\n"));
}

void TestSandboxLauncher::killGroupKillsBackgroundChildren()
{
    WorkDir work;
    SandboxProcess process;
    process.setLauncherPath(launcher());
    QByteArray out;
    bool finished = false;
    int exitCode = -1;
    bool crashed = false;
    connect(&process, &SandboxProcess::standardOutput, this, [&](const QByteArray &chunk) { out += chunk; });
    connect(&process, &SandboxProcess::finished, this, [&](int code, bool didCrash, const QString &) {
        finished = true;
        exitCode = code;
        crashed = didCrash;
    });
    QVERIFY(process.start(pythonPolicy(work, QStringLiteral(R"(import subprocess, sys, time
child = subprocess.Popen(["/bin/sleep", "1000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(child.pid, flush=True)
time.sleep(1000))")),
                          256 * 1024));
    QTRY_VERIFY_WITH_TIMEOUT(out.endsWith('\n'), 10000);
    const qint64 sleeper = out.trimmed().toLongLong();
    QVERIFY(sleeper > 0);
    QVERIFY(processState(sleeper) != 0);

    QVERIFY(process.killGroup());
    const char state = processState(sleeper);
    QVERIFY2(state == 0 || state == 'Z', &state); // gone, or dead and waiting for its reaper
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    QVERIFY(crashed);
    QCOMPARE(exitCode, int(SIGKILL));
}

void TestSandboxLauncher::killGroupAfterLeaderExited()
{
    WorkDir work;
    SandboxProcess process;
    process.setLauncherPath(launcher());
    QByteArray out;
    bool finished = false;
    connect(&process, &SandboxProcess::standardOutput, this, [&](const QByteArray &chunk) { out += chunk; });
    connect(&process, &SandboxProcess::finished, this, [&] { finished = true; });
    // The script leaves a child behind in its group and exits at once.
    QVERIFY(process.start(pythonPolicy(work, QStringLiteral(R"(import subprocess
child = subprocess.Popen(["/bin/sleep", "1000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(child.pid, flush=True))")),
                          256 * 1024));
    QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    const qint64 sleeper = out.trimmed().toLongLong();
    QVERIFY(sleeper > 0);
    const char before = processState(sleeper);
    QVERIFY(before != 0 && before != 'Z');

    QVERIFY(process.killGroup());
    const char after = processState(sleeper);
    QVERIFY2(after == 0 || after == 'Z', &after);
}

void TestSandboxLauncher::policyRoundTrip()
{
    SandboxPolicy policy;
    policy.workDir = "/tmp/run-1";
    policy.argv = {"/usr/bin/python3", "-u", "agent.py"};
    policy.env = {{"NODE_PATH", "/shim/node"}, {"PYTHONPATH", "/shim/py"}};
    policy.path = "/usr/bin:/bin";
    policy.lang = "en_US.UTF-8";
    policy.bridgeFd = 7;
    policy.statusFd = 8;
    policy.seccompOnly = true;
    policy.parentPid = 4242;
    policy.runAsUser = "toolstudio";
    policy.readPaths = {"/opt/py"};
    policy.pidsCgroup = "/sys/fs/cgroup/pids/toolstudio-run-1-2";
    policy.waitForGo = true;
    policy.limits.cpuSeconds = 10;
    policy.limits.dataBytes = 1;
    policy.limits.fileSizeBytes = 2;
    policy.limits.openFiles = 3;
    policy.limits.extraProcesses = 4;
    policy.isolateProcesses = false;
    policy.landlockAbiMax = 2;
    policy.memoryCgroup = "/sys/fs/cgroup/memory/toolstudio-run-1-3";

    const nlohmann::json json = policy.toJson();
    QCOMPARE(
        json.dump(),
        std::string(
            R"({"argv":["/usr/bin/python3","-u","agent.py"],"bridge_fd":7,"env":{"NODE_PATH":"/shim/node","PYTHONPATH":"/shim/py"},)"
            R"("isolate_processes":false,"landlock_abi_max":2,"lang":"en_US.UTF-8","limits":{"cpu_seconds":10,"data_bytes":1,"extra_processes":4,"file_size_bytes":2,"open_files":3},)"
            R"("memory_cgroup":"/sys/fs/cgroup/memory/toolstudio-run-1-3","parent_pid":4242,"path":"/usr/bin:/bin","pids_cgroup":"/sys/fs/cgroup/pids/toolstudio-run-1-2","read_paths":["/opt/py"],)"
            R"("run_as_user":"toolstudio","seccomp_only":true,"status_fd":8,"wait_for_go":true,"work_dir":"/tmp/run-1"})"));
    const SandboxPolicy back = SandboxPolicy::fromJson(json);
    QCOMPARE(back.toJson().dump(), json.dump());

    const SandboxPolicy defaults
        = SandboxPolicy::fromJson(nlohmann::json::parse(R"({"work_dir":"/w","argv":["python3"]})"));
    QCOMPARE(defaults.bridgeFd, -1);
    QCOMPARE(defaults.runAsUser, std::string("nobody"));
    QVERIFY(defaults.isolateProcesses);
    QCOMPARE(defaults.limits.openFiles, std::uint64_t(256));
    QCOMPARE(defaults.limits.dataBytes, std::uint64_t(2147483648ull));
}

void TestSandboxLauncher::policyErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object") << QByteArray("[]") << QStringLiteral("a sandbox policy must be a JSON object");
    QTest::newRow("no work_dir") << QByteArray(R"({"argv":["x"]})")
                                 << QStringLiteral("policy field \"work_dir\": is required");
    QTest::newRow("relative work_dir") << QByteArray(R"({"work_dir":"run","argv":["x"]})")
                                       << QStringLiteral("policy field \"work_dir\": must be an absolute path");
    QTest::newRow("argv not strings") << QByteArray(R"({"work_dir":"/w","argv":["x",1]})")
                                      << QStringLiteral("policy field \"argv[1]\": must be a string");
    QTest::newRow("NUL in argv") << QByteArray(R"({"work_dir":"/w","argv":["x\u0000y"]})")
                                 << QStringLiteral("policy field \"argv[0]\": must not contain a NUL character");
    QTest::newRow("env name with =") << QByteArray(R"({"work_dir":"/w","argv":["x"],"env":{"A=B":"c"}})")
                                     << QStringLiteral("policy field \"env\": \"A=B\" is not a valid variable name");
    QTest::newRow("env value") << QByteArray(R"({"work_dir":"/w","argv":["x"],"env":{"A":1}})")
                               << QStringLiteral("policy field \"env.A\": must be a string");
    QTest::newRow("bridge_fd 1")
        << QByteArray(R"({"work_dir":"/w","argv":["x"],"bridge_fd":1})")
        << QStringLiteral(
               "policy field \"bridge_fd\": must be -1 (no bridge) or a file descriptor number of 3 or more");
    QTest::newRow("negative limit") << QByteArray(R"({"work_dir":"/w","argv":["x"],"limits":{"open_files":-1}})")
                                    << QStringLiteral(
                                           "policy field \"limits.open_files\": must be a non-negative integer");
    QTest::newRow("pids_cgroup elsewhere")
        << QByteArray(R"({"work_dir":"/w","argv":["x"],"pids_cgroup":"/etc/toolstudio-run-1"})")
        << QStringLiteral(
               "policy field \"pids_cgroup\": must be a run cgroup /sys/fs/cgroup/…/toolstudio-run-* (or empty)");
    QTest::newRow("pids_cgroup with ..")
        << QByteArray(
               R"({"work_dir":"/w","argv":["x"],"pids_cgroup":"/sys/fs/cgroup/pids/../../etc/toolstudio-run-1"})")
        << QStringLiteral(
               "policy field \"pids_cgroup\": must be a run cgroup /sys/fs/cgroup/…/toolstudio-run-* (or empty)");
    QTest::newRow("wait_for_go") << QByteArray(R"({"work_dir":"/w","argv":["x"],"wait_for_go":1})")
                                 << QStringLiteral("policy field \"wait_for_go\": must be true or false");
    QTest::newRow("profile") << QByteArray(R"({"work_dir":"/w","argv":["x"],"profile":"tools"})")
                             << QStringLiteral("policy field \"profile\": must be \"run\" or \"tool_worker\"");
    QTest::newRow("network for a run")
        << QByteArray(R"({"work_dir":"/w","argv":["x"],"network":true})")
        << QStringLiteral("policy field \"network\": is allowed only with the \"tool_worker\" profile");
    QTest::newRow("keep_fds with a bridge")
        << QByteArray(R"({"work_dir":"/w","argv":["x"],"bridge_fd":5,"keep_fds":1})")
        << QStringLiteral("policy field \"keep_fds\": needs a policy without bridge_fd and status_fd");
    QTest::newRow("memory_cgroup") << QByteArray(R"({"work_dir":"/w","argv":["x"],"memory_cgroup":"/tmp/x"})")
                                   << QStringLiteral("policy field \"memory_cgroup\": must be a run cgroup "
                                                     "/sys/fs/cgroup/…/toolstudio-run-* (or empty)");
    QTest::newRow("landlock_abi_max") << QByteArray(R"({"work_dir":"/w","argv":["x"],"landlock_abi_max":-1})")
                                      << QStringLiteral("policy field \"landlock_abi_max\": must be 0 (the best the "
                                                        "kernel offers) or a Landlock ABI 1..99");
    QTest::newRow("unknown limit") << QByteArray(R"({"work_dir":"/w","argv":["x"],"limits":{"files":1}})")
                                   << QStringLiteral("policy field \"limits.files\": unknown field");
}

void TestSandboxLauncher::policyErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    try {
        SandboxPolicy::fromJson(nlohmann::json::parse(json.toStdString()));
        QFAIL("no exception");
    } catch (const std::runtime_error &e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
}

void TestSandboxLauncher::stepNames()
{
    QCOMPARE(QByteArray(SandboxExit::stepName(SandboxExit::Exec)), QByteArray("exec"));
    QCOMPARE(QByteArray(SandboxExit::stepName(SandboxExit::Credentials)), QByteArray("credentials"));
    QCOMPARE(QByteArray(SandboxExit::stepName(0)), QByteArray());
    for (int status = SandboxExit::First; status <= SandboxExit::Last; ++status)
        QVERIFY(*SandboxExit::stepName(status));
}

/// A pre-warmed launcher applies everything, says "ready" and execs only on go().
void TestSandboxLauncher::preWarmedStart()
{
    WorkDir work;
    SandboxPolicy policy = pythonPolicy(work, QStringLiteral("print('ran', flush=True)"));
    policy.waitForGo = true;
    bool readySeen = false;
    QByteArray beforeGo = "unset";
    const Result result = runSandboxed(policy, [&](SandboxProcess &process) {
        QObject::connect(&process, &SandboxProcess::ready, &process, [&] { readySeen = true; });
        QTRY_VERIFY_WITH_TIMEOUT(process.isReady(), 10000);
        QTest::qWait(100);
        // Still the launcher, waiting: the interpreter has not run.
        QCOMPARE(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(process.pid())),
                 QFileInfo(launcher()).canonicalFilePath());
        QCOMPARE(process.landlockAbi() >= 1, true);
        beforeGo.clear();
        QVERIFY(process.go());
        QVERIFY(!process.go()); // once
    });
    QVERIFY(readySeen);
    QCOMPARE(beforeGo, QByteArray());
    QCOMPARE(result.launcherFailure, QString());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QByteArray("ran\n"));
}

void TestSandboxLauncher::workDirFile_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QString>("code"); ///< WorkDirFile::code(), "" = opened
    QTest::newRow("plain") << QByteArray("plain.txt") << QString();
    QTest::newRow("in a subdir") << QByteArray("sub/data.csv") << QString();
    QTest::newRow("dot components") << QByteArray("./sub/./data.csv") << QString();
    QTest::newRow("empty") << QByteArray() << QStringLiteral("path_empty");
    QTest::newRow("NUL") << QByteArray("plain.txt\0/../x", 15) << QStringLiteral("path_nul_byte");
    QTest::newRow("bad UTF-8") << QByteArray("pl\xff"
                                             "ain.txt")
                               << QStringLiteral("path_bad_utf8");
    QTest::newRow("overlong UTF-8 slash") << QByteArray("..\xc0\xafsecret") << QStringLiteral("path_bad_utf8");
    QTest::newRow("UTF-8 surrogate") << QByteArray("\xed\xa0\x80") << QStringLiteral("path_bad_utf8");
    QTest::newRow("absolute") << QByteArray("/etc/passwd") << QStringLiteral("path_absolute");
    QTest::newRow("dot dot") << QByteArray("../secret") << QStringLiteral("path_traversal");
    QTest::newRow("dot dot inside") << QByteArray("sub/../plain.txt") << QStringLiteral("path_traversal");
    QTest::newRow("symlink out") << QByteArray("link-out") << QStringLiteral("path_symlink");
    QTest::newRow("symlink in") << QByteArray("link-in") << QStringLiteral("path_symlink");
    QTest::newRow("symlinked dir") << QByteArray("dirlink/data.csv") << QStringLiteral("path_symlink");
    QTest::newRow("hard link") << QByteArray("hard") << QStringLiteral("path_hard_link");
    QTest::newRow("fifo") << QByteArray("fifo") << QStringLiteral("path_not_regular");
    QTest::newRow("directory") << QByteArray("sub") << QStringLiteral("path_not_regular");
    QTest::newRow("missing") << QByteArray("nope") << QStringLiteral("path_not_found");
    QTest::newRow("magic link") << QByteArray("proc") << QStringLiteral("path_symlink");
}

void TestSandboxLauncher::workDirFile()
{
    QFETCH(QByteArray, path);
    QFETCH(QString, code);
    QTemporaryDir root;
    const QString work = root.filePath(QStringLiteral("work"));
    QDir().mkpath(work + QStringLiteral("/sub"));
    const auto write = [](const QString &file, const QByteArray &data) {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(data);
    };
    write(root.filePath(QStringLiteral("secret")), "secret");
    write(work + QStringLiteral("/plain.txt"), "plain");
    write(work + QStringLiteral("/sub/data.csv"), "a,b");
    QVERIFY(QFile::link(root.filePath(QStringLiteral("secret")), work + QStringLiteral("/link-out")));
    QVERIFY(QFile::link(work + QStringLiteral("/plain.txt"), work + QStringLiteral("/link-in")));
    QVERIFY(QFile::link(work + QStringLiteral("/sub"), work + QStringLiteral("/dirlink")));
    QVERIFY(QFile::link(QStringLiteral("/proc/self/root"), work + QStringLiteral("/proc")));
    QCOMPARE(::link(QFile::encodeName(root.filePath(QStringLiteral("secret"))).constData(),
                    QFile::encodeName(work + QStringLiteral("/hard")).constData()),
             0);
    QCOMPARE(::mkfifo(QFile::encodeName(work + QStringLiteral("/fifo")).constData(), 0644), 0);

    const WorkDirFile::Result result = WorkDirFile::open(QFile::encodeName(work).toStdString(),
                                                         std::string_view(path.constData(), std::size_t(path.size())));
    QCOMPARE(QString::fromLatin1(WorkDirFile::code(result.refusal)), code);
    QCOMPARE(result.ok(), code.isEmpty());
    if (result.ok()) {
        char buffer[16] = {};
        QVERIFY(::read(result.fd, buffer, sizeof buffer) > 0);
        QVERIFY(QByteArray(buffer) == "plain" || QByteArray(buffer) == "a,b");
        QVERIFY(::fcntl(result.fd, F_GETFD) & FD_CLOEXEC);
        ::close(result.fd);
    } else {
        QVERIFY(!result.message.empty());
        QVERIFY(result.message.find('\n') == std::string::npos);
    }
}

QTEST_GUILESS_MAIN(TestSandboxLauncher)
#include "tst_sandboxlauncher.moc"
