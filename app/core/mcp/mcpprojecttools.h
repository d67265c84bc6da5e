// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QStringList>

#include <functional>

#include <optional>

class Project;
class McpServerPool;

/// The tools of a project's MCP servers as project tools (docs/mcp.md "Tools of a
/// server"): each listed tool becomes a Tool named `SERVER__TOOL` of handler kind
/// `mcp`, with the server's title, description, inputSchema, outputSchema and
/// annotations and the project's retry defaults.
namespace McpProjectTools {
/// The project tool for `listed` (one entry of `server`'s tools/list); nullopt with
/// `problem` when scripts cannot call it (a name that is not a valid tool name, a
/// schema that does not compile).
std::optional<Tool> toTool(const QString &server, const nlohmann::json &listed, const Project &project,
                           QString *problem);
/// Adds the tools of `pool`'s ready servers to `project.tools` (a name the project
/// already declares is kept and the MCP tool skipped). Returns one line per server
/// that failed and per tool skipped, for `tools list`, a run's stderr and the dock.
QStringList addTools(Project &project, const McpServerPool &pool);
/// After a server's tools changed (McpServerPool::toolsChanged): the project's MCP
/// tools are dropped and addTools() adds those of every ready server again; its lines
/// plus, per server whose tools changed, "MCP server 'x': its tools changed (…)".
QStringList replaceTools(Project &project, const McpServerPool &pool);
/// Registers the `mcp` handler kind with the engine, hands the project's servers to
/// its pool (McpServerPool::forProject) and starts those not running; returns at once
/// (the window adds the tools with addTools() once the pool is settled()). The caller
/// has checked trust.
McpServerPool *startAll(const Project &project);
/// For the headless commands: the project's pool (McpServerPool::forProject) gets the
/// project's servers, every server is started, and this returns — the event loop
/// running meanwhile — once each is ready or has failed; then addTools(). Registers
/// the `mcp` handler kind with the engine. Nothing is started for a project without
/// `mcp_servers` or one that is not trusted (then the trust refusal is the one line).
/// `progress` (optional) hears what a starting server does that takes long, once per
/// server: "MCP server 'x': installing PACKAGE with npm (once)…".
QStringList connectAndAdd(Project &project, const std::function<void(const QString &note)> &progress = {});
} // namespace McpProjectTools
