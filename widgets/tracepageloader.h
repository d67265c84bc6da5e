// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/steprows.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

class QThread;

/// Reads pages of a journal-backed trace off the GUI thread (issue 18; DB Browser for
/// SQLite's RowLoader): one thread with a JournalReader of its own, fed page requests by
/// sequence range. The newest request is read first; past MaxQueued, the oldest waiting
/// requests are dropped — a view asks for the rows it paints, so during a fast scroll
/// the pages scrolled past are never read. A page comes back through pageLoaded(), on
/// the GUI thread, only for the source it was asked for: open() and close() start a new
/// generation, and pages of an older one are dropped.
class TracePageLoader : public QObject
{
    Q_OBJECT
public:
    /// Requests kept waiting at most; a newer one pushes out the oldest.
    static constexpr int MaxQueued = 4;

    explicit TracePageLoader(QObject *parent = nullptr);
    /// Stops the thread (after the read in progress, if any).
    ~TracePageLoader() override;

    /// Reads run `runId` of the journal at `journalPath` from now on; drops what waits.
    void open(const QString &journalPath, const QString &runId);
    /// Drops what waits and reads nothing until the next open().
    void close();
    /// Asks for page `page`: the steps with sequence in [firstSequence, lastSequence].
    /// A page waiting or being read already is not asked again.
    void request(int page, int firstSequence, int lastSequence);
    /// True while `page` waits or is being read (for the current source).
    bool isRequested(int page) const;

Q_SIGNALS:
    /// Page `page` of the current source, its rows ascending by sequence (light rows
    /// with attempts; missing sequences have no row).
    void pageLoaded(int page, const std::vector<StepSummary> &rows);

private:
    struct Request
    {
        int page = -1;
        int firstSequence = 0;
        int lastSequence = 0;
    };
    void readLoop();
    void deliver(quint64 generation, int page, std::shared_ptr<std::vector<StepSummary>> rows);

    QThread *m_thread = nullptr;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    // Guarded by m_mutex.
    bool m_stopping = false;
    quint64 m_generation = 0;
    QString m_path;
    QString m_runId;
    std::deque<Request> m_queue; ///< newest first
    int m_reading = -1;          ///< the page being read, -1 when none
    std::vector<int> m_posted;   ///< pages read and on their way to the GUI thread
};
