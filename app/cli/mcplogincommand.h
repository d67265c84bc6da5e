// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// `toolstudio mcp login PROJECT SERVER [--timeout SECONDS]` (docs/mcp.md "Signing in"):
/// signs in to remote server SERVER (McpOAuthFlow): prints the authorization URL to
/// open, waits for the browser's redirect at most `timeoutSeconds`, and says where the
/// tokens went. On failure it prints each step of the flow and which failed, and why.
/// Exit 0 when signed in (or the server needs no sign-in), 1 when the flow failed, 2 on
/// bad input, 3 when the project is not trusted.
int mcpLoginCommand(const QString &projectDir, const QString &server, int timeoutSeconds, bool trust);
