// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthauthorizer.h"

#include "mcp/mcpoauthhttp.h"
#include "mcp/mcpoauthtokenrequest.h"
#include "project/printabletext.h"

#include <QDateTime>
#include <QPointer>

McpOAuthAuthorizer::McpOAuthAuthorizer(QString server, QString projectDir, QUrl url, std::optional<McpOAuthState> state,
                                       QObject *parent)
    : QObject(parent)
    , m_server(std::move(server))
    , m_projectDir(std::move(projectDir))
    , m_url(std::move(url))
    , m_http(new McpOAuthHttp(this))
{
    // Tokens go only to the endpoint they were signed in to.
    if (state && state->serverUrl == m_url.toString(QUrl::FullyEncoded))
        m_state = std::move(state);
}

QByteArray McpOAuthAuthorizer::authorization() const
{
    if (!m_state || m_state->accessToken.isEmpty())
        return {};
    return "Bearer " + m_state->accessToken.toUtf8();
}

bool McpOAuthAuthorizer::canRefresh() const
{
    return m_state && !m_state->refreshToken.isEmpty() && !m_refused
        && McpOAuthHttp::refusedUrl(QUrl(m_state->tokenEndpoint), m_url).isEmpty();
}

bool McpOAuthAuthorizer::wantsRefresh() const
{
    return !m_refreshed && canRefresh() && m_state->expired(QDateTime::currentMSecsSinceEpoch());
}

QString McpOAuthAuthorizer::failure() const
{
    const QString command = QStringLiteral("run toolstudio mcp login %1 %2").arg(m_projectDir, m_server);
    if (!m_why.isEmpty())
        return QStringLiteral("needs you to sign in again (%1): %2").arg(m_why, command);
    return QStringLiteral("needs you to sign in: %1").arg(command);
}

QString McpOAuthAuthorizer::needScope(const QString &scope)
{
    const QString shown = elidedText(printableText(scope), 300);
    if (m_state && !scope.isEmpty()) {
        const QString united = McpOAuthState::unitedScopes(m_state->scopeNeeded, scope);
        if (united != m_state->scopeNeeded) {
            m_state->scopeNeeded = united;
            QString why;
            m_state->save(m_projectDir, m_server, &why); // a failed save: the next 403 says it again
        }
    }
    return QStringLiteral("the server needs more access for this (insufficient_scope%1): run toolstudio mcp login %2 "
                          "%3 to sign in again asking for it")
        .arg(shown.isEmpty() ? QString() : QStringLiteral(", scope \"%1\"").arg(shown), m_projectDir, m_server);
}

void McpOAuthAuthorizer::refresh(std::function<void(bool)> done)
{
    if (!canRefresh()) {
        done(false);
        return;
    }
    m_waiting.push_back(std::move(done));
    if (m_waiting.size() > 1)
        return; // one refresh for all who wait
    m_refreshed = true;
    const McpOAuthTokenRequest::Form form{{QStringLiteral("grant_type"), QStringLiteral("refresh_token")},
                                          {QStringLiteral("refresh_token"), m_state->refreshToken}};
    const QPointer<McpOAuthAuthorizer> alive(this);
    McpOAuthTokenRequest::send(*m_http, *m_state, form, [this, alive](const McpOAuthResponse &response) {
        if (!alive)
            return;
        bool ok = false;
        if (response.error.isEmpty() && response.status == 200) {
            McpOAuthState next = *m_state;
            QString why;
            if (next.takeTokens(response.body, QDateTime::currentMSecsSinceEpoch(), &why)
                && next.save(m_projectDir, m_server, &why)) {
                m_state = next;
                ok = true;
            } else {
                m_why = QStringLiteral("the refreshed tokens: %1").arg(why);
            }
        } else {
            m_why = QStringLiteral("the refresh of its token was refused: %1")
                        .arg(McpOAuthTokenRequest::describeError(response));
        }
        if (!ok)
            m_refused = true;
        for (auto &waiting : std::exchange(m_waiting, {})) {
            waiting(ok);
            if (!alive)
                return;
        }
    });
}
