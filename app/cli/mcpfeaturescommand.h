// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// `toolstudio mcp resources PROJECT SERVER [--read URI] [--json]` (docs/mcp.md
/// "Resources and prompts"): starts SERVER of the project (confined, like `mcp list`),
/// lists its resources and resource templates (every page), or reads one resource and
/// prints its text (a blob by its size; --json prints the server's result). Exit 0 when
/// it listed or read, 1 when the server failed, does not offer resources, or answered
/// an error, 2 on bad input, 3 when the project is not trusted.
int mcpResourcesCommand(const QString &projectDir, const QString &server, const QString &readUri, bool asJson,
                        bool trust);

/// `toolstudio mcp prompts PROJECT SERVER [--get NAME [--args JSON]] [--json]`: lists
/// SERVER's prompts with their arguments, or gets one with `--args` (a JSON object of
/// strings) and prints its messages. Exit statuses as mcpResourcesCommand.
int mcpPromptsCommand(const QString &projectDir, const QString &server, const QString &promptName,
                      const QString &argsText, bool asJson, bool trust);
