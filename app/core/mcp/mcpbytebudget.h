// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <memory>

/// Bytes of unfinished messages that all the streams and bodies of one HTTP transport
/// may hold together (attack43 F2: each may hold one message's bound, 64 MiB, and a
/// server answering six calls with lines that never end held six times that). Each
/// holder takes what it holds through a Hold, which gives it back when it lets go or is
/// destroyed.
class McpByteBudget
{
public:
    class Hold
    {
    public:
        Hold() = default;
        explicit Hold(std::shared_ptr<McpByteBudget> budget)
            : m_budget(std::move(budget))
        {}
        Hold(Hold &&other) noexcept;
        Hold &operator=(Hold &&other) noexcept;
        Hold(const Hold &) = delete;
        Hold &operator=(const Hold &) = delete;
        ~Hold() { set(0); }

        /// Whether `more` bytes than held now fit the budget (always, without one).
        bool fits(std::size_t more) const;
        /// Holds `bytes` now (more or less than before).
        void set(std::size_t bytes);

    private:
        std::shared_ptr<McpByteBudget> m_budget;
        std::size_t m_bytes = 0;
    };

    explicit McpByteBudget(std::size_t max)
        : m_max(max)
    {}
    std::size_t max() const { return m_max; }
    /// Bytes held now, by all holders together.
    std::size_t held() const { return m_held; }

private:
    std::size_t m_max;
    std::size_t m_held = 0;
};
