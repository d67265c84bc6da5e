// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project.h"
#include "step.h"

#include <QObject>
#include <QStringList>

#include <memory>

class Journal;
class StepEngineState;

/// Runs every tool call of one run as a durable step (DESIGN.md "Steps: the engine"):
/// declared and active? → max calls → request cap → positional args mapped to the
/// schema's property order → input_schema validation → step recorded in the journal
/// → handler attempt under the attempt timeout → retries with exponential backoff and
/// jitter → output_schema and reply cap → commit → replyReady.
///
/// Every call yields exactly one replyReady (result or error), emitted only after the
/// step's final state is committed to the journal (write-ahead). Lives on the thread
/// that owns it; handlers are asynchronous (timers, QProcess, a person's answer).
///
/// Steps: sequence = order of arrival (1-based, refused calls included); idempotency
/// key "<runId>:<sequence>", the same for every attempt. A refused call is a `failed`
/// step with zero attempts. An inactive tool is refused as inactive_tool even when it
/// is not in `boundTools`; a declared, active tool missing from a non-empty
/// `boundTools` is unknown_tool ("not bound to this script").
///
/// Error replies: `attempts` = attempts made (0 for refusals). A handler failure is
/// tool_failed (timeout when a time bound fired, reply_too_large for the reply cap).
/// `retryable` is the last attempt's flag — whether the failure was transient — even
/// when the engine has used up max_attempts; refusals, output_schema mismatches and
/// the total timeout are never retryable. Retry n+1 waits min(initial × factor^(n−1),
/// max_backoff) ± jitter; the total timeout runs from the first attempt's start.
class StepEngine : public QObject
{
    Q_OBJECT
public:
    /// `journal` may be nullptr (nothing persisted; tests). `boundTools` empty = every
    /// active tool.
    StepEngine(const Project &project, const QString &runId, Journal *journal,
               const QStringList &boundTools, QObject *parent = nullptr);
    ~StepEngine() override;

    /// A call from the script. Errors (unknown_tool, inactive_tool, invalid_arguments
    /// with the JSON pointer, request_too_large, max_calls_exceeded) are recorded as a
    /// failed step and replied at once; the handler never runs for them.
    void submitCall(const BridgeCall &call);

    /// Answers the current attempt of a pending call. Refused (returns false, `reason`
    /// filled, nothing changed) when the call is unknown, finished, not waiting for a
    /// person, `attempt` is not its current attempt, the attempt was already answered,
    /// or a result does not match the tool's output_schema (so the person can fix it).
    /// An accepted answer is applied before this returns: the step is final (and its
    /// reply sent) or, for a retryable error with attempts left, `retrying`.
    bool answer(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason = nullptr);

    /// Stop: every unfinished step becomes `cancelled` (handlers killed), replies are
    /// not sent afterwards.
    void cancelAll(const QString &reason);

    const std::vector<Step> &steps() const;
    const Step *step(const QString &callId) const;
    /// Steps whose current attempt waits for a person.
    int pendingCount() const;
    /// Calls counted against limits.max_calls (declared, active, bound tools).
    int callCount() const;

Q_SIGNALS:
    void stepAdded(const Step &step);
    void stepChanged(const Step &step);
    /// A step's current attempt now waits for a person.
    void pendingCallOpened(const Step &step);
    /// A pending call got its answer (or was cancelled).
    void pendingCallClosed(const QString &callId);
    /// The reply for call `id`: `line` is the encoded bridge message with its '\n'.
    void replyReady(const std::string &id, const std::string &line);
    /// The journal refused a write (disk full, file removed…); the run goes on, but the
    /// write-ahead promise no longer holds — the run controller should fail the run.
    void journalFailed(const QString &message);

private:
    std::unique_ptr<StepEngineState> d;
};
