// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ordinalindex.h"
#include "project/steprows.h"

#include <QHash>
#include <QString>

#include <set>
#include <vector>

/// The rows of a live run's trace (TraceModel's live source): the steps shown, by
/// ordinal, with their indexes by call id and sequence and the ordinals of failed and
/// pending steps (jumps), and the steps queued for the next insert. It emits nothing:
/// TraceModel says what changed.
class TraceLiveRows
{
public:
    int size() const { return int(m_rows.size()); }
    const StepSummary &at(int ordinal) const { return m_rows[size_t(ordinal)]; }
    /// The row at `ordinal` to change in place; track() it afterwards.
    StepSummary &rowAt(int ordinal) { return m_rows[size_t(ordinal)]; }
    int ordinalOfCallId(const QString &callId) const { return m_ordinalByCallId.value(callId, -1); }
    int ordinalOfSequence(int sequence) const { return m_ordinalBySequence.value(sequence, -1); }

    int queuedCount() const { return int(m_queue.size()); }
    /// The queued step with `callId`; nullptr when none is queued.
    const StepSummary *queued(const QString &callId) const;
    StepSummary *queued(const QString &callId);
    void enqueue(StepSummary summary);
    /// Moves the queued steps to the end of the rows (from ordinal size() on).
    void appendQueued();

    /// Updates the failed and pending ordinals for the row at `ordinal`.
    void track(int ordinal);
    /// The next failed (`failed`) or pending ordinal after/before `ordinal` (-1 = from
    /// the start/end), without wrapping; -1 when none.
    int next(int ordinal, bool failed, bool forward) const;
    /// Whether the row at `ordinal` matches `query` (tool, status, text in tool, call id
    /// or the summary shown).
    bool matches(int ordinal, const StepQuery &query) const;
    void clear();

private:
    // OrdinalIndex: growing it never rehashes what it holds (a QHash did, 40 ms in one
    // flush at 65 536 steps). The rows stay a vector: a std::deque (3 rows per block)
    // made hasChildren, which QTreeView asks of every top-level row per layout, 5x
    // slower; the vector's move on growth is ~10 ms at 65 536 rows.
    std::vector<StepSummary> m_rows;
    OrdinalIndex<QString> m_ordinalByCallId;
    OrdinalIndex<int> m_ordinalBySequence;
    std::vector<StepSummary> m_queue;
    QHash<QString, int> m_queueIndexByCallId; ///< index in m_queue; a burst stays O(1) per step
    std::set<int> m_failed;                   ///< ordinals of failed steps (jump to next failed)
    std::set<int> m_pending;                  ///< ordinals of pending steps
};
