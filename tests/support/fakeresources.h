// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// tests/data/mcp/fakeresources.py started over stdio (the suites of resources, prompts
// and completions).
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
