// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <string>
#include <vector>

/// When the memoized replies of a replay, resume or rerun go out (docs/steps.md
/// "Completion order"): in the recorded run's completion order, so that a script racing
/// calls sees the same winner.
///
/// A memoized reply to recorded step X is held while some recorded step Y has not been
/// called yet although the recorded run both made Y before X completed and completed Y
/// before X: the script made Y without waiting for X's result then, so a deterministic
/// script makes it again without that reply — holding X cannot deadlock it. Calls made
/// after X completed (which may depend on X's result) are never waited for. A script
/// that does not make Y after all (it diverged) is the caller's to bound: next(true)
/// lets everything go.
///
/// A reply that may go needs a gap after the previous one (wantsGap()) only where the
/// script could have told them apart in the recorded run and might not now: its call
/// was in flight when the previous one completed, and it completed in a later
/// millisecond. Replies to calls the script made one after another never wait.
///
/// Each check walks the recorded steps by completion time from the first one not yet
/// called, so a sequential replay costs O(1) per call, and the queue is a heap.
class MemoReplyOrder
{
public:
    struct Reply
    {
        std::string id;
        std::string line;
    };
    enum class State {
        Empty, ///< nothing queued
        Held,  ///< the first queued reply waits for a call the script has not made yet
        Ready, ///< the first queued reply may go (see wantsGap())
    };

    /// The recorded steps (the plan's, indexed as the plan is); only final, not
    /// cancelled ones with a completion time can be memoized and so be waited for.
    void reset(const std::vector<Step> &planSteps);
    /// A call with the identity of recorded step `planIndex` came (memoized or not).
    void arrived(int planIndex);
    /// Queues the reply to the call of recorded step `planIndex`.
    void add(int planIndex, std::string id, std::string line);
    /// Whether the first queued reply in recorded completion order may go now (`all`:
    /// held or not).
    State next(bool all);
    /// Whether the first queued reply should go a gap after the last one taken, so that
    /// the script sees that one alone as it did in the recorded run.
    bool wantsGap() const;
    /// Removes and returns the first queued reply (next() said Ready).
    Reply take();
    bool empty() const { return m_queued.empty(); }

private:
    struct Queued
    {
        qint64 endedAt = 0;
        quint64 order = 0; ///< arrival, among equal completion times
        int planIndex = -1;
        Reply reply;
    };
    struct Later
    {
        bool operator()(const Queued &a, const Queued &b) const
        {
            return a.endedAt != b.endedAt ? a.endedAt > b.endedAt : a.order > b.order;
        }
    };
    bool blocked(qint64 endedAt);
    qint64 queuedAt(int planIndex) const;

    std::vector<qint64> m_queuedAt;    ///< by plan index
    std::vector<qint64> m_endedAt;     ///< by plan index
    std::vector<bool> m_arrived;       ///< by plan index
    std::vector<int> m_byEnd;          ///< memoizable plan indices by recorded completion
    std::size_t m_firstNotArrived = 0; ///< into m_byEnd
    std::vector<Queued> m_queued;      ///< a heap by Later: front() is the first to go
    quint64 m_added = 0;
    qint64 m_lastEndedAt = 0; ///< recorded completion of the reply taken last; 0: none
};
