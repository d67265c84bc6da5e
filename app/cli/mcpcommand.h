// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio mcp list PROJECT [--json] [--trust]` (docs/mcp.md): starts each MCP
/// server of the project's `mcp_servers` (confined, McpServerLaunch; all at once),
/// initializes it and lists its tools as scripts name them (SERVER__TOOL). Exit 0 when
/// every enabled server listed its tools, 1 when one failed (the others are still
/// listed), 2 on bad input, 3 when the project is not trusted (starting a server runs
/// the project's code). `mcp call`, `mcp import`, and `mcp resources` / `mcp prompts`
/// (mcpfeaturescommand.h) are its other subcommands.
int mcpCommand(const QStringList &arguments);
