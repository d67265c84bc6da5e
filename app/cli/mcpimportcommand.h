// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// `toolstudio mcp import PROJECT FILE [--replace]` (docs/mcp.md "Importing a config"):
/// adds the servers of a Claude Desktop, Cursor, Claude Code or VS Code MCP config (or
/// another project's toolstudio.json) to PROJECT's `mcp_servers` (McpConfigImport),
/// saving the credentials it moves out of the entries as the project's secrets, and
/// prints what was added, renamed, changed and skipped. Runs nothing. Exit 0 when at
/// least one server was imported, 2 otherwise (bad file, no server, every name taken).
int importMcpConfig(const QString &projectDir, const QString &file, bool replace);
