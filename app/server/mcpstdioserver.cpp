// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpstdioserver.h"

#include "mcpserversession.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSocketNotifier>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>

#include <poll.h>
#include <unistd.h>

namespace {

/// True when `fd` takes PIPE_BUF bytes without blocking within `timeoutMs`, or is
/// broken (the write then fails at once: EPIPE).
bool writable(int fd, int timeoutMs)
{
    pollfd out = {fd, POLLOUT, 0};
    int ready = 0;
    do
        ready = ::poll(&out, 1, timeoutMs);
    while (ready < 0 && errno == EINTR);
    return ready > 0 && (out.revents & (POLLOUT | POLLERR | POLLHUP | POLLNVAL));
}

} // namespace

McpStdioServer::McpStdioServer(McpServerSession *session, int inFd, int outFd, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_in(inFd)
    , m_out(outFd)
{
    // A client gone while a reply is written: EPIPE, not the end of the process.
    std::signal(SIGPIPE, SIG_IGN);
    m_session->notify = [this](const JsonRpcMessage &message) { write(message.encode()); };
}

McpStdioServer::~McpStdioServer()
{
    m_session->notify = nullptr;
    QElapsedTimer clock;
    clock.start();
    while (!m_outBroken && !m_unread.empty() && clock.elapsed() < DrainMs)
        if (writable(m_out, int(std::max<qint64>(1, DrainMs - clock.elapsed()))))
            flush();
}

void McpStdioServer::start()
{
    m_notifier = new QSocketNotifier(m_in, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] { readInput(); });
    m_writable = new QSocketNotifier(m_out, QSocketNotifier::Write, this);
    m_writable->setEnabled(false);
    connect(m_writable, &QSocketNotifier::activated, this, [this] { flush(); });
}

void McpStdioServer::readInput()
{
    char buffer[64 * 1024];
    const ssize_t got = ::read(m_in, buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (got <= 0) {
        finish(got == 0 ? QStringLiteral("the MCP client closed the server's stdin")
                        : QStringLiteral("reading stdin failed: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return;
    }
    const QPointer<McpStdioServer> alive(this);
    for (const BridgeFrameReader::Event &event : m_reader.feed(std::string_view(buffer, std::size_t(got)))) {
        if (!alive || m_finished)
            return;
        if (event.kind == BridgeFrameReader::Event::Oversized) {
            JsonRpcError error;
            error.code = JsonRpcError::InvalidRequest;
            error.message = "a message of " + std::to_string(event.length) + " bytes is over the limit of "
                + std::to_string(MaxLineBytes) + " bytes; it was not read";
            write(JsonRpcMessage::errorFor(nullptr, error).encode());
            continue;
        }
        if (event.line.find_first_not_of(" \t\r") == std::string::npos)
            continue; // blank lines between messages
        m_session->receive(event.line, [this, alive](std::optional<JsonRpcMessage> reply) {
            if (alive && reply)
                write(reply->encode());
        });
    }
}

void McpStdioServer::write(const std::string &text)
{
    if (m_outBroken)
        return;
    m_unread += text;
    m_unread += '\n';
    flush();
}

void McpStdioServer::flush()
{
    std::size_t done = 0;
    // POLLOUT on a pipe: room for PIPE_BUF bytes at least, so such a write never blocks.
    while (!m_outBroken && done < m_unread.size() && writable(m_out, 0)) {
        const ssize_t wrote
            = ::write(m_out, m_unread.data() + done, std::min<std::size_t>(PIPE_BUF, m_unread.size() - done));
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote < 0 && errno == EAGAIN)
            break; // stdout is non-blocking (the client set it so) and full: the notifier says when
        if (wrote <= 0)
            m_outBroken = true; // the client is gone; its end of stdin follows
        else
            done += std::size_t(wrote);
    }
    m_unread.erase(0, done);
    if (m_outBroken)
        m_unread.clear();
    if (m_writable)
        m_writable->setEnabled(!m_unread.empty());
    if (m_notifier && !m_finished)
        m_notifier->setEnabled(m_unread.size() <= MaxLineBytes); // the client reads replies before it sends more
    if (m_unread.size() > MaxUnreadBytes) {
        const QString why = QStringLiteral("the MCP client left %1 bytes of replies unread (the limit is %2)")
                                .arg(m_unread.size())
                                .arg(MaxUnreadBytes);
        m_unread.clear();
        m_outBroken = true;
        if (m_writable)
            m_writable->setEnabled(false);
        // Not from inside the reply being written: the session and its engine are mid-call.
        QMetaObject::invokeMethod(
            this, [this, why] { finish(why); }, Qt::QueuedConnection);
    }
}

void McpStdioServer::finish(const QString &why)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_notifier)
        m_notifier->setEnabled(false);
    m_session->end(why);
    if (onEnded)
        onEnded(why);
}
