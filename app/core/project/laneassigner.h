// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <vector>

/// The lane rule of the timeline and the trace export: a step goes into the first
/// lane that is free at its start, so a script that keeps N calls in flight comes out
/// as N lanes. Feed steps in order of start (ms); an open step's end is a time after
/// every other (it keeps its lane busy).
class LaneAssigner
{
public:
    /// The 0-based lane of a step from `start` to `end`; a new lane when none is free.
    int place(qint64 start, qint64 end);
    /// The step `place()` last put into `lane` ended (it was open): the lane is free from `end`.
    void release(int lane, qint64 end) { m_freeAt[size_t(lane)] = end; }
    /// How many lanes were opened.
    int count() const { return int(m_freeAt.size()); }
    void clear() { m_freeAt.clear(); }

private:
    std::vector<qint64> m_freeAt; ///< when each lane is free again
};
