// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

class QSqlQuery;
class QVariant;

/// Decoding of journal rows, shared by Journal (the writer's own reads) and
/// JournalReader (the trace's read connection), so both read a step the same way.
/// Schema: journal.cpp's migrations (docs/steps.md "The journal").
namespace JournalRows {

/// `value`, or "" for a null QString: Qt binds a null QString as SQL NULL, and the
/// text columns are NOT NULL.
inline QString notNull(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

/// The `steps` columns readStep() reads, in its order (after `sequence`); then come
/// `attempt_ended_at` (schema 5), the recorded timing (schema 8) and `held_at` (schema
/// 10). The fallbacks stand in for them when a file of an older schema is read without
/// migrating (JournalReader).
inline constexpr char StepColumns[]
    = "call_id, tool, args, idempotency_key, status, max_attempts, result, error,"
      " queued_at, started_at, ended_at, next_attempt_at, args_hash, original_args, divergence, attempt_ended_at,"
      " recorded_started_at, recorded_ended_at, held_at";
inline constexpr char FoldedAttemptColumn[] = "attempt_ended_at";
inline constexpr char FoldedAttemptFallback[] = "0 AS attempt_ended_at";
inline constexpr char RecordedTimingColumns[] = "recorded_started_at, recorded_ended_at";
inline constexpr char RecordedTimingFallback[] = "0 AS recorded_started_at, 0 AS recorded_ended_at";
/// Step::heldAt (schema 10): a step-mode hold's start.
inline constexpr char HeldAtColumn[] = "held_at";
inline constexpr char HeldAtFallback[] = "0 AS held_at";
/// The `attempts` columns readAttempt() reads, in its order; the last two, `protocol`
/// (schema 9) and `person_waits` (schema 10), have fallbacks for older files as the
/// step's columns have.
inline constexpr char AttemptColumns[]
    = "number, started_at, ended_at, succeeded, error, output, protocol, person_waits";
inline constexpr char ProtocolColumn[] = "protocol";
inline constexpr char ProtocolFallback[] = "NULL AS protocol";
/// Attempt::personWaits (schema 10): personWaitsJson() text; NULL = none.
inline constexpr char PersonWaitsColumn[] = "person_waits";
inline constexpr char PersonWaitsFallback[] = "NULL AS person_waits";

/// A JSON text column; nullopt for SQL NULL or text that is not JSON.
std::optional<nlohmann::json> parseJson(const QVariant &text);
/// A StepError JSON column; nullopt for NULL, non-JSON, or an object StepError
/// cannot read (written by a newer or broken studio: no error rather than a wrong one).
std::optional<StepError> parseError(const QVariant &text);
/// Fills `step` (all but runId and sequence) from StepColumns, which start at column
/// `first` of `query`'s current row. An unknown status reads as `failed`. `attempts`
/// gets the step's folded attempt (foldedAttempt()) when it has one; the caller appends
/// the rows of the `attempts` table (none for a step with a folded attempt).
void readStep(const QSqlQuery &query, int first, Step &step);
/// Schema 5 (issue 4, bridge speed): a step whose only attempt is number 1, succeeded,
/// started when the step did and has no error, no output, no protocol exchange and no
/// wait for a person is written without an
/// `attempts` row; `steps.attempt_ended_at` (> 0) holds that attempt's end. 0 = the
/// attempts are rows of `attempts` (or there are none).
Attempt foldedAttempt(qint64 startedAt, qint64 endedAt);
/// True when Journal writes `step`'s attempts as steps.attempt_ended_at, not as rows.
bool foldsAttempt(const Step &step);
/// An attempt from AttemptColumns starting at column `first` of the current row.
Attempt readAttempt(const QSqlQuery &query, int first);
/// attempts.person_waits as written (personWaitsJson()); none for NULL or broken text.
std::vector<PersonWait> readPersonWaits(const QVariant &text);

} // namespace JournalRows
