// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgechannel.h"

#include "bridgewaithint.h"

#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace {

constexpr std::size_t ReadChunkBytes = 64 * 1024;
/// Lines handled per event-loop iteration before yielding to other events.
constexpr int MaxEventsPerIteration = 256;
/// SCM_MAX_FD: the most fds one message can carry.
constexpr std::size_t MaxFdsPerMessage = 253;
/// Once this much of the queue has been written, the written head is dropped.
constexpr std::size_t CompactAfterBytes = 1024 * 1024;

bool isBlank(const std::string &line)
{
    return line.find_first_not_of(" \t\r") == std::string::npos;
}

/// Closes every fd carried in `message`'s SCM_RIGHTS data; true if there were any
/// (or if the kernel had to drop some because the control buffer was too small).
bool closePassedFds(msghdr &message)
{
    bool passed = (message.msg_flags & MSG_CTRUNC) != 0;
    for (cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS)
            continue;
        passed = true;
        const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        const unsigned char *data = CMSG_DATA(header);
        for (std::size_t i = 0; i < count; ++i) {
            int fd = -1;
            std::memcpy(&fd, data + i * sizeof(int), sizeof(int)); // CMSG_DATA may be unaligned
            if (fd >= 0)
                ::close(fd);
        }
    }
    return passed;
}

} // namespace

BridgeChannel::BridgeChannel(int fd, std::size_t maxLineBytes, QObject *parent)
    : QObject(parent)
    , m_fd(fd)
    , m_reader(maxLineBytes)
{
    if (m_fd < 0)
        return;
    const int statusFlags = ::fcntl(m_fd, F_GETFL);
    if (statusFlags != -1)
        ::fcntl(m_fd, F_SETFL, statusFlags | O_NONBLOCK);
    const int fdFlags = ::fcntl(m_fd, F_GETFD);
    if (fdFlags != -1)
        ::fcntl(m_fd, F_SETFD, fdFlags | FD_CLOEXEC);

    m_readBuffer.resize(ReadChunkBytes);
    m_readNotifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &BridgeChannel::onReadable);
    m_writeNotifier = new QSocketNotifier(m_fd, QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &BridgeChannel::onWritable);
}

BridgeChannel::~BridgeChannel()
{
    close();
}

void BridgeChannel::close()
{
    if (m_fd < 0)
        return;
    // Notifiers first: the event dispatcher must not watch an fd number that is closed
    // (and may be reused).
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    ::close(m_fd);
    m_fd = -1;
    m_pending.clear();
    m_out.clear();
    m_outOffset = 0;
}

int BridgeChannel::releaseFd()
{
    if (m_fd < 0)
        return -1;
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    const int fd = std::exchange(m_fd, -1);
    m_pending.clear();
    m_out.clear();
    m_outOffset = 0;
    return fd;
}

void BridgeChannel::send(const std::string &line)
{
    if (m_fd < 0 || m_writeFailed)
        return;
    m_out.append(line);
    if (!m_writeNotifier->isEnabled())
        flush();
}

void BridgeChannel::onWritable()
{
    flush();
}

void BridgeChannel::flush()
{
    while (m_outOffset < m_out.size()) {
        // MSG_NOSIGNAL: a child that closed its end must not SIGPIPE the studio.
        const ssize_t n
            = ::send(m_fd, m_out.data() + m_outOffset, m_out.size() - m_outOffset, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n >= 0) {
            m_outOffset += std::size_t(n);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (m_outOffset >= CompactAfterBytes) {
                m_out.erase(0, m_outOffset);
                m_outOffset = 0;
            }
            m_writeNotifier->setEnabled(true);
            return;
        }
        // EPIPE, ECONNRESET: the child is gone or stopped reading; the read side
        // reports the end.
        m_writeFailed = true;
        break;
    }
    m_out.clear();
    m_outOffset = 0;
    m_writeNotifier->setEnabled(false);
}

void BridgeChannel::onReadable()
{
    if (m_fd < 0 || m_endOfStream)
        return;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * MaxFdsPerMessage)];
    iovec chunk = {m_readBuffer.data(), m_readBuffer.size()};
    msghdr message = {};
    message.msg_iov = &chunk;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;

    ssize_t n;
    do {
        // MSG_CMSG_CLOEXEC: a passed fd must not leak into a process the studio starts
        // before it is closed below.
        n = ::recvmsg(m_fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (n == -1 && errno == EINTR);
    if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;

    if (n >= 0 && closePassedFds(message)) {
        if (!reportProtocolError(tr("file descriptors passed over the bridge are refused")))
            return;
    }
    if (n <= 0) {
        m_endOfStream = true; // EOF, or ECONNRESET and the like: the child's end is gone
        m_readNotifier->setEnabled(false);
    } else {
        handleEvents(m_reader.feed(std::string_view(m_readBuffer.data(), std::size_t(n))));
        return;
    }
    processPending();
}

void BridgeChannel::handleEvents(std::vector<BridgeFrameReader::Event> events)
{
    for (BridgeFrameReader::Event &event : events)
        m_pending.push_back(std::move(event)); // a line is moved, never copied
    processPending();
}

bool BridgeChannel::reportProtocolError(const QString &reason)
{
    const QPointer<BridgeChannel> self(this);
    Q_EMIT protocolError(reason);
    return self && m_fd >= 0;
}

void BridgeChannel::processPending()
{
    if (m_fd < 0)
        return;
    const QPointer<BridgeChannel> self(this);
    for (int handled = 0; handled < MaxEventsPerIteration && !m_pending.empty(); ++handled) {
        if (m_fd < 0)
            return;
        const BridgeFrameReader::Event event = std::move(m_pending.front());
        m_pending.pop_front();
        if (event.kind == BridgeFrameReader::Event::Oversized && !event.id.empty()) {
            // A call over the bound that named its id first: only that call is refused
            // (request_too_large, by the engine); the run goes on.
            BridgeCall call;
            call.id = event.id;
            call.tool = event.tool;
            call.kind = event.model ? BridgeCall::Kind::Model : BridgeCall::Kind::Tool;
            call.oversizedLineBytes = event.length;
            Q_EMIT callReceived(call);
            if (!self || m_fd < 0)
                return;
            continue;
        }
        if (event.kind == BridgeFrameReader::Event::Oversized) {
            if (m_oversizeReported) {
                m_oversizeReported = false; // reported when it outgrew the cap
                continue;
            }
            if (!reportProtocolError(tr("a bridge line of %1 bytes exceeds the limit of %2 bytes")
                                         .arg(event.length)
                                         .arg(m_reader.maxLineBytes())))
                return;
            continue;
        }
        if (isBlank(event.line))
            continue;
        if (BridgeWaitHint::matches(event.line)) {
            Q_EMIT waitReceived();
            if (!self || m_fd < 0)
                return;
            continue;
        }
        BridgeDecodeResult decoded = BridgeProtocol::decodeLine(event.line);
        if (decoded.error.rfind(BridgeWaitHint::UnknownTypeWait, 0) == 0) {
            // {"type":"wait"} with other fields, or spaced: the hint too (decodeLine
            // checked its UTF-8, depth and JSON; only the type is left to read).
            Q_EMIT waitReceived();
            if (!self || m_fd < 0)
                return;
        } else if (decoded.call) {
            Q_EMIT callReceived(*decoded.call);
            if (!self || m_fd < 0)
                return;
        } else if (!decoded.id.empty()) {
            Q_EMIT callRefused(decoded.id, QString::fromStdString(decoded.error));
            if (!self || m_fd < 0)
                return;
        } else if (!reportProtocolError(QString::fromStdString(decoded.error))) {
            return;
        }
    }

    if (!m_pending.empty()) {
        // Yield: other events run first, and nothing more is read until these are done,
        // so the queue never holds more than one read's worth.
        m_readNotifier->setEnabled(false);
        QTimer::singleShot(0, this, &BridgeChannel::processPending);
        return;
    }
    if (m_reader.skipping() && m_reader.skippingId().empty() && !m_oversizeReported && !m_endOfStream) {
        // Report a line as soon as it outgrows the cap, not when (if ever) its '\n'
        // arrives: a line that never ends must not keep the run going. (A call that
        // named its id is answered at its '\n'; the run timeout bounds one that never
        // ends, and nothing of it is buffered meanwhile.)
        m_oversizeReported = true;
        if (!reportProtocolError(tr("a bridge line exceeds the limit of %1 bytes (%2 bytes so far, no '\\n' "
                                    "yet)")
                                     .arg(m_reader.maxLineBytes())
                                     .arg(m_reader.skippedBytes())))
            return;
    }
    if (m_endOfStream)
        finishEndOfStream();
    else
        m_readNotifier->setEnabled(true);
}

void BridgeChannel::finishEndOfStream()
{
    if (m_reader.skipping()) {
        const BridgeFrameReader::Event rest = m_reader.flushOversized();
        if (m_oversizeReported) {
            m_oversizeReported = false;
        } else if (!reportProtocolError(
                       tr("a bridge line of at least %1 bytes exceeds the limit of %2 bytes (the bridge closed "
                          "before its end)")
                           .arg(rest.length)
                           .arg(m_reader.maxLineBytes())))
            return;
    } else if (m_reader.pendingBytes() > 0) {
        if (!reportProtocolError(
                tr("the bridge closed in the middle of a line (%1 bytes without '\\n')").arg(m_reader.pendingBytes())))
            return;
    }
    close();
    Q_EMIT closed();
}
