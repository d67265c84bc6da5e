// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthstate.h"

#include "jsoninput.h"
#include "project/printabletext.h"
#include "python/secrets.h"

#include <QRegularExpression>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

QString stringOf(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

json parse(const QByteArray &bytes, std::string *problem = nullptr)
{
    return JsonInput::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())), "the token response",
                            problem);
}

} // namespace

std::optional<McpOAuthState> McpOAuthState::load(const Secrets &secrets, const QString &server)
{
    const json root = parse(secrets.oauth(server).toUtf8());
    if (!root.is_object())
        return std::nullopt;
    McpOAuthState state;
    state.serverUrl = stringOf(root, "server_url");
    state.resource = stringOf(root, "resource");
    state.issuer = stringOf(root, "issuer");
    state.tokenEndpoint = stringOf(root, "token_endpoint");
    state.clientId = stringOf(root, "client_id");
    state.clientSecret = stringOf(root, "client_secret");
    state.authMethod = stringOf(root, "token_endpoint_auth_method");
    state.registered = root.value("registered", json()) == json(true);
    state.redirectUri = stringOf(root, "redirect_uri");
    state.accessToken = stringOf(root, "access_token");
    state.refreshToken = stringOf(root, "refresh_token");
    state.scope = stringOf(root, "scope");
    state.scopeNeeded = stringOf(root, "scope_needed");
    if (const auto at = root.find("expires_at"); at != root.end() && at->is_number_integer())
        state.expiresAt = at->get<qint64>();
    return state;
}

QString McpOAuthState::unitedScopes(const QString &a, const QString &b)
{
    QStringList all = a.split(u' ', Qt::SkipEmptyParts);
    for (const QString &scope : b.split(u' ', Qt::SkipEmptyParts))
        if (!all.contains(scope))
            all << scope;
    return all.join(u' ');
}

bool McpOAuthState::save(const QString &projectDir, const QString &server, QString *why) const
{
    json root = {{"server_url", serverUrl.toStdString()},
                 {"resource", resource.toStdString()},
                 {"issuer", issuer.toStdString()},
                 {"token_endpoint", tokenEndpoint.toStdString()},
                 {"client_id", clientId.toStdString()},
                 {"token_endpoint_auth_method", authMethod.toStdString()},
                 {"registered", registered},
                 {"redirect_uri", redirectUri.toStdString()},
                 {"scope", scope.toStdString()},
                 {"expires_at", expiresAt}};
    if (!scopeNeeded.isEmpty())
        root["scope_needed"] = scopeNeeded.toStdString();
    if (!clientSecret.isEmpty())
        root["client_secret"] = clientSecret.toStdString();
    if (!accessToken.isEmpty())
        root["access_token"] = accessToken.toStdString();
    if (!refreshToken.isEmpty())
        root["refresh_token"] = refreshToken.toStdString();
    QString error;
    Secrets secrets = Secrets::load(projectDir, &error);
    if (!error.isEmpty()) {
        *why = error;
        return false;
    }
    secrets.setOAuth(server, QString::fromStdString(root.dump()));
    return secrets.save(why);
}

bool McpOAuthState::takeTokens(const QByteArray &body, qint64 nowMs, QString *why, QString *summary)
{
    std::string problem;
    const json root = parse(body, &problem);
    if (!problem.empty() || !root.is_object()) {
        *why = problem.empty() ? QStringLiteral("the token response is not a JSON object")
                               : QString::fromStdString(problem);
        return false;
    }
    const QString access = stringOf(root, "access_token");
    const QString type = stringOf(root, "token_type");
    if (access.isEmpty()) {
        *why = QStringLiteral("the token response has no access_token");
        return false;
    }
    if (type.compare(QLatin1String("Bearer"), Qt::CaseInsensitive) != 0) {
        *why = QStringLiteral("the token response's token_type is \"%1\", not Bearer")
                   .arg(elidedText(printableText(type), 40));
        return false;
    }
    if (access.size() > 16384 || stringOf(root, "refresh_token").size() > 16384) {
        *why = QStringLiteral("a token of the response is over 16384 characters");
        return false;
    }
    // RFC 6750's b64token for what goes into "Authorization: Bearer", RFC 6749's VSCHAR
    // for a refresh token: a CR LF in a token would add headers to every request
    // (attack31 F6).
    static const QRegularExpression b64token(QStringLiteral("^[A-Za-z0-9\\-._~+/]+=*$"));
    static const QRegularExpression vschar(QStringLiteral("^[\\x20-\\x7e]*$"));
    if (!b64token.match(access).hasMatch() || !vschar.match(stringOf(root, "refresh_token")).hasMatch()) {
        *why = QStringLiteral("a token of the response has characters a token may not have (an access token is "
                              "letters, digits and -._~+/ then =; RFC 6750)");
        return false;
    }
    accessToken = access;
    if (const QString refresh = stringOf(root, "refresh_token"); !refresh.isEmpty())
        refreshToken = refresh;
    expiresAt = 0;
    qint64 seconds = -1;
    if (const auto in = root.find("expires_in");
        in != root.end() && in->is_number() && in->get<double>() >= 0 && in->get<double>() < 1e9) {
        seconds = qint64(in->get<double>());
        expiresAt = nowMs + seconds * 1000;
    }
    if (const QString granted = stringOf(root, "scope"); !granted.isEmpty())
        scope = granted;
    if (summary)
        *summary = QStringLiteral("access_token (%1 characters, not shown), token_type Bearer, expires_in %2, "
                                  "refresh_token %3%4")
                       .arg(access.size())
                       .arg(seconds < 0 ? QStringLiteral("not given") : QString::number(seconds))
                       .arg(stringOf(root, "refresh_token").isEmpty() ? QStringLiteral("not given")
                                                                      : QStringLiteral("given (not shown)"))
                       .arg(scope.isEmpty() ? QString()
                                            : QStringLiteral(", scope \"%1\"").arg(elidedText(printableText(scope))));
    return true;
}

bool McpOAuthState::expired(qint64 nowMs) const
{
    return !refreshToken.isEmpty() && expiresAt > 0 && nowMs >= expiresAt - 30000;
}
