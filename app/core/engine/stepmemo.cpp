// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/stepmemo.h"

#include "bridgemessage.h"
#include "engine/modelstep.h"
#include "engine/stepenginestate.h"
#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QTimer>

#include <algorithm>

using namespace stepengine;

StepMemo::StepMemo(StepEngineState &state)
    : s(state)
{}

void StepMemo::setPlan(ReplayPlan replayPlan)
{
    planIndex.reset(replayPlan.steps); // identities from the recorded sequence order
    memoOrder.reset(replayPlan.steps);
    rerunIndex = -1;
    for (std::size_t i = 0; i < replayPlan.steps.size(); ++i)
        if (replayPlan.mode == ReplayPlan::Mode::Rerun && replayPlan.steps[i].sequence == replayPlan.rerunFrom)
            rerunIndex = int(i);
    // Resume keeps the recorded rows: a new call gets a sequence after all of them.
    nextSequence = replayPlan.mode == ReplayPlan::Mode::Resume ? planIndex.maxSequence() + 1 : 1;
    plan = std::move(replayPlan);
    memoActive = true;
}

namespace {

QString callText(const QString &tool, const nlohmann::json &args)
{
    // A preview: cut on a character, saying how many bytes were dropped (docs/trace.md "Clipped text").
    const QString text = QString::fromStdString(args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return QStringLiteral("%1(%2)").arg(tool, clippedText(text, 120));
}

} // namespace

CallIdentity StepMemo::identify(Step &step)
{
    const CallIdentity identity = callCounter.next(step.tool, identityHash(step));
    step.idempotencyKey = s.keyPrefix + identity.text(); // "<runId>:<tool>:<argsHash>:<n>"
    int recorded = -1;
    if (plan && plan->mode == ReplayPlan::Mode::Resume)
        recorded = planIndex.find(identity);
    // A resumed call keeps its recorded row (and number); every other call gets the next one.
    step.sequence = recorded >= 0 ? plan->steps[std::size_t(recorded)].sequence : nextSequence++;
    return identity;
}

void StepMemo::diverge(Step &step, const QString &why)
{
    scheduleMemoReplies(false); // no reply is held past a divergence (memoActive is false from here)
    step.divergence = why;
    s.addEvent(
        step.sequence, PolicyEventKind::Divergence,
        {{"reason", why.toStdString()}, {"tool", step.tool.toStdString()}, {"args_hash", step.argsHash.toStdString()}});
}

void StepMemo::queueMemoReply(int recorded, std::string id, std::string line)
{
    memoOrder.add(recorded, std::move(id), std::move(line));
    scheduleMemoReplies(true);
}

void StepMemo::scheduleMemoReplies(bool now)
{
    if (memoOrder.empty())
        return;
    if (!memoTimer) {
        memoTimer = new QTimer(s.q);
        memoTimer->setSingleShot(true);
        QObject::connect(memoTimer, &QTimer::timeout, s.q, [this] { sendMemoReplies(); });
    }
    if (memoTimer->isActive())
        return; // a gap (or a turn) under way ends with the timer
    if (now)
        sendMemoReplies();
    else
        memoTimer->start(0);
}

/// The memoized replies that may go, in the order the recorded run completed them
/// (MemoReplyOrder); after a divergence, or when a held reply has waited MemoHoldMs for
/// a call the script did not make, held or not. Nothing polls: a held reply goes when
/// the call it waits for arrives (applyPlan) or at the hold bound, a reply that needs a
/// gap when the gap's single-shot timer ends.
void StepMemo::sendMemoReplies(bool all, bool noGap)
{
    memoReleaseAll = memoReleaseAll || all;
    while (!s.cancelled) {
        const bool release = memoReleaseAll || !memoActive;
        switch (memoOrder.next(release)) {
        case MemoReplyOrder::State::Empty:
            memoReleaseAll = false;
            if (memoHoldTimer)
                memoHoldTimer->stop();
            return;
        case MemoReplyOrder::State::Held:
            if (!memoHoldTimer) {
                memoHoldTimer = new QTimer(s.q);
                memoHoldTimer->setSingleShot(true);
                QObject::connect(memoHoldTimer, &QTimer::timeout, s.q, [this] { sendMemoReplies(true); });
            }
            if (!memoHoldTimer->isActive())
                memoHoldTimer->start(MemoHoldMs);
            return;
        case MemoReplyOrder::State::Ready:
            break;
        }
        if (!noGap && memoTimer && memoOrder.wantsGap() && memoSent.isValid() && memoSent.elapsed() < MemoGapMs) {
            memoTimer->start(int(MemoGapMs - memoSent.elapsed()));
            return;
        }
        const MemoReplyOrder::Reply reply = memoOrder.take();
        memoSent.start();
        Q_EMIT s.q->replyReady(reply.id, reply.line);
    }
}

/// Returns true when the call was answered from the plan (memoized). Every call looks
/// up its own identity (docs/steps.md "Call identity"), whatever order it arrives in.
bool StepMemo::applyPlan(Step &step, const CallIdentity &identity)
{
    if (!memoActive)
        return false; // Replay past its divergence: every call runs for real
    const ReplayPlan &p = *plan;
    const int found = planIndex.find(identity);
    if (found >= 0) { // a held memoized reply may have waited for this call
        memoOrder.arrived(found);
        scheduleMemoReplies(false); // after this call's step is added
    }
    if (p.mode == ReplayPlan::Mode::Rerun && found >= 0 && found == rerunIndex) {
        nlohmann::json detail = {{"from_sequence", p.rerunFrom}};
        if (p.editedArgs) {
            step.originalArgs = step.args;
            step.args = *p.editedArgs;
            step.argsHash = StepEngine::argsHash(step.args);
            detail["edited_args"] = step.args;
            detail["original_args"] = *step.originalArgs;
        }
        s.addEvent(step.sequence, PolicyEventKind::RerunFrom, std::move(detail));
        return false;
    }
    // Rerun: only the steps before `rerunFrom` are answered from the record; a call
    // that is not one of them runs for real, and later calls still look theirs up.
    if (p.mode == ReplayPlan::Mode::Rerun && (found < 0 || p.steps[std::size_t(found)].sequence >= p.rerunFrom))
        return false;
    if (found < 0) {
        if (p.mode == ReplayPlan::Mode::Resume) // a call the run had not made yet: real
            return false;
        // Replay and cassette stop answering from the record at the first call with no
        // match (a cassette then fails every later call: it is offline).
        const auto atSequence = std::find_if(p.steps.cbegin(), p.steps.cend(),
                                             [&](const Step &old) { return old.sequence == step.sequence; });
        const QString what = atSequence != p.steps.cend()
            ? QStringLiteral("expected %1, got %2")
                  .arg(callText(atSequence->tool, atSequence->args), callText(step.tool, step.args))
            : QStringLiteral("%1 is a call the recorded run did not make (it made %2 call(s))")
                  .arg(callText(step.tool, step.args))
                  .arg(p.steps.size());
        const QString unmatched = identity.n > 0
            ? QStringLiteral("the recorded run made this call (same tool and arguments) only %1 time(s)")
                  .arg(identity.n)
            : QStringLiteral("no recorded call has this tool and these arguments");
        diverge(step,
                QStringLiteral("step %1: %2; %3. Calls are matched by tool, arguments and the number of "
                               "identical calls before them, not by arrival order, so a script whose arguments "
                               "depend on completion order (or on time, randomness or changed input) diverges")
                    .arg(step.sequence)
                    .arg(what, unmatched));
        memoActive = false;
        return false;
    }
    const Step &old = p.steps[std::size_t(found)];
    if (!isFinal(old.status) || old.status == StepStatus::Cancelled) {
        // The open call (resume), or a call the recorded run never finished.
        if (p.mode == ReplayPlan::Mode::Replay)
            memoActive = false; // real from here, as the recorded run ended there
        if (p.mode == ReplayPlan::Mode::Resume) {
            step.attempts = old.attempts;
            if (!step.attempts.empty() && step.attempts.back().endedAt == 0)
                step.attempts.pop_back(); // interrupted: reopened with the same number
            step.startedAt = old.startedAt;
            // queuedAt stays "now": the call is pending again from the resume, so its
            // duration leaves out the time the run was suspended (docs/trace.md
            // "Durations"). The recorded queue time goes into the event.
            const QString text = old.queuedAt > 0
                ? QStringLiteral(
                      "pending again from the resume; first queued %1 s before it, its duration counts from here")
                      .arg(decimalSeconds(step.queuedAt - old.queuedAt))
                : QStringLiteral("pending again from the resume; its duration counts from here");
            s.addEvent(step.sequence, PolicyEventKind::Resumed,
                       {{"call_id", step.callId.toStdString()},
                        {"recorded_call_id", old.callId.toStdString()},
                        {"attempts_before", step.attempts.size()},
                        {"queued_at_before", old.queuedAt},
                        {"text", text.toStdString()}});
        }
        return false;
    }

    // Memoized: answered from the record, handler not run.
    if (const Tool *tool = s.project.tool(step.tool); tool && tool->handler == HandlerKind::Mock)
        s.mockAttempts[tool] += int(old.attempts.size());
    s.models->memoized(step.tool, int(old.attempts.size())); // a mock model's turns, likewise
    const bool resume = p.mode == ReplayPlan::Mode::Resume;
    step.status = StepStatus::Memoized;
    step.result = old.result;
    step.error = old.error;
    step.attempts = old.attempts;
    step.maxAttempts = old.maxAttempts;
    if (resume) {
        // The same run: its recorded rows are its own times, kept as they are.
        step.queuedAt = old.queuedAt;
        step.startedAt = old.startedAt;
        step.endedAt = old.endedAt;
        step.recordedStartedAt = old.recordedStartedAt;
        step.recordedEndedAt = old.recordedEndedAt;
        step.heldAt = old.heldAt;
    } else {
        // A new run: instantaneous at the moment it was served (step and attempts), the
        // recorded run's timing kept aside for the inspector (docs/trace.md "Durations").
        const bool wasMemoized = old.recordedEndedAt > 0;
        step.recordedStartedAt = wasMemoized ? old.recordedStartedAt
            : old.attempts.empty()           ? old.startedAt
                                             : old.attempts.front().startedAt;
        step.recordedEndedAt = wasMemoized ? old.recordedEndedAt : old.endedAt;
        step.startedAt = step.endedAt = step.queuedAt;
        for (Attempt &attempt : step.attempts) {
            attempt.startedAt = attempt.endedAt = step.queuedAt;
            attempt.personWaits.clear(); // nobody waited in this run
        }
    }
    const std::string id = step.callId.toStdString();
    const std::string line = old.status == StepStatus::Failed && old.error
        ? BridgeProtocol::encodeError(id, old.error->toBridge())
        : BridgeProtocol::encodeResult(id, old.result.value_or(nlohmann::json()));
    // Resume keeps the recorded rows as they are (the same run). A new run's memoized
    // step needs no commit before its reply: its result is durable in the recorded run
    // already. Its row goes with the next batch (scheduleFlush, or the next commit of
    // a step that runs), MemoBatch rows at most (docs/steps.md "Memoized steps are not
    // committed one by one").
    constexpr std::size_t MemoBatch = 256;
    constexpr int MemoFlushMs = 20;
    const int index = s.addStep(std::move(step), false, true, false);
    if (!resume && s.journal) {
        s.batch.markDirty(index);
        if (s.batch.dirtyCount() >= MemoBatch)
            s.flush();
        else
            s.scheduleFlush(MemoFlushMs);
    }
    queueMemoReply(found, id, line); // in recorded completion order (MemoReplyOrder)
    return true;
}
