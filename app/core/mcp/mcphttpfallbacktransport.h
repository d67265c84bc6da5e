// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcphttptransport.h"

class McpOAuthAuthorizer;
class McpSseTransport;

/// The transport of a `url` server whose entry names no `type`: Streamable HTTP, or the
/// older HTTP+SSE transport (2024-11-05) when the server turns out to speak only that,
/// as the spec's backwards compatibility says (2025-03-26 basic/transports "Backwards
/// Compatibility"): the session's `initialize` is POSTed to the URL (McpHttpTransport);
/// answered HTTP 400, 404 or 405, the URL is opened as an HTTP+SSE event stream
/// (McpSseTransport) and the same `initialize` is sent there once its endpoint event
/// came. From then on the session speaks HTTP+SSE; usesSse() tells (McpServerPool
/// starts that server over HTTP+SSE from then on).
///
/// When HTTP+SSE fails too (no event stream, no endpoint event, another origin, …),
/// finished() names both ("did not take initialize over Streamable HTTP (HTTP 404 from
/// URL), nor over HTTP+SSE: …"). Every other answer of the POST is the Streamable HTTP
/// transport's own. The sign-in's authorizer goes to whichever transport is in use.
class McpHttpFallbackTransport : public McpTransport
{
    Q_OBJECT
public:
    /// `authorizer` (may be null) is taken over.
    McpHttpFallbackTransport(McpHttpTransport::Endpoint endpoint, McpOAuthAuthorizer *authorizer,
                             QObject *parent = nullptr);

    void start() override;
    bool send(const JsonRpcMessage &message) override;
    void stop() override;
    bool isRunning() const override;
    bool forget(const nlohmann::json &requestId) override;
    bool mirrorsToolParameters() const override { return current()->mirrorsToolParameters(); }
    void setToolParameters(McpParamHeaders::ToolParameters parameters) override
    {
        current()->setToolParameters(std::move(parameters));
    }
    /// "Streamable HTTP", or "HTTP+SSE" once the server was found to speak only that.
    QString transportName() const override;
    /// True once the fallback was taken (and the endpoint event may still be awaited).
    bool usesSse() const { return m_sse != nullptr; }
    /// The transport messages go to now.
    McpTransport *current() const;

private:
    void fallBack(const JsonRpcMessage &initialize, const QString &why);

    McpHttpTransport::Endpoint m_endpoint;
    McpOAuthAuthorizer *m_authorizer = nullptr;
    McpHttpTransport *m_http = nullptr;
    McpSseTransport *m_sse = nullptr;
    QString m_httpRefusal;     ///< why Streamable HTTP was given up
    bool m_sseStarted = false; ///< its endpoint event came
};
