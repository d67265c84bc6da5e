// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "boundedhttplibserver.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;

/// While connections wait for a thread, a connection may be idle or stall this long
/// only: a client that means to send has sent (a local client sends at once).
constexpr int BusyIdleMs = 200;
constexpr int BusyStallMs = 1000;
/// How often a kept-alive connection waiting for its next request looks whether the
/// server stops: stop() joins the threads, and an idle connection must not delay it.
constexpr int StopLookMs = 200;

thread_local BoundedHttplibServer::Overrun t_overrun = BoundedHttplibServer::Overrun::None;
thread_local bool t_closeAfterReply = false;
thread_local int t_socket = -1; ///< the connection this HTTP thread serves

/// True when `fd` has `events` within `ms` (-1: an error or a hang-up counts as ready,
/// the next read or write says which).
bool waitFor(int fd, short events, int ms)
{
    pollfd entry = {fd, events, 0};
    for (;;) {
        const int rc = ::poll(&entry, 1, std::max(ms, 0));
        if (rc >= 0)
            return rc > 0;
        if (errno != EINTR)
            return false;
    }
}

void addressOf(const sockaddr_storage &address, std::string &ip, int &port)
{
    char host[NI_MAXHOST] = {};
    char service[NI_MAXSERV] = {};
    if (::getnameinfo(reinterpret_cast<const sockaddr *>(&address), sizeof address, host, sizeof host, service,
                      sizeof service, NI_NUMERICHOST | NI_NUMERICSERV)
        == 0) {
        ip = host;
        port = std::atoi(service);
    }
}

/// A connection as httplib reads it: buffered, each request given a byte budget and a
/// deadline by startRequest().
class BoundedStream : public httplib::Stream
{
public:
    /// `listening` is the server's listening socket: INVALID_SOCKET once it stops, when
    /// every wait gives up (within StopLookMs) so that stop() joins the threads at once.
    BoundedStream(int fd, int readSeconds, const std::atomic<int> &waiting, const std::atomic<socket_t> &listening)
        : m_fd(fd)
        , m_ioMs(readSeconds * 1000)
        , m_waiting(waiting)
        , m_listening(listening)
    {}

    void startRequest(std::size_t bytes, int seconds)
    {
        m_left = bytes;
        m_deadline = Clock::now() + std::chrono::seconds(seconds);
        m_wrote = false;
        t_overrun = BoundedHttplibServer::Overrun::None;
        t_closeAfterReply = false;
    }
    bool wrote() const { return m_wrote; }
    bool overran() const { return t_overrun != BoundedHttplibServer::Overrun::None; }
    /// True when the client sends (or closes) within `ms`: a new or kept-alive connection.
    bool waitForRequest(int ms) const { return m_offset < m_size || waitFor(m_fd, POLLIN, ms); }

    bool is_readable() const override { return m_offset < m_size || wait(POLLIN, remainingMs()); }
    bool is_writable() const override { return wait(POLLOUT, m_ioMs); }
    bool stopping() const { return m_listening.load() == INVALID_SOCKET; }

    ssize_t read(char *ptr, std::size_t size) override
    {
        if (m_offset == m_size && !fill())
            return -1;
        const std::size_t n = std::min(size, m_size - m_offset);
        std::memcpy(ptr, m_buffer + m_offset, n);
        m_offset += n;
        return ssize_t(n);
    }

    ssize_t write(const char *ptr, std::size_t size) override
    {
        // Never a blocking send: one of a big reply to a client that does not read would
        // wait the socket's whole write timeout, deaf to a stop (attack29 F2: 5.8 s per
        // stream at SIGTERM). What the socket takes now is written; httplib comes back
        // for the rest, after is_writable().
        for (;;) {
            if (!is_writable())
                return -1;
            m_wrote = true;
            const ssize_t n = ::send(m_fd, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n >= 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
                return n;
        }
    }

    void get_remote_ip_and_port(std::string &ip, int &port) const override
    {
        sockaddr_storage address = {};
        socklen_t length = sizeof address;
        if (::getpeername(m_fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
            addressOf(address, ip, port);
    }
    void get_local_ip_and_port(std::string &ip, int &port) const override
    {
        sockaddr_storage address = {};
        socklen_t length = sizeof address;
        if (::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
            addressOf(address, ip, port);
    }
    socket_t socket() const override { return m_fd; }

private:
    /// waitFor() in slices of StopLookMs, false once the server stops: a read at once, a
    /// write when the socket takes nothing for a slice (a client that sends or reads a
    /// byte now and then must not hold the stop for the request's 30 s).
    bool wait(short events, int ms) const
    {
        const auto until = Clock::now() + std::chrono::milliseconds(ms);
        for (;;) {
            // A request still arriving is not read on once the server stops, however
            // fast its bytes come (attack29 F1); what is written still goes out while it can.
            if ((events & POLLIN) && stopping())
                return false;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
            if (waitFor(m_fd, events, int(std::clamp<long long>(left, 0, StopLookMs))))
                return true; // what is there is taken, also at a stop (a stream's last chunk)
            if (stopping() || left <= StopLookMs)
                return false;
        }
    }

    int remainingMs() const
    {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - Clock::now()).count();
        return int(std::clamp<long long>(left, 0, m_waiting.load() > 0 ? std::min(m_ioMs, BusyStallMs) : m_ioMs));
    }

    /// Reads what the budget and the deadline allow into the buffer; false at the end,
    /// an error, a stall of the read timeout, or an overrun (recorded).
    bool fill()
    {
        m_offset = m_size = 0;
        if (overran())
            return false;
        if (m_left == 0) {
            t_overrun = BoundedHttplibServer::Overrun::Bytes;
            return false;
        }
        if (!wait(POLLIN, remainingMs())) {
            if (Clock::now() >= m_deadline && !stopping())
                t_overrun = BoundedHttplibServer::Overrun::Time;
            return false;
        }
        ssize_t n = -1;
        do
            n = ::recv(m_fd, m_buffer, std::min(sizeof m_buffer, m_left), 0);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            return false;
        m_size = std::size_t(n);
        m_left -= m_size;
        return true;
    }

    int m_fd;
    int m_ioMs;
    const std::atomic<int> &m_waiting;
    const std::atomic<socket_t> &m_listening;
    std::size_t m_left = 0;
    bool m_wrote = false;
    Clock::time_point m_deadline;
    char m_buffer[4096];
    std::size_t m_offset = 0;
    std::size_t m_size = 0;
};

/// httplib's thread pool, counting the connections that wait for a thread.
class CountingPool : public httplib::TaskQueue
{
public:
    CountingPool(std::size_t threads, std::atomic<int> &waiting)
        : m_pool(threads)
        , m_waiting(waiting)
    {}
    void enqueue(std::function<void()> fn) override
    {
        ++m_waiting;
        m_pool.enqueue([fn = std::move(fn), &waiting = m_waiting] {
            --waiting;
            fn();
        });
    }
    void shutdown() override { m_pool.shutdown(); }

private:
    httplib::ThreadPool m_pool;
    std::atomic<int> &m_waiting;
};

} // namespace

BoundedHttplibServer::BoundedHttplibServer(std::size_t requestBytes, int requestSeconds, int readSeconds,
                                           int keepAliveSeconds, std::size_t keepAliveMax, std::size_t extraThreads)
    : m_requestBytes(requestBytes)
    , m_requestSeconds(requestSeconds)
    , m_readSeconds(readSeconds)
    , m_keepAliveSeconds(keepAliveSeconds)
    , m_keepAliveMax(std::max<std::size_t>(keepAliveMax, 1))
{
    new_task_queue
        = [this, extraThreads] { return new CountingPool(CPPHTTPLIB_THREAD_POOL_COUNT + extraThreads, m_waiting); };
}

BoundedHttplibServer::Overrun BoundedHttplibServer::overrun()
{
    return t_overrun;
}

void BoundedHttplibServer::closeAfterReply()
{
    t_closeAfterReply = true;
}

bool BoundedHttplibServer::clientGone()
{
    if (t_socket < 0)
        return false;
    pollfd entry = {t_socket, POLLIN | POLLRDHUP, 0};
    if (::poll(&entry, 1, 0) <= 0)
        return false;
    if (entry.revents & (POLLHUP | POLLERR | POLLRDHUP))
        return true;
    char byte = 0;
    return (entry.revents & POLLIN) && ::recv(t_socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

bool BoundedHttplibServer::process_and_close_socket(socket_t sock)
{
    t_socket = sock;
    BoundedStream stream(sock, m_readSeconds, m_waiting, svr_sock_);
    bool ok = false;
    for (std::size_t count = m_keepAliveMax; count > 0 && svr_sock_ != INVALID_SOCKET; --count) {
        const bool busy = m_waiting.load() > 0;
        const int idleMs = busy ? BusyIdleMs : (count == m_keepAliveMax ? m_readSeconds : m_keepAliveSeconds) * 1000;
        const auto idleUntil = Clock::now() + std::chrono::milliseconds(idleMs);
        bool request = false;
        while (!(request = stream.waitForRequest(std::min(idleMs, StopLookMs))) && svr_sock_ != INVALID_SOCKET
               && Clock::now() < idleUntil) {}
        if (!request || svr_sock_ == INVALID_SOCKET)
            break;
        stream.startRequest(m_requestBytes, m_requestSeconds);
        bool closed = false;
        ok = process_request(stream, count == 1, closed, nullptr);
        if (stream.overran() && !stream.wrote() && m_overrunReply) {
            const auto [status, body] = m_overrunReply(t_overrun);
            const std::string reply = "HTTP/1.1 " + std::to_string(status) + " "
                + (status == 408 ? "Request Timeout" : "Payload Too Large")
                + "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size())
                + "\r\nConnection: close\r\n\r\n" + body;
            stream.write(reply.data(), reply.size());
        }
        // After an overrun or a refusal the rest of what the client sends is not a request.
        if (!ok || closed || stream.overran() || t_closeAfterReply)
            break;
    }
    t_overrun = Overrun::None;
    t_closeAfterReply = false;
    t_socket = -1;
    // Say we are done, then read (and drop) a little more before closing: a client still
    // sending when the socket closes would get a reset instead of its error reply. Not
    // when the server stops: its threads are being joined.
    ::shutdown(sock, SHUT_WR);
    char sink[4096];
    const auto until = Clock::now() + std::chrono::seconds(1);
    for (std::size_t drained = 0;
         drained < (1u << 20) && Clock::now() < until && !stream.stopping() && waitFor(sock, POLLIN, 200);) {
        const ssize_t n = ::recv(sock, sink, sizeof sink, 0);
        if (n <= 0)
            break;
        drained += std::size_t(n);
    }
    ::close(sock);
    return ok;
}
