// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpanswerbudget.h"

#include <algorithm>

bool McpAnswerBudget::take()
{
    if (m_clock.isValid())
        m_tokens = std::min<double>(Burst, m_tokens + m_clock.restart() * PerSecond / 1000.0);
    else
        m_clock.start();
    if (m_tokens < 1) {
        ++m_refused;
        return false;
    }
    m_tokens -= 1;
    return true;
}
