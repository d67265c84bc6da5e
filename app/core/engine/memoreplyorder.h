// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <optional>
#include <string>
#include <vector>

/// When the memoized replies of a replay, resume or rerun go out (docs/steps.md "Call
/// identity"): in the recorded run's completion order, so that a script racing calls
/// sees the same winner.
///
/// A memoized reply to recorded step X is held while some recorded step Y has not been
/// called yet although the recorded run both made Y before X completed and completed Y
/// before X: the script made Y without waiting for X's result then, so a deterministic
/// script makes it again without that reply — holding X cannot deadlock it. Calls made
/// after X completed (which may depend on X's result) are never waited for. A script
/// that does not make Y after all (it diverged) is the caller's to bound: takeReady(true)
/// hands out everything.
///
/// Each check walks the recorded steps by completion time from the first one not yet
/// called, so a sequential replay costs O(1) per call.
class MemoReplyOrder
{
public:
    struct Reply
    {
        std::string id;
        std::string line;
    };

    /// The recorded steps (the plan's, indexed as the plan is); only final, not
    /// cancelled ones with a completion time can be memoized and so be waited for.
    void reset(const std::vector<Step> &planSteps);
    /// A call with the identity of recorded step `planIndex` came (memoized or not).
    void arrived(int planIndex);
    /// Queues the reply to the call of recorded step `planIndex`.
    void add(int planIndex, std::string id, std::string line);
    /// The first queued reply in recorded completion order if it may go now (`all`:
    /// held or not), removed from the queue; nullopt when none may.
    std::optional<Reply> takeNext(bool all);
    bool empty() const { return m_queued.empty(); }

private:
    struct Queued
    {
        qint64 endedAt = 0;
        Reply reply;
    };
    bool blocked(qint64 endedAt);

    std::vector<qint64> m_queuedAt;    ///< by plan index
    std::vector<qint64> m_endedAt;     ///< by plan index
    std::vector<bool> m_arrived;       ///< by plan index
    std::vector<int> m_byEnd;          ///< memoizable plan indices by recorded completion
    std::size_t m_firstNotArrived = 0; ///< into m_byEnd
    std::vector<Queued> m_queued;
};
