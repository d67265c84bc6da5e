// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

class Secrets;

/// What the studio keeps of one MCP server's sign-in (docs/mcp.md "Signing in"): the
/// client it signed in as, where tokens come from, and the tokens. Stored with the
/// project's secrets (Secrets::oauth, mode 0600, outside the project), never in
/// toolstudio.json, the journal or a log.
struct McpOAuthState
{
    QString serverUrl; ///< the MCP endpoint the tokens are for; another URL does not get them
    QString resource;  ///< the `resource` parameter (RFC 8707) sent with every token request
    QString issuer;
    QString tokenEndpoint;
    QString clientId;
    QString clientSecret;    ///< "" for a public client
    QString authMethod;      ///< token endpoint auth: "none", "client_secret_post", "client_secret_basic"
    bool registered = false; ///< the client came from dynamic client registration
    QString redirectUri;     ///< the one registered (its port is tried again at the next sign-in)
    QString accessToken;
    QString refreshToken;
    qint64 expiresAt = 0; ///< ms since the epoch; 0 when the server gave no expires_in
    QString scope;
    /// Scopes the server asked for in a 403 `insufficient_scope` (step-up, spec "Scope
    /// Challenge Handling"): the next sign-in asks for them as well.
    QString scopeNeeded;

    /// Space-separated scopes `a` then those of `b` not in it.
    static QString unitedScopes(const QString &a, const QString &b);

    /// Loads the state of `server` from `secrets`; nullopt when there is none.
    static std::optional<McpOAuthState> load(const Secrets &secrets, const QString &server);
    /// Writes it into the secrets file of `projectDir` (the file as it is now, so other
    /// secrets written since are kept). False with the reason.
    bool save(const QString &projectDir, const QString &server, QString *why) const;

    /// Takes a token response (RFC 6749 §5.1) received at `nowMs`: access_token,
    /// token_type Bearer, expires_in, refresh_token (kept when none is given), scope.
    /// False with the reason (never quoting a token).
    bool takeTokens(const QByteArray &body, qint64 nowMs, QString *why, QString *summary = nullptr);
    /// The access token has expired (or will within 30 s) and a refresh token is there.
    bool expired(qint64 nowMs) const;
};
