// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpnpxinstall.h"

#include "project/printabletext.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

#include <cerrno>
#include <cstring>

#include <csignal>

#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

McpNpxInstall::McpNpxInstall(McpNpxPackage package, QObject *parent)
    : QObject(parent)
    , m_package(std::move(package))
{}

McpNpxInstall::~McpNpxInstall()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        killGroup();
        m_process->waitForFinished(2000);
    }
    if (!m_partDir.isEmpty())
        QDir(m_partDir).removeRecursively();
}

void McpNpxInstall::start()
{
    const QString npm = QStandardPaths::findExecutable(QStringLiteral("npm"));
    if (npm.isEmpty())
        return fail(QStringLiteral("npm is not installed, so npx package \"%1\" cannot be installed (Debian: apt "
                                   "install npm)")
                        .arg(m_package.spec()));
    const QString root = McpNpxPackage::cacheRoot();
    if (!QDir().mkpath(root))
        return fail(QStringLiteral("cannot create %1 for npx packages").arg(root));
    ::chmod(QFile::encodeName(root).constData(), 0755);
    sweepStaleParts();
    m_partDir = QStringLiteral("%1.part-%2-%3")
                    .arg(m_package.installDir())
                    .arg(::getpid())
                    .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    if (!QDir().mkpath(m_partDir)) {
        m_partDir.clear();
        return fail(QStringLiteral("cannot create a folder in %1 for npx packages").arg(root));
    }
    // Nobody else reads it while npm works in it; the install is made readable when it lands.
    ::chmod(QFile::encodeName(m_partDir).constData(), 0700);
    const QStringList command = m_package.installCommand(m_partDir);
    m_process = new QProcess(this);
    m_process->setProgram(npm);
    m_process->setArguments(command.mid(1));
    m_process->setWorkingDirectory(m_partDir);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardInputFile(QProcess::nullDevice());
    m_process->setChildProcessModifier([] {
        ::umask(022);
        ::setpgid(0, 0);                             // npm and what it starts: one group, killed together
        ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); // and never outliving the studio (attack32 F6)
    });
    connect(m_process, &QProcess::readyRead, this, [this] {
        m_output += m_process->readAll();
        if (m_output.size() > 2 * OutputTailBytes)
            m_output = m_output.right(OutputTailBytes);
    });
    connect(m_process, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus status) { onFinished(exitCode, status == QProcess::CrashExit); });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(QStringLiteral("npm could not be started: %1").arg(m_process->errorString()));
    });
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        m_process->disconnect(this);
        killGroup();
        fail(QStringLiteral("npm install %1 did not finish within %2 s")
                 .arg(m_package.spec())
                 .arg(McpNpxPackage::InstallTimeoutSeconds));
    });
    m_timer->start(McpNpxPackage::InstallTimeoutSeconds * 1000);
    m_process->start();
}

QString McpNpxInstall::installIfNeeded(const McpServerConfig &server,
                                       const std::function<void(const QString &spec)> &installing)
{
    QString refused;
    const std::optional<McpNpxPackage> package = McpNpxPackage::of(server, &refused);
    if (!package || package->isInstalled())
        return {}; // a refused entry fails where it is started, saying why
    installing(package->spec());
    McpNpxInstall install(*package);
    QEventLoop loop;
    QString error;
    connect(&install, &McpNpxInstall::finished, &loop, [&](const QString &why) {
        error = why;
        loop.quit();
    });
    install.start();
    loop.exec();
    return error;
}

void McpNpxInstall::onFinished(int exitCode, bool crashed)
{
    m_output += m_process->readAll();
    if (crashed || exitCode != 0) {
        const QString tail = printableLines(QString::fromUtf8(m_output.right(OutputTailBytes)).trimmed());
        return fail(QStringLiteral("npm install %1 failed (%2)%3")
                        .arg(m_package.spec(),
                             crashed ? QStringLiteral("it crashed") : QStringLiteral("exit code %1").arg(exitCode),
                             tail.isEmpty() ? QString() : QStringLiteral(": ") + tail));
    }
    if (const QString why = land(); !why.isEmpty())
        return fail(why);
    m_done = true;
    m_timer->stop();
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT finished(QString()); }, Qt::QueuedConnection);
}

void McpNpxInstall::killGroup()
{
    if (const qint64 pid = m_process->processId(); pid > 0)
        ::kill(-pid_t(pid), SIGKILL);
    m_process->kill();
}

void McpNpxInstall::sweepStaleParts()
{
    // "<install>.part-PID-RANDOM" of a studio that is gone: an install it never finished.
    static const QRegularExpression part(QStringLiteral("\\.part-([0-9]+)-[0-9a-f]{8}$"));
    const QDir root(McpNpxPackage::cacheRoot());
    for (const QString &name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden)) {
        const QRegularExpressionMatch match = part.match(name);
        if (!match.hasMatch())
            continue;
        const pid_t pid = pid_t(match.captured(1).toLongLong());
        if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH)
            QDir(root.filePath(name)).removeRecursively();
    }
}

QString McpNpxInstall::land()
{
    QString why;
    if (const QString outside = McpNpxPackage::notFromTheRegistry(m_partDir); !outside.isEmpty())
        return QStringLiteral("npm installed %1, but %2: the studio installs only what the npm registry serves (a "
                              "dependency from a file, folder, link or git would hand the server files of this "
                              "machine); the install was removed")
            .arg(m_package.spec(), outside);
    if (m_package.binPath(m_partDir, &why).isEmpty())
        return QStringLiteral("npm installed %1, but %2").arg(m_package.spec(), why);
    QFile marker(m_partDir + u'/' + McpNpxPackage::markerName());
    if (!marker.open(QIODevice::WriteOnly) || marker.write(m_package.spec().toUtf8() + '\n') < 0 || !marker.flush())
        return QStringLiteral("cannot write %1: %2").arg(marker.fileName(), marker.errorString());
    marker.close();
    ::chmod(QFile::encodeName(m_partDir).constData(), 0755); // as root the sandbox user reads it
    const QString target = m_package.installDir();
    if (QFileInfo::exists(target) && !m_package.isInstalled())
        QDir(target).removeRecursively(); // a folder an interrupted studio left half made
    if (::rename(QFile::encodeName(m_partDir).constData(), QFile::encodeName(target).constData()) == 0) {
        m_partDir.clear();
        return {};
    }
    if (m_package.isInstalled()) // another studio landed the same spec first
        return {};
    return QStringLiteral("cannot move the install of %1 to %2: %3")
        .arg(m_package.spec(), target, QString::fromLocal8Bit(::strerror(errno)));
}

void McpNpxInstall::fail(const QString &why)
{
    if (m_done)
        return;
    m_done = true;
    if (m_timer)
        m_timer->stop();
    if (!m_partDir.isEmpty() && (!m_process || m_process->state() == QProcess::NotRunning)) {
        QDir(m_partDir).removeRecursively();
        m_partDir.clear();
    }
    QMetaObject::invokeMethod(
        this, [this, why] { Q_EMIT finished(why); }, Qt::QueuedConnection);
}
