// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journalreader.h"

#include "journal/journalrows.h"
#include "journal/journalruns.h"

#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <map>

namespace {

std::atomic<int> readerCounter{0};

// Error columns hold StepError JSON; a broken one must not fail the whole page.
constexpr auto ErrorCode = "CASE WHEN json_valid(%1) THEN json_extract(%1, '$.code') END";
constexpr auto ErrorMessage = "CASE WHEN json_valid(%1) THEN substr(json_extract(%1, '$.message'), 1, 201) END";

QString errorColumns(const QString &column)
{
    return QString::fromLatin1(ErrorCode).arg(column) + QStringLiteral(", ")
        + QString::fromLatin1(ErrorMessage).arg(column);
}

QString likePattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    escaped.replace(QLatin1Char('%'), QStringLiteral("\\%"));
    escaped.replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

} // namespace

JournalReader::JournalReader()
    : m_connectionName(QStringLiteral("toolstudio-journal-reader-%1").arg(++readerCounter))
{}

JournalReader::~JournalReader()
{
    if (!QSqlDatabase::contains(m_connectionName))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

bool JournalReader::open(const QString &path, QString *error)
{
    m_path = QFileInfo(path).absoluteFilePath();
    const auto fail = [&](const QString &message) {
        m_lastError = message;
        if (error)
            *error = message;
        return false;
    };
    if (!QFileInfo(m_path).isFile())
        return fail(QStringLiteral("%1: no such journal").arg(m_path));
    QSqlDatabase db = QSqlDatabase::contains(m_connectionName)
        ? QSqlDatabase::database(m_connectionName, false)
        : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.close();
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open())
        return fail(QStringLiteral("%1: cannot open: %2").arg(m_path, db.lastError().text()));
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('steps', 'attempts', 'policy_events')"))
        || !query.next() || query.value(0).toInt() != 3) {
        db.close();
        return fail(QStringLiteral("%1: not a Tool Studio journal (version 2 or later)").arg(m_path));
    }
    // Schema 5 folds a step's one successful attempt into its row; an older file has
    // only attempt rows.
    m_foldedAttempt = query.exec(QStringLiteral("SELECT attempt_ended_at FROM steps LIMIT 0"))
        ? QString::fromLatin1(JournalRows::FoldedAttemptColumn)
        : QString::fromLatin1(JournalRows::FoldedAttemptFallback);
    // Schema 8 keeps a memoized step's recorded timing; an older file has none.
    m_recordedTiming = query.exec(QStringLiteral("SELECT recorded_started_at FROM steps LIMIT 0"))
        ? QString::fromLatin1(JournalRows::RecordedTimingColumns)
        : QString::fromLatin1(JournalRows::RecordedTimingFallback);
    // Schema 9 keeps an MCP attempt's protocol exchange; an older file has none.
    m_attemptProtocol = query.exec(QStringLiteral("SELECT protocol FROM attempts LIMIT 0"))
        ? QString::fromLatin1(JournalRows::ProtocolColumn)
        : QString::fromLatin1(JournalRows::ProtocolFallback);
    // Schema 10 keeps the times a person was waited for; an older file has none (no
    // waiting segment on the timeline).
    const bool waits = query.exec(QStringLiteral("SELECT person_waits FROM attempts LIMIT 0"));
    m_personWaits = QString::fromLatin1(waits ? JournalRows::PersonWaitsColumn : JournalRows::PersonWaitsFallback);
    m_heldAt = QString::fromLatin1(waits ? JournalRows::HeldAtColumn : JournalRows::HeldAtFallback);
    // The status filters name their partial indexes (INDEXED BY): on the WITHOUT ROWID
    // steps and attempts tables SQLite's planner, without statistics, prefers the
    // primary key (run_id=?) and reads every row of the run — 0.3-0.7 s at a million
    // steps where the index holds the few failed ones (~1 ms). A file older than
    // schema 3 lacks them and scans (INDEXED BY a missing index is an error).
    m_indexedBy.clear();
    if (query.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'index'"
                                  " AND name IN ('steps_failed', 'steps_waiting', 'attempts_failed')"))) {
        while (query.next()) {
            const QString name = query.value(0).toString();
            m_indexedBy.insert(name, QStringLiteral(" INDEXED BY ") + name);
        }
    }
    // The reader never writes: the indexes its filters use (by tool, failed, waiting)
    // come with the journal's schema version 3 (Journal::open migrates). On an older
    // file the same queries scan, only slower. Building them here would hold SQLite's
    // write lock for seconds at a million steps and stall a live run's commits.
    m_lastError.clear();
    return true;
}

bool JournalReader::isOpen() const
{
    return QSqlDatabase::contains(m_connectionName) && QSqlDatabase::database(m_connectionName, false).isOpen();
}

JournalReader::Extent JournalReader::extent(const QString &runId) const
{
    Extent e;
    if (!isOpen())
        return e;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral(
        "SELECT count(*), IFNULL(min(sequence), 0), IFNULL(max(sequence), 0) FROM steps WHERE run_id = ?"));
    query.addBindValue(runId);
    if (!query.exec() || !query.next()) {
        m_lastError = query.lastError().text();
        return e;
    }
    e.count = query.value(0).toInt();
    e.first = query.value(1).toInt();
    e.last = query.value(2).toInt();
    return e;
}

std::pair<int, int> JournalReader::sequenceRange(const QString &runId) const
{
    if (!isOpen())
        return {0, 0};
    // Two look-ups in the (run_id, sequence) key; min() and max() beside count(*), as
    // in extent(), read every row of the run (~250 ms at a million steps).
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT IFNULL((SELECT min(sequence) FROM steps WHERE run_id = ?), 0),"
                                 " IFNULL((SELECT max(sequence) FROM steps WHERE run_id = ?), 0)"));
    query.addBindValue(runId);
    query.addBindValue(runId);
    if (!query.exec() || !query.next()) {
        m_lastError = query.lastError().text();
        return {0, 0};
    }
    return {query.value(0).toInt(), query.value(1).toInt()};
}

std::vector<int> JournalReader::sequences(const QString &runId) const
{
    std::vector<int> result;
    if (!isOpen())
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT sequence FROM steps WHERE run_id = ? ORDER BY sequence"));
    query.addBindValue(runId);
    if (!query.exec())
        return result;
    while (query.next())
        result.push_back(query.value(0).toInt());
    return result;
}

std::vector<StepSummary> JournalReader::summaries(const QString &runId, int first, int last) const
{
    std::vector<StepSummary> result;
    if (!isOpen() || last < first)
        return result;
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(
        QStringLiteral("SELECT sequence, call_id, tool, status, max_attempts, queued_at, started_at, ended_at,"
                       " result IS NOT NULL, substr(result, 1, 201), %1, substr(divergence, 1, 201), %2, %3"
                       " FROM steps WHERE run_id = ? AND sequence BETWEEN ? AND ? ORDER BY sequence")
            .arg(errorColumns(QStringLiteral("error")), m_foldedAttempt, m_heldAt));
    query.addBindValue(runId);
    query.addBindValue(first);
    query.addBindValue(last);
    if (!query.exec()) {
        m_lastError = query.lastError().text();
        return result;
    }
    std::map<int, std::size_t> bySequence;
    while (query.next()) {
        StepSummary s;
        s.sequence = query.value(0).toInt();
        s.callId = query.value(1).toString();
        s.tool = query.value(2).toString();
        s.status = stepStatusFromName(query.value(3).toString()).value_or(StepStatus::Failed);
        s.maxAttempts = query.value(4).toInt();
        s.queuedAt = query.value(5).toLongLong();
        s.startedAt = query.value(6).toLongLong();
        s.endedAt = query.value(7).toLongLong();
        s.hasResult = query.value(8).toBool();
        s.resultText = query.value(9).toString();
        s.errorCode = query.value(10).toString();
        if (!query.value(10).isNull() || !query.value(11).isNull())
            s.errorText = StepSummary::cut(StepSummary::joinError(s.errorCode, query.value(11).toString()));
        s.divergence = query.value(12).toString();
        s.heldAt = query.value(14).toLongLong();
        if (const qint64 attemptEnd = query.value(13).toLongLong(); attemptEnd > 0) {
            // Schema 5: the one attempt folded into the step row (JournalRows::foldedAttempt).
            AttemptSummary a;
            a.number = 1;
            a.startedAt = s.startedAt;
            a.endedAt = attemptEnd;
            a.succeeded = true;
            s.attempts.push_back(std::move(a));
        }
        bySequence[s.sequence] = result.size();
        result.push_back(std::move(s));
    }
    QSqlQuery attempts(db);
    attempts.setForwardOnly(true);
    attempts.prepare(
        QStringLiteral("SELECT sequence, number, started_at, ended_at, succeeded, %1, IFNULL(length(output), 0), %2"
                       " FROM attempts WHERE run_id = ? AND sequence BETWEEN ? AND ? ORDER BY sequence, number")
            .arg(errorColumns(QStringLiteral("error")), m_personWaits));
    attempts.addBindValue(runId);
    attempts.addBindValue(first);
    attempts.addBindValue(last);
    if (!attempts.exec()) {
        m_lastError = attempts.lastError().text();
        return result;
    }
    while (attempts.next()) {
        const auto it = bySequence.find(attempts.value(0).toInt());
        if (it == bySequence.end())
            continue;
        AttemptSummary a;
        a.number = attempts.value(1).toInt();
        a.startedAt = attempts.value(2).toLongLong();
        a.endedAt = attempts.value(3).toLongLong();
        a.succeeded = attempts.value(4).toInt() != 0;
        a.errorCode = attempts.value(5).toString();
        if (!attempts.value(5).isNull() || !attempts.value(6).isNull())
            a.errorText = StepSummary::cut(StepSummary::joinError(a.errorCode, attempts.value(6).toString()));
        a.outputBytes = attempts.value(7).toLongLong();
        a.personWaits = closedWaits(JournalRows::readPersonWaits(attempts.value(8)), a.endedAt);
        result[it->second].attempts.push_back(std::move(a));
    }
    return result;
}

std::optional<Step> JournalReader::step(const QString &runId, int sequence) const
{
    if (!isOpen())
        return std::nullopt;
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT %1 FROM steps WHERE run_id = ? AND sequence = ?")
                      .arg(QString::fromLatin1(JournalRows::StepColumns)
                               .replace(QLatin1String(JournalRows::FoldedAttemptColumn), m_foldedAttempt)
                               .replace(QLatin1String(JournalRows::RecordedTimingColumns), m_recordedTiming)
                               .replace(QLatin1String(JournalRows::HeldAtColumn), m_heldAt)));
    query.addBindValue(runId);
    query.addBindValue(sequence);
    if (!query.exec() || !query.next()) {
        m_lastError = query.lastError().text();
        return std::nullopt;
    }
    Step s;
    s.runId = runId;
    s.sequence = sequence;
    JournalRows::readStep(query, 0, s);

    QSqlQuery attempts(db);
    attempts.setForwardOnly(true);
    attempts.prepare(QStringLiteral("SELECT %1 FROM attempts WHERE run_id = ? AND sequence = ? ORDER BY number")
                         .arg(QString::fromLatin1(JournalRows::AttemptColumns)
                                  .replace(QLatin1String(JournalRows::ProtocolColumn), m_attemptProtocol)
                                  .replace(QLatin1String(JournalRows::PersonWaitsColumn), m_personWaits)));
    attempts.addBindValue(runId);
    attempts.addBindValue(sequence);
    if (attempts.exec()) {
        while (attempts.next())
            s.attempts.push_back(JournalRows::readAttempt(attempts, 0));
    }
    return s;
}

int JournalReader::sequenceOf(const QString &runId, const QString &callId) const
{
    if (!isOpen())
        return 0;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    // The newest row with the id, not the highest sequence: a resumed run's reopened call
    // keeps its recorded sequence, and an older row of the run may carry the same id.
    query.prepare(QStringLiteral("SELECT sequence FROM steps WHERE run_id = ? AND call_id = ? "
                                 "ORDER BY queued_at DESC, sequence DESC LIMIT 1"));
    query.addBindValue(runId);
    query.addBindValue(callId);
    return query.exec() && query.next() ? query.value(0).toInt() : 0;
}

bool JournalReader::toolsIndexed(const QString &runId) const
{
    // Schema 6: runs.tools_indexed says step_tools holds every step of the run. An older
    // file has no such column (its steps_by_tool index serves `tool = ?`).
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    if (!query.prepare(QStringLiteral("SELECT tools_indexed FROM runs WHERE id = ?")))
        return false;
    query.addBindValue(runId);
    return query.exec() && query.next() && query.value(0).toInt() != 0;
}

QStringList JournalReader::tools(const QString &runId) const
{
    QStringList result;
    if (!isOpen())
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    if (!toolsIndexed(runId)) {
        // A live run (or one that ended without being indexed): one scan of its rows.
        query.setForwardOnly(true);
        query.prepare(QStringLiteral("SELECT DISTINCT tool FROM steps WHERE run_id = ? ORDER BY tool"));
        query.addBindValue(runId);
        if (query.exec()) {
            while (query.next())
                result.append(query.value(0).toString());
        }
        return result;
    }
    // One look-up per tool in step_tools (run_id, tool, sequence).
    query.prepare(QStringLiteral("SELECT min(tool) FROM step_tools WHERE run_id = ? AND tool > ?"));
    QString after = QStringLiteral("");
    for (;;) {
        query.bindValue(0, runId);
        query.bindValue(1, after);
        if (!query.exec() || !query.next() || query.value(0).isNull())
            break;
        after = query.value(0).toString();
        query.finish();
        result.append(after);
    }
    return result;
}

std::vector<int> JournalReader::matching(const QString &runId, const StepQuery &q) const
{
    std::vector<int> result;
    if (!isOpen())
        return result;
    QString sql = QStringLiteral("SELECT sequence FROM steps WHERE run_id = ?");
    QVariantList values{runId};
    if (!q.tool.isEmpty() && q.status == StepQuery::Status::All && q.text.isEmpty() && toolsIndexed(runId)) {
        // The tool alone: its rows of step_tools (schema 6), in order, without touching
        // the steps (80 ms for 100 000 of a million steps; "sequence IN (…)" took 220+).
        sql = QStringLiteral("SELECT sequence FROM step_tools WHERE run_id = ? AND tool = ?");
        values << q.tool;
    } else if (!q.tool.isEmpty()) {
        // With a status filter the status's short list of sequences (below) drives the
        // query — one primary-key look-up per listed step, tool checked on its row — so
        // it needs no step_tools rows (a live or crashed run has none) and is faster
        // than starting from the tool's 100 000 rows of a million. A text filter reads
        // the steps' result and error anyway: starting from step_tools and joining the
        // steps by (run_id, sequence) measured no faster than scanning the run's rows
        // (0.48 vs 0.44 s for a tenth of a million steps), so it scans.
        sql += QStringLiteral(" AND tool = ?");
        values << q.tool;
    }
    if (q.status == StepQuery::Status::PendingOnly) {
        sql += QStringLiteral(" AND sequence IN (SELECT sequence FROM steps%1 WHERE run_id = ? AND status = 'waiting')")
                   .arg(m_indexedBy.value(QStringLiteral("steps_waiting")));
        values << runId;
    } else if (q.status == StepQuery::Status::FailedOnly) {
        sql += QStringLiteral(" AND sequence IN (SELECT sequence FROM steps%1 WHERE run_id = ? AND status = 'failed')")
                   .arg(m_indexedBy.value(QStringLiteral("steps_failed")));
        values << runId;
    } else if (q.status == StepQuery::Status::HadFailures) {
        // Both halves read their partial index (steps_failed, attempts_failed; open()).
        sql += QStringLiteral(
                   " AND sequence IN (SELECT sequence FROM steps%1 WHERE run_id = ? AND status = 'failed'"
                   " UNION SELECT sequence FROM attempts%2 WHERE run_id = ? AND ended_at > 0 AND succeeded = 0)")
                   .arg(m_indexedBy.value(QStringLiteral("steps_failed")),
                        m_indexedBy.value(QStringLiteral("attempts_failed")));
        values << runId << runId;
    }
    if (!q.text.isEmpty()) {
        // What the Summary column shows: the result, the error, or (no outcome yet)
        // an attempt's error. LIKE is case-insensitive for ASCII letters only.
        const QString like = likePattern(q.text);
        sql += QStringLiteral(
            " AND (tool LIKE ?1 ESCAPE '\\' OR call_id LIKE ?1 ESCAPE '\\'"
            " OR substr(result, 1, 200) LIKE ?1 ESCAPE '\\'"
            " OR (json_valid(error) AND (json_extract(error, '$.code') LIKE ?1 ESCAPE '\\'"
            "     OR substr(json_extract(error, '$.message'), 1, 200) LIKE ?1 ESCAPE '\\'))"
            " OR (result IS NULL AND error IS NULL AND sequence IN (SELECT sequence FROM attempts"
            "     WHERE run_id = steps.run_id AND json_valid(error) AND (json_extract(error, '$.code') LIKE ?1 ESCAPE '\\'"
            "     OR json_extract(error, '$.message') LIKE ?1 ESCAPE '\\'))))");
        // Qt's SQLite driver binds anonymous placeholders only: one value per use.
        const int uses = int(sql.count(QStringLiteral("?1")));
        sql.replace(QStringLiteral("?1"), QStringLiteral("?"));
        for (int i = 0; i < uses; ++i)
            values << like;
    }
    sql += QStringLiteral(" ORDER BY sequence");
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.prepare(sql)) {
        m_lastError = query.lastError().text();
        return result;
    }
    for (int i = 0; i < values.size(); ++i)
        query.bindValue(i, values.at(i));
    if (!query.exec()) {
        m_lastError = query.lastError().text();
        return result;
    }
    while (query.next())
        result.push_back(query.value(0).toInt());
    return result;
}

std::vector<PolicyEvent> JournalReader::events(const QString &runId) const
{
    if (!isOpen())
        return {};
    return JournalRuns(m_connectionName).events(runId);
}

int JournalReader::sequenceAt(const QString &runId, qint64 at) const
{
    const Extent e = extent(runId);
    if (e.count == 0)
        return 0;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral(
        "SELECT sequence, queued_at FROM steps WHERE run_id = ? AND sequence >= ? ORDER BY sequence LIMIT 1"));
    // Invariant: steps below `lo` were queued at or before `at`; from `hi` on, after it.
    int lo = e.first;
    int hi = e.last + 1;
    int found = 0;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        query.bindValue(0, runId);
        query.bindValue(1, mid);
        if (!query.exec() || !query.next())
            break;
        const int sequence = query.value(0).toInt();
        if (query.value(1).toLongLong() <= at) {
            found = sequence;
            lo = sequence + 1;
        } else {
            hi = mid;
        }
        query.finish();
    }
    return found;
}

std::vector<StepSpan> JournalReader::spans(const QString &runId,
                                           std::vector<std::pair<int, StepSpan::Segment>> *segments) const
{
    std::vector<StepSpan> result;
    if (!isOpen())
        return result;
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(db);
    query.setForwardOnly(true);
    // A step-mode hold starts the bar (StepSpan::startOf); it ends at the queue time.
    query.prepare(QStringLiteral("SELECT sequence, CASE WHEN %1 > 0 THEN %1 WHEN started_at > 0 THEN started_at"
                                 " ELSE queued_at END, ended_at, status, %1, queued_at"
                                 " FROM steps WHERE run_id = ? ORDER BY sequence")
                      .arg(m_heldAt == QLatin1String(JournalRows::HeldAtColumn) ? m_heldAt : QStringLiteral("0")));
    query.addBindValue(runId);
    if (!query.exec())
        return result;
    std::vector<std::pair<int, StepSpan::Segment>> holds;
    while (query.next()) {
        StepSpan span;
        span.sequence = query.value(0).toInt();
        span.start = query.value(1).toLongLong();
        span.end = query.value(2).toLongLong();
        span.status = stepStatusFromName(query.value(3).toString()).value_or(StepStatus::Failed);
        if (const qint64 heldAt = query.value(4).toLongLong(); heldAt > 0)
            holds.push_back({span.sequence, {heldAt, query.value(5).toLongLong(), false, true}});
        result.push_back(std::move(span));
    }
    if (!segments)
        return result;
    // Attempt segments only for steps that were retried (the rest is one bar); the
    // waits of every attempt that had one.
    QSqlQuery attempts(db);
    attempts.setForwardOnly(true);
    attempts.prepare(
        QStringLiteral("SELECT sequence, number, started_at, ended_at, succeeded, %1 FROM attempts WHERE run_id = ?"
                       " AND sequence IN (SELECT sequence FROM attempts WHERE run_id = ? AND (number = 2 OR %1 IS NOT"
                       " NULL)) ORDER BY sequence, number")
            .arg(m_personWaits == QLatin1String(JournalRows::PersonWaitsColumn) ? m_personWaits
                                                                                : QStringLiteral("NULL")));
    attempts.addBindValue(runId);
    attempts.addBindValue(runId);
    std::size_t hold = 0;
    StepSummary step; // the attempts of one step at a time, as StepSpan::segmentsOf reads them
    const auto flush = [&] {
        if (step.sequence == 0)
            return;
        for (; hold < holds.size() && holds[hold].first < step.sequence; ++hold)
            segments->push_back(holds[hold]);
        if (hold < holds.size() && holds[hold].first == step.sequence) {
            step.heldAt = holds[hold].second.start;
            step.queuedAt = holds[hold].second.end;
            ++hold;
        }
        for (const StepSpan::Segment &segment : StepSpan::segmentsOf(step))
            segments->push_back({step.sequence, segment});
        step = StepSummary();
    };
    if (attempts.exec()) {
        while (attempts.next()) {
            if (const int sequence = attempts.value(0).toInt(); sequence != step.sequence) {
                flush();
                step.sequence = sequence;
            }
            AttemptSummary a;
            a.number = attempts.value(1).toInt();
            a.startedAt = attempts.value(2).toLongLong();
            a.endedAt = attempts.value(3).toLongLong();
            a.succeeded = attempts.value(4).toInt() != 0;
            a.personWaits = closedWaits(JournalRows::readPersonWaits(attempts.value(5)), a.endedAt);
            step.attempts.push_back(std::move(a));
        }
        flush();
    }
    for (; hold < holds.size(); ++hold)
        segments->push_back(holds[hold]);
    return result;
}
