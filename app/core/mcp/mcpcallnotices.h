// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

/// What a server tells about one open tools/call besides its answer (docs/mcp.md
/// "Progress and log messages"): `notifications/progress` for the call's
/// `progressToken`, coalesced — however many come, only their count and the last one
/// are kept (a server sending 100 000 grows neither memory nor the journal) — and the
/// lines of `notifications/message` (logging) as text for the attempt's output.
struct McpCallProgress
{
    /// Characters of a progress message kept (the rest is cut with a note).
    static constexpr qsizetype MessageChars = 300;

    qint64 count = 0;
    double progress = 0;
    double total = -1; ///< -1: the server sent no total
    QString message;   ///< the last message, printable and cut at MessageChars

    /// Takes one notifications/progress `params`; false (nothing kept) when its
    /// `progress` is not a number.
    bool add(const nlohmann::json &params);
    /// "3/10 Loading…" or "3" — the last notification, for the step's live line.
    QString line() const;
    /// "MCP progress: N notification(s), the last: LINE" for the attempt's output; "" when none came.
    QString summary() const;
};

namespace McpCallNotices {
/// Characters of one log message's data kept in the attempt's output.
constexpr qsizetype LogDataChars = 2000;
/// One line for a `notifications/message` `params`: "MCP log LEVEL [LOGGER]: DATA\n"
/// (data a string as it is, anything else as compact JSON; printable, cut at LogDataChars).
QString logLine(const nlohmann::json &params);
} // namespace McpCallNotices
