// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio tools …` (DESIGN.md "Headless use"; docs/python-tools.md):
///
///     tools list PROJECT                     every tool, its handler and source; Python files that failed
///     tools export PROJECT --format anthropic|openai-chat|openai-responses [--strict] [--output FILE]
///     tools import PROJECT FILE [--as manual|mock]    JSON definitions, an MCP tools/list result, or a .py file
///     tools secret PROJECT NAME              reads the value from stdin (empty = delete); never printed
///
/// `arguments` are those after "tools". Exit status: 0 = done; 1 = refused (a tool that
/// cannot be exported — nothing is written then —, an import refused with the
/// reasons); 2 = bad input (usage, missing project, malformed toolstudio.json).
int toolsCommand(const QStringList &arguments);
