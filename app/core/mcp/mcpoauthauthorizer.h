// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpoauthstate.h"

#include <QObject>
#include <QUrl>

#include <functional>
#include <optional>
#include <vector>

class McpOAuthHttp;

/// The token side of a remote server's requests (docs/mcp.md "Signing in"): the
/// `Authorization: Bearer` header from the sign-in state kept with the project's
/// secrets (only for the URL it was signed in to), and its refresh (RFC 6749 §6, with
/// `resource`) when the token has expired or the server answered 401 to it. A refresh
/// is shared by the requests waiting for it; its new tokens are saved at once.
class McpOAuthAuthorizer : public QObject
{
    Q_OBJECT
public:
    /// `state` as loaded for server `server` of the project in `projectDir` (nullopt:
    /// never signed in); `url` is the server's endpoint now.
    McpOAuthAuthorizer(QString server, QString projectDir, QUrl url, std::optional<McpOAuthState> state,
                       QObject *parent = nullptr);

    /// "Bearer TOKEN", or empty when there is no token for this URL.
    QByteArray authorization() const;
    /// A refresh is worth trying now: the token expired (proactively, once per
    /// authorizer) and a refresh token is there.
    bool wantsRefresh() const;
    /// A refresh token is there and was not refused.
    bool canRefresh() const;
    /// Refreshes; `done(true)` once new tokens are saved, `done(false)` when refused
    /// (then failure() says why and what to do).
    void refresh(std::function<void(bool)> done);
    /// Why the server cannot be used: it needs (again) a sign-in, with the command to run.
    QString failure() const;
    /// The server answered a request 403 `insufficient_scope` naming `scope` (step-up):
    /// the scopes are kept with the sign-in state, so the next sign-in asks for them
    /// too. Why the request failed and what to do.
    QString needScope(const QString &scope);

private:
    QString m_server;
    QString m_projectDir;
    QUrl m_url;
    std::optional<McpOAuthState> m_state;
    McpOAuthHttp *m_http = nullptr;
    std::vector<std::function<void(bool)>> m_waiting;
    bool m_refreshed = false;
    bool m_refused = false;
    QString m_why;
};
