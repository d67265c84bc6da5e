// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pendinganswerintake.h"

#include "journal/journal.h"
#include "project/printabletext.h"
#include "project/project.h"

#include <QDateTime>

#include <algorithm>

namespace PendingAnswerIntake {

namespace {

/// True when `tool` is answered by a person (a manual tool): only such a call waits
/// for an answer again when its suspended run is resumed.
bool waitsForPerson(const Project &project, const QString &tool)
{
    const Tool *found = project.tool(tool);
    return found && found->handler == HandlerKind::Manual;
}

Submission refused(Refusal refusal, const QString &reason)
{
    Submission submission;
    submission.refusal = refusal;
    submission.reason = reason;
    return submission;
}

} // namespace

// A resume takes a held call up again; the engine flushes a held step and its event to
// SQLite at once (docs/steps.md "The commit path").
bool heldByStepMode(const Journal &journal, const QString &runId, const Step &step)
{
    if (isFinal(step.status))
        return false;
    std::optional<PolicyEventKind> last;
    for (const PolicyEvent &event : journal.events(runId))
        if (event.sequence == step.sequence
            && (event.kind == PolicyEventKind::StepPaused || event.kind == PolicyEventKind::StepDecision
                || event.kind == PolicyEventKind::Resumed))
            last = event.kind;
    return last == PolicyEventKind::StepPaused;
}

Submission submit(Journal &journal, const Project &project, PendingAnswer answer)
{
    const auto run = journal.run(answer.runId);
    if (!run)
        return refused(Refusal::UnknownRun, QStringLiteral("no run '%1' in this project").arg(answer.runId));
    std::optional<Step> step;
    // The latest step with that id, an unfinished one first: a resumed run's memoized
    // rows keep the call ids of the recorded run, which its new calls may reuse.
    for (Step &candidate : journal.steps(answer.runId))
        if (candidate.callId == answer.callId && (!step || !isFinal(candidate.status) || isFinal(step->status)))
            step = std::move(candidate);
    if (!step)
        return refused(Refusal::UnknownCall,
                       QStringLiteral("run %1 has no call '%2'").arg(answer.runId, answer.callId));
    if (isFinal(step->status))
        return refused(
            Refusal::AlreadyEnded,
            QStringLiteral("call '%1' already finished (%2)").arg(answer.callId, stepStatusName(step->status)));
    if (isFinal(run->status))
        return refused(Refusal::RunEnded,
                       QStringLiteral("run %1 is %2; nothing waits for this answer")
                           .arg(answer.runId, runStatusName(run->status)));
    // A call held by step mode is not waiting for an answer: the engine only takes
    // journal answers for calls waiting for a person (docs/steps.md "Manual answers
    // and fencing"), so refuse before writing anything rather than leave an answer
    // nobody picks up.
    const bool suspended = run->status == RunStatus::Suspended;
    if (heldByStepMode(journal, answer.runId, *step)) {
        if (!suspended && run->kind == RunKind::Served)
            return refused(
                Refusal::HeldByStepMode,
                QStringLiteral("call %1 is held by step mode, not waiting for an answer: decide it where the run is "
                               "served (the window's Pending Calls dock, or POST /v1/runs/%2/calls/%1/decision: "
                               "toolstudio answer %3 %2 %1 --continue, --time-out, or --instead with --result or "
                               "--error); nothing was written")
                    .arg(answer.callId, answer.runId, shellQuoted(project.dir)));
        if (!suspended)
            return refused(
                Refusal::HeldByStepMode,
                QStringLiteral("call %1 is held by step mode, not waiting for an answer: continue, answer instead or "
                               "fail it where it is held (the window's Pending Calls dock, or the stdin of "
                               "toolstudio run --step); nothing was written")
                    .arg(answer.callId));
        if (!waitsForPerson(project, step->tool))
            return refused(
                Refusal::HeldByStepMode,
                QStringLiteral("call %1 was held by step mode when run %2 was suspended, not waiting for an answer; "
                               "nothing was written. Resuming runs its handler (toolstudio resume %3 %2); to "
                               "answer it instead, resume the run in the window with Step Mode on and choose "
                               "Answer Instead")
                    .arg(answer.callId, answer.runId, shellQuoted(project.dir)));
    }
    if (answer.attempt <= 0)
        answer.attempt = std::max(1, step->attempts.empty() ? 1 : step->attempts.back().number);
    if (answer.createdAt == 0)
        answer.createdAt = QDateTime::currentMSecsSinceEpoch();
    Submission submission;
    submission.attempt = answer.attempt;
    submission.kept = suspended;
    submission.id = journal.addPendingAnswer(answer);
    if (submission.id <= 0)
        return refused(Refusal::StoreFailed, QStringLiteral("cannot store the answer: %1").arg(journal.lastError()));
    return submission;
}

const char *refusalCode(Refusal refusal)
{
    switch (refusal) {
    case Refusal::None:
        return "";
    case Refusal::UnknownRun:
        return "unknown_run";
    case Refusal::UnknownCall:
        return "unknown_call";
    case Refusal::AlreadyEnded:
        return "already_ended";
    case Refusal::RunEnded:
        return "run_ended";
    case Refusal::HeldByStepMode:
        return "held_by_step_mode";
    case Refusal::StoreFailed:
        return "store_failed";
    }
    return "";
}

const char *engineRefusalCode(const QString &reason)
{
    // StepEngine::answer's reasons (stepengine.cpp): "answer is for attempt N but the
    // call is at attempt M", "attempt N of call 'c' was already answered", "call 'c'
    // already finished (…)".
    if (reason.startsWith(QLatin1String("answer is for attempt")) || reason.contains(QLatin1String("already answered")))
        return "stale_attempt";
    if (reason.contains(QLatin1String("already finished")))
        return "already_ended";
    return "refused";
}

} // namespace PendingAnswerIntake
