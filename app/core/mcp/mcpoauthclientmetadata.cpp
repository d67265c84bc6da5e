// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthclientmetadata.h"

namespace McpOAuthClientMetadata {

nlohmann::json describe(const QString &redirectUri, const QString &clientId)
{
    // application_type "native": a desktop application with a loopback redirect (MCP
    // 2026-07-28 "Client Registration": a client MUST name it; an OpenID Connect server
    // takes its absence as "web" and may refuse loopback redirect URIs then).
    nlohmann::json metadata = {{"application_type", "native"},
                               {"client_name", "Tool Studio"},
                               {"redirect_uris", {redirectUri.toStdString()}},
                               {"grant_types", {"authorization_code", "refresh_token"}},
                               {"response_types", {"code"}},
                               {"token_endpoint_auth_method", "none"}};
    if (!clientId.isEmpty())
        metadata["client_id"] = clientId.toStdString();
    return metadata;
}

} // namespace McpOAuthClientMetadata
