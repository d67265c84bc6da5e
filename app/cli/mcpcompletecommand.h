// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpcompletion.h"

#include <QString>

/// `toolstudio mcp prompts PROJECT SERVER --complete NAME ARGUMENT [PREFIX] [--args JSON]`
/// and `toolstudio mcp resources PROJECT SERVER --complete TEMPLATE_URI VARIABLE [PREFIX]
/// [--args JSON]` (docs/mcp.md "Completions"): starts SERVER of the project, checks that
/// the prompt has the argument (prompts/list) or the template the variable (its
/// `{variables}`, resources/templates/list), and asks completion/complete (McpCompletion)
/// for the value typed so far, PREFIX, with --args' other arguments as context. Prints
/// the values one a line (--json: the server's result); what was left out and how many
/// more the server has go to stderr. Exit 0 when the server answered (with values or
/// none), 1 when it failed, does not declare `completions` (or `prompts`/`resources`),
/// answered -32601 or another error, 2 on bad input (bad --args, a prompt, template,
/// argument or variable the server does not have), 3 when the project is not trusted.
int mcpCompleteCommand(const QString &projectDir, const QString &server, const McpCompletionRef &ref,
                       const QString &argument, const QString &prefix, const QString &argsText, bool asJson,
                       bool trust);
