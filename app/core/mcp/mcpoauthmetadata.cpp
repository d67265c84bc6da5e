// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthmetadata.h"

#include "jsoninput.h"
#include "mcp/mcpoauthhttp.h"
#include "project/printabletext.h"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace McpOAuthMetadata {

namespace {

json readObject(const QByteArray &body, const char *what, QString *why)
{
    JsonInput::Problem problem;
    json value = JsonInput::read<json>(std::string_view(body.constData(), std::size_t(body.size())), &problem);
    if (!problem.reason.empty()) {
        *why = QString::fromStdString(JsonInput::describe(what, problem));
        return json();
    }
    if (!value.is_object()) {
        *why = QStringLiteral("%1 is not a JSON object").arg(QLatin1String(what));
        return json();
    }
    return value;
}

QString stringOf(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

QStringList stringsOf(const json &object, const char *key)
{
    QStringList list;
    const auto it = object.find(key);
    if (it != object.end() && it->is_array())
        for (const json &entry : *it)
            if (entry.is_string() && list.size() < 64)
                list << QString::fromStdString(entry.get<std::string>());
    return list;
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + elidedText(printableText(text), 200) + QLatin1Char('"');
}

/// The path of `url` without a trailing "/" ("" for the root).
QString trimmedPath(const QUrl &url)
{
    QString path = url.path(QUrl::FullyEncoded);
    while (path.endsWith(u'/'))
        path.chop(1);
    return path;
}

QUrl withPath(const QUrl &base, const QString &path)
{
    QUrl url = base;
    url.setPath(path, QUrl::StrictMode);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

} // namespace

Challenge parseChallenge(const QByteArray &header)
{
    // challenge = scheme 1*SP [ auth-param *( "," auth-param ) ], several separated by ","
    Challenge challenge;
    const QString text = QString::fromLatin1(header.left(8192));
    qsizetype i = 0;
    const qsizetype n = text.size();
    bool inBearer = false;
    while (i < n) {
        while (i < n && (text[i] == u' ' || text[i] == u',' || text[i] == u'\t'))
            ++i;
        qsizetype start = i;
        while (i < n && text[i] != u' ' && text[i] != u'=' && text[i] != u',' && text[i] != u'\t')
            ++i;
        const QString token = text.mid(start, i - start);
        if (token.isEmpty())
            break;
        qsizetype look = i;
        while (look < n && (text[look] == u' ' || text[look] == u'\t'))
            ++look;
        if (look >= n || text[look] != u'=') {
            inBearer = token.compare(QLatin1String("Bearer"), Qt::CaseInsensitive) == 0; // a new scheme
            challenge.bearer = challenge.bearer || inBearer;
            continue;
        }
        i = look + 1;
        while (i < n && (text[i] == u' ' || text[i] == u'\t'))
            ++i;
        QString value;
        if (i < n && text[i] == u'"') {
            ++i;
            while (i < n && text[i] != u'"') {
                if (text[i] == u'\\' && i + 1 < n)
                    ++i;
                value += text[i++];
            }
            ++i;
        } else {
            start = i;
            while (i < n && text[i] != u',' && text[i] != u' ')
                ++i;
            value = text.mid(start, i - start);
        }
        if (!inBearer)
            continue;
        const QString key = token.toLower();
        if (key == QLatin1String("resource_metadata"))
            challenge.resourceMetadata = value;
        else if (key == QLatin1String("scope"))
            challenge.scope = value;
        else if (key == QLatin1String("error"))
            challenge.error = value;
    }
    return challenge;
}

QList<QUrl> resourceMetadataUrls(const QUrl &server)
{
    QList<QUrl> urls;
    const QString path = trimmedPath(server);
    if (!path.isEmpty())
        urls << withPath(server, QStringLiteral("/.well-known/oauth-protected-resource") + path);
    urls << withPath(server, QStringLiteral("/.well-known/oauth-protected-resource"));
    return urls;
}

QList<QUrl> serverMetadataUrls(const QUrl &issuer)
{
    const QString path = trimmedPath(issuer);
    if (path.isEmpty())
        return {withPath(issuer, QStringLiteral("/.well-known/oauth-authorization-server")),
                withPath(issuer, QStringLiteral("/.well-known/openid-configuration"))};
    return {withPath(issuer, QStringLiteral("/.well-known/oauth-authorization-server") + path),
            withPath(issuer, QStringLiteral("/.well-known/openid-configuration") + path),
            withPath(issuer, path + QStringLiteral("/.well-known/openid-configuration"))};
}

QString canonicalResource(const QUrl &server)
{
    QUrl url = server.adjusted(QUrl::RemoveFragment);
    url.setScheme(url.scheme().toLower());
    url.setHost(url.host().toLower());
    return url.toString(QUrl::FullyEncoded);
}

std::optional<ResourceMetadata> readResource(const QByteArray &body, const QUrl &server, QString *why)
{
    const json root = readObject(body, "the protected resource metadata", why);
    if (root.is_null())
        return std::nullopt;
    ResourceMetadata metadata;
    metadata.resource = stringOf(root, "resource");
    metadata.authorizationServers = stringsOf(root, "authorization_servers");
    metadata.scopesSupported = stringsOf(root, "scopes_supported");
    if (metadata.authorizationServers.isEmpty()) {
        *why = QStringLiteral("the protected resource metadata lists no authorization_servers");
        return std::nullopt;
    }
    // RFC 9728 §2: `resource` is required, and §3.3: metadata whose resource is not the
    // one asked about is not used; a prefix of the endpoint on the same origin is taken
    // (a server's metadata for its root). Without it, any server's metadata would do.
    if (metadata.resource.isEmpty()) {
        *why = QStringLiteral("the protected resource metadata names no resource (RFC 9728 §2: it must, and it must "
                              "be the MCP server's URL)");
        return std::nullopt;
    }
    {
        const QUrl resource(metadata.resource);
        const QUrl endpoint(canonicalResource(server));
        const bool sameOrigin = resource.scheme().toLower() == endpoint.scheme()
            && resource.host().toLower() == endpoint.host() && resource.port() == endpoint.port();
        const QString prefix = trimmedPath(resource);
        const QString path = trimmedPath(endpoint);
        if (!sameOrigin || !(path == prefix || path.startsWith(prefix + u'/'))) {
            *why = QStringLiteral("the protected resource metadata is for %1, not for %2")
                       .arg(quoted(metadata.resource), quoted(endpoint.toString()));
            return std::nullopt;
        }
    }
    return metadata;
}

std::optional<ServerMetadata> readServer(const QByteArray &body, const QString &issuer, const QUrl &server,
                                         QString *why)
{
    const json root = readObject(body, "the authorization server metadata", why);
    if (root.is_null())
        return std::nullopt;
    ServerMetadata metadata;
    metadata.issuer = stringOf(root, "issuer");
    if (metadata.issuer != issuer) {
        *why = QStringLiteral("its issuer is %1, not %2, the authorization server the MCP server names (RFC 8414 "
                              "§3.3: the metadata is not used)")
                   .arg(quoted(metadata.issuer), quoted(issuer));
        return std::nullopt;
    }
    if (!stringsOf(root, "code_challenge_methods_supported").contains(QLatin1String("S256"))) {
        *why = QStringLiteral("its code_challenge_methods_supported does not list S256: the authorization server "
                              "does not say it supports PKCE, and MCP clients must refuse it (spec "
                              "\"Authorization Code Protection\")");
        return std::nullopt;
    }
    const auto endpoint = [&](const char *key, bool required, QUrl *into) {
        const QString text = stringOf(root, key);
        if (text.isEmpty()) {
            if (required)
                *why = QStringLiteral("it has no %1").arg(QLatin1String(key));
            return !required;
        }
        const QUrl url(text);
        if (const QString refused = McpOAuthHttp::refusedUrl(url, server); !refused.isEmpty()) {
            *why = QStringLiteral("its %1: %2").arg(QLatin1String(key), refused);
            return false;
        }
        *into = url;
        return true;
    };
    if (!endpoint("authorization_endpoint", true, &metadata.authorizationEndpoint)
        || !endpoint("token_endpoint", true, &metadata.tokenEndpoint)
        || !endpoint("registration_endpoint", false, &metadata.registrationEndpoint))
        return std::nullopt;
    metadata.tokenAuthMethods = stringsOf(root, "token_endpoint_auth_methods_supported");
    metadata.clientIdMetadataDocuments = root.value("client_id_metadata_document_supported", json()) == json(true);
    return metadata;
}

} // namespace McpOAuthMetadata
