// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpstdioserver.h"

#include "mcpserversession.h"

#include <QPointer>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>

#include <unistd.h>

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
}

void McpStdioServer::start()
{
    m_notifier = new QSocketNotifier(m_in, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] { readInput(); });
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
    const std::string line = text + '\n';
    std::size_t done = 0;
    while (done < line.size()) {
        const ssize_t wrote = ::write(m_out, line.data() + done, line.size() - done);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0) {
            m_outBroken = true; // the client is gone; its end of stdin follows
            return;
        }
        done += std::size_t(wrote);
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
