// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclientsession.h"

#include <QMap>
#include <QString>

#include <memory>

// What the commands on a server's features share (`toolstudio mcp resources|prompts`,
// their --read, --get and --complete; docs/mcp.md "Resources and prompts").

/// The project's server `name` started (confined, like `mcp list`) and initialized, or
/// nullptr with the reason printed to stderr as "toolstudio mcp COMMAND: …" and
/// `*exitCode` set (2 for an unknown server, 3 for a project not trusted, 1 otherwise).
std::unique_ptr<McpClientSession> openMcpFeaturesServer(const QString &command, const QString &projectDir,
                                                        const QString &name, bool trust, int *exitCode);

/// Runs the event loop until `done` is true.
void waitFor(const bool &done);

/// `--args`: a JSON object of strings (MCP's prompt arguments and template variables are
/// strings) into `*arguments`; false after printing why to stderr ("toolstudio mcp
/// COMMAND: …").
bool readStringArguments(const QString &command, const QString &argsText, QMap<QString, QString> *arguments);
