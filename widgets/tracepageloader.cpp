// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracepageloader.h"

#include "journal/journalreader.h"

#include <QThread>

#include <algorithm>
#include <optional>

TracePageLoader::TracePageLoader(QObject *parent)
    : QObject(parent)
    , m_thread(QThread::create([this] { readLoop(); }))
{
    m_thread->setObjectName(QStringLiteral("toolstudio-trace-pages"));
    m_thread->start(QThread::LowPriority);
}

TracePageLoader::~TracePageLoader()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_queue.clear();
    }
    m_wake.notify_all();
    m_thread->wait();
    delete m_thread;
}

void TracePageLoader::open(const QString &journalPath, const QString &runId)
{
    std::lock_guard lock(m_mutex);
    ++m_generation;
    m_path = journalPath;
    m_runId = runId;
    m_queue.clear();
    m_posted.clear();
    m_reading = -1;
}

void TracePageLoader::close()
{
    open(QString(), QString());
}

void TracePageLoader::request(int page, int firstSequence, int lastSequence)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_path.isEmpty() || page == m_reading
            || std::find(m_posted.begin(), m_posted.end(), page) != m_posted.end())
            return;
        const auto queued
            = std::find_if(m_queue.begin(), m_queue.end(), [&](const Request &r) { return r.page == page; });
        if (queued != m_queue.end()) {
            // Asked again: it is in view again, so it goes first.
            const Request again = *queued;
            m_queue.erase(queued);
            m_queue.push_front(again);
            return;
        }
        m_queue.push_front({page, firstSequence, lastSequence});
        while (int(m_queue.size()) > MaxQueued)
            m_queue.pop_back(); // scrolled past before it was read
    }
    m_wake.notify_one();
}

bool TracePageLoader::isRequested(int page) const
{
    std::lock_guard lock(m_mutex);
    return page == m_reading || std::find(m_posted.begin(), m_posted.end(), page) != m_posted.end()
        || std::any_of(m_queue.begin(), m_queue.end(), [&](const Request &r) { return r.page == page; });
}

void TracePageLoader::readLoop()
{
    // The reader belongs to this thread (a QSqlDatabase connection is used only on the
    // thread that opened it); it is reopened when the source changes.
    std::optional<JournalReader> reader;
    quint64 readerGeneration = 0;
    for (;;) {
        Request request;
        quint64 generation = 0;
        QString path;
        QString runId;
        {
            std::unique_lock lock(m_mutex);
            m_reading = -1;
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_stopping)
                break;
            request = m_queue.front();
            m_queue.pop_front();
            m_reading = request.page;
            generation = m_generation;
            path = m_path;
            runId = m_runId;
        }
        if (!reader || readerGeneration != generation) {
            reader.reset();
            reader.emplace();
            readerGeneration = generation;
            if (!reader->open(path))
                qWarning("trace: cannot read pages of %s: %s", qPrintable(path), qPrintable(reader->lastError()));
        }
        auto rows = std::make_shared<std::vector<StepSummary>>(
            reader->summaries(runId, request.firstSequence, request.lastSequence));
        {
            std::lock_guard lock(m_mutex);
            if (generation == m_generation)
                m_posted.push_back(request.page); // not asked again before it arrives
        }
        QMetaObject::invokeMethod(
            this, [this, generation, page = request.page, rows] { deliver(generation, page, rows); },
            Qt::QueuedConnection);
    }
    reader.reset();
}

void TracePageLoader::deliver(quint64 generation, int page, std::shared_ptr<std::vector<StepSummary>> rows)
{
    {
        std::lock_guard lock(m_mutex);
        if (generation != m_generation)
            return; // read for a run no longer shown
        m_posted.erase(std::remove(m_posted.begin(), m_posted.end(), page), m_posted.end());
    }
    Q_EMIT pageLoaded(page, *rows);
}
