// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "servedstepmode.h"

#include <QString>

#include <optional>
#include <string>

/// The bodies of the pending-calls routes. `POST /v1/runs/{run}/calls/{call_id}` (docs/server.md): `{"type":
/// "tool.result", "id", "attempt"?, "result"}` or `{"type": "tool.error", "id",
/// "attempt"?, "error", "retryable"?}`, read by JsonInput (depth, numbers, UTF-8).
namespace AnswerBody {

/// Names and values from the body quoted in a problem: at most this many characters each.
constexpr qsizetype QuotedChars = 128;

/// The answer `body` describes for the call `callId`, with `*attempt` (0 when the body
/// names none); nullopt with `*problem` saying what is wrong (names and values from the
/// body elided to QuotedChars, control characters escaped).
std::optional<ManualAnswer> read(const std::string &body, const QString &callId, int *attempt, QString *problem);

/// The body of `POST /v1/runs/{run}/calls/{call_id}/decision` (docs/server.md "Step mode
/// for served calls"): `{"decision": "continue"}`, `{"decision": "answer", "result"}`,
/// `{"decision": "fail", "error", "retryable"?}` or `{"decision": "time_out"}` — the
/// names of the journal's `step_decision` events. Nullopt with `*problem` as read().
std::optional<ServedStepMode::Decision> readDecision(const std::string &body, QString *problem);

} // namespace AnswerBody
