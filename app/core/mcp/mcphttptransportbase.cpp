// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphttptransportbase.h"

#include "llm/outgoingnetwork.h"
#include "mcpoauthauthorizer.h"
#include "project/printabletext.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>

McpHttpTransportBase::McpHttpTransportBase(Endpoint endpoint, QObject *parent)
    : McpTransport(parent)
    , m_endpoint(std::move(endpoint))
    , m_network(new QNetworkAccessManager(this))
{}

void McpHttpTransportBase::boundReadBuffer(QNetworkReply *reply)
{
    reply->setReadBufferSize(ReadBufferBytes);
    QMetaObject::invokeMethod(
        reply, [reply] { reply->setReadBufferSize(ReadBufferBytes); }, Qt::QueuedConnection);
}

void McpHttpTransportBase::setAuthorizer(McpOAuthAuthorizer *authorizer)
{
    m_authorizer = authorizer;
    m_authorizer->setParent(this);
}

bool McpHttpTransportBase::send(const JsonRpcMessage &message)
{
    if (!m_running || m_stopping) {
        m_sendRefusal = QStringLiteral("the session with %1 has ended or is being stopped").arg(describeUrl());
        return false;
    }
    if (const std::optional<bool> held = holdBack(message))
        return *held;
    if (openPosts() >= MaxOpenPosts) {
        ++m_refusedSends;
        m_sendRefusal = postsFullRefusal();
        return false;
    }
    // An expired token is refreshed first (one refresh for every message waiting); when
    // that fails, the old token's 401 ends the transport, naming why.
    withFreshToken([this, message] { postMessage(message, false); });
    return true;
}

std::optional<bool> McpHttpTransportBase::holdBack(const JsonRpcMessage &message)
{
    Q_UNUSED(message)
    return std::nullopt;
}

QNetworkRequest McpHttpTransportBase::signedRequest(const QUrl &url) const
{
    // Redirects not followed, HTTP/1.1 only (attack43 F1): OutgoingNetwork::request.
    QNetworkRequest request = OutgoingNetwork::request(url);
    for (const auto &[name, value] : m_endpoint.headers)
        request.setRawHeader(name, value);
    if (m_authorizer)
        if (const QByteArray authorization = m_authorizer->authorization(); !authorization.isEmpty())
            request.setRawHeader("Authorization", authorization);
    return request;
}

void McpHttpTransportBase::withFreshToken(std::function<void()> then)
{
    if (!m_authorizer || !m_authorizer->wantsRefresh()) {
        then();
        return;
    }
    const QPointer<McpHttpTransportBase> alive(this);
    m_authorizer->refresh([this, alive, then = std::move(then)](bool) {
        if (alive && m_running && !m_stopping)
            then();
    });
}

void McpHttpTransportBase::onUnauthorized(bool retried, std::function<void()> again)
{
    if (retried || !m_authorizer->canRefresh()) {
        end(m_authorizer->failure());
        return;
    }
    const QPointer<McpHttpTransportBase> alive(this);
    m_authorizer->refresh([this, alive, again = std::move(again)](bool ok) {
        if (!alive || !m_running || m_stopping)
            return;
        if (ok)
            again();
        else
            end(m_authorizer->failure());
    });
}

void McpHttpTransportBase::abandon(QNetworkReply *reply)
{
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}

QString McpHttpTransportBase::describeUrl() const
{
    return elidedText(m_endpoint.url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery), 200);
}

std::string_view McpHttpTransportBase::viewOf(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), std::size_t(bytes.size()));
}
