// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

/// A changed MCP tool as a question for a person while its call waits (docs/mcp.md
/// "Tools that change"; engine/personquestion.h, kind "tool_change"): the window asks
/// before a tool whose definition differs from the accepted one is called, instead of
/// failing the step. Answers: {"action": "accept"} (the tool's definition as shown is
/// accepted and the call sent) or {"action": "reject"} (the step fails as before).
class McpToolChangeQuestion
{
    Q_DECLARE_TR_FUNCTIONS(McpToolChangeQuestion)
public:
    /// Characters of the diff a question carries (it is journaled with the step); a tool
    /// whose diff is longer is not asked about: its call is refused and the MCP Servers
    /// dock's Review Changes shows it whole.
    static constexpr qsizetype MaxDiffChars = 256 * 1024;

    /// {"kind": "tool_change", "server", "tool" (the server's own name), "name" (the
    /// project's SERVER__TOOL), "change": "new" | "changed", "parts", "message", "diff"
    /// (McpToolChange::diff, printable lines)}; nullopt when `change` cannot be asked
    /// about: it nests too deep to be accepted, or its diff is over MaxDiffChars.
    static std::optional<nlohmann::json> question(const McpToolChange &change);
    /// The step's error message when a person rejected the change asked in `question`
    /// (`why`: the message of an error answer, "" for {"action": "reject"}).
    static QString rejection(const nlohmann::json &question, const QString &why);
};
