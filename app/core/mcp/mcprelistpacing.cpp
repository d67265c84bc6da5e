// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcprelistpacing.h"

#include <utility>

bool McpRelistPacing::start(const std::function<void(int)> &schedule)
{
    if (m_listing) {
        m_again = true;
        return false;
    }
    if (m_sinceListed.isValid() && m_sinceListed.elapsed() < PauseMs) {
        if (!std::exchange(m_due, true))
            schedule(int(PauseMs - m_sinceListed.elapsed()));
        return false;
    }
    m_listing = true;
    return true;
}

bool McpRelistPacing::ended()
{
    m_listing = false;
    m_sinceListed.start();
    return std::exchange(m_again, false);
}

void McpRelistPacing::reset()
{
    m_listing = false;
    m_again = false;
}
