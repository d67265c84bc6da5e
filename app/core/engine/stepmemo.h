// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/callidentity.h"
#include "engine/memoreplyorder.h"
#include "engine/stepengine.h"

#include <QElapsedTimer>

#include <optional>
#include <string>

class QTimer;
class StepEngineState;

/// Call identity and the replay memo (DESIGN.md "Replay", "Resume"; ReplayPlan): gives
/// each call its identity, idempotency key and sequence; answers a matching call from
/// the recorded run (status `memoized`), flags the first divergence, reopens a resumed
/// run's open call, and sends memoized replies in the recorded completion order
/// (MemoReplyOrder). Engine-internal (stepenginestate.h).
class StepMemo
{
public:
    explicit StepMemo(StepEngineState &state);

    void setPlan(ReplayPlan plan);
    /// Still answering from the plan (no divergence yet, not past its end).
    bool isReplaying() const { return plan && memoActive; }
    /// Gives `step` its identity, idempotency key and sequence (a resumed call keeps its recorded one).
    CallIdentity identify(Step &step);
    /// True when the call was answered from the plan (memoized); `step` is then gone.
    bool applyPlan(Step &step, const CallIdentity &identity);
    /// `all`: held or not; `noGap`: without gaps (the run's end).
    void sendMemoReplies(bool all = false, bool noGap = false);

    std::optional<ReplayPlan> plan;

private:
    void queueMemoReply(int recorded, std::string id, std::string line);
    /// Sends what may go now (`now`) or on the next turn of the event loop.
    void scheduleMemoReplies(bool now);
    void diverge(Step &step, const QString &why);

    StepEngineState &s;
    PlanIndex planIndex;     ///< plan->steps by identity
    int rerunIndex = -1;     ///< Rerun: the plan's step `rerunFrom`
    bool memoActive = false; ///< Replay, cassette: no divergence yet
    /// Memoized replies, sent in recorded completion order (MemoReplyOrder). A reply
    /// whose call the recorded run had in flight when the previous one completed goes
    /// MemoGapMs after it (so that the script sees the first one alone, as it did); any
    /// other goes at once. A reply held for a call the script has not made yet goes
    /// anyway after MemoHoldMs.
    static constexpr int MemoGapMs = 5;
    static constexpr int MemoHoldMs = 1000;
    bool memoReleaseAll = false; ///< the hold ran out: every queued reply goes
    MemoReplyOrder memoOrder;
    QElapsedTimer memoSent;          ///< since the last memoized reply went
    QTimer *memoTimer = nullptr;     ///< single shot: the rest of a gap
    QTimer *memoHoldTimer = nullptr; ///< single shot: the hold bound
    // Call identity (docs/steps.md "Call identity"); sequence = display order.
    CallCounter callCounter;
    int nextSequence = 1; ///< for a call with no recorded sequence to keep
};
