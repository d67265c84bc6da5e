// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/steperror.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

/// Status of a step (DESIGN.md glossary).
enum class StepStatus { Queued, Running, Retrying, Waiting, Succeeded, Failed, Memoized, Cancelled };
/// Status of a run (DESIGN.md glossary).
enum class RunStatus { Running, Waiting, Completed, Failed, TimedOut, Cancelled, Suspended };

/// How a run came about (journal column runs.kind).
enum class RunKind { Run, Replay, Resume, Rerun, Cassette, Served, Chat };
/// What a policy event records (journal column policy_events.kind; docs/steps.md).
enum class PolicyEventKind {
    RetryScheduled,
    RetryNow,
    Timeout,
    Cancelled,
    Divergence,
    Resumed,
    RerunFrom,
    StepPaused,
    StepDecision,
    AnswerFromJournal,
    Suspended,
    SandboxRefused,
    SandboxApplied,
    /// Calls refused past the run's call budget (limits.max_calls), counted instead of
    /// recorded one by one: one event per run, detail {count, text} (docs/bridge.md).
    CallsRefused,
    /// Sandbox refusals of one system call past the first few, counted instead of
    /// recorded one by one: detail {syscall, count, recorded, text} (docs/sandbox.md).
    SandboxRefusedSummary,
    /// Nulls of a call left out at admission (OpenAI strict mode's "not given"; docs/steps.md
    /// "A null for a parameter left out"): detail {properties, text}.
    NullsLeftOut,
    /// A running attempt asks a person (an MCP server's elicitation or sampling request;
    /// engine/personquestion.h): detail {attempt, question}.
    PersonAsked,
    /// The person's answer to it: detail {attempt, kind, answer} — the result, or
    /// {"error": message}.
    PersonAnswered,
};

/// Lower-case wire/journal names: "succeeded", "timed_out", "cassette", "step_paused", …
QString stepStatusName(StepStatus status);
QString runStatusName(RunStatus status);
QString runKindName(RunKind kind);
QString policyEventKindName(PolicyEventKind kind);
/// The value a name stands for; nullopt for a name that is not one of them.
std::optional<StepStatus> stepStatusFromName(const QString &name);
std::optional<RunStatus> runStatusFromName(const QString &name);
std::optional<RunKind> runKindFromName(const QString &name);
std::optional<PolicyEventKind> policyEventKindFromName(const QString &name);
bool isFinal(StepStatus status);
bool isFinal(RunStatus status);

/// A stretch of an attempt spent waiting for a person: a pending call answered by hand
/// (a manual tool, the manual model), an MCP server's elicitation or sampling question
/// asked of a person. Times are ms since the Unix epoch; answeredAt 0 while still asked.
/// The timeline draws it apart from the attempt's running time (docs/trace.md).
struct PersonWait
{
    qint64 askedAt = 0;
    qint64 answeredAt = 0;
    bool operator==(const PersonWait &) const = default;
};

/// `waits` as the journal and the run export keep them: [[asked_at, answered_at], ...].
nlohmann::json personWaitsJson(const std::vector<PersonWait> &waits);
/// The waits of personWaitsJson(); what is not a pair of non-negative integers with
/// asked_at > 0 is left out (a broken or newer file gives fewer waits, never a wrong one).
std::vector<PersonWait> personWaitsFromJson(const nlohmann::json &value);
/// `waits` of an attempt that ended at `endedAt` (0: still running): one still asked when
/// the attempt ended (a timeout, Stop) ends with it.
std::vector<PersonWait> closedWaits(std::vector<PersonWait> waits, qint64 endedAt);
/// How long of [from, to) the person was waited for (waits still asked count until `to`).
qint64 waitedMs(const std::vector<PersonWait> &waits, qint64 from, qint64 to);

/// One execution of a step's handler. Times are ms since the Unix epoch.
struct Attempt
{
    int number = 0; ///< 1-based
    qint64 startedAt = 0;
    qint64 endedAt = 0; ///< 0 while running
    bool succeeded = false;
    std::optional<StepError> error;
    QByteArray output; ///< captured handler output (stderr of a command)
    /// An MCP tool's JSON-RPC exchange of this attempt (McpExchangeRecorder::toJson:
    /// {"startedAt", "messages": [...], ...}), for the inspector's Protocol tab; null
    /// for other handlers and for attempts journaled before it was recorded.
    nlohmann::json protocol;
    QString progress; ///< live only, while running: the handler's last progress line (not journaled)
    QString streamed; ///< live only, while a model step's reply streams: the reply so far (not journaled)
    /// Live only: what the attempt asks a person now (engine/personquestion.h), while the
    /// step waits for the answer; journaled as person_asked / person_answered events.
    std::optional<nlohmann::json> question;
    /// Live only: for a sampling question, what a model is asked when one writes the reply
    /// (the question's "model_request", McpPersonQuestion::question), kept apart from
    /// what a person reads; journaled in person_asked's detail as "model_request".
    std::optional<nlohmann::json> modelRequest;
    /// The stretches of this attempt spent waiting for a person, in order; journaled in
    /// attempts.person_waits (schema 10; none for attempts journaled before).
    std::vector<PersonWait> personWaits;
    /// Starts a wait for a person at `at` (ends one still open first).
    void personAsked(qint64 at);
    /// Ends the wait still open at `at`; nothing when none is.
    void personAnswered(qint64 at);
};

/// One tool call within a run.
struct Step
{
    QString runId;
    QString callId;   ///< the id the script gave the call
    int sequence = 0; ///< 1-based order of arrival within the run
    QString tool;
    nlohmann::json args = nlohmann::json::object();
    QString idempotencyKey; ///< stable across attempts and resume: "<runId>:<tool>:<argsHash>:<n>" (CallIdentity)
    StepStatus status = StepStatus::Queued;
    int maxAttempts = 1;
    std::vector<Attempt> attempts;
    std::optional<nlohmann::json> result;
    std::optional<StepError> error;
    qint64 queuedAt = 0;
    qint64 startedAt = 0;
    qint64 endedAt = 0;
    qint64 nextAttemptAt = 0; ///< while Retrying: when the next attempt starts
    /// sha256 (hex, first 128 bits) of the compact JSON of `args` after positional
    /// arguments were mapped; replay matches steps by (sequence, tool, argsHash).
    QString argsHash;
    /// Rerun from step with edited arguments: what the script sent (`args` = edited).
    std::optional<nlohmann::json> originalArgs;
    /// Non-empty on the first step of a replay that did not match the journal: what
    /// was expected and what came instead. Everything from this step on runs for real.
    QString divergence;
    /// Step mode: the call is held before its first attempt until a person decides.
    bool paused = false;
    /// Step mode (or tool approval) held the call from heldAt until queuedAt, when a
    /// person decided (the queue time moves to then; ms since the epoch). 0 = not held
    /// (or held still: then from queuedAt on). Journaled in steps.held_at (schema 10).
    qint64 heldAt = 0;
    /// Memoized in a new run (replay, rerun, cassette): when the recorded step's first
    /// attempt started and when the step ended in the run it was answered from (ms since
    /// the epoch; 0 otherwise). The step's own times are the moment it was served
    /// (docs/trace.md "Durations"); these are for the inspector.
    qint64 recordedStartedAt = 0;
    qint64 recordedEndedAt = 0;

    qint64 durationMs() const { return endedAt > 0 && queuedAt > 0 ? endedAt - queuedAt : 0; }
    /// Of durationMs(), how long its attempts waited for a person (a step-mode hold comes
    /// before queuedAt, so is not part of it).
    qint64 waitedMs() const;
    /// "2/3": attempts made / attempts allowed.
    QString attemptsText() const;
    /// The current attempt, or nullptr before the first one.
    const Attempt *currentAttempt() const { return attempts.empty() ? nullptr : &attempts.back(); }
};

/// A person's answer to a pending call (DESIGN.md "Manual answers").
struct ManualAnswer
{
    bool isError = false;
    nlohmann::json result;  ///< when !isError
    QString message;        ///< when isError
    bool retryable = false; ///< when isError
    /// The question this answers (its "serial", engine/personquestion.h); 0: whichever
    /// the call asks now. An answer to a question withdrawn and replaced is refused.
    int question = 0;
};

/// A run as the journal records it. Times in ms since the Unix epoch.
struct RunRecord
{
    QString id;
    QString projectDir;
    QString scriptPath;
    RunStatus status = RunStatus::Running;
    qint64 startedAt = 0;
    qint64 endedAt = 0;
    int exitCode = -1;
    QString error; ///< why the run failed/timed out, in words
    /// How the run came about.
    RunKind kind = RunKind::Run;
    QString sourceRun; ///< replay/rerun: the run whose journal was replayed
    /// The process that owns a live run (running/waiting); 0 when final. A run whose
    /// owner is gone is marked suspended when a journal is opened (Journal::open).
    qint64 ownerPid = 0;
};

/// A policy event of a run (journal table policy_events): a retry scheduled, a
/// timeout (which bound, its value, whether the process is gone), a cancellation, a
/// divergence, a step-mode decision, a suspension or a resume. `sequence` 0 = the run.
struct PolicyEvent
{
    QString runId;
    int sequence = 0;
    qint64 at = 0; ///< ms since the Unix epoch
    PolicyEventKind kind = PolicyEventKind::RetryScheduled;
    nlohmann::json detail = nlohmann::json::object();
};

/// An answer to a pending call written into the journal by another process
/// (`toolstudio answer`); the process that runs the call picks it up.
struct PendingAnswer
{
    qint64 id = 0;
    QString runId;
    QString callId;
    int attempt = 0;
    ManualAnswer answer;
    qint64 createdAt = 0;
    QString state = QStringLiteral("new"); ///< new, accepted, refused
    QString reason;                        ///< why it was refused
};
