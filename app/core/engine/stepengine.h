// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"

#include <QObject>
#include <QStringList>

#include <memory>

struct BridgeCall;
class Journal;
class StepEngineState;

/// What a run replays (DESIGN.md "Replay", "Resume"; docs/steps.md "Call identity"):
/// the steps of an earlier run from the journal or a cassette. Each call is matched by
/// its identity (CallIdentity: tool, argument hash, number of earlier identical calls),
/// not by its arrival order; a matching final step is answered from the record (status
/// `memoized`, handler not run), its reply sent with the other memoized replies of the
/// same turn of the event loop in the recorded completion order. Replay: the first call
/// with no match is flagged (Step::divergence, a `divergence` policy event, signal
/// divergenceFound) and from there on every call runs for real. Resume: a call with no
/// match runs for real and later calls are still matched. Rerun: the steps before
/// `rerunFrom` are matched, every other call runs. Cassette: the first call with no
/// match is flagged, calls with no match fail (tool_failed "not in the cassette"),
/// calls with one are still answered.
struct ReplayPlan
{
    enum class Mode {
        Replay,   ///< a new run re-running a finished run's script
        Resume,   ///< the same run (same id) continued: memoized steps are not re-recorded;
                  ///< the open call (a non-final step) runs again under its call id,
                  ///< with its earlier attempts kept and an unfinished attempt reopened
        Rerun,    ///< a new run: steps before `rerunFrom` memoized, the rest for real
        Cassette, ///< a new run against a cassette file; offline
    };
    Mode mode = Mode::Replay;
    std::vector<Step> steps;                  ///< the recorded run's steps (identities by sequence order)
    int rerunFrom = 0;                        ///< Rerun: first sequence that runs for real
    std::optional<nlohmann::json> editedArgs; ///< Rerun: arguments for step `rerunFrom`
    bool offline = false;                     ///< no handler ever runs (cassettes)
};

/// Runs every tool call of one run as a durable step (DESIGN.md "Steps: the engine"):
/// declared and active? → max calls → request cap → positional args mapped to the
/// schema's property order → input_schema validation → step recorded in the journal
/// → handler attempt under the attempt timeout → retries with exponential backoff and
/// jitter → output_schema and reply cap → commit → replyReady.
///
/// Every call yields exactly one replyReady (result or error), emitted only after the
/// step's final state is committed to the journal (write-ahead). With one call in
/// flight the commit and the reply happen at once; when several are in flight, final
/// states are collected and committed in one transaction on the next turn of the event
/// loop, and their replies follow that commit. Intermediate states (running,
/// retrying) of mock handlers are batched the same way (within 20 ms); a command's or
/// a person's attempt is committed before the handler starts.
///
/// Pending answers written into the journal by another process (`toolstudio answer`)
/// are polled every 250 ms while a call waits for a person, applied through answer()
/// and marked accepted or refused (with the reason) in the journal. Lives on the thread
/// that owns it; handlers are asynchronous (timers, QProcess, a person's answer).
///
/// Steps: sequence = order of arrival (1-based, refused calls included; a resumed run's
/// calls keep their recorded sequence, new ones come after the largest); idempotency
/// key "<runId>:<tool>:<argsHash>:<n>" from the call's identity (CallIdentity), the same
/// for every attempt and on resume. A refused call is a `failed` step with zero attempts.
///
/// The call budget (limits.max_calls, issue 16) counts every call, refused ones too
/// (unknown, inactive or unbound tool, too large, duplicate call id). The first call
/// past it is a refused step (max_calls_exceeded); every later one is answered
/// max_calls_exceeded without a step and only counted: cancelAll() (which ends every
/// run) records the count as one run-level `calls_refused` event. So a run has at most
/// max_calls + 1 steps. Tool names and call ids are quoted in messages elided to 128
/// characters (elidedText), and an unknown tool's step keeps only that elided name. An inactive tool is refused as inactive_tool even when it
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
    StepEngine(const Project &project, const QString &runId, Journal *journal, const QStringList &boundTools,
               QObject *parent = nullptr);
    ~StepEngine() override;

    /// sha256 of `args` as compact JSON (keys sorted), hex, first 128 bits.
    static QString argsHash(const nlohmann::json &args);

    /// Memoize calls from an earlier run; call before the first submitCall.
    void setReplayPlan(ReplayPlan plan);
    /// Still answering from the plan (no divergence yet, not past its end).
    bool isReplaying() const;

    /// Step mode (F10): every call that passed validation is held before its first
    /// attempt (status `queued`, Step::paused, signal stepPaused) until one of
    /// continueStep / answerStep / timeOutStep / continueToEnd decides it. Memoized
    /// calls are not held. Turning it off does not release held calls (continueToEnd does).
    void setStepMode(bool on);
    bool stepMode() const;
    /// Tool approval (the Chat dock's toggle; docs/models.md "Chat"): step mode for the
    /// calls a handler would run only — a model turn and a manual tool's call (a person
    /// answers it anyway) are not held. Decided as in step mode.
    void setApprovesToolCalls(bool on);
    bool approvesToolCalls() const;
    /// The run's row in the journal follows whether a call waits for a person or is
    /// held (`waiting`) or not (`running`), written with the engine's commits
    /// (Journal::setLiveStatus; RunSession turns it on). Off: nothing writes it here.
    void setRecordsRunStatus(bool on);
    /// The run's sandbox work dir, passed to handlers (HandlerRequest::workDir).
    void setWorkDir(const QString &dir);
    /// Calls submitted from now on use `project`'s tools and limits (a served project's
    /// manifest was reloaded; docs/server.md "When the project changes"). A call not ended
    /// yet whose tool `project` no longer has keeps that tool's declaration (its
    /// handler, retries and output_schema) until it ends.
    void setProject(const Project &project);
    /// Runs the held call's handler. False with `reason` when `callId` is not held.
    bool continueStep(const QString &callId, QString *reason = nullptr);
    /// Runs the held tool call's handler with `args` instead of the script's (the
    /// chat's *Edit Arguments*): checked against limits.request_bytes and input_schema,
    /// a strict-mode null left out as at admission (refused, still held, if they do not
    /// match); the script's arguments stay in Step::originalArgs and in the
    /// call's identity, so a resume or replay of the same script finds this step.
    ///
    /// For a held model step (step mode; docs/models.md "Step semantics") `args` is the
    /// messages array instead: the request goes with these messages, checked as the
    /// script's were (the neutral shape, non-empty, then limits.model_request_bytes for
    /// the whole request); the script's request stays in Step::originalArgs and the
    /// step's identity.
    bool continueStepWith(const QString &callId, const nlohmann::json &args, QString *reason = nullptr);
    /// Ends the held call with `answer` instead of running the handler: a result
    /// (checked against output_schema; refused if it does not match) or an error with
    /// its `retryable` flag as the script will see it. Never retried by the engine.
    bool answerStep(const QString &callId, const ManualAnswer &answer, QString *reason = nullptr);
    /// Ends the held call with a `timeout` error (injected; not retried).
    bool timeOutStep(const QString &callId, QString *reason = nullptr);
    /// Step mode off; every held call continues.
    void continueToEnd();
    int pausedCount() const;

    /// Retry now: a step that is backing off (`retrying`, Step::nextAttemptAt) starts
    /// its next attempt at once. False with `reason` otherwise.
    bool retryNow(const QString &callId, QString *reason = nullptr);

    /// Writes pending journal writes and sends the replies held for them (the engine
    /// batches when several calls are in flight; normally a 0–20 ms timer does this).
    void flush();

    /// A call from the script. Errors (unknown_tool, inactive_tool, invalid_arguments
    /// with the JSON pointer, request_too_large, max_calls_exceeded) are recorded as a
    /// failed step (past the budget: counted, see the class comment) and replied at once; the handler never runs for them. A call whose
    /// line was over the bridge's bound (BridgeCall::oversizedLineBytes) is refused with
    /// request_too_large naming the line's size and the limit, before anything else.
    void submitCall(const BridgeCall &call);

    /// Answers the current attempt of a pending call. Refused (returns false, `reason`
    /// filled, nothing changed) when the call is unknown, finished, not waiting for a
    /// person, `attempt` is not its current attempt, the attempt was already answered,
    /// or a result does not match the tool's output_schema (so the person can fix it).
    /// An accepted answer is applied before this returns: the step is final (and its
    /// reply sent) or, for a retryable error with attempts left, `retrying`.
    bool answer(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason = nullptr);

    /// Stop: every unfinished step becomes `cancelled` (handlers killed), replies are
    /// not sent afterwards. Records the calls refused past the budget (calls_refused).
    void cancelAll(const QString &reason);
    /// Stop for one call (an MCP client's `notifications/cancelled` of a served call):
    /// the call's step becomes `cancelled` as cancelAll() does it, its reply is not sent;
    /// the run goes on. False with `why` when the call is unknown or has ended.
    bool cancelStep(const QString &callId, const QString &reason, QString *why = nullptr);

    /// In arrival order; a resumed run's memoized steps keep their recorded sequence,
    /// so sequence − 1 is not an index here (stepBySequence).
    const std::vector<Step> &steps() const;
    /// The step with `sequence`, or nullptr.
    const Step *stepBySequence(int sequence) const;
    const Step *step(const QString &callId) const;
    /// Steps whose current attempt waits for a person.
    int pendingCount() const;
    /// Calls counted against limits.max_calls (every call up to the budget, refused ones
    /// too; never more than max_calls). Safe to
    /// call from any thread while a run is active (the window's budget meter does).
    int callCount() const;
    /// Largest request (compact JSON of a call's arguments, as the bridge framed it)
    /// and largest reply (compact JSON of a handler's result) seen so far, in bytes,
    /// also when over its cap (limits.request_bytes / reply_bytes). Safe to call from
    /// any thread, like callCount(): the budget meter reads the sizes the engine
    /// measured anyway instead of serialising every step again.
    qint64 largestRequestBytes() const;
    qint64 largestReplyBytes() const;
    /// Model calls counted against limits.max_model_calls, and the input + output
    /// tokens of the run's model replies (limits.max_tokens); docs/models.md.
    int modelCallCount() const;
    qint64 tokensUsed() const;

Q_SIGNALS:
    // The Step signals pass the engine's own step, not a copy: a slot that keeps it past
    // its return copies it (queued connections do). The reference stays valid while the
    // slot runs, also when it submits calls; a later slot of the same emission sees what
    // an earlier one changed (a Stop from a slot: the step is cancelled already).
    void stepAdded(const Step &step);
    void stepChanged(const Step &step);
    /// A step's current attempt now waits for a person.
    void pendingCallOpened(const Step &step);
    /// A pending call got its answer (or was cancelled, or timed out). Emitted after the
    /// step's status changed (succeeded, retrying, failed, cancelled) and its
    /// stepChanged went out, so a slot reading step(callId) sees the new status.
    void pendingCallClosed(const QString &callId);
    /// The reply for call `id`: `line` is the encoded bridge message with its '\n'.
    void replyReady(const std::string &id, const std::string &line);
    /// Step mode held a call (`step.paused`); the run waits for a person.
    void stepPaused(const Step &step);
    /// A held call was decided (continued, answered, failed, timed out).
    void stepReleased(const QString &callId);
    /// Replay: `step` is the first call that did not match (Step::divergence says how).
    void divergenceFound(const Step &step);
    /// A policy event was recorded (retry scheduled, timeout, cancellation, …).
    void policyEvent(const PolicyEvent &event);
    /// The journal refused a write (disk full, file removed…); the run goes on, but the
    /// write-ahead promise no longer holds — the run controller should fail the run.
    void journalFailed(const QString &message);

private:
    /// A held call continues: its decision event, stepReleased, its first attempt.
    void release(int index, nlohmann::json decision);
    bool continueModelStepWith(int index, const nlohmann::json &messages, QString *reason);
    /// Cancels the unfinished step `index` (cancelAll, cancelStep); nothing for a final one.
    void cancelIndex(int index, const QString &reason);

    std::unique_ptr<StepEngineState> d;
};
