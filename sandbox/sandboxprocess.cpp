// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandboxprocess.h"

#include "bridgechannel.h"
#include "outputpipes.h"
#include "pidscgroup.h"
#include "procfs.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace {

/// The launcher's failure line starts with this (LaunchSequence::exitWith).
constexpr char LauncherPrefix[] = "toolstudio-sandbox: ";
/// Longest status message the launcher sends (a failure reason is one line).
constexpr std::size_t StatusMessageBytes = 8192;

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/// A memfd holding `json`, read-only (0400), sealed against any change and positioned
/// at its start; close-on-exec (the launcher's fork clears that). -1 with errno set.
int writePolicyFd(const QByteArray &json)
{
    const int fd = ::memfd_create("toolstudio-policy", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    qsizetype done = 0;
    while (done < json.size()) {
        const ssize_t n = ::write(fd, json.constData() + done, std::size_t(json.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += n;
    }
    if (done != json.size() || ::fchmod(fd, 0400) != 0
        || ::fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0
        || ::lseek(fd, 0, SEEK_SET) != 0) {
        const int error = errno ? errno : EIO;
        ::close(fd);
        errno = error;
        return -1;
    }
    return fd;
}

/// True when a process of group `group` is still running (Procfs: zombies do not count).
bool groupHasLiveMembers(pid_t group)
{
    return Procfs::groupHasLiveMembers(group).value_or(true); // cannot tell: assume the worst
}

} // namespace

SandboxProcess::SandboxProcess(QObject *parent)
    : QObject(parent)
    , m_launcherPath(defaultLauncherPath())
{
    // The conditions of a root without cgroups (a fresh chroot) on demand: runs get no
    // pids or memory cgroup, so the launcher's fallbacks (a run uid as root) are in force.
    if (qEnvironmentVariable("TOOLSTUDIO_CGROUPS") == QLatin1String("0")) {
        m_pidsCgroupAllowed = false;
        m_cgroupsOffReason = "switched off (TOOLSTUDIO_CGROUPS=0)";
    }
}

SandboxProcess::~SandboxProcess()
{
    closeStatus();
    if (m_process) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            killGroup();
            m_process->waitForFinished(2000);
        }
    }
    if (!m_liveCgroup.empty() || !m_liveMemoryCgroup.empty()) {
        if (!m_liveCgroup.empty())
            PidsCgroup::killAll(m_liveCgroup);
        if (!m_liveMemoryCgroup.empty())
            PidsCgroup::killAll(m_liveMemoryCgroup);
        releaseCgroup();
    }
}

SandboxProcess::MemoryLimit SandboxProcess::memoryLimit() const
{
    return m_memoryLimit;
}

SandboxProcess::ProcessLimit SandboxProcess::processLimit() const
{
    return m_processLimit;
}

void SandboxProcess::setPidsCgroupAllowed(bool allowed)
{
    m_pidsCgroupAllowed = allowed;
    m_cgroupsOffReason = "switched off for this run";
}

void SandboxProcess::setProcessIsolationAllowed(bool allowed)
{
    m_processIsolationAllowed = allowed;
}

void SandboxProcess::releaseCgroup()
{
    // Only once the launcher has been reaped: until then its zombie keeps the cgroup busy.
    if ((m_liveCgroup.empty() && m_liveMemoryCgroup.empty())
        || (m_process && m_process->state() != QProcess::NotRunning))
        return;
    // The memory bound's verdict, before its cgroup goes.
    const std::string memory = m_liveMemoryCgroup.empty() ? m_liveCgroup : m_liveMemoryCgroup;
    if (m_memoryLimit.mechanism == QLatin1String("memory_cgroup") && !memory.empty())
        m_memoryLimit.oomKills = PidsCgroup::oomKills(memory);
    for (std::string *cgroup : {&m_liveCgroup, &m_liveMemoryCgroup}) {
        std::string error;
        if (cgroup->empty() || PidsCgroup::remove(*cgroup, &error))
            cgroup->clear();
        else
            qWarning("%s", error.c_str());
    }
}

void SandboxProcess::startMemoryCgroup(SandboxPolicy &policy)
{
    // The run's memory bound (issue 16 class 4): all its tasks together, in the
    // memory controller — in the run's one cgroup on v2, a cgroup of its own in the
    // v1 memory hierarchy. Without one, RLIMIT_DATA bounds each process alone.
    m_memoryLimit = {};
    m_memoryLimit.bytes = policy.limits.dataBytes;
    m_memoryLimit.mechanism = QStringLiteral("per_process");
    if (policy.limits.dataBytes == 0)
        return;
    static const PidsCgroup::Probe probe = PidsCgroup::probe("memory");
    std::string why = m_pidsCgroupAllowed ? probe.why : m_cgroupsOffReason;
    const std::string bytes = std::to_string(policy.limits.dataBytes);
    std::string cgroup;
    if (!m_pidsCgroupAllowed) {
    } else if (probe.version == 2 && m_processLimit.cgroupVersion == 2 && !m_liveCgroup.empty()) {
        // The same cgroup as the pids bound; no swap beyond the bound.
        if (PidsCgroup::setLimit(m_liveCgroup, "memory.max", bytes, &why)) {
            cgroup = m_liveCgroup;
            std::string ignored;
            PidsCgroup::setLimit(m_liveCgroup, "memory.swap.max", "0", &ignored);
        }
    } else if (probe.version == 1) {
        cgroup = PidsCgroup::create(probe, "memory.limit_in_bytes", bytes, &why);
        if (!cgroup.empty()) {
            std::string ignored; // memsw exists only with swap accounting
            PidsCgroup::setLimit(cgroup, "memory.memsw.limit_in_bytes", bytes, &ignored);
            m_liveMemoryCgroup = cgroup;
            policy.memoryCgroup = cgroup;
        }
    } else if (probe.version == 2) {
        why = "cgroup v2 memory controller without the run's pids cgroup";
    }
    if (cgroup.empty()) {
        m_memoryLimit.reason = QString::fromStdString(why);
        return;
    }
    m_memoryLimit.mechanism = QStringLiteral("memory_cgroup");
    m_memoryLimit.cgroup = QString::fromStdString(cgroup);
}

QString SandboxProcess::defaultLauncherPath()
{
    const QString name = QStringLiteral("toolstudio-sandbox");
    if (QCoreApplication::instance()) {
        const QString besideApp = QCoreApplication::applicationDirPath() + QLatin1Char('/') + name;
        if (QFileInfo(besideApp).isExecutable())
            return besideApp;
    }
    const QString fromEnvironment = qEnvironmentVariable("TOOLSTUDIO_SANDBOX");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QStandardPaths::findExecutable(name);
}

void SandboxProcess::setLauncherPath(const QString &path)
{
    m_launcherPath = path;
}

BridgeChannel *SandboxProcess::bridge() const
{
    return m_bridge;
}

std::pair<int, int> SandboxProcess::releaseOutputFds()
{
    if (!m_output)
        return {-1, -1};
    const std::pair<int, int> fds = m_output->releaseFds();
    delete m_output;
    m_output = nullptr;
    return fds;
}

qint64 SandboxProcess::pid() const
{
    return m_pid;
}

int SandboxProcess::landlockAbi() const
{
    return m_landlockAbi;
}

bool SandboxProcess::isReady() const
{
    return m_ready;
}

bool SandboxProcess::waitForReady(int msecs)
{
    const QDeadlineTimer deadline(msecs);
    while (!m_ready && m_statusFd >= 0 && isRunning()) {
        pollfd entry = {m_statusFd, POLLIN, 0};
        const int rc = ::poll(&entry, 1, int(deadline.remainingTime()));
        if (rc == -1 && errno == EINTR)
            continue;
        if (rc <= 0)
            break;
        readStatus();
    }
    return m_ready;
}

bool SandboxProcess::go(const SandboxGo &handover)
{
    if (!m_ready || m_statusFd < 0)
        return false;
    std::string message = "go";
    if (!handover.workDir.empty() || !handover.argv.empty() || !handover.env.empty())
        message += " " + handover.toJson().dump();
    if (message.size() > SandboxGo::MaxBytes)
        return false;
    m_ready = false;
    m_going = false;
    if (::send(m_statusFd, message.data(), message.size(), MSG_NOSIGNAL) != ssize_t(message.size()))
        return false;
    // The launcher checks that nothing reached it while it waited (its nice value, its
    // work dir's mode) and confirms with "going"; a failure there (or nothing within
    // GoWaitMs) makes the caller start the run cold.
    const QDeadlineTimer deadline(GoWaitMs);
    while (!m_going && m_statusFd >= 0 && m_launcherFailure.isEmpty() && !deadline.hasExpired()) {
        pollfd entry = {m_statusFd, POLLIN, 0};
        const int rc = ::poll(&entry, 1, int(deadline.remainingTime()));
        if (rc == -1 && errno == EINTR)
            continue;
        if (rc <= 0)
            break;
        readStatus();
    }
    return m_going;
}

bool SandboxProcess::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool SandboxProcess::start(SandboxPolicy policy, std::size_t maxLineBytes, QString *error)
{
    const auto failed = [error](const QString &reason) {
        if (error)
            *error = reason;
        return false;
    };
    if (isRunning())
        return failed(tr("the sandbox is already running"));
    if (m_launcherPath.isEmpty())
        return failed(tr("the sandbox launcher toolstudio-sandbox was not found; reinstall Tool Studio or set "
                         "TOOLSTUDIO_SANDBOX"));

    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == -1)
        return failed(tr("cannot create the tools bridge (socketpair): %1").arg(errnoText(errno)));
    const int studioEnd = pair[0];
    const int childEnd = pair[1];
    // The launcher's status channel: its failure reason, the Landlock ABI and the
    // policy-event listener (SCM_RIGHTS). Close-on-exec in the launcher, so a
    // successful execve closes it and the script never holds it.
    int status[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, status) == -1) {
        const int error = errno;
        ::close(studioEnd);
        ::close(childEnd);
        return failed(tr("cannot create the sandbox status channel (socketpair): %1").arg(errnoText(error)));
    }
    const int childStatus = status[1];
    policy.bridgeFd = childEnd;
    policy.statusFd = childStatus;
    policy.parentPid = QCoreApplication::applicationPid();
    m_workDir = QString::fromStdString(policy.workDir);

    // The run's own pids cgroup, so its tasks do not count against other runs'
    // budget; without one the launcher falls back to RLIMIT_NPROC.
    releaseCgroup();
    m_processLimit = {};
    m_processLimit.maxTasks = policy.limits.extraProcesses;
    if (policy.limits.extraProcesses != 0) {
        static const PidsCgroup::Probe probe = PidsCgroup::probe();
        std::string why = m_pidsCgroupAllowed ? probe.why : m_cgroupsOffReason;
        const std::string cgroup
            = m_pidsCgroupAllowed ? PidsCgroup::create(probe, policy.limits.extraProcesses + 1, &why) : std::string();
        if (!cgroup.empty()) {
            m_processLimit.cgroup = QString::fromStdString(cgroup);
            m_liveCgroup = cgroup;
            m_processLimit.cgroupVersion = probe.version;
            m_processLimit.maxTasks = policy.limits.extraProcesses + 1;
        } else {
            m_processLimit.fallbackReason = QString::fromStdString(why);
        }
        policy.pidsCgroup = cgroup;
    }
    startMemoryCgroup(policy);
    if (!m_processIsolationAllowed)
        policy.isolateProcesses = false;
    // The script's stdout and stderr: pipes of our own instead of QProcess's, so that
    // their read ends can move to the thread that serves the script's calls
    // (releaseOutputFds()). Close-on-exec here; the child's fds 1 and 2 are dups.
    int out[2] = {-1, -1};
    int err[2] = {-1, -1};
    if (::pipe2(out, O_CLOEXEC) == -1 || ::pipe2(err, O_CLOEXEC) == -1) {
        const int error = errno;
        for (int fd : {studioEnd, childEnd, status[0], childStatus, out[0], out[1]})
            if (fd >= 0)
                ::close(fd);
        return failed(tr("cannot create the script's output pipes: %1").arg(errnoText(error)));
    }
    const auto closeAll = [&] {
        for (int fd : {studioEnd, childEnd, status[0], childStatus, out[0], out[1], err[0], err[1]})
            ::close(fd);
    };

    // The policy as an inherited fd: a memfd only this process and the launcher hold,
    // read-only and sealed, so nobody can substitute or change it (issue 16, class 1).
    const int policyFd = writePolicyFd(QByteArray::fromStdString(policy.toJson().dump(2)) + '\n');
    if (policyFd < 0) {
        const int error = errno;
        closeAll();
        return failed(tr("cannot hand the sandbox policy to the launcher (memfd): %1").arg(errnoText(error)));
    }

    delete m_process;
    delete m_bridge;
    m_bridge = nullptr;
    delete m_output;
    m_output = nullptr;
    closeStatus();
    delete m_listener;
    m_listener = nullptr;
    m_launcherFailure.clear();
    m_landlockAbi = -1;
    m_ready = false;
    m_pid = 0;

    m_process = new QProcess(this);
    m_process->setProgram(m_launcherPath);
    m_process->setArguments({QStringLiteral("--status-fd"), QString::number(childStatus), QStringLiteral("--policy-fd"),
                             QString::number(policyFd)});
    m_process->setStandardInputFile(QProcess::nullDevice());
    // QProcess opens no pipes of its own: the modifier puts ours on fds 1 and 2.
    m_process->setStandardOutputFile(QProcess::nullDevice());
    m_process->setStandardErrorFile(QProcess::nullDevice());
    // The child end is close-on-exec in the studio (no other child may inherit it);
    // only in this fork is the flag cleared, so it survives the exec of the launcher,
    // which moves it to fd 3. The output pipes' write ends become fds 1 and 2. The
    // modifier runs after QProcess set up the standard fds, between fork and exec:
    // async-signal-safe calls only.
    const int outWrite = out[1];
    const int errWrite = err[1];
    m_process->setChildProcessModifier([childEnd, childStatus, policyFd, outWrite, errWrite] {
        for (int fd : {childEnd, childStatus, policyFd}) {
            const int flags = ::fcntl(fd, F_GETFD);
            if (flags != -1)
                ::fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
        }
        const int targets[2][2] = {{outWrite, STDOUT_FILENO}, {errWrite, STDERR_FILENO}};
        for (const auto &[from, to] : targets) {
            if (from == to)
                ::fcntl(to, F_SETFD, 0);
            else
                ::dup2(from, to);
        }
    });
    connect(m_process, &QProcess::finished, this, &SandboxProcess::onFinished);

    m_process->start();
    ::close(policyFd);
    ::close(childEnd); // the child has its copy (or failed to start)
    ::close(childStatus);
    ::close(out[1]);
    ::close(err[1]);
    if (!m_process->waitForStarted()) {
        const QString reason = m_process->errorString();
        ::close(studioEnd);
        ::close(status[0]);
        ::close(out[0]);
        ::close(err[0]);
        releaseCgroup();
        return failed(tr("cannot start the sandbox launcher %1: %2").arg(m_launcherPath, reason));
    }
    m_output = new OutputPipes(out[0], err[0], this);
    connect(m_output, &OutputPipes::output, this, [this](int stream, const QByteArray &chunk) {
        if (stream == OutputPipes::Stdout)
            Q_EMIT standardOutput(chunk);
        else
            Q_EMIT standardError(chunk);
    });
    m_statusFd = status[0];
    m_statusNotifier = new QSocketNotifier(qintptr(m_statusFd), QSocketNotifier::Read, this);
    connect(m_statusNotifier, &QSocketNotifier::activated, this, &SandboxProcess::readStatus);
    m_pid = m_process->processId();
    m_bridge = new BridgeChannel(studioEnd, maxLineBytes, this);
    return true;
}

void SandboxProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    // Whatever is still in the pipes goes out before the end is reported (unless their
    // owner took them: releaseOutputFds()).
    if (m_output)
        m_output->drain();

    // The launcher wrote its failure (if any) before it exited: it is in the socket.
    readStatus();
    const bool crashed = status == QProcess::CrashExit;
    // A script may exit with the same statuses and print the same line: only what the
    // launcher said on its status channel counts.
    const QString launcherFailure = crashed ? QString() : m_launcherFailure;
    // The refusals still queued, then the counts of those not recorded one by one
    // (issue 16), before the end is reported.
    if (m_listener) {
        m_listener->drain();
        m_listener->flushSummaries();
    }
    Q_EMIT finished(exitCode, crashed, launcherFailure);
    if (!m_liveCgroup.empty() && PidsCgroup::members(m_liveCgroup).empty())
        releaseCgroup();
}

void SandboxProcess::readStatus()
{
    while (m_statusFd >= 0) {
        char buffer[StatusMessageBytes];
        iovec part = {buffer, sizeof buffer};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)];
        msghdr header = {};
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        header.msg_control = control;
        header.msg_controllen = sizeof control;
        const ssize_t n = ::recvmsg(m_statusFd, &header, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (n == -1 && errno == EINTR)
            continue;
        if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        // Any fds that came along: only the listener message may carry one.
        QList<int> fds;
        for (cmsghdr *cmsg = CMSG_FIRSTHDR(&header); n > 0 && cmsg; cmsg = CMSG_NXTHDR(&header, cmsg)) {
            if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
                continue;
            const std::size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (std::size_t i = 0; i < count; ++i) {
                int fd = -1;
                std::memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
                fds.append(fd);
            }
        }
        if (n <= 0) { // EOF: execve succeeded (or the launcher is gone)
            closeStatus();
            return;
        }
        const QByteArray message(buffer, qsizetype(n));
        if (message == "listener" && fds.size() == 1 && !m_listener) {
            m_listener = new PolicyListener(fds.takeFirst(), this);
            m_listener->setWorkDir(m_workDir);
            connect(m_listener, &PolicyListener::policyEvent, this, &SandboxProcess::policyEvent);
            m_listener->drain();
        } else if (message == "going") {
            m_going = true;
        } else if (message == "ready") {
            m_ready = true;
            Q_EMIT ready();
        } else if (message.startsWith("processes ")) {
            // "processes <mechanism> <max tasks> [<why shared>]"
            const QList<QByteArray> words = message.mid(10).split(' ');
            m_processLimit.mechanism = QString::fromUtf8(words.value(0));
            if (words.size() > 1 && m_processLimit.mechanism != QLatin1String("pids_cgroup"))
                m_processLimit.maxTasks = words.value(1).toULongLong();
            const qsizetype note = message.indexOf(' ', 10 + words.value(0).size() + 1);
            m_processLimit.sharedReason = note > 0 ? QString::fromUtf8(message.mid(note + 1)) : QString();
        } else if (message.startsWith("landlock ")) {
            m_landlockAbi = message.mid(9).toInt();
            Q_EMIT landlockApplied(m_landlockAbi);
        } else if (message.startsWith("failure ")) {
            const qsizetype space = message.indexOf(' ', 8);
            if (space > 0)
                m_launcherFailure = QString::fromUtf8(LauncherPrefix + message.mid(space + 1));
        }
        for (int fd : std::as_const(fds))
            ::close(fd);
    }
}

void SandboxProcess::closeStatus()
{
    delete m_statusNotifier;
    m_statusNotifier = nullptr;
    if (m_statusFd >= 0)
        ::close(m_statusFd);
    m_statusFd = -1;
}

bool SandboxProcess::killGroup()
{
    if (m_pid <= 0)
        return true;
    const pid_t group = pid_t(m_pid);
    // Every task of the run's cgroup first (none can leave it), then the group.
    if (!m_liveCgroup.empty() && !PidsCgroup::killAll(m_liveCgroup))
        return false;
    if (!m_liveMemoryCgroup.empty() && !PidsCgroup::killAll(m_liveMemoryCgroup))
        return false;
    // The child leads its own process group (setsid in the launcher), so -pid reaches
    // every process it started that did not escape the group, also after it exited.
    const auto gone = [this] {
        releaseCgroup();
        return true;
    };
    if (::kill(-group, SIGKILL) == -1 && errno == ESRCH)
        return gone();
    const QDeadlineTimer deadline(1000);
    for (;;) {
        if (::kill(-group, 0) == -1 && errno == ESRCH)
            return gone();
        if (!groupHasLiveMembers(group))
            return gone();
        if (deadline.hasExpired())
            return false;
        ::kill(-group, SIGKILL); // a member may have forked while the first one landed
        QThread::msleep(5);
    }
}
