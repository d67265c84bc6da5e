// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <vector>

/// Which attempt rows a step's write must touch, from what this Journal wrote of the
/// run before (docs/steps.md "The commit path"). An attempt changes only so — it ends
/// (end, outcome, error), its output grows, a person is asked or answers, a late Protocol record fills it
/// (StepAttempts::keepLateProtocol) —, so a row whose mark is unchanged is not written
/// again (attack40: every write of a step rewrote all its attempts, 512 KiB records
/// each, so journaling grew with attempts²).
class AttemptRowsWritten
{
public:
    /// One attempt row to write: the step's attempt at `index`, replacing the row of
    /// attempt `replaces` (0: a new row).
    struct Row
    {
        int index = 0;
        int replaces = 0;
    };
    struct Plan
    {
        bool deleteAll = false; ///< delete every attempt row of the step first
        std::vector<Row> rows;  ///< then write these
    };

    /// `olderRows`: the run had attempt rows when this Journal first saw it (a resumed
    /// run): a step's first write replaces them all. All rows are also replaced when
    /// the step's attempt folds into its row (`fold`: none written) or it has fewer
    /// attempts than were written — and while the step's previous write is not known to
    /// be in the file (unsettled: it waits in the group commit's tail, and a record
    /// SQLite refuses is dropped whole, so a write must not build on it; attack41).
    /// Records the plan as written.
    Plan plan(const Step &step, bool fold, bool olderRows);
    /// Every write planned so far is in the file (a commit or group commit went through).
    void settled() { m_unsettled.clear(); }

private:
    struct Mark
    {
        int number = 0;
        qint64 startedAt = 0;
        qint64 endedAt = 0;
        bool succeeded = false;
        bool failed = false;
        qsizetype outputBytes = 0;
        qsizetype protocolMessages = -1; ///< -1: no record
        std::size_t personWaits = 0;     ///< asked so far
        qint64 lastAnsweredAt = 0;       ///< of the last wait (0 while asked)
        static Mark of(const Attempt &attempt);
        bool operator==(const Mark &) const = default;
    };
    QHash<int, QList<Mark>> m_written; ///< by sequence
    QSet<int> m_unsettled;             ///< steps whose last write is not known to be in the file
};
