// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runcontrollerstate.h"

#include "journal/journal.h"
#include "run/runcontroller.h"
#include "run/runsession.h"
#include "run/sandboxevents.h"
#include "sandboxprocess.h"

#include <QDateTime>
#include <QTimer>

/// The GUI thread's side of the run thread's feed (queued, in the order it was sent).
void RunControllerState::connectSession(RunSession *s)
{
    QObject::connect(s, &RunSession::stepsUpdated, q, &RunController::stepsUpdated);
    QObject::connect(s, &RunSession::outputReceived, q, &RunController::outputReceived);
    QObject::connect(s, &RunSession::stepAdded, q, &RunController::stepAdded);
    QObject::connect(s, &RunSession::stepChanged, q, &RunController::stepChanged);
    QObject::connect(s, &RunSession::scriptWaiting, q, &RunController::scriptWaiting);
    QObject::connect(s, &RunSession::stepEvent, q, &RunController::stepEvent);
    QObject::connect(s, &RunSession::divergenceFound, q, &RunController::divergenceFound);
    QObject::connect(s, &RunSession::pendingCallClosed, q, &RunController::pendingCallClosed);
    // A call waits for a person (pending, or held by step mode): the run clock pauses.
    QObject::connect(s, &RunSession::pendingCallOpened, q, [this](const Step &step) {
        clocks.pause();
        setStatus(RunStatus::Waiting);
        Q_EMIT q->pendingCallOpened(step);
    });
    QObject::connect(s, &RunSession::stepPaused, q, [this](const Step &step) {
        clocks.pause();
        setStatus(RunStatus::Waiting);
        Q_EMIT q->stepPaused(step);
    });
    QObject::connect(s, &RunSession::nobodyWaits, q, [this] {
        if (active && !ending) {
            setStatus(RunStatus::Running);
            clocks.resume();
        }
    });
    QObject::connect(s, &RunSession::protocolError, q, [this](const QString &message) { abort(message, false); });
}

void RunControllerState::connectProcess()
{
    QObject::connect(process, &SandboxProcess::policyEvent, q, [this](const SandboxPolicyEvent &refusal) {
        // A run-level policy event (sequence 0) of kind "sandbox_refused" in the
        // journal's policy_events table.
        const PolicyEvent event = SandboxEvents::refused(record.id, refusal);
        thread.journalWrite([event](Journal *j) { j->recordEvent(event); });
        Q_EMIT q->policyEvent(event);
    });
    QObject::connect(process, &SandboxProcess::landlockApplied, q, [this](int abi) { onLandlockApplied(abi); });
    QObject::connect(process, &SandboxProcess::finished, q,
                     [this](int exitCode, bool crashed, const QString &launcherFailure) {
                         onProcessFinished(exitCode, crashed, launcherFailure);
                     });
}

void RunControllerState::onLandlockApplied(int abi)
{
    landlockAbi = abi;
    const PolicyEvent event = SandboxEvents::applied(record.id, abi, process->processLimit());
    thread.journalWrite([event](Journal *j) { j->recordEvent(event); });
    Q_EMIT q->sandboxApplied(abi);
}

void RunControllerState::onProcessFinished(int exitCode, bool crashed, const QString &launcherFailure)
{
    if (!active || detached) // detached: kept for later, so nothing ends it here
        return;
    clocks.stop();
    diskBudget.stop();
    // Over the disk limit just as the script ended (before the kill got here): the
    // files are gone (RunEnd::keepOutputFiles), so the run says why.
    if (diskBudget.exceeded() && failure.isEmpty() && !stopRequested && !timedOut)
        failure = diskBudget.message();
    clocks.endWait(); // the run ended while a call waited: that wait is over
    // Whatever the script left behind in its group goes with it (background jobs);
    // the run is not cancelled/timed out until the group is confirmed gone.
    RunEnd::Facts facts;
    facts.groupGone = killAndConfirm();
    facts.exitCode = exitCode;
    facts.crashed = crashed;
    facts.launcherFailure = launcherFailure;
    facts.failure = failure;
    facts.stopRequested = stopRequested;
    facts.timedOut = timedOut;
    facts.process = process;
    record.exitCode = crashed ? -1 : exitCode;
    record.endedAt = QDateTime::currentMSecsSinceEpoch();
    const RunEnd::Verdict verdict = RunEnd::verdict(facts);
    record.error = verdict.error;
    // The rest happens on the run thread, and the GUI thread does not wait for it
    // (file copies and the journal's commit take tens of ms, more on a busy disk):
    // the files the script left are kept, its folder emptied; what its group wrote
    // is all in the pipes now (its writers are gone) and is read in order behind the
    // steps; its last calls are cancelled (no step can be answered any more); the
    // final record is committed. Then finishRun() is queued behind everything the
    // views get (the last batches and output, the per-step signals), so they have
    // it all before finished(), and the record is in the journal for its readers.
    // Until then the status stays final: late Running/Waiting changes are ignored.
    ending = true;
    record.status = verdict.status;
    // Said at once: the run thread may still be busy (a long validation, a handler),
    // and the window need not wait for it to show that the run is over.
    Q_EMIT q->statusChanged(verdict.status);
    const QString ended = record.error.isEmpty() ? QObject::tr("the script ended") : record.error;
    const bool overDiskLimit = diskBudget.exceeded();
    thread.post([this, ended, overDiskLimit, run = record] {
        const QByteArray filesNotice = RunEnd::keepOutputFiles(folder, runDir, inputFiles, overDiskLimit, &outputFiles);
        folder.keepOnly(QStringLiteral("files-out")); // the shims, script copy and policy go
        thread.session()->end(ended, filesNotice);
        Journal *journal = thread.journal();
        if (journal)
            journal->recordRun(run);
        QMetaObject::invokeMethod(
            q, [this] { finishRun(); }, Qt::QueuedConnection);
        if (journal)
            journal->checkpoint(); // the run is over: fold the WAL in
    });
}

/// The end of a run on the GUI thread, after onProcessFinished's work on the run
/// thread and everything it sent to the views.
void RunControllerState::finishRun()
{
    active = false;
    ending = false;
    Q_EMIT q->finished(record); // statusChanged went out in onProcessFinished
    // The next run's launcher, once those who wait for finished() had their turn.
    QTimer::singleShot(0, q, [this] {
        if (!active)
            warm.prepare(RunFolder::runsDir());
    });
}
