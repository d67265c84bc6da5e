// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

/// What MCP authorization's discovery reads (spec 2025-11-25 basic/authorization
/// "Authorization Server Discovery"): the server's 401 challenge, its protected
/// resource metadata (RFC 9728) and its authorization server's metadata (RFC 8414 or
/// OpenID Connect Discovery). Plain functions over outside text: every JSON read goes
/// through JsonInput, every string is checked for its type.
namespace McpOAuthMetadata {

/// A `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1).
struct Challenge
{
    bool bearer = false;      ///< a Bearer challenge was there
    QString resourceMetadata; ///< resource_metadata="…"
    QString scope;            ///< scope="…"
    QString error;            ///< error="…" (invalid_token, insufficient_scope)
};
/// The Bearer challenge of a WWW-Authenticate header value (other schemes skipped).
Challenge parseChallenge(const QByteArray &header);

/// Where the protected resource metadata of MCP endpoint `server` is looked for when
/// the challenge names none: at the endpoint's path, then at the root (RFC 9728 §3.1;
/// the path one is left out for an endpoint at the root).
QList<QUrl> resourceMetadataUrls(const QUrl &server);
/// Where the metadata of authorization server `issuer` is looked for, in the spec's
/// order: with a path, RFC 8414 path insertion, OpenID path insertion, OpenID path
/// appending; without, RFC 8414 then OpenID.
QList<QUrl> serverMetadataUrls(const QUrl &issuer);

struct ResourceMetadata
{
    QString resource;                 ///< the MCP server's resource identifier (RFC 8707)
    QStringList authorizationServers; ///< issuer URLs
    QStringList scopesSupported;
};
/// The protected resource metadata in `body` for MCP endpoint `server`: nullopt with
/// the reason when it is not a JSON object, lists no authorization server, names no
/// `resource`, or a `resource` that is not `server` or a prefix of it on the same origin.
std::optional<ResourceMetadata> readResource(const QByteArray &body, const QUrl &server, QString *why);

struct ServerMetadata
{
    QString issuer;
    QUrl authorizationEndpoint;
    QUrl tokenEndpoint;
    QUrl registrationEndpoint;              ///< empty: no dynamic client registration
    QStringList tokenAuthMethods;           ///< token_endpoint_auth_methods_supported
    bool clientIdMetadataDocuments = false; ///< client_id_metadata_document_supported is true
};
/// The authorization server metadata in `body`: nullopt with the reason when it is not
/// a JSON object, its `issuer` is not `issuer` (RFC 8414 §3.3), an endpoint is missing
/// or not https (McpOAuthHttp::refusedUrl), or `code_challenge_methods_supported` does
/// not list S256 (spec "Authorization Code Protection": the client must refuse).
/// `server` is the MCP endpoint signed in to (McpOAuthHttp::refusedUrl's second argument).
std::optional<ServerMetadata> readServer(const QByteArray &body, const QString &issuer, const QUrl &server,
                                         QString *why);

/// `server` as a resource identifier: no fragment, lowercase scheme and host.
QString canonicalResource(const QUrl &server);

} // namespace McpOAuthMetadata
