// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

class QObject;

/// A reply kept open as a stream of server-sent events (`text/event-stream`, chunked),
/// from HttpResponder::openStream: the route sends events from any thread, one of the
/// server's HTTP threads writes them to the client. Each open stream holds that thread
/// (HttpServer::MaxStreams). The stream ends when its owner closes it, the client leaves
/// (a failed write; the HTTP thread also looks for a closed connection twice a second,
/// and after PingSeconds without an event writes the comment ": ping"), more than
/// MaxQueuedBytes wait unwritten (a client that does not read), or the server stops.
class HttpStream
{
public:
    static constexpr std::size_t MaxQueuedBytes = 1u << 20;
    static constexpr int PingSeconds = 15;

    /// `context` is the server: onEnded() runs on its thread.
    explicit HttpStream(QObject *context);

    /// One event, "event: TYPE\ndata: LINE\n" for each line of `data`, then an empty line.
    bool sendEvent(const std::string &type, const std::string &data);
    /// Queues `bytes` to be written. False, queuing nothing, once the stream is not open;
    /// also when the queue would pass MaxQueuedBytes: the stream then ends at once (the
    /// client is not sent the last chunk: it lost events).
    bool send(std::string bytes);
    /// Ends the reply properly (its last chunk) once what is queued is written.
    void close();
    /// True until close(), an overflow or the end.
    bool isOpen() const;
    /// `ended` runs (queued) on the context's thread once the HTTP thread is done with
    /// the stream, whatever ended it; queued at once when that was already.
    void onEnded(std::function<void()> ended);

    /// The HTTP thread's side (HttpServer): what to do next, after waiting up to `wait`
    /// for something to write. Write: `*bytes` (events, or the ping comment). Idle:
    /// nothing yet. End: closed and all written. Abort: dropped (an overflow).
    enum class Next { Write, Idle, End, Abort };
    Next next(std::string *bytes, std::chrono::milliseconds wait);
    /// The HTTP thread is done with the stream (or never took it): it counts no more
    /// against the cap and onEnded() runs. Idempotent.
    void finish();
    bool isFinished() const;
    /// Waits until finish() or `until`, whichever comes first; isFinished().
    bool waitFinished(std::chrono::steady_clock::time_point until);

private:
    enum class State { Open, Closing, Dropped, Finished };
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    QObject *m_context;
    State m_state = State::Open;
    std::string m_queued;
    std::function<void()> m_ended;
    std::chrono::steady_clock::time_point m_lastWrite;
};

/// The streams of one listening HttpServer: at most `max` not finished at once.
class HttpStreams
{
public:
    HttpStreams(QObject *context, std::size_t max);
    /// A new stream, or nullptr when `max` are open or closeAll() was called.
    std::shared_ptr<HttpStream> open();
    /// Closes every stream and opens no more (the server stops), then waits up to `grace`
    /// for their HTTP threads to write what was queued and the last chunk (cpp-httplib
    /// writes no more once its listening socket is closed).
    void closeAll(std::chrono::milliseconds grace = std::chrono::milliseconds(0));

private:
    std::mutex m_mutex;
    QObject *m_context;
    std::size_t m_max;
    bool m_closed = false;
    std::vector<std::weak_ptr<HttpStream>> m_streams;
};
