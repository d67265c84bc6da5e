// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policylistener.h"
#include "project/project.h"
#include "project/step.h"
#include "run/runfiles.h"

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>

class Journal;
class StepEngine;
class WarmLauncher;
class RunControllerState;

/// One run of an agent script: prepares the run folder (work dir with the project's
/// `files/`, the language shim), starts the interpreter in the sandbox, connects the
/// bridge to a StepEngine, journals the run, enforces the run timeout (paused while a
/// call waits for a person) and the output caps, and reports everything as signals.
/// The UI and the headless commands only observe these signals and call
/// start/stop/answer.
///
/// Threads (issue 4 item 8): the object lives on the GUI (or main) thread, and so do the
/// sandbox process (exit, policy events) and the run timeout. The tools bridge channel,
/// the script's stdout/stderr pipes, the StepEngine with its handlers and the run's
/// Journal live on a run thread owned by the controller, so a busy GUI thread never
/// delays a reply and a flood of calls or output never blocks the window. Everything
/// the run thread reports (stepsUpdated, outputReceived, the per-step signals,
/// pendingCallOpened/Closed, stepPaused, divergenceFound) arrives through queued
/// connections, in order, and all of it before finished(); the GUI thread never waits
/// for the run thread while a run streams. answer(), the step mode decisions and
/// retryNow() are posted to the run thread and their outcome comes back queued (issue
/// 18); only the headless `…AndWait` variants wait for it (it never waits for the GUI
/// thread). stop() and the run timeout never wait for it (issue 16): they kill the
/// script's group at once and queue the cancellation of its calls there. Python tool
/// attempts are handed to the main thread, where the project's tool worker lives.
///
/// The parts (docs/architecture.md): Interpreters and RunPreparation make the run's
/// folder and policy, RunThread hosts the run thread with the run's RunSession and
/// journal, RunClocks keeps the run timeout and the wait clock, RunEnd tells the final
/// status and keeps the files the script left, DurableStart reads what a replay,
/// resume, rerun or cassette run replays.
class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    /// Journal to record into; default: the project's `.toolstudio/journal.sqlite`.
    /// An empty path disables journaling (benchmarks).
    void setJournalPath(const QString &path);

    /// Starts `scriptPath` (absolute, or relative to the project folder; empty = the
    /// project's default script). Returns false with `error` set when the script is
    /// missing, its language is unknown, the interpreter is missing, the journal cannot
    /// be opened or the sandbox cannot start; nothing is left running then.
    bool start(const Project &project, const QString &scriptPath, QString *error = nullptr);

    /// Stop (Shift+F5): kills the script's process group at once and cancels the
    /// in-flight steps on the run thread, without waiting for it: a run thread busy
    /// validating a call or in a handler does not hold the window. statusChanged
    /// (`cancelled`) follows as soon as the group is gone, finished() once the run
    /// thread has ended the run.
    void stop();
    /// Keep the run for later (Quit, "Keep for Later"; issue 20): kills the script's
    /// process group but does not end the run — nothing more is recorded, a waiting
    /// call stays waiting, the run stays `running`/`waiting` under this process. Once
    /// this process has exited, the journal's next reader suspends it
    /// (Journal::suspendOrphanedRuns) and it can be resumed. Only for a studio that is
    /// about to exit: this controller starts no run any more and stop() does nothing.
    void detach();
    /// detach(), and the run recorded `suspended` at once rather than once this process
    /// has exited: for a process that goes on (the Chat dock's New Chat, a chat turn on
    /// the command line), so the run can be resumed or continued now, here or elsewhere,
    /// not held live under this process where nothing can resume it.
    void suspend();

    /// The outcome of an answer or a step decision: accepted, or refused with the
    /// engine's reason ("no run is active" without a run).
    using Outcome = std::function<void(bool accepted, const QString &reason)>;

    /// Answers a pending call (see StepEngine::answer) without waiting: the answer is
    /// queued to the run thread, and `done` gets the outcome later, queued on this
    /// object's thread, unless `context` (an object of that thread) is gone by then.
    /// The views may see the call close (pendingCallClosed) before `done` runs.
    void answer(const QString &callId, int attempt, const ManualAnswer &answer, QObject *context, Outcome done);
    /// The same, waiting for the run thread's outcome: for headless callers only
    /// (`toolstudio run`'s prompts, tests without a window). Never on a GUI thread: a
    /// slow validation or handler on the run thread would freeze the window.
    bool answerAndWait(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason = nullptr);

    bool isActive() const;
    RunStatus status() const;
    const RunRecord &record() const;
    /// The current run's engine; it lives on the run thread. Read it (steps(),
    /// callCount()) only while no run is active — after finished() it is idle until the
    /// next start(), which deletes it. nullptr before the first run started.
    StepEngine *engine() const;
    /// The current run's journal (or nullptr); opened on and used by the run thread only.
    Journal *journal() const;

    /// The interpreter for a script by its extension (.py → python3, .sh → bash,
    /// .js → node): an absolute path, or empty when none is installed.
    static QString interpreterFor(const QString &scriptPath);

    /// Uses `path` instead of the default interpreter for `.py` (language "python")
    /// or `.js` (language "node") scripts from the next start on; an empty path goes
    /// back to the default. start() refuses a path that is not an executable file.
    void setInterpreter(const QString &language, const QString &path);

    /// The launcher kept ready for the next run (docs/sandbox.md "Pre-warmed start"):
    /// prepared after each run ends for that run's interpreter and policy; start() uses
    /// it when it matches, else discards it and starts cold. Switch it off with
    /// warmLauncher()->setEnabled(false) or TOOLSTUDIO_PREWARM=0. Owned by this object.
    WarmLauncher *warmLauncher() const;

    /// The user opted in to "seccomp only" runs on a kernel without Landlock (off by
    /// default: such runs are refused with the reason). Takes effect at the next start().
    void setSeccompOnlyAllowed(bool allowed);
    /// Landlock ABI the sandbox enforced for the current/last run; 0 = seccomp-only run
    /// (mark it), -1 = not known (the launcher failed before, or no run yet).
    int landlockAbi() const;
    /// Files the script left in its work dir (new or changed, regular files only, no
    /// symlinks), kept after the run in outputFilesDir(); at most 100 files and 64 MiB
    /// (a notice on stderr says what was left out). Filled when the run has finished.
    QList<RunFile> outputFiles() const;
    /// `<run folder>/files-out`; the work dir itself is removed when the run ends.
    QString outputFilesDir() const;

    // --- Durable steps (issue 5; semantics in docs/steps.md) ---
    // Each of these starts a run like start() and returns false with `error` when it
    // cannot (unknown run, journaling off, plus everything start() refuses).

    /// Replay: a new run of `runId`'s script (the file as it is now) with its journal
    /// as memo: matching calls are `memoized`, the first that differs is a divergence
    /// (divergenceFound) and runs for real, as does everything after it.
    bool startReplay(const Project &project, const QString &runId, QString *error = nullptr);
    /// Resume a `suspended` run (its studio exited while it was running or waiting):
    /// the same run id; the script runs again with the recorded steps memoized up to
    /// the open call, which is pending again under the same call id and attempt.
    bool resume(const Project &project, const QString &runId, QString *error = nullptr);
    /// Rerun from step `sequence` (1-based) of `runId`: a new run, earlier steps
    /// memoized, step `sequence` runs for real with `editedArgs` if given (the
    /// script's arguments stay in Step::originalArgs), and everything after it too.
    bool rerunFrom(const Project &project, const QString &runId, int sequence,
                   const std::optional<nlohmann::json> &editedArgs, QString *error = nullptr);
    /// Runs `scriptPath` (empty = the script recorded in the cassette) offline against
    /// a cassette: every call is memoized or flagged and failed ("not in the cassette").
    bool startWithCassette(const Project &project, const QString &cassettePath, const QString &scriptPath,
                           QString *error = nullptr);
    /// Writes run `runId`'s tool results as a cassette file (replaysource.h).
    bool saveCassette(const Project &project, const QString &runId, const QString &path, QString *error = nullptr);

    /// A session of `toolstudio serve` (docs/server.md "Programmatic tool calling"): the
    /// next start() records a run of kind `served` and writes `files` (a path relative
    /// to the work dir → its bytes; the caller checked the names) into the work dir
    /// after the project's files/, so they count as inputs, not as the run's output.
    /// `program`: the script's bytes as the client sent them, written as the run's copy
    /// of the script (nothing is read back from its path); none: a revived session's,
    /// copied from the kept file.
    void prepareServed(const QList<QPair<QString, QByteArray>> &files,
                       const std::optional<QByteArray> &program = std::nullopt);

    /// Step mode (F10), for this and later runs: every call is held before it runs
    /// (stepPaused; the run is `waiting` and its clock paused) until continueStep,
    /// answerStep (a result, or an error = Fail), timeOutStep or continueToEnd. The
    /// decisions are posted like answer(): `done` gets the outcome, queued; the
    /// `…AndWait` variants wait for it (headless callers only, as answerAndWait).
    /// setStepMode and continueToEnd are queued to the run thread too.
    void setStepMode(bool on);
    bool stepMode() const;
    /// Tool approval for this and later runs (StepEngine::setApprovesToolCalls): only
    /// the calls a handler would run are held; queued to the run thread like setStepMode.
    void setApprovesToolCalls(bool on);
    bool approvesToolCalls() const;
    void continueStep(const QString &callId, QObject *context, Outcome done);
    /// continueStep with edited arguments (StepEngine::continueStepWith).
    void continueStepWith(const QString &callId, const nlohmann::json &args, QObject *context, Outcome done);
    void answerStep(const QString &callId, const ManualAnswer &answer, QObject *context, Outcome done);
    void timeOutStep(const QString &callId, QObject *context, Outcome done);
    bool continueStepAndWait(const QString &callId, QString *reason = nullptr);
    bool answerStepAndWait(const QString &callId, const ManualAnswer &answer, QString *reason = nullptr);
    bool timeOutStepAndWait(const QString &callId, QString *reason = nullptr);
    /// Step mode off and every held call continues.
    void continueToEnd();
    /// Retry now: a step backing off (Step::nextAttemptAt) starts its next attempt;
    /// posted like answer().
    void retryNow(const QString &callId, QObject *context, Outcome done);

    /// The two clocks of the run (ms): time counted against limits.run_timeout_seconds,
    /// and time spent waiting for a person (pending calls, held steps), not counted.
    qint64 runClockMs() const;
    qint64 waitClockMs() const;

Q_SIGNALS:
    void started(const QString &runId);
    /// The run's status; a final one is sent as soon as the script's group is gone, before
    /// the run thread's last batches and finished().
    void statusChanged(RunStatus status);
    /// The views' feed (issue 4 item 8): the latest state of every step added or
    /// changed since the previous batch — at most one entry per step (per call id;
    /// a call id the script reused after its call finished is a new step with its own
    /// entry), in sequence order. Emitted at most every 16 ms while steps change, and at
    /// once when the run ends (before finished()), so the last batch holds every step's
    /// final state. A step seen for the first time is new: add it; otherwise replace
    /// the row with the same Step::sequence. Delivered on the GUI thread; a flood of
    /// calls costs the window one batch per frame, not one signal per change.
    void stepsUpdated(const QList<Step> &steps);
    /// Per-step notifications (headless output, tests). Each change is one signal: the
    /// window should use stepsUpdated instead.
    void stepAdded(const Step &step);
    void stepChanged(const Step &step);
    void pendingCallOpened(const Step &step);
    void pendingCallClosed(const QString &callId);
    /// The script said it is blocked until a reply to one of its calls arrives (the
    /// bridge's wait hint, docs/bridge.md). `callsMade`: the calls the bridge had read
    /// in this run when the hint came; their pendingCallOpened may still follow (a call
    /// is admitted and journaled first). Forwarded only when connected before start();
    /// repeated hints with no call between them arrive once.
    void scriptWaiting(int callsMade);
    /// Script output: stream 1 = stdout, 2 = stderr. A truncation notice arrives as
    /// a chunk of its own on the same stream. In one order with stepsUpdated
    /// (docs/trace.md "Console order"): output the script wrote before a call arrives
    /// before the batch that first holds that call's step; output written after a call
    /// returned arrives after it. Paced with the step batches (at most one flush per
    /// 16 ms), so a chunk may hold several writes.
    void outputReceived(int stream, const QByteArray &chunk);
    /// The run reached a final status (`record().status`), with `record().error`
    /// explaining a failure.
    void finished(const RunRecord &run);
    /// The sandbox refused a call and reported it (network, ptrace, mount/namespace,
    /// a signal to the studio): `kind` "sandbox_refused", `detail` {syscall,
    /// arguments, pid, errno, errno_name, text}; the script got that errno. Also in
    /// the journal's policy_events table (sequence 0 = the run).
    void policyEvent(const PolicyEvent &event);
    /// The launcher applied its policy: Landlock at `abi` (0 = seccomp only; the run
    /// must be marked), seccomp allow-list. Journaled as "sandbox_applied".
    void sandboxApplied(int landlockAbi);
    /// The step engine recorded a policy event of a step or of the run (retry_scheduled,
    /// retry_now, timeout, cancelled, divergence, step_paused, step_decision, …;
    /// docs/steps.md), after the batch with its step: the window's live trace shows it
    /// as a row. Also in the journal's policy_events table.
    void stepEvent(const PolicyEvent &event);
    /// Step mode held `step` before it runs; decide with continueStep & co.
    void stepPaused(const Step &step);
    /// Replay: the first call that did not match the journal (Step::divergence).
    void divergenceFound(const Step &step);

private:
    std::unique_ptr<RunControllerState> d;
};
