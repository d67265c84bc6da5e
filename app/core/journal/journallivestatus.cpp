// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Journal's live run status (docs/steps.md "The commit path"): a run's switch between
// running and waiting rides on the next transaction instead of taking two of its own.
#include "journal/journal.h"

#include "journal/journalstatement.h"

#include <QTimer>

namespace {

/// Only a live row changes: a run that ended (or was suspended) keeps its status.
constexpr char SetLiveStatusSql[] = "UPDATE runs SET status = ? WHERE id = ? AND status IN ('running', 'waiting')";

bool isLive(RunStatus status)
{
    return status == RunStatus::Running || status == RunStatus::Waiting;
}

} // namespace

bool Journal::setLiveStatus(const QString &runId, RunStatus status)
{
    if (!isOpen() || !isLive(status))
        return false;
    const auto written = m_liveStatus.constFind(runId);
    if (written != m_liveStatus.cend() && *written == status) {
        m_pendingStatus.remove(runId); // back where SQLite has it: nothing to write
        return true;
    }
    m_pendingStatus.insert(runId, status);
    if (m_groupCommitMs <= 0)
        return flush();
    scheduleFlush();
    return true;
}

bool Journal::writeLiveStatuses(QString *error, int *code)
{
    for (auto it = m_pendingStatus.cbegin(); it != m_pendingStatus.cend(); ++it) {
        SqliteStatement *update = nativeStatement(SetLiveStatusSql);
        if (!update) {
            *error = m_lastError;
            return false;
        }
        if (!update->add(runStatusName(it.value())).add(it.key()).run(error)) {
            if (code)
                *code = update->lastCode();
            *error = QStringLiteral("recording the status of run %1: %2").arg(it.key(), *error);
            return false;
        }
    }
    return true;
}

void Journal::liveStatusesWritten()
{
    for (auto it = m_pendingStatus.cbegin(); it != m_pendingStatus.cend(); ++it)
        m_liveStatus.insert(it.key(), it.value());
    m_pendingStatus.clear();
}

void Journal::scheduleFlush()
{
    if (m_groupCommitMs <= 0)
        return;
    if (!m_flushTimer) {
        m_flushTimer = std::make_unique<QTimer>();
        m_flushTimer->setSingleShot(true);
        QObject::connect(m_flushTimer.get(), &QTimer::timeout, [this] {
            // Not waiting seconds for another writer here (attack41: an attempt that had
            // finished timed out meanwhile and was run again): left pending, in the
            // tail, the rows are tried again shortly.
            sqlite3 *db = nativeHandle();
            if (db)
                sqlite3_busy_timeout(db, TimerBusyTimeoutMs);
            m_quietDeferral = true;
            flush();
            m_quietDeferral = false;
            if (db)
                sqlite3_busy_timeout(db, BusyTimeoutMs);
            if (!m_pending.isEmpty() && !m_flushTimer->isActive())
                m_flushTimer->start(std::max(m_groupCommitMs, DeferredFlushMs));
        });
    }
    if (!m_flushTimer->isActive())
        m_flushTimer->start(m_groupCommitMs);
}
