// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpoauthlog.h"
#include "mcp/mcpoauthmetadata.h"
#include "mcp/mcpoauthstate.h"

#include <QObject>
#include <QUrl>

class McpOAuthHttp;
class McpOAuthRedirect;
struct McpServerConfig;

/// Signing in to a remote MCP server (MCP 2025-11-25 basic/authorization; docs/mcp.md
/// "Signing in"), asynchronously, step by step into log():
///  1. the server is sent `initialize` without a token; its 401's `WWW-Authenticate:
///     Bearer resource_metadata=…, scope=…` is read;
///  2. the protected resource metadata (RFC 9728): the challenge's URL, else the
///     well-known URL at the endpoint's path, then at the root;
///  3. the metadata of `authorization_servers[0]` (RFC 8414, then OpenID Connect, in the
///     spec's order), its issuer checked, S256 required;
///  4. the client, in the order of MCP 2026-07-28 "Client Registration": `client_id` of
///     the settings (pre-registered); else the client ID metadata document's URL when the
///     authorization server says it takes them (`client_id_metadata_document_supported`)
///     and the settings name one; else the client registered at an earlier sign-in to
///     the same issuer (when its redirect port can be listened on again); else dynamic
///     client registration (RFC 7591) as a public client; else a failure naming the ways
///     out. The log says which and why;
///  5. authorization code with PKCE S256, `state` and `resource` (RFC 8707) and the
///     loopback redirect (McpOAuthRedirect): authorizationUrl() says where the person
///     goes; the flow waits for the redirect (the caller bounds the wait with abort());
///  6. the token exchange; the state is saved with the project's secrets.
/// Only https URLs are used, or http to a loopback address (McpOAuthHttp::refusedUrl).
class McpOAuthFlow : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        QString server;     ///< the server's name in mcp_servers
        QUrl url;           ///< its endpoint
        QString projectDir; ///< whose secrets keep the state
        QString clientId;   ///< "oauth".client_id; "" = register
        QString clientSecret;
        /// The project secrets clientSecret was made of ("${secret:NAME}"): it goes to the
        /// token endpoint only if each may be sent there (Secrets::allowSend, attack31 F2).
        QStringList clientSecretNames;
        QStringList scopes; ///< asked for when the challenge names no scope
        /// "oauth".client_metadata_url: the client ID metadata document's URL, used as
        /// client_id where the authorization server takes one; "" = none hosted.
        QString clientMetadataUrl;
        quint16 redirectPort = 0; ///< "oauth".redirect_port; 0 = the system's choice
    };

    /// The settings of `config`'s sign-in in `projectDir`: its url, oauth.client_id,
    /// scopes, client_metadata_url and redirect_port, and oauth.client_secret with the project's secrets put in. The secrets it
    /// names that are not set go to `missingSecrets` (the flow is then not to start).
    static Settings settingsFor(const McpServerConfig &config, const QString &projectDir, QStringList *missingSecrets);

    explicit McpOAuthFlow(Settings settings, QObject *parent = nullptr);

    void start();
    /// Ends the flow now with `why` (failed() follows), e.g. when no redirect came in time.
    void abort(const QString &why);
    const McpOAuthLog &log() const { return m_log; }
    const McpOAuthState &state() const { return m_state; }

Q_SIGNALS:
    /// The person signs in at `url`; the browser is sent back to `redirectUri`.
    void authorizationUrl(const QUrl &url, const QString &redirectUri);
    /// The server needed no sign-in: it answered without a token.
    void notNeeded(int status);
    void succeeded();
    void failed(const QString &why);

private:
    void probe();
    void fetchResource(QList<QUrl> candidates);
    void fetchServer(QList<QUrl> candidates);
    void chooseClient();
    /// Listens for the redirect on the settings' port (or the system's choice); false
    /// after fail() when it cannot.
    bool listenForRedirect();
    /// `why` says why no metadata document is used ("" when that needs no word).
    void registerClient(const QString &why);
    void authorize();
    void exchange(const QString &code);
    void fail(const QString &why);
    /// A URL for the log: no query (it may hold a code), printable, cut.
    static QString shown(const QUrl &url);

    Settings m_settings;
    McpOAuthLog m_log;
    McpOAuthHttp *m_http = nullptr;
    McpOAuthRedirect *m_redirect = nullptr;
    McpOAuthMetadata::Challenge m_challenge;
    McpOAuthMetadata::ResourceMetadata m_resource;
    McpOAuthMetadata::ServerMetadata m_metadata;
    McpOAuthState m_state;
    QByteArray m_verifier;
    QString m_stateParam;
    QString m_scope;
    bool m_done = false;
};
