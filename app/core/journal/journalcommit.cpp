// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Journal's step-commit path: records (journaltail.h), the durable tail and group commit
// (docs/steps.md "The commit path"); the recovery of a dead writer's tail is in
// journaltailrecovery.cpp.
#include "journal/journal.h"

#include "journal/journalrows.h"
#include "journal/journalstatement.h"
#include "journal/journaltail.h"

#include <QAbstractEventDispatcher>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QTimer>

#include <atomic>

using JournalSql::ForgetTailSql;
using JournalSql::MarkTailSql;

namespace {

/// A tail is emptied once a group commit finds it this long (bytes). Records already in
/// SQLite are skipped on recovery (journal_tails), so emptying it after every group
/// commit is not needed, and on ext4 a truncation to 0 starts a write-back of the file.
constexpr qint64 RewindBytes = 1 << 20;

/// True for a result code that means another connection holds the file: the rows wait.
/// Qt's driver turns SQLite's extended result codes on (SQLITE_BUSY_SNAPSHOT is 517).
bool othersHoldTheFile(int code)
{
    return (code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED;
}

/// Tails of this process's Journal objects are told apart by this number.
std::atomic<int> tailCounter{0};

/// Compact JSON as UTF-8 (invalid UTF-8 in strings replaced), as the journal stores it.
std::string jsonUtf8(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// Compact JSON text, or SQL NULL for none.
void addOptionalJson(TailRecord &record, const std::optional<nlohmann::json> &value)
{
    if (value)
        record.add(jsonUtf8(*value));
    else
        record.addNull();
}

void addError(TailRecord &record, const std::optional<StepError> &error)
{
    if (error)
        record.add(jsonUtf8(error->toJson()));
    else
        record.addNull();
}

/// True when a step of the commit must be visible to other connections at once: a
/// call waiting for a person (`toolstudio answer` looks it up in SQLite) or held in
/// step mode.
bool othersMustSee(const std::vector<const Step *> &steps)
{
    for (const Step *step : steps)
        if (step->status == StepStatus::Waiting || step->paused)
            return true;
    return false;
}

} // namespace

void Journal::upsertStep(const Step &step, bool fold, TailRecord &record)
{
    record.op(TailStatement::UpsertStep)
        .add(step.runId)
        .add(step.sequence)
        .add(step.callId)
        .add(step.tool)
        .add(jsonUtf8(step.args))
        .add(step.idempotencyKey)
        .add(stepStatusName(step.status))
        .add(step.maxAttempts);
    addOptionalJson(record, step.result);
    addError(record, step.error);
    record.add(step.queuedAt).add(step.startedAt).add(step.endedAt).add(step.nextAttemptAt).add(step.argsHash);
    addOptionalJson(record, step.originalArgs);
    record.add(step.divergence).add(fold ? step.attempts.front().endedAt : qint64(0));
    record.add(step.recordedStartedAt).add(step.recordedEndedAt).add(step.heldAt);
}

bool Journal::writeStep(const Step &step, TailRecord &record, QString *error)
{
    // A minimal run row, so steps can be recorded before (or without) recordRun.
    if (!m_knownRuns.contains(step.runId)) {
        record.op(TailStatement::EnsureRun).add(step.runId).add(step.queuedAt);
        // Only when new: commit() keeps a copy of the set, and an insert would detach
        // (copy) it on every commit.
        m_knownRuns.insert(step.runId);
    }
    RunRows *rows = runRows(step.runId, error);
    if (!rows)
        return false;
    if (rows->toolsIndexed) {
        // A step of a run that is no longer live (an import, a late write): its tool
        // rows are incomplete from here on, so the trace scans until the run is indexed
        // again (recordRun).
        record.op(TailStatement::UnmarkTools).add(step.runId);
        record.op(TailStatement::ClearTools).add(step.runId);
        rows->toolsIndexed = false;
        m_toolsToIndex.insert(step.runId); // indexed again at the next checkpoint or close
    }
    const bool fold = JournalRows::foldsAttempt(step);
    upsertStep(step, fold, record);
    const AttemptRowsWritten::Plan plan = rows->written.plan(step, fold, rows->olderRows);
    if (plan.deleteAll)
        record.op(TailStatement::DeleteAttempts).add(step.runId).add(step.sequence);
    for (const AttemptRowsWritten::Row &row : plan.rows) {
        if (row.replaces > 0)
            record.op(TailStatement::DeleteAttempt).add(step.runId).add(step.sequence).add(row.replaces);
        const Attempt &attempt = step.attempts[std::size_t(row.index)];
        record.op(TailStatement::InsertAttempt)
            .add(step.runId)
            .add(step.sequence)
            .add(attempt.number)
            .add(attempt.startedAt)
            .add(attempt.endedAt)
            .add(attempt.succeeded ? 1 : 0);
        addError(record, attempt.error);
        record.addBlob(attempt.output);
        addOptionalJson(record, attempt.protocol.is_null() ? std::nullopt : std::optional(attempt.protocol));
        addOptionalJson(
            record, attempt.personWaits.empty() ? std::nullopt : std::optional(personWaitsJson(attempt.personWaits)));
    }
    return true;
}

void Journal::writeEvent(const PolicyEvent &event, TailRecord &record)
{
    record.op(TailStatement::InsertEvent)
        .add(event.runId)
        .add(event.sequence)
        .add(event.at)
        .add(policyEventKindName(event.kind))
        .add(jsonUtf8(event.detail));
}

bool Journal::writeRecords(QByteArrayView records, const QString &tailName, quint64 after, quint64 *last,
                           QString *error, int *code, bool liveStatuses)
{
    SqliteStatement *begin = nativeStatement("BEGIN");
    SqliteStatement *end = nativeStatement("COMMIT");
    SqliteStatement *rollback = nativeStatement("ROLLBACK");
    if (!begin || !end || !rollback || !begin->run(error)) {
        if (begin && code)
            *code = begin->lastCode();
        if (error->isEmpty())
            *error = m_lastError;
        return false;
    }
    bool ok = true;
    quint64 lastSerial = after;
    QString note;
    JournalTail::readRecords(
        records,
        [&](quint64 serial, QByteArrayView ops) {
            if (serial <= after)
                return true;
            ok = runOps(ops, error, code);
            lastSerial = serial;
            return ok;
        },
        &note, false); // sealed by this object: no checksums to verify
    if (ok && !tailName.isEmpty() && lastSerial > after) {
        SqliteStatement *mark = nativeStatement(MarkTailSql);
        ok = mark && mark->add(tailName).add(qint64(lastSerial)).run(error);
    }
    if (ok && liveStatuses)
        ok = writeLiveStatuses(error, code);
    if (ok && !end->run(error)) {
        if (code)
            *code = end->lastCode();
        *error = QStringLiteral("commit: ") + *error;
        ok = false;
    }
    if (!ok) {
        QString ignored;
        rollback->run(&ignored);
        // Records that wait for a writer that holds the file are applied later as they
        // are: what this Journal knows of their rows stays true.
        if (!code || !othersHoldTheFile(*code)) {
            m_knownRuns.clear(); // the rolled-back run rows may be missing
            m_runRows.clear();   // nor the attempt or tool rows; looked up again when needed
        }
        return false;
    }
    if (last)
        *last = lastSerial;
    return true;
}

void Journal::setGroupCommit(int intervalMs, int maxRows)
{
    flush();
    // A timer needs this thread's event loop; without one every commit is written at once.
    const bool loop = QThread::currentThread()->eventDispatcher() != nullptr;
    m_groupCommitMs = loop ? std::max(0, intervalMs) : 0;
    m_groupCommitRows = std::max(1, maxRows);
}

QString Journal::tailPath() const
{
    return m_tail ? m_tail->path() : QString();
}

bool Journal::recordStep(const Step &step)
{
    return commit({&step}, {});
}

bool Journal::recordEvent(const PolicyEvent &event)
{
    return commit({}, {event});
}

bool Journal::commit(const std::vector<const Step *> &steps, const std::vector<PolicyEvent> &events)
{
    if (!isOpen()) {
        m_lastError = QStringLiteral("the journal is not open");
        return false;
    }
    if (!m_record)
        m_record = std::make_unique<TailRecord>();
    TailRecord &record = *m_record;
    record.clear();
    QString error;
    const QSet<QString> knownBefore = m_knownRuns;
    for (const Step *step : steps) {
        if (!writeStep(*step, record, &error)) {
            m_knownRuns = knownBefore;
            m_runRows.clear(); // the marks of the steps before it were not written
            m_lastError = QStringLiteral("recording step %1 (%2): %3").arg(step->sequence).arg(step->tool, error);
            return false;
        }
    }
    for (const PolicyEvent &event : events)
        writeEvent(event, record);
    if (record.ops() == 0)
        return true;
    if (commitRecord(int(steps.size() + events.size()), othersMustSee(steps), knownBefore))
        return true;
    m_runRows.clear(); // what the marks say was written was not
    return false;
}

bool Journal::appendOutput(const QString &runId, int stream, const QByteArray &chunk)
{
    if (!isOpen()) {
        m_lastError = QStringLiteral("the journal is not open");
        return false;
    }
    if (!m_record)
        m_record = std::make_unique<TailRecord>();
    TailRecord &record = *m_record;
    record.clear();
    const QSet<QString> knownBefore = m_knownRuns;
    if (!m_knownRuns.contains(runId)) {
        record.op(TailStatement::EnsureRun).add(runId).add(qint64(0));
        m_knownRuns.insert(runId);
    }
    record.op(TailStatement::InsertOutput)
        .add(runId)
        .add(stream)
        .add(runId)
        .add(stream)
        .addBlob(chunk.isNull() ? QByteArray("") : chunk);
    return commitRecord(1, false, knownBefore);
}

bool Journal::commitRecord(int rows, bool urgent, const QSet<QString> &knownBefore)
{
    TailRecord &record = *m_record;
    QString error;

    if (m_groupCommitMs > 0) {
        if (!m_tail) {
            auto tail = std::make_unique<JournalTail>();
            if (tail->open(JournalTail::fileName(m_path, selfPid(), selfStartTicks(), ++tailCounter), &error))
                m_tail = std::move(tail);
            else
                m_groupCommitMs = 0; // written at once from here on
        }
        if (m_tail) {
            record.seal(++m_tailSerial);
            if (urgent) {
                // Into SQLite now, with what the tail holds: the tail would keep it only
                // until this transaction. Left pending (another writer holds the file),
                // it goes into the tail, durable all the same.
                m_pending += record.bytes();
                m_pendingRows += rows;
                if (flush() || m_pending.isEmpty())
                    return true; // a record SQLite refused was dropped, warned
                if (m_tail->append(record.bytes(), &error))
                    return true;
                m_lastError = error;
                return false;
            }
            if (m_tail->append(record.bytes(), &error)) {
                // Durable (in the tail) before the reply; SQLite gets it with the group.
                m_pending += record.bytes();
                m_pendingRows += rows;
                if (m_pendingRows >= m_groupCommitRows) {
                    flush(); // on failure (warned) the rows stay pending: durable all the same
                    return true;
                }
                scheduleFlush();
                return true;
            }
            // Not in the tail: written to SQLite now, with what the tail holds.
            qWarning("journal: %s; writing to SQLite directly", qUtf8Printable(error));
            m_pending += record.bytes();
            m_pendingRows += rows;
            return flush();
        }
    }

    // Written at once: one transaction, or none for a single statement (SQLite commits
    // it as its own transaction: the common folded step).
    if (!flush())
        return false;
    record.seal(1);
    int code = SQLITE_OK;
    bool ok;
    if (record.ops() == 1) {
        ok = runRecord(record, &error, &code);
        if (!ok) {
            m_knownRuns = knownBefore;
            m_runRows.clear();
        }
    } else {
        ok = writeRecords(record.bytes(), QString(), 0, nullptr, &error, &code);
    }
    if (!ok) {
        m_lastError = error;
        return false;
    }
    rowsSettled();
    committed(rows);
    return true;
}

void Journal::rowsSettled()
{
    for (RunRows &rows : m_runRows)
        rows.written.settled();
}

bool Journal::flush()
{
    if (m_pending.isEmpty() && m_pendingStatus.isEmpty())
        return true;
    if (m_flushTimer)
        m_flushTimer->stop();
    const QString tailName = m_tail ? QFileInfo(m_tail->path()).fileName() : QString();
    QString error;
    int code = SQLITE_OK;
    quint64 last = 0;
    if (writeRecords(m_pending, tailName, 0, &last, &error, &code, true)) {
        rowsSettled();
        liveStatusesWritten();
        committed(m_pendingRows);
        m_pending.clear();
        m_pendingRows = 0;
        if (m_tail && m_tail->size() >= RewindBytes && !m_tail->rewind(&error))
            qWarning("journal: %s", qUtf8Printable(error)); // applied once anyway: journal_tails
        return true;
    }
    m_lastError = error;
    if (othersHoldTheFile(code)) {
        // Another writer holds the file: everything stays pending (and in the tail).
        if (!m_quietDeferral)
            qWarning("journal: group commit of %d row(s) deferred: %s", m_pendingRows, qUtf8Printable(error));
        return false;
    }
    // A record SQLite refuses must not hold back the others: each in a transaction of
    // its own; a refused one is dropped with a warning (as a refused commit was before).
    const QByteArray pending = std::exchange(m_pending, {});
    bool allOk = true;
    m_pending = writeEach(pending, tailName, 0, false, &allOk);
    m_pendingRows = m_pending.isEmpty() ? 0 : 1;
    if (!m_pending.isEmpty())
        return false;
    rowsSettled(); // all in the file, or dropped (and then forgotten: m_runRows cleared)
    // The live statuses did not go with a record: a transaction of their own, or dropped
    // (a run's running/waiting is not a step: nothing waits for it to be durable).
    if (!m_pendingStatus.isEmpty()) {
        if (writeRecords({}, QString(), 0, nullptr, &error, &code, true))
            liveStatusesWritten();
        else
            qWarning("journal: a run status was not recorded: %s", qUtf8Printable(error));
        m_pendingStatus.clear();
    }
    if (m_tail && m_tail->size() >= RewindBytes && !m_tail->rewind(&error))
        qWarning("journal: %s", qUtf8Printable(error));
    return allOk;
}

QByteArray Journal::writeEach(QByteArrayView records, const QString &tailName, quint64 after, bool verify, bool *allOk)
{
    QByteArray kept;
    QString note;
    JournalTail::readRecords(
        records,
        [&](quint64 serial, QByteArrayView ops) {
            const qsizetype header = 16; // length, checksum, serial
            const QByteArrayView whole(ops.data() - header, ops.size() + header);
            if (serial <= after)
                return true;
            if (!kept.isEmpty()) {
                kept += whole;
                return true;
            }
            QString failure;
            int code = SQLITE_OK;
            if (writeRecords(whole, tailName, serial - 1, nullptr, &failure, &code))
                return true;
            if (othersHoldTheFile(code)) {
                kept += whole; // this one and the rest: later
                return true;
            }
            *allOk = false;
            m_lastError = failure;
            qWarning("journal: a step commit SQLite refused was dropped: %s", qUtf8Printable(failure));
            m_runRows.clear(); // its attempt rows are not in the file: written whole next time
            // Handled: recovery must not try it again (nor stop at it).
            SqliteStatement *mark = tailName.isEmpty() ? nullptr : nativeStatement(MarkTailSql);
            if (mark)
                mark->add(tailName).add(qint64(serial)).run(&failure);
            return true;
        },
        &note, verify);
    return kept;
}

void Journal::settle() const
{
    // Logically const: the rows are this object's already; flushing only moves them.
    if (!m_pending.isEmpty())
        const_cast<Journal *>(this)->flush();
}

void Journal::closeTail()
{
    flush();
    m_flushTimer.reset();
    if (!m_tail)
        return;
    const QString name = QFileInfo(m_tail->path()).fileName();
    if (m_pending.isEmpty()) {
        m_tail->remove();
        QString ignored;
        SqliteStatement *forget = nativeStatement(ForgetTailSql);
        if (forget)
            forget->add(name).run(&ignored);
    } else {
        qWarning("journal: %d row(s) could not be written (%s); they stay in %s and are applied when the journal "
                 "is next opened",
                 m_pendingRows, qUtf8Printable(m_lastError), qUtf8Printable(m_tail->path()));
    }
    m_tail.reset();
    m_pending.clear();
    m_pendingRows = 0;
}
