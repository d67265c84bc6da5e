// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Journal's tail statements run on SQLite: each TailStatement's SQL, bound with a
// record's values (journaltail.h), and what a refusal says ("recording step 3 (echo):
// attempt 1: UNIQUE constraint failed: ...").
#include "journal/journal.h"

#include "journal/journalstatement.h"
#include "journal/journaltail.h"

using JournalSql::ClearToolsSql;
using JournalSql::EnsureRunSql;
using JournalSql::UnmarkToolsSql;

namespace {

/// The last three values (schema 8, schema 10) are absent from a tail written by an
/// older studio: unbound, they read as NULL, and COALESCE makes them 0.
constexpr char UpsertStepSql[]
    = "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts,"
      " result, error, queued_at, started_at, ended_at, next_attempt_at, args_hash, original_args, divergence,"
      " attempt_ended_at, recorded_started_at, recorded_ended_at, held_at)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 0), COALESCE(?, 0), COALESCE(?, 0))"
      " ON CONFLICT (run_id, sequence) DO UPDATE SET call_id = excluded.call_id, tool = excluded.tool,"
      " args = excluded.args, idempotency_key = excluded.idempotency_key, status = excluded.status,"
      " max_attempts = excluded.max_attempts, result = excluded.result, error = excluded.error,"
      " queued_at = excluded.queued_at, started_at = excluded.started_at, ended_at = excluded.ended_at,"
      " next_attempt_at = excluded.next_attempt_at, args_hash = excluded.args_hash,"
      " original_args = excluded.original_args, divergence = excluded.divergence,"
      " attempt_ended_at = excluded.attempt_ended_at, recorded_started_at = excluded.recorded_started_at,"
      " recorded_ended_at = excluded.recorded_ended_at, held_at = excluded.held_at";
constexpr char DeleteAttemptsSql[] = "DELETE FROM attempts WHERE run_id = ? AND sequence = ?";
constexpr char DeleteAttemptSql[] = "DELETE FROM attempts WHERE run_id = ? AND sequence = ? AND number = ?";
/// `person_waits` (schema 10) is absent from an older studio's tail: unbound, NULL.
constexpr char InsertAttemptSql[]
    = "INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded, error, output, protocol,"
      " person_waits) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr char InsertEventSql[]
    = "INSERT INTO policy_events (run_id, sequence, at, kind, detail) VALUES (?, ?, ?, ?, ?)";
constexpr char InsertOutputSql[]
    = "INSERT INTO output (run_id, stream, seq, chunk) VALUES (?, ?,"
      " (SELECT COALESCE(MAX(seq), 0) + 1 FROM output WHERE run_id = ? AND stream = ?), ?)";

const char *sqlOf(TailStatement statement)
{
    switch (statement) {
    case TailStatement::EnsureRun:
        return EnsureRunSql;
    case TailStatement::UpsertStep:
        return UpsertStepSql;
    case TailStatement::DeleteAttempts:
        return DeleteAttemptsSql;
    case TailStatement::InsertAttempt:
        return InsertAttemptSql;
    case TailStatement::InsertEvent:
        return InsertEventSql;
    case TailStatement::UnmarkTools:
        return UnmarkToolsSql;
    case TailStatement::ClearTools:
        return ClearToolsSql;
    case TailStatement::InsertOutput:
        return InsertOutputSql;
    case TailStatement::DeleteAttempt:
        return DeleteAttemptSql;
    }
    return nullptr;
}

QString textOf(const TailValue &value)
{
    return value.type == TailValue::Text ? QString::fromUtf8(value.data, value.size) : QString();
}

} // namespace

bool Journal::runOps(QByteArrayView ops, QString *error, int *code)
{
    QString context;
    bool ok = JournalTail::readOps(ops, [&](TailStatement op, const std::vector<TailValue> &values) {
        const char *sql = sqlOf(op);
        SqliteStatement *statement = sql ? nativeStatement(sql) : nullptr;
        const QString runId = values.empty() ? QString() : textOf(values[0]);
        QString what;
        switch (op) {
        case TailStatement::UpsertStep:
            context = values.size() > 3
                ? QStringLiteral("recording step %1 (%2)").arg(values[1].integer).arg(textOf(values[3]))
                : QString();
            what = QStringLiteral("step row");
            break;
        case TailStatement::InsertAttempt:
            what = QStringLiteral("attempt %1").arg(values.size() > 2 ? values[2].integer : 0);
            break;
        case TailStatement::DeleteAttempts:
            what = QStringLiteral("old attempts");
            break;
        case TailStatement::DeleteAttempt:
            what = QStringLiteral("attempt %1's old row").arg(values.size() > 2 ? values[2].integer : 0);
            break;
        case TailStatement::InsertEvent:
            context = QStringLiteral("recording event %1").arg(values.size() > 3 ? textOf(values[3]) : QString());
            break;
        case TailStatement::EnsureRun:
            context = QStringLiteral("recording run %1").arg(runId);
            what = QStringLiteral("run row");
            break;
        case TailStatement::UnmarkTools:
        case TailStatement::ClearTools:
            what = QStringLiteral("tool index");
            break;
        case TailStatement::InsertOutput:
            context = QStringLiteral("recording output of run %1").arg(runId);
            break;
        }
        QString failure;
        if (!statement) {
            failure = sql ? m_lastError
                          : QStringLiteral("unknown statement %1 (written by a newer Tool Studio?)").arg(int(op));
        } else {
            for (const TailValue &value : values)
                statement->add(value);
            if (statement->run(&failure))
                return true;
            if (code)
                *code = statement->lastCode();
        }
        *error = QStringLiteral("%1: %2").arg(context.isEmpty() ? QStringLiteral("recording") : context,
                                              what.isEmpty() ? failure : what + QStringLiteral(": ") + failure);
        return false;
    });
    if (!ok && error->isEmpty())
        *error = QStringLiteral("a malformed tail record");
    return ok;
}

bool Journal::runRecord(const TailRecord &record, QString *error, int *code)
{
    bool ok = true;
    QString note;
    JournalTail::readRecords(
        record.bytes(),
        [&](quint64, QByteArrayView ops) {
            ok = runOps(ops, error, code);
            return ok;
        },
        &note, false);
    return ok;
}
