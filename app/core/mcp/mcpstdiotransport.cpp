// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpstdiotransport.h"

#include "mcpreplyid.h"

#include "bridgeframereader.h"

#include <QPointer>
#include <QTimer>

#include <cerrno>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

McpStdioTransport::McpStdioTransport(QObject *parent)
    : McpTransport(parent)
{}

McpStdioTransport::~McpStdioTransport()
{
    if (m_process) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(StopGraceMs);
        }
        killGroup();
        // Later: the transport may be deleted by a slot of one of the process's signals.
        m_process->setParent(nullptr);
        m_process->deleteLater();
    }
}

void McpStdioTransport::start()
{
    const Launch &launch = m_launch;
    delete m_process;
    m_process = new QProcess(this);
    m_reader = std::make_unique<BridgeFrameReader>(MaxMessageBytes);
    m_stderrTail.clear();
    m_killedBecause.clear();
    m_stopping = false;
    m_reportedEnd = false;
    m_group = 0;
    m_stdinNotifier = nullptr;
    m_stdinLooked = false;
    if (launch.configure) {
        QString why;
        if (!launch.configure(m_process, &why)) {
            m_reportedEnd = true;
            QMetaObject::invokeMethod( // never from inside start()
                this, [this, why] { Q_EMIT finished(QStringLiteral("could not be started: %1").arg(why)); },
                Qt::QueuedConnection);
            return;
        }
        // toolstudio-sandbox makes the server the leader of a session (and process
        // group) of its own and execs it, so its pid names the group; the confined code
        // cannot leave it (setsid, setpgid refused).
    } else {
        m_process->setProgram(launch.program);
        m_process->setArguments(launch.arguments);
        m_process->setProcessEnvironment(launch.environment);
        if (!launch.workingDirectory.isEmpty())
            m_process->setWorkingDirectory(launch.workingDirectory);
        m_process->setChildProcessModifier([] { ::setpgid(0, 0); }); // its own group: see killGroup()
    }
    connect(m_process, &QProcess::started, this, [this] {
        // The server's children end with it, also those that outlive its stdin's end
        // (a wrapper like `sh -c` or npx whose child stays): killGroup() when it ends.
        m_group = m_process->processId();
        Q_EMIT started();
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this, &McpStdioTransport::readStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &McpStdioTransport::readStderr);
    connect(m_process, &QProcess::finished, this, &McpStdioTransport::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &McpStdioTransport::onError);
    m_process->start(QIODevice::ReadWrite);
}

bool McpStdioTransport::send(const JsonRpcMessage &message)
{
    // While the process is starting QProcess keeps what is written and hands it on.
    if (!m_process || m_process->state() == QProcess::NotRunning || m_stopping) {
        m_sendRefusal = m_killedBecause.isEmpty() ? QStringLiteral("the server has ended or is being stopped")
                                                  : QStringLiteral("the server ") + m_killedBecause;
        return false;
    }
    if (m_process->bytesToWrite() > MaxPendingWriteBytes) {
        m_killedBecause = QStringLiteral("does not read its stdin: more than %1 MiB of the studio's messages wait for "
                                         "it; it was killed")
                              .arg(MaxPendingWriteBytes >> 20);
        m_stopping = true;
        m_process->kill();
        m_sendRefusal = QStringLiteral("the server ") + m_killedBecause;
        return false;
    }
    std::string line = message.encode();
    line += '\n';
    // In order: at once only when nothing of an earlier message waits in QProcess.
    qint64 written = 0;
    if (m_process->state() == QProcess::Running && m_process->bytesToWrite() == 0)
        written = writeNow(line.data(), qint64(line.size()));
    if (written < qint64(line.size()))
        m_process->write(line.data() + written, qint64(line.size()) - written);
    return true;
}

int McpStdioTransport::stdinPipe()
{
    if (!m_stdinLooked) {
        m_stdinLooked = true;
        QSocketNotifier *found = nullptr;
        int writers = 0;
        for (QSocketNotifier *notifier : m_process->findChildren<QSocketNotifier *>(Qt::FindDirectChildrenOnly))
            if (notifier->type() == QSocketNotifier::Write && ++writers == 1)
                found = notifier;
        if (writers == 1 && found->isValid()) {
            const int flags = ::fcntl(int(found->socket()), F_GETFL);
            if (flags != -1 && (flags & O_NONBLOCK) && (flags & O_ACCMODE) == O_WRONLY)
                m_stdinNotifier = found;
        }
    }
    return m_stdinNotifier ? int(m_stdinNotifier->socket()) : -1;
}

qint64 McpStdioTransport::writeNow(const char *bytes, qint64 size)
{
    const int fd = stdinPipe();
    if (fd < 0)
        return 0;
    // A server that closed its stdin: EPIPE, not the signal (as QProcess writes).
    static const bool ignoresSigpipe = [] {
        struct sigaction ignore = {};
        ignore.sa_handler = SIG_IGN;
        return ::sigaction(SIGPIPE, &ignore, nullptr) == 0;
    }();
    if (!ignoresSigpipe)
        return 0;
    ssize_t written;
    do
        written = ::write(fd, bytes, std::size_t(size));
    while (written < 0 && errno == EINTR);
    // A full pipe, or an error: QProcess takes the rest (and reports the error as before).
    return written < 0 ? 0 : qint64(written);
}

void McpStdioTransport::stop()
{
    if (!isRunning() || m_stopping)
        return;
    m_stopping = true;
    m_process->closeWriteChannel();
    QProcess *process = m_process;
    QTimer::singleShot(StopGraceMs, process, [process] {
        if (process->state() == QProcess::NotRunning)
            return;
        process->terminate();
        QTimer::singleShot(StopGraceMs, process, [process] {
            if (process->state() != QProcess::NotRunning)
                process->kill();
        });
    });
}

bool McpStdioTransport::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

qint64 McpStdioTransport::processId() const
{
    return isRunning() ? m_process->processId() : 0;
}

QString McpStdioTransport::stderrTail() const
{
    qsizetype start = 0;
    while (start < m_stderrTail.size() && (static_cast<unsigned char>(m_stderrTail[start]) & 0xC0) == 0x80)
        ++start; // the tail was cut inside a character
    return QString::fromUtf8(m_stderrTail.mid(start));
}

void McpStdioTransport::readStdout()
{
    const QByteArray bytes = m_process->readAllStandardOutput();
    const QPointer<McpStdioTransport> alive(this); // a slot may delete the transport
    for (BridgeFrameReader::Event &event : m_reader->feed(std::string_view(bytes.constData(), bytes.size()))) {
        if (!alive)
            return;
        if (event.kind == BridgeFrameReader::Event::Oversized) {
            // Its id, when the line's first bytes hold one: the request it answers fails
            // now (a 100 MiB resource used to wait for its timeout).
            Q_EMIT messageRefused(QStringLiteral("a message of %1 bytes is over the limit of %2 bytes; it was skipped")
                                      .arg(event.length)
                                      .arg(MaxMessageBytes),
                                  McpReplyId::scan(event.head));
            continue;
        }
        if (!event.line.empty() && event.line.back() == '\r')
            event.line.pop_back(); // a server on a CRLF stream
        if (event.line.find_first_not_of(" \t") == std::string::npos)
            continue; // blank lines between messages are harmless
        JsonRpcDecoded decoded = JsonRpc::decode(event.line);
        if (decoded.message)
            Q_EMIT messageReceived(*decoded.message);
        else
            Q_EMIT messageRefused(QString::fromStdString(decoded.problem.message), McpReplyId::scan(event.line));
    }
}

void McpStdioTransport::readStderr()
{
    const QByteArray bytes = m_process->readAllStandardError();
    if (bytes.isEmpty())
        return;
    m_stderrTail += bytes;
    if (m_stderrTail.size() > StderrTailBytes)
        m_stderrTail.remove(0, m_stderrTail.size() - StderrTailBytes);
    Q_EMIT stderrReceived(bytes);
}

void McpStdioTransport::killGroup()
{
    // The group outlives its leader while a member lives, so its id is not reused.
    if (m_group > 0)
        ::kill(-pid_t(m_group), SIGKILL);
    m_group = 0;
}

void McpStdioTransport::onFinished(int exitCode, QProcess::ExitStatus status)
{
    killGroup();
    const QPointer<McpStdioTransport> alive(this);
    readStdout();
    if (!alive)
        return;
    readStderr();
    if (m_reportedEnd)
        return;
    m_reportedEnd = true;
    if (!m_killedBecause.isEmpty())
        Q_EMIT finished(m_killedBecause);
    else
        Q_EMIT finished(status == QProcess::CrashExit ? QStringLiteral("killed by signal %1").arg(exitCode)
                                                      : QStringLiteral("exited with code %1").arg(exitCode));
}

void McpStdioTransport::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_reportedEnd)
        return;
    m_reportedEnd = true;
    Q_EMIT finished(QStringLiteral("could not be started: %1").arg(m_process->errorString()));
}
