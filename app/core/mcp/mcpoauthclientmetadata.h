// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

/// The client metadata the studio presents to an authorization server (docs/mcp.md
/// "Signing in"), one shape for both ways it does: the body of a dynamic client
/// registration (RFC 7591 §2) and the client ID metadata document a person hosts for it
/// (draft-ietf-oauth-client-id-metadata-document-00; MCP 2026-07-28 "Client ID Metadata
/// Documents"). A public client: no secret, PKCE, refresh tokens.
namespace McpOAuthClientMetadata {

/// client_name "Tool Studio", redirect_uris [`redirectUri`], grant_types
/// authorization_code and refresh_token, response_types code, token_endpoint_auth_method
/// none; with `clientId` (a document's own URL) as client_id when it is not empty.
nlohmann::json describe(const QString &redirectUri, const QString &clientId = {});

} // namespace McpOAuthClientMetadata
