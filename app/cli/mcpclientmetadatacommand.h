// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// `toolstudio mcp client-metadata PROJECT SERVER [--port N]` (docs/mcp.md "Signing
/// in"): prints the client ID metadata document of remote server SERVER's sign-in — the
/// JSON a person hosts at the entry's `oauth.client_metadata_url`, since the studio, a
/// desktop program, has no URL of its own (McpOAuthClientMetadata). Its client_id is that
/// URL exactly; its redirect URI names the entry's `oauth.redirect_port`, else `port`
/// (0: none given), else no port (RFC 8252 §7.3: any loopback port). How to use it goes
/// to stderr. Reads only the manifest: the project need not be trusted. Exit 0 printed,
/// 2 on bad input (no such server, not a remote one, no client_metadata_url, a --port
/// that is not the entry's redirect_port).
int mcpClientMetadataCommand(const QString &projectDir, const QString &server, quint16 port);
