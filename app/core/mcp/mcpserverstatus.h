// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <vector>

/// What the pool knows of one server of the project: how far it got and its tools.
struct McpServerStatus
{
    enum class State {
        Idle,     ///< not started yet, or stopped (a crash): started again by the next call
        Starting, ///< launched, initialize and tools/list under way
        Ready,    ///< initialized; `tools` listed
        Failed,   ///< could not start, initialize or list; `error` says why
        Disabled, ///< "disabled": true
    };
    QString name;
    State state = State::Idle;
    QString error; ///< why it failed or stopped, with the server's stderr tail
    /// What a Starting server is doing that takes long: "installing PACKAGE with npm
    /// (once)" for an npx entry's first start (McpNpxInstall); "" otherwise.
    QString activity;
    QString protocolVersion;
    /// The transport of the ready session (McpTransport::transportName): "stdio",
    /// "Streamable HTTP", or "HTTP+SSE" (given, or fallen back to from a typeless `url`).
    QString transport;
    nlohmann::json serverInfo = nlohmann::json::object();
    /// The server's capabilities from its initialize result (an object): `resources`
    /// and `prompts` say whether it offers them (McpServerFeatures).
    nlohmann::json capabilities = nlohmann::json::object();
    std::vector<nlohmann::json> tools; ///< each as the server sent it in tools/list
    QStringList duplicateTools;        ///< names tools/list had more than once (the first kept)
    QStringList rejectedTools;         ///< "NAME: why" of tools left out for their x-mcp-header parameters
    /// Set when the server said its tools changed (`notifications/tools/list_changed`)
    /// and they were listed again: what changed, for a person ("tools changed: 2 added …").
    QString toolsChangedNote;
    /// The listed tools that differ from what a person accepted (McpAcceptedTools), in
    /// the order listed: their calls are refused (tool_failed, details "tool_changed") until accepted.
    std::vector<McpToolChange> changedTools;
    /// Why the project's record of accepted tools cannot be used or written; while it
    /// cannot be used, every tool of the server is in changedTools.
    QString acceptedError;

    static QString stateName(State state); ///< "idle", "starting", "ready", "failed", "disabled"
};
