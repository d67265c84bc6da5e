// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <nlohmann/json.hpp>

#include <optional>

class QSqlQuery;
class QVariant;

/// Decoding of journal rows, shared by Journal (the writer's own reads) and
/// JournalReader (the trace's read connection), so both read a step the same way.
/// Schema: journal.cpp's migrations (docs/steps.md "The journal").
namespace JournalRows {

/// The `steps` columns readStep() reads, in its order (after `sequence`).
inline constexpr char StepColumns[] =
    "call_id, tool, args, idempotency_key, status, max_attempts, result, error,"
    " queued_at, started_at, ended_at, next_attempt_at, args_hash, original_args, divergence";
/// The `attempts` columns readAttempt() reads, in its order.
inline constexpr char AttemptColumns[] = "number, started_at, ended_at, succeeded, error, output";

/// A JSON text column; nullopt for SQL NULL or text that is not JSON.
std::optional<nlohmann::json> parseJson(const QVariant &text);
/// A BridgeError JSON column; nullopt for NULL, non-JSON, or an object BridgeError
/// cannot read (written by a newer or broken studio: no error rather than a wrong one).
std::optional<BridgeError> parseError(const QVariant &text);
/// Fills `step` (all but runId, sequence and attempts) from StepColumns, which start
/// at column `first` of `query`'s current row. An unknown status reads as `failed`.
void readStep(const QSqlQuery &query, int first, Step &step);
/// An attempt from AttemptColumns starting at column `first` of the current row.
Attempt readAttempt(const QSqlQuery &query, int first);

} // namespace JournalRows
