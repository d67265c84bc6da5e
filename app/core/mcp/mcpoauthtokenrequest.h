// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpoauthhttp.h"

#include <QList>
#include <QPair>
#include <QString>

struct McpOAuthState;

/// A request to the token endpoint (RFC 6749 §4.1.3 code exchange, §6 refresh), shared
/// by sign-in and refresh: the form plus `client_id` and `resource` (RFC 8707, the
/// spec's "Resource Parameter"), the client secret as the client was registered for
/// (`client_secret_basic`: an Authorization header; otherwise in the form).
namespace McpOAuthTokenRequest {
using Form = QList<QPair<QString, QString>>;
void send(McpOAuthHttp &http, const McpOAuthState &state, Form form, McpOAuthHttp::Done done);
/// An OAuth error response in words: "HTTP 400: invalid_grant: DESCRIPTION" (printable,
/// cut), or the transport error.
QString describeError(const McpOAuthResponse &response);
/// The response's "error" code ("invalid_grant"), or "".
QString errorCode(const McpOAuthResponse &response);
} // namespace McpOAuthTokenRequest
