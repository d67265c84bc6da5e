// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tracerowformat.h"

#include <utility>
#include <vector>

/// The policy event rows of a trace, by the steps they follow, then arrival, and where
/// they sit among the step rows: event k, after afterSteps steps, is top-level row
/// afterSteps + k (rows grow strictly with k). It emits nothing: TraceModel says what
/// changed.
class TraceEventRows
{
public:
    int size() const { return int(m_rows.size()); }
    bool empty() const { return m_rows.empty(); }
    const TraceEventRow &at(int k) const { return m_rows[size_t(k)]; }
    /// Replaces every row; `rows` sorted by afterSteps.
    void assign(std::vector<TraceEventRow> rows) { m_rows = std::move(rows); }
    void clear() { m_rows.clear(); }

    /// Events shown before step `ordinal` (those after at most `ordinal` steps).
    int before(int ordinal) const;
    /// Events above top-level `row`; `*onRow` says whether one is at `row` itself.
    int above(int row, bool *onRow) const;
    /// The event at top-level `row`, or -1 when a step is there.
    int atRow(int row) const;
    /// The top-level row `row` gets: after the events that follow as many steps.
    int rowOfNew(const TraceEventRow &row) const { return row.afterSteps + before(row.afterSteps); }
    /// Inserts `row` at rowOfNew(row).
    void insert(TraceEventRow row);

private:
    std::vector<TraceEventRow> m_rows;
};
