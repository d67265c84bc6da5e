// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <httplib.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

/// cpp-httplib's server with every request bounded as it is read. Debian's 0.11.4 reads
/// a request line and header lines until their newline, any number of headers, a chunked
/// body and a body without Content-Length until the client stops — whatever the
/// payload limit — so one client could grow the studio's memory without end. Here each
/// connection is read through a stream that gives at most `requestBytes` to one request
/// (its line, headers and body) and at most `requestSeconds` for all of it to arrive;
/// past either the read fails, the request gets its error reply (see overrun()) and the
/// connection is closed. While accepted connections wait for one of the HTTP threads,
/// a connection may be idle 200 ms and stall 1 s only, so idle or trickling clients
/// cannot hold every thread while others wait.
class BoundedHttplibServer : public httplib::Server
{
public:
    enum class Overrun { None, Bytes, Time };

    /// `extraThreads` are added to cpp-httplib's pool (CPPHTTPLIB_THREAD_POOL_COUNT), for
    /// replies that hold their thread long (HttpStream).
    BoundedHttplibServer(std::size_t requestBytes, int requestSeconds, int readSeconds, int keepAliveSeconds,
                         std::size_t keepAliveMax, std::size_t extraThreads = 0);

    /// The status and JSON body for a request cut short; used when httplib gave up on it
    /// without a reply (a request line without end).
    using OverrunReply = std::function<std::pair<int, std::string>(Overrun)>;
    void setOverrunReply(OverrunReply reply) { m_overrunReply = std::move(reply); }

    /// Why the request being handled on the calling HTTP thread was cut (for its error
    /// reply); None when it was read whole or on another thread.
    static Overrun overrun();
    /// From a handler of the calling HTTP thread: close the connection after this reply
    /// (a request refused before its body was read: the rest is not a request).
    static void closeAfterReply();
    /// From a handler of the calling HTTP thread: true when the client closed its
    /// connection (or its sending side) while its request waits for the reply.
    static bool clientGone();

private:
    bool process_and_close_socket(socket_t sock) override;

    std::size_t m_requestBytes;
    int m_requestSeconds;
    int m_readSeconds;
    int m_keepAliveSeconds;
    std::size_t m_keepAliveMax;
    OverrunReply m_overrunReply;
    std::atomic<int> m_waiting{0}; ///< accepted connections waiting for an HTTP thread
};
