// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpbytebudget.h"

#include <utility>

McpByteBudget::Hold::Hold(Hold &&other) noexcept
    : m_budget(std::move(other.m_budget))
    , m_bytes(std::exchange(other.m_bytes, 0))
{}

McpByteBudget::Hold &McpByteBudget::Hold::operator=(Hold &&other) noexcept
{
    if (this != &other) {
        set(0);
        m_budget = std::move(other.m_budget);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

bool McpByteBudget::Hold::fits(std::size_t more) const
{
    return !m_budget || m_budget->m_held + more <= m_budget->m_max;
}

void McpByteBudget::Hold::set(std::size_t bytes)
{
    if (!m_budget)
        return;
    m_budget->m_held = m_budget->m_held - m_bytes + bytes;
    m_bytes = bytes;
}
