// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>

/// How many of a server's `ping` and `roots/list` requests a session answers, for
/// McpClientSession: Burst at once, then PerSecond a second (a token bucket); past that
/// a request is not answered (counted, refused()). Over Streamable HTTP each answer is a
/// POST of its own, and a server flooding its GET stream with pings kept the studio
/// making and recording answers, most of them refused by the bound of open POSTs after
/// all that (attack39 F4). A server waits seconds between two pings; one that asks more
/// than ten times a second gets silence, which the spec lets it read as a stale
/// connection. Over HTTP the refusals ("Method not found", a request the studio cannot
/// take now) come out of the same budget (attack42 F3); over stdio, where an answer is
/// a line on a pipe, every request gets its refusal. What a person answers is bounded by
/// McpClientSession::MaxOpenServerRequests.
class McpAnswerBudget
{
public:
    static constexpr int Burst = 20;
    static constexpr int PerSecond = 10;

    /// True when an answer may be sent now (it is counted); false when the budget is
    /// spent (counted in refused()).
    bool take();
    /// Requests left unanswered because the budget was spent.
    qint64 refused() const { return m_refused; }

private:
    QElapsedTimer m_clock; ///< since the tokens were last counted
    double m_tokens = Burst;
    qint64 m_refused = 0;
};
