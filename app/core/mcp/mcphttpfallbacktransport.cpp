// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphttpfallbacktransport.h"

#include "mcpoauthauthorizer.h"
#include "mcpssetransport.h"

McpHttpFallbackTransport::McpHttpFallbackTransport(McpHttpTransport::Endpoint endpoint, McpOAuthAuthorizer *authorizer,
                                                   QObject *parent)
    : McpTransport(parent)
    , m_endpoint(std::move(endpoint))
    , m_authorizer(authorizer)
    , m_http(new McpHttpTransport(m_endpoint, this))
{
    if (m_authorizer)
        m_http->setAuthorizer(m_authorizer);
    m_http->setInitializeFallback(true);
    connect(m_http, &McpTransport::started, this, &McpTransport::started);
    connect(m_http, &McpTransport::messageReceived, this, &McpTransport::messageReceived);
    connect(m_http, &McpTransport::messageRefused, this, &McpTransport::messageRefused);
    connect(m_http, &McpTransport::finished, this, &McpTransport::finished);
    connect(m_http, &McpHttpTransport::initializeRefused, this, &McpHttpFallbackTransport::fallBack);
}

McpTransport *McpHttpFallbackTransport::current() const
{
    if (m_sse)
        return m_sse;
    return m_http;
}

void McpHttpFallbackTransport::start()
{
    current()->start();
}

bool McpHttpFallbackTransport::send(const JsonRpcMessage &message)
{
    if (current()->send(message))
        return true;
    m_sendRefusal = current()->sendRefusal();
    return false;
}

void McpHttpFallbackTransport::stop()
{
    current()->stop();
}

bool McpHttpFallbackTransport::isRunning() const
{
    return current()->isRunning();
}

bool McpHttpFallbackTransport::forget(const nlohmann::json &requestId)
{
    return current()->forget(requestId);
}

QString McpHttpFallbackTransport::transportName() const
{
    return current()->transportName();
}

void McpHttpFallbackTransport::fallBack(const JsonRpcMessage &initialize, const QString &why)
{
    if (m_sse)
        return;
    m_httpRefusal = why;
    // Streamable HTTP is done with: nothing more of it reaches the session.
    m_http->disconnect(this);
    std::exchange(m_http, nullptr)->deleteLater(); // later: this runs inside its own reply's handling
    m_sse = new McpSseTransport(m_endpoint, this);
    if (m_authorizer)
        m_sse->setAuthorizer(m_authorizer);
    connect(m_sse, &McpTransport::messageReceived, this, &McpTransport::messageReceived);
    connect(m_sse, &McpTransport::messageRefused, this, &McpTransport::messageRefused);
    connect(m_sse, &McpTransport::started, this, [this] { m_sseStarted = true; });
    connect(m_sse, &McpTransport::finished, this, [this](const QString &sseWhy) {
        if (m_sseStarted) {
            Q_EMIT finished(sseWhy);
            return;
        }
        // The server is neither: say what each transport got.
        Q_EMIT finished(QStringLiteral("did not take initialize over Streamable HTTP (%1), nor over the older "
                                       "HTTP+SSE transport: it %2")
                            .arg(m_httpRefusal, sseWhy));
    });
    m_sse->start();
    m_sse->send(initialize); // waits for the endpoint event
}
