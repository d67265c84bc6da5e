// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthflow.h"

#include "jsoninput.h"
#include "mcp/mcpoauthclientmetadata.h"
#include "mcp/mcpoauthhttp.h"
#include "mcp/mcpoauthredirect.h"
#include "mcp/mcpoauthtokenrequest.h"
#include "mcp/mcpserverlaunch.h"
#include "project/mcpserverconfig.h"
#include "project/printabletext.h"
#include "python/secrets.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QPointer>
#include <QRandomGenerator>

#include <QList>
#include <QPair>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

QByteArray randomText(int bytes)
{
    QByteArray data(bytes, Qt::Uninitialized);
    for (char &c : data)
        c = char(QRandomGenerator::system()->bounded(256));
    return data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QString httpOutcome(const McpOAuthResponse &response)
{
    if (response.status == 0)
        return QStringLiteral("no reply: ") + response.error;
    return QStringLiteral("HTTP %1").arg(response.status);
}

} // namespace

McpOAuthFlow::Settings McpOAuthFlow::settingsFor(const McpServerConfig &config, const QString &projectDir,
                                                 QStringList *missingSecrets)
{
    Settings settings;
    settings.server = config.name;
    settings.url = QUrl(config.url);
    settings.projectDir = projectDir;
    settings.clientId = config.oauth.clientId;
    settings.scopes = config.oauth.scopes;
    settings.clientMetadataUrl = config.oauth.clientMetadataUrl;
    settings.redirectPort = config.oauth.redirectPort;
    for (auto it = McpServerLaunch::secretReference().globalMatch(config.oauth.clientSecret); it.hasNext();)
        settings.clientSecretNames << it.next().captured(1);
    if (!config.oauth.clientSecret.isEmpty())
        settings.clientSecret
            = McpServerLaunch::expandSecrets(config.oauth.clientSecret, Secrets::load(projectDir), missingSecrets);
    return settings;
}

McpOAuthFlow::McpOAuthFlow(Settings settings, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_http(new McpOAuthHttp(this))
    , m_redirect(new McpOAuthRedirect(this))
{
    connect(m_redirect, &McpOAuthRedirect::refused, this, [this](const QString &why) {
        m_log.outcome(QStringLiteral("refused"));
        fail(why);
    });
    connect(m_redirect, &McpOAuthRedirect::stray, this, [this](const QString &why) {
        if (m_redirect->strays() == 1) // the first says what; fail() counts them all
            m_log.note(why);
    });
    connect(m_redirect, &McpOAuthRedirect::arrived, this, [this](const QString &code) {
        m_log.outcome(QStringLiteral("a code (%1 characters, not shown), state as sent").arg(code.size()));
        exchange(code);
    });
}

QString McpOAuthFlow::shown(const QUrl &url)
{
    return elidedText(printableText(url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery)), 300);
}

void McpOAuthFlow::fail(const QString &why)
{
    if (m_done)
        return;
    m_done = true;
    m_redirect->close();
    m_log.fail(why);
    Q_EMIT failed(m_log.failure());
}

void McpOAuthFlow::abort(const QString &why)
{
    const int strays = m_redirect->strays();
    if (strays == 0)
        return fail(why);
    fail(QStringLiteral("%1; %2 redirect(s) came with a state that is not the one sent and were not used (an "
                        "authorization server that answers with another state, or a program that is not the browser)")
             .arg(why)
             .arg(strays));
}

void McpOAuthFlow::start()
{
    if (const QString refused = McpOAuthHttp::refusedUrl(m_settings.url); !refused.isEmpty()) {
        m_log.begin(QStringLiteral("MCP server"), shown(m_settings.url));
        fail(QStringLiteral("the server's url: %1; tokens are not sent over plain http").arg(refused));
        return;
    }
    probe();
}

void McpOAuthFlow::probe()
{
    m_log.begin(QStringLiteral("MCP server without a token"), QStringLiteral("POST ") + shown(m_settings.url));
    const json initialize = {{"jsonrpc", "2.0"},
                             {"id", 1},
                             {"method", "initialize"},
                             {"params",
                              {{"protocolVersion", "2025-11-25"},
                               {"capabilities", json::object()},
                               {"clientInfo", {{"name", "toolstudio"}, {"version", "1.0"}}}}}};
    m_http->post(
        m_settings.url, {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}},
        QByteArray::fromStdString(initialize.dump()), [this](const McpOAuthResponse &response) {
            m_log.outcome(httpOutcome(response));
            if (response.status == 0)
                return fail(response.error);
            if (response.status >= 200 && response.status < 300) {
                m_done = true;
                m_log.note(QStringLiteral("the server answered without a token: nothing to sign in to"));
                Q_EMIT notNeeded(response.status);
                return;
            }
            if (response.status != 401)
                return fail(QStringLiteral("the server answered HTTP %1, not 401 (Unauthorized): it does "
                                           "not ask for sign-in")
                                .arg(response.status));
            m_challenge = McpOAuthMetadata::parseChallenge(response.wwwAuthenticate);
            m_log.note(QStringLiteral("WWW-Authenticate: %1")
                           .arg(response.wwwAuthenticate.isEmpty()
                                    ? QStringLiteral("(none)")
                                    : elidedText(printableText(QString::fromLatin1(response.wwwAuthenticate)), 400)));
            QList<QUrl> candidates;
            if (!m_challenge.resourceMetadata.isEmpty())
                candidates << QUrl(m_challenge.resourceMetadata);
            else
                candidates = McpOAuthMetadata::resourceMetadataUrls(m_settings.url);
            fetchResource(candidates);
        });
}

void McpOAuthFlow::fetchResource(QList<QUrl> candidates)
{
    const QUrl url = candidates.takeFirst();
    m_log.begin(QStringLiteral("protected resource metadata"), QStringLiteral("GET ") + shown(url));
    if (const QString refused = McpOAuthHttp::refusedUrl(url, m_settings.url); !refused.isEmpty())
        return fail(refused);
    m_http->get(url, [this, candidates](const McpOAuthResponse &response) {
        m_log.outcome(httpOutcome(response));
        if (!response.error.isEmpty())
            return fail(response.error);
        if (response.status != 200) {
            if (!candidates.isEmpty())
                return fetchResource(candidates);
            return fail(QStringLiteral("no protected resource metadata was found (RFC 9728)"));
        }
        QString why;
        const auto metadata = McpOAuthMetadata::readResource(response.body, m_settings.url, &why);
        if (!metadata)
            return fail(why);
        m_resource = *metadata;
        m_log.note(QStringLiteral("resource: %1").arg(elidedText(printableText(m_resource.resource), 300)));
        m_log.note(
            QStringLiteral("authorization_servers: %1")
                .arg(elidedText(printableText(m_resource.authorizationServers.join(QStringLiteral(", "))), 400)));
        if (!m_resource.scopesSupported.isEmpty())
            m_log.note(QStringLiteral("scopes_supported: %1")
                           .arg(elidedText(printableText(m_resource.scopesSupported.join(u' ')), 300)));
        const QUrl issuer(m_resource.authorizationServers.first());
        if (const QString refused = McpOAuthHttp::refusedUrl(issuer, m_settings.url); !refused.isEmpty())
            return fail(QStringLiteral("its authorization server: %1").arg(refused));
        fetchServer(McpOAuthMetadata::serverMetadataUrls(issuer));
    });
}

void McpOAuthFlow::fetchServer(QList<QUrl> candidates)
{
    const QUrl url = candidates.takeFirst();
    m_log.begin(QStringLiteral("authorization server metadata"), QStringLiteral("GET ") + shown(url));
    m_http->get(url, [this, candidates](const McpOAuthResponse &response) {
        m_log.outcome(httpOutcome(response));
        if (!response.error.isEmpty())
            return fail(response.error);
        if (response.status != 200) {
            if (!candidates.isEmpty())
                return fetchServer(candidates);
            return fail(QStringLiteral("no authorization server metadata was found (RFC 8414 or OpenID Connect "
                                       "Discovery)"));
        }
        QString why;
        const auto metadata = McpOAuthMetadata::readServer(response.body, m_resource.authorizationServers.first(),
                                                           m_settings.url, &why);
        if (!metadata)
            return fail(why);
        m_metadata = *metadata;
        m_log.note(QStringLiteral("issuer: %1 (as named)").arg(elidedText(printableText(m_metadata.issuer), 300)));
        m_log.note(QStringLiteral("code_challenge_methods_supported lists S256"));
        m_log.note(QStringLiteral("authorization_endpoint: %1").arg(shown(m_metadata.authorizationEndpoint)));
        m_log.note(QStringLiteral("token_endpoint: %1").arg(shown(m_metadata.tokenEndpoint)));
        m_log.note(QStringLiteral("registration_endpoint: %1")
                       .arg(m_metadata.registrationEndpoint.isEmpty() ? QStringLiteral("(none)")
                                                                      : shown(m_metadata.registrationEndpoint)));
        chooseClient();
    });
}

bool McpOAuthFlow::listenForRedirect()
{
    QString why;
    if (m_redirect->listen(m_settings.redirectPort, &why))
        return true;
    fail(m_settings.redirectPort == 0
             ? why
             : QStringLiteral("%1 (the port of oauth.redirect_port: stop what listens there, or choose another port "
                              "and update the client's redirect URI with it)")
                   .arg(why));
    return false;
}

void McpOAuthFlow::chooseClient()
{
    m_state = McpOAuthState{};
    m_state.serverUrl = m_settings.url.toString(QUrl::FullyEncoded);
    m_state.resource
        = m_resource.resource.isEmpty() ? McpOAuthMetadata::canonicalResource(m_settings.url) : m_resource.resource;
    m_state.issuer = m_metadata.issuer;
    m_state.tokenEndpoint = m_metadata.tokenEndpoint.toString(QUrl::FullyEncoded);
    const bool documents = m_metadata.clientIdMetadataDocuments;
    const QString &documentUrl = m_settings.clientMetadataUrl;
    if (!m_settings.clientId.isEmpty()) {
        m_log.begin(QStringLiteral("client"), QString());
        // A secret bound to hosts goes only to them: the token endpoint is the server's
        // choice (its metadata), so it is checked like a header's host.
        if (!m_settings.clientSecretNames.isEmpty()) {
            Secrets secrets = Secrets::load(m_settings.projectDir);
            for (const QString &name : m_settings.clientSecretNames)
                if (const QString refused = secrets.allowSend(name, m_metadata.tokenEndpoint); !refused.isEmpty())
                    return fail(QStringLiteral("oauth.client_secret: %1").arg(refused));
        }
        m_state.clientId = m_settings.clientId;
        m_state.clientSecret = m_settings.clientSecret;
        const QStringList &methods = m_metadata.tokenAuthMethods;
        m_state.authMethod = m_state.clientSecret.isEmpty() ? QStringLiteral("none")
            : methods.contains(QLatin1String("client_secret_post"))
            ? QStringLiteral("client_secret_post")
            : QStringLiteral("client_secret_basic"); // RFC 8414's default
        if (!listenForRedirect())
            return;
        m_log.note(QStringLiteral("client_id from toolstudio.json (oauth.client_id: pre-registered, used first), "
                                  "token endpoint auth %1")
                       .arg(m_state.authMethod));
        if (!documentUrl.isEmpty())
            m_log.note(QStringLiteral("oauth.client_metadata_url is not used: oauth.client_id comes first"));
        return authorize();
    }
    if (documents && !documentUrl.isEmpty()) {
        // The URL is the client_id (MCP 2026-07-28 "Client ID Metadata Documents"): the
        // authorization server fetches the document itself; nothing is registered.
        m_log.begin(QStringLiteral("client"), QString());
        if (!listenForRedirect())
            return;
        m_state.clientId = documentUrl;
        m_state.authMethod = QStringLiteral("none");
        m_log.note(QStringLiteral("client ID metadata document: client_id %1 (oauth.client_metadata_url), as the "
                                  "authorization server's metadata has client_id_metadata_document_supported: "
                                  "true; no registration request, no client secret")
                       .arg(elidedText(printableText(documentUrl), 300)));
        m_log.note(m_settings.redirectPort != 0
                       ? QStringLiteral("the authorization server fetches the document and checks redirect_uri %1 "
                                        "(oauth.redirect_port) against its redirect_uris")
                             .arg(m_redirect->redirectUri())
                       : QStringLiteral("the authorization server fetches the document and checks redirect_uri %1 "
                                        "against its redirect_uris; the port is the system's choice: if the server "
                                        "refuses it, set oauth.redirect_port and host the document toolstudio mcp "
                                        "client-metadata prints then")
                             .arg(m_redirect->redirectUri()));
        return authorize();
    }
    const QString command
        = QStringLiteral("toolstudio mcp client-metadata %1 %2").arg(m_settings.projectDir, m_settings.server);
    QString whyNoDocument;
    if (documents)
        whyNoDocument = QStringLiteral("the authorization server takes client ID metadata documents "
                                       "(client_id_metadata_document_supported: true), but the entry names none: to "
                                       "use one, host what %1 prints at an https URL and name it as "
                                       "oauth.client_metadata_url")
                            .arg(command);
    else if (!documentUrl.isEmpty())
        whyNoDocument = QStringLiteral("oauth.client_metadata_url is not used: the authorization server's metadata "
                                       "does not have client_id_metadata_document_supported: true");
    if (m_metadata.registrationEndpoint.isEmpty()) {
        m_log.begin(QStringLiteral("client"), QString());
        return fail(QStringLiteral("the authorization server offers the studio no client: its metadata has no "
                                   "registration_endpoint (no dynamic client registration) and %1. Ways out: register "
                                   "a client there and name it in the server's entry of toolstudio.json as "
                                   "\"oauth\": {\"client_id\": \"…\"}; or, with an authorization server that takes "
                                   "client ID metadata documents, host what %2 prints at an https URL and name it as "
                                   "\"oauth\": {\"client_metadata_url\": \"https://…\"}; or ask the server's "
                                   "operator for dynamic client registration")
                        .arg(documents ? QStringLiteral("the entry names no oauth.client_metadata_url for its client "
                                                        "ID metadata documents")
                                       : QStringLiteral("it does not take client ID metadata documents "
                                                        "(client_id_metadata_document_supported is not true)"),
                             command));
    }
    // A client this studio registered at an earlier sign-in (not a metadata document's
    // URL nor a pre-registered id: `registered`), when its redirect port is the one to use.
    QString error;
    const auto earlier = McpOAuthState::load(Secrets::load(m_settings.projectDir, &error), m_settings.server);
    if (earlier && earlier->registered && earlier->issuer == m_metadata.issuer && !earlier->clientId.isEmpty()) {
        const int port = QUrl(earlier->redirectUri).port();
        QString busy;
        if (port > 0 && (m_settings.redirectPort == 0 || port == m_settings.redirectPort)
            && m_redirect->listen(quint16(port), &busy)) {
            m_state.clientId = earlier->clientId;
            m_state.clientSecret = earlier->clientSecret;
            m_state.authMethod = earlier->authMethod;
            m_state.registered = true;
            m_state.redirectUri = earlier->redirectUri;
            m_log.begin(QStringLiteral("client"), QString());
            if (!whyNoDocument.isEmpty())
                m_log.note(whyNoDocument);
            m_log.note(QStringLiteral("the client registered at an earlier sign-in (its redirect %1)")
                           .arg(earlier->redirectUri));
            return authorize();
        }
    }
    registerClient(whyNoDocument);
}

void McpOAuthFlow::registerClient(const QString &why)
{
    m_log.begin(QStringLiteral("dynamic client registration"),
                QStringLiteral("POST ") + shown(m_metadata.registrationEndpoint));
    if (!why.isEmpty())
        m_log.note(why);
    if (!listenForRedirect())
        return;
    const json request = McpOAuthClientMetadata::describe(m_redirect->redirectUri());
    m_log.note(QStringLiteral("redirect_uris: [%1], token_endpoint_auth_method: none").arg(m_redirect->redirectUri()));
    m_http->post(m_metadata.registrationEndpoint, {{"Content-Type", "application/json"}},
                 QByteArray::fromStdString(request.dump()), [this](const McpOAuthResponse &response) {
                     m_log.outcome(httpOutcome(response));
                     if (!response.error.isEmpty() || response.status < 200 || response.status >= 300)
                         return fail(McpOAuthTokenRequest::describeError(response));
                     std::string problem;
                     const json root = JsonInput::parse(
                         std::string_view(response.body.constData(), std::size_t(response.body.size())),
                         "the registration response", &problem);
                     const auto text = [&root](const char *key) {
                         const auto it = root.is_object() ? root.find(key) : root.end();
                         return root.is_object() && it != root.end() && it->is_string()
                             ? QString::fromStdString(it->get<std::string>())
                             : QString();
                     };
                     if (!problem.empty())
                         return fail(QString::fromStdString(problem));
                     m_state.clientId = text("client_id");
                     if (m_state.clientId.isEmpty() || m_state.clientId.size() > 4096)
                         return fail(QStringLiteral("the registration response has no client_id"));
                     m_state.clientSecret = text("client_secret");
                     m_state.authMethod = text("token_endpoint_auth_method");
                     if (m_state.authMethod.isEmpty())
                         m_state.authMethod = m_state.clientSecret.isEmpty() ? QStringLiteral("none")
                                                                             : QStringLiteral("client_secret_basic");
                     m_state.registered = true;
                     m_state.redirectUri = m_redirect->redirectUri();
                     m_log.note(QStringLiteral("client_id: %1, client_secret: %2")
                                    .arg(elidedText(printableText(m_state.clientId), 120),
                                         m_state.clientSecret.isEmpty() ? QStringLiteral("none")
                                                                        : QStringLiteral("given (not shown)")));
                     authorize();
                 });
}

void McpOAuthFlow::authorize()
{
    m_state.redirectUri = m_redirect->redirectUri();
    m_verifier = randomText(32);
    m_stateParam = QString::fromLatin1(randomText(24));
    m_redirect->expectState(m_stateParam);
    const QByteArray challenge = QCryptographicHash::hash(m_verifier, QCryptographicHash::Sha256)
                                     .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    // Scope (spec "Scope Selection Strategy"): the challenge's, else the configured
    // ones, else all the resource supports; none when nothing names any.
    m_scope = m_challenge.scope;
    if (m_scope.isEmpty())
        m_scope = m_settings.scopes.join(u' ');
    if (m_scope.isEmpty())
        m_scope = m_resource.scopesSupported.join(u' ');
    // Step-up: what the server asked for in a 403 insufficient_scope since the last sign-in.
    QString readError;
    if (const auto earlier = McpOAuthState::load(Secrets::load(m_settings.projectDir, &readError), m_settings.server);
        earlier && earlier->serverUrl == m_settings.url.toString(QUrl::FullyEncoded) && !earlier->scopeNeeded.isEmpty())
        m_scope = McpOAuthState::unitedScopes(m_scope, earlier->scopeNeeded);
    QList<QPair<QString, QString>> items{{QStringLiteral("response_type"), QStringLiteral("code")},
                                         {QStringLiteral("client_id"), m_state.clientId},
                                         {QStringLiteral("redirect_uri"), m_state.redirectUri},
                                         {QStringLiteral("code_challenge"), QString::fromLatin1(challenge)},
                                         {QStringLiteral("code_challenge_method"), QStringLiteral("S256")},
                                         {QStringLiteral("state"), m_stateParam}};
    if (!m_scope.isEmpty())
        items.append({QStringLiteral("scope"), m_scope});
    items.append({QStringLiteral("resource"), m_state.resource});
    // Encoded by hand: QUrlQuery would leave "+", "&" and "=" of a value as they are.
    QUrl url = m_metadata.authorizationEndpoint;
    QByteArray query = url.query(QUrl::FullyEncoded).toLatin1();
    for (const auto &[key, value] : items)
        query += (query.isEmpty() ? "" : "&") + QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value);
    url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
    m_log.begin(QStringLiteral("authorization in the browser"), QStringLiteral("GET ") + shown(url));
    m_log.note(QStringLiteral("response_type=code, code_challenge_method=S256, redirect_uri=%1, resource=%2%3")
                   .arg(m_state.redirectUri, elidedText(printableText(m_state.resource), 300),
                        m_scope.isEmpty() ? QString()
                                          : QStringLiteral(", scope=%1").arg(elidedText(printableText(m_scope), 300))));
    Q_EMIT authorizationUrl(url, m_state.redirectUri);
}

void McpOAuthFlow::exchange(const QString &code)
{
    m_log.begin(QStringLiteral("token exchange"), QStringLiteral("POST ") + shown(QUrl(m_state.tokenEndpoint)));
    m_log.note(QStringLiteral("grant_type=authorization_code, code and code_verifier (not shown), redirect_uri, "
                              "client_id, resource"));
    const McpOAuthTokenRequest::Form form{{QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
                                          {QStringLiteral("code"), code},
                                          {QStringLiteral("redirect_uri"), m_state.redirectUri},
                                          {QStringLiteral("code_verifier"), QString::fromLatin1(m_verifier)}};
    McpOAuthTokenRequest::send(*m_http, m_state, form, [this](const McpOAuthResponse &response) {
        m_log.outcome(httpOutcome(response));
        if (!response.error.isEmpty() || response.status != 200)
            return fail(McpOAuthTokenRequest::describeError(response));
        QString why;
        QString summary;
        if (!m_state.takeTokens(response.body, QDateTime::currentMSecsSinceEpoch(), &why, &summary))
            return fail(why);
        m_log.note(summary);
        if (!m_state.save(m_settings.projectDir, m_settings.server, &why))
            return fail(QStringLiteral("the tokens could not be saved: %1").arg(why));
        m_log.note(
            QStringLiteral("saved with the project's secrets: %1").arg(Secrets::filePath(m_settings.projectDir)));
        m_done = true;
        Q_EMIT succeeded();
    });
}
