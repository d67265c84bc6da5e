// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "httpstream.h"

#include <QMetaObject>
#include <QObject>

#include <algorithm>

HttpStream::HttpStream(QObject *context)
    : m_context(context)
    , m_lastWrite(std::chrono::steady_clock::now())
{}

bool HttpStream::sendEvent(const std::string &type, const std::string &data)
{
    std::string event = "event: " + type + "\n";
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = data.find('\n', start);
        event += "data: " + data.substr(start, end == std::string::npos ? end : end - start) + "\n";
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return send(event + "\n");
}

bool HttpStream::send(std::string bytes)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_state != State::Open)
            return false;
        if (m_queued.size() + bytes.size() > MaxQueuedBytes) {
            m_state = State::Dropped;
            m_queued.clear();
        } else {
            m_queued += bytes;
        }
    }
    m_changed.notify_all();
    return isOpen();
}

void HttpStream::close()
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_state == State::Open)
            m_state = State::Closing;
    }
    m_changed.notify_all();
}

bool HttpStream::isOpen() const
{
    const std::lock_guard lock(m_mutex);
    return m_state == State::Open;
}

bool HttpStream::isFinished() const
{
    const std::lock_guard lock(m_mutex);
    return m_state == State::Finished;
}

bool HttpStream::waitFinished(std::chrono::steady_clock::time_point until)
{
    std::unique_lock lock(m_mutex);
    return m_changed.wait_until(lock, until, [this] { return m_state == State::Finished; });
}

void HttpStream::onEnded(std::function<void()> ended)
{
    std::unique_lock lock(m_mutex);
    if (m_state != State::Finished) {
        m_ended = std::move(ended);
        return;
    }
    lock.unlock();
    QMetaObject::invokeMethod(m_context, std::move(ended), Qt::QueuedConnection);
}

HttpStream::Next HttpStream::next(std::string *bytes, std::chrono::milliseconds wait)
{
    using Clock = std::chrono::steady_clock;
    std::unique_lock lock(m_mutex);
    const auto ping = m_lastWrite + std::chrono::seconds(PingSeconds);
    m_changed.wait_until(lock, std::min(Clock::now() + wait, ping),
                         [this] { return !m_queued.empty() || m_state != State::Open; });
    if (m_state == State::Dropped || m_state == State::Finished)
        return Next::Abort;
    if (!m_queued.empty()) {
        bytes->swap(m_queued);
        m_queued.clear();
    } else if (m_state == State::Closing) {
        return Next::End;
    } else if (Clock::now() >= ping) {
        // A comment: clients ignore it; a client that left makes the write fail.
        *bytes = ": ping\n\n";
    } else {
        return Next::Idle;
    }
    m_lastWrite = Clock::now();
    return Next::Write;
}

void HttpStream::finish()
{
    std::function<void()> ended;
    {
        const std::lock_guard lock(m_mutex);
        if (m_state == State::Finished)
            return;
        m_state = State::Finished;
        m_queued.clear();
        ended = std::move(m_ended);
    }
    m_changed.notify_all();
    if (ended)
        QMetaObject::invokeMethod(m_context, std::move(ended), Qt::QueuedConnection);
}

HttpStreams::HttpStreams(QObject *context, std::size_t max)
    : m_context(context)
    , m_max(max)
{}

std::shared_ptr<HttpStream> HttpStreams::open()
{
    const std::lock_guard lock(m_mutex);
    if (m_closed)
        return nullptr;
    m_streams.erase(std::remove_if(m_streams.begin(), m_streams.end(),
                                   [](const std::weak_ptr<HttpStream> &weak) {
                                       const auto stream = weak.lock();
                                       return !stream || stream->isFinished();
                                   }),
                    m_streams.end());
    if (m_streams.size() >= m_max)
        return nullptr;
    auto stream = std::make_shared<HttpStream>(m_context);
    m_streams.push_back(stream);
    return stream;
}

void HttpStreams::closeAll(std::chrono::milliseconds grace)
{
    std::vector<std::shared_ptr<HttpStream>> open;
    {
        const std::lock_guard lock(m_mutex);
        m_closed = true;
        for (const auto &weak : m_streams)
            if (auto stream = weak.lock())
                open.push_back(std::move(stream));
    }
    for (const auto &stream : open)
        stream->close();
    const auto until = std::chrono::steady_clock::now() + grace;
    for (const auto &stream : open)
        stream->waitFinished(until);
}
