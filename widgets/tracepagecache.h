// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/steprows.h"

#include <QtGlobal>

#include <vector>

/// The pages of a journal-backed trace read so far (TracePageLoader reads them): at
/// most MaxPages of PageSize steps, the least recently used going first, and each
/// step's attempt count once known — kept when its page goes, so that the rows under a
/// step never change without the model saying so.
class TracePageCache
{
public:
    /// Steps in a page, and how many pages are kept.
    static constexpr int PageSize = 256;
    static constexpr int MaxPages = 32;

    static int pageOf(int ordinal) { return ordinal / PageSize; }

    /// Forgets every page; `steps` steps, none of their attempt counts known.
    void reset(int steps);
    /// The step at `ordinal` when its page is here (the page marked as used); nullptr
    /// otherwise. Valid until a page is evicted (store()).
    const StepSummary *find(int ordinal);
    bool hasPage(int page) const;
    /// Keeps `rows`, the steps of page `page` by ordinal (a default row for a sequence
    /// the journal had no row for), evicting the least recently used page when full.
    void store(int page, std::vector<StepSummary> rows);
    /// Attempts of the step at `ordinal`: -1 until its page has been read once.
    int knownAttempts(int ordinal) const;
    void setKnownAttempts(int ordinal, int count);
    /// Notes that someone was told the step at `ordinal` has no attempt rows (its count
    /// not known yet): when its page arrives its rows must be inserted, not just appear.
    void noteToldNone(int ordinal);
    bool wasToldNone(int ordinal) const;

private:
    struct Page
    {
        int index = -1;
        quint64 lastUse = 0;
        std::vector<StepSummary> rows;
    };
    std::vector<Page> m_pages;
    quint64 m_useClock = 0;
    std::vector<int> m_attempts; ///< by ordinal; -1 = not known yet, -2 = not known, told none
};
