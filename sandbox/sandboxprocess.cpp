// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandboxprocess.h"

#include "bridgechannel.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

/// The launcher's failure line starts with this (LaunchSequence::exitWith).
constexpr char LauncherPrefix[] = "toolstudio-sandbox: ";
/// Enough of stderr to hold the launcher's one line.
constexpr qsizetype StderrHeadBytes = 4096;

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/// True when a process of group `group` is still running (zombies do not count: they
/// cannot act, and the leader's is reaped only when QProcess gets to it).
bool groupHasLiveMembers(pid_t group)
{
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return true; // cannot tell: assume the worst
    bool live = false;
    while (const dirent *entry = ::readdir(proc)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(QString::fromLatin1(entry->d_name)));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid pgrp ...": comm may contain anything, so parse after
        // the last ')'.
        const QByteArray line = stat.readAll();
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() < 3 || fields.at(2).toLongLong() != group)
            continue;
        const char state = fields.at(0).isEmpty() ? '?' : fields.at(0).at(0);
        if (state != 'Z' && state != 'X') {
            live = true;
            break;
        }
    }
    ::closedir(proc);
    return live;
}

} // namespace

SandboxProcess::SandboxProcess(QObject *parent)
    : QObject(parent)
    , m_launcherPath(defaultLauncherPath())
{
}

SandboxProcess::~SandboxProcess()
{
    if (m_process) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            killGroup();
            m_process->waitForFinished(2000);
        }
    }
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

qint64 SandboxProcess::pid() const
{
    return m_pid;
}

bool SandboxProcess::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool SandboxProcess::start(SandboxPolicy policy, const QString &policyFile, std::size_t maxLineBytes, QString *error)
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
    policy.bridgeFd = childEnd;
    policy.parentPid = QCoreApplication::applicationPid();

    QFile file(policyFile);
    const QByteArray json = QByteArray::fromStdString(policy.toJson().dump(2)) + '\n';
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(json) != json.size()
        || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther)) {
        const QString reason = file.errorString();
        ::close(studioEnd);
        ::close(childEnd);
        return failed(tr("cannot write the sandbox policy %1: %2").arg(policyFile, reason));
    }
    file.close();

    delete m_process;
    delete m_bridge;
    m_bridge = nullptr;
    m_stderrHead.clear();
    m_pid = 0;

    m_process = new QProcess(this);
    m_process->setProgram(m_launcherPath);
    m_process->setArguments({QStringLiteral("--policy"), policyFile});
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process->setStandardInputFile(QProcess::nullDevice());
    // The child end is close-on-exec in the studio (no other child may inherit it);
    // only in this fork is the flag cleared, so it survives the exec of the launcher,
    // which moves it to fd 3. Runs between fork and exec: async-signal-safe calls only.
    m_process->setChildProcessModifier([childEnd] {
        const int flags = ::fcntl(childEnd, F_GETFD);
        if (flags != -1)
            ::fcntl(childEnd, F_SETFD, flags & ~FD_CLOEXEC);
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] {
        const QByteArray chunk = m_process->readAllStandardOutput();
        if (!chunk.isEmpty())
            Q_EMIT standardOutput(chunk);
    });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        const QByteArray chunk = m_process->readAllStandardError();
        if (m_stderrHead.size() < StderrHeadBytes)
            m_stderrHead += chunk.left(StderrHeadBytes - m_stderrHead.size());
        if (!chunk.isEmpty())
            Q_EMIT standardError(chunk);
    });
    connect(m_process, &QProcess::finished, this, &SandboxProcess::onFinished);

    m_process->start();
    ::close(childEnd); // the child has its copy (or failed to start)
    if (!m_process->waitForStarted()) {
        const QString reason = m_process->errorString();
        ::close(studioEnd);
        return failed(tr("cannot start the sandbox launcher %1: %2").arg(m_launcherPath, reason));
    }
    m_pid = m_process->processId();
    m_bridge = new BridgeChannel(studioEnd, maxLineBytes, this);
    return true;
}

void SandboxProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    // Whatever is still buffered goes out before the end is reported.
    if (const QByteArray out = m_process->readAllStandardOutput(); !out.isEmpty())
        Q_EMIT standardOutput(out);
    if (const QByteArray err = m_process->readAllStandardError(); !err.isEmpty()) {
        if (m_stderrHead.size() < StderrHeadBytes)
            m_stderrHead += err.left(StderrHeadBytes - m_stderrHead.size());
        Q_EMIT standardError(err);
    }

    const bool crashed = status == QProcess::CrashExit;
    QString launcherFailure;
    // A script may exit with the same statuses: only the launcher's own line counts.
    if (!crashed && exitCode >= SandboxExit::First && exitCode <= SandboxExit::Last
        && m_stderrHead.startsWith(LauncherPrefix)) {
        const qsizetype end = m_stderrHead.indexOf('\n');
        launcherFailure = QString::fromUtf8(end < 0 ? m_stderrHead : m_stderrHead.left(end));
    }
    Q_EMIT finished(exitCode, crashed, launcherFailure);
}

bool SandboxProcess::killGroup()
{
    if (m_pid <= 0)
        return true;
    const pid_t group = pid_t(m_pid);
    // The child leads its own process group (setsid in the launcher), so -pid reaches
    // every process it started that did not escape the group, also after it exited.
    if (::kill(-group, SIGKILL) == -1 && errno == ESRCH)
        return true;
    const QDeadlineTimer deadline(1000);
    for (;;) {
        if (::kill(-group, 0) == -1 && errno == ESRCH)
            return true;
        if (!groupHasLiveMembers(group))
            return true;
        if (deadline.hasExpired())
            return false;
        ::kill(-group, SIGKILL); // a member may have forked while the first one landed
        QThread::msleep(5);
    }
}
