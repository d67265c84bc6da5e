// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "traceeventrows.h"

#include <algorithm>

int TraceEventRows::before(int ordinal) const
{
    const auto it = std::upper_bound(m_rows.begin(), m_rows.end(), ordinal,
                                     [](int k, const TraceEventRow &e) { return k < e.afterSteps; });
    return int(it - m_rows.begin());
}

int TraceEventRows::above(int row, bool *onRow) const
{
    int lo = 0;
    int hi = size();
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (m_rows[size_t(mid)].afterSteps + mid < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    *onRow = lo < size() && m_rows[size_t(lo)].afterSteps + lo == row;
    return lo;
}

int TraceEventRows::atRow(int row) const
{
    bool onRow = false;
    const int k = above(row, &onRow);
    return onRow ? k : -1;
}

void TraceEventRows::insert(TraceEventRow row)
{
    m_rows.insert(m_rows.begin() + before(row.afterSteps), std::move(row));
}
