// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracepagecache.h"

#include <algorithm>

void TracePageCache::reset(int steps)
{
    m_pages.clear();
    m_pages.reserve(MaxPages); // rows handed out stay put until their page is evicted
    m_useClock = 0;
    m_attempts.assign(size_t(std::max(0, steps)), -1);
}

const StepSummary *TracePageCache::find(int ordinal)
{
    const int index = pageOf(ordinal);
    const int offset = ordinal % PageSize;
    for (Page &page : m_pages) {
        if (page.index == index) {
            page.lastUse = ++m_useClock;
            return offset < int(page.rows.size()) ? &page.rows[size_t(offset)] : nullptr;
        }
    }
    return nullptr;
}

bool TracePageCache::hasPage(int page) const
{
    return std::any_of(m_pages.begin(), m_pages.end(), [&](const Page &p) { return p.index == page; });
}

void TracePageCache::store(int page, std::vector<StepSummary> rows)
{
    Page fresh{page, ++m_useClock, std::move(rows)};
    const auto same = std::find_if(m_pages.begin(), m_pages.end(), [&](const Page &p) { return p.index == page; });
    if (same != m_pages.end()) {
        *same = std::move(fresh);
        return;
    }
    if (int(m_pages.size()) >= MaxPages) {
        auto oldest = std::min_element(m_pages.begin(), m_pages.end(),
                                       [](const Page &a, const Page &b) { return a.lastUse < b.lastUse; });
        *oldest = std::move(fresh);
        return;
    }
    m_pages.push_back(std::move(fresh));
}

int TracePageCache::knownAttempts(int ordinal) const
{
    return ordinal >= 0 && ordinal < int(m_attempts.size()) ? std::max(-1, m_attempts[size_t(ordinal)]) : -1;
}

void TracePageCache::noteToldNone(int ordinal)
{
    if (ordinal >= 0 && ordinal < int(m_attempts.size()) && m_attempts[size_t(ordinal)] == -1)
        m_attempts[size_t(ordinal)] = -2;
}

bool TracePageCache::wasToldNone(int ordinal) const
{
    return ordinal >= 0 && ordinal < int(m_attempts.size()) && m_attempts[size_t(ordinal)] == -2;
}

void TracePageCache::setKnownAttempts(int ordinal, int count)
{
    if (ordinal >= 0 && ordinal < int(m_attempts.size()))
        m_attempts[size_t(ordinal)] = count;
}
