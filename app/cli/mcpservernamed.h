// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

struct McpServerConfig;
class Project;

/// The entry of `project`'s MCP server `name`, or nullptr after printing to stderr
/// "toolstudio mcp COMMAND: the project has no MCP server "NAME" (it has: …)".
const McpServerConfig *mcpServerNamed(const Project &project, const QString &name, const QString &command);
