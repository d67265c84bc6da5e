// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// MCP servers the suites of resources, prompts and completions start over stdio:
// tests/data/mcp/fakeresources.py and the reference server "everything".
#pragma once

#include "mcp/mcpstdiotransport.h"
#include "testfiles.h"

#include <QStandardPaths>

/// How to start the fake resources server in `mode` (its docstring lists them).
inline McpStdioTransport::Launch fakeResources(const QString &mode)
{
    McpStdioTransport::Launch launch;
    launch.program = QStandardPaths::findExecutable(QStringLiteral("python3"));
    launch.arguments = {mcpFixture("fakeresources.py"), mode};
    launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    return launch;
}

/// How to start the reference server "everything" installed in `modules`
/// (referenceServerModules()).
inline McpStdioTransport::Launch everythingOverStdio(const QString &modules)
{
    McpStdioTransport::Launch launch;
    launch.program = QStandardPaths::findExecutable(QStringLiteral("node"));
    launch.arguments = {modules + QStringLiteral("/@modelcontextprotocol/server-everything/dist/index.js")};
    launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    return launch;
}
