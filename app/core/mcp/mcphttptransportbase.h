// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcptransport.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QUrl>

#include <functional>
#include <optional>
#include <string_view>

class McpOAuthAuthorizer;
class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

/// What MCP's two HTTP transports share (McpHttpTransport, Streamable HTTP; McpSseTransport,
/// the older HTTP+SSE): the endpoint and its headers, the network, the bearer token of a
/// signed-in server (McpOAuthAuthorizer) and its refresh, the refusal of send() once the
/// transport ended or is stopping, and the bound of MaxOpenPosts POSTs open at once.
///
/// Every request carries the endpoint's own headers (secrets expanded by
/// McpServerLaunch) and the bearer token; redirects are not followed (a redirect would
/// carry both to another URL). Requests are HTTP/1.1, not HTTP/2: Qt 6.4 applies no read
/// buffer size to an HTTP/2 reply (attack43 F1), and HTTP/1.1 holds at most six
/// connections, so six streams, to a host at once. send() refuses when the transport has ended or is
/// stopping, then what the transport itself refuses (McpSseTransport queues before its
/// endpoint event), then when MaxOpenPosts POSTs are open (counted, refusedSends); an
/// expired token is refreshed before the message is posted (one refresh for every message
/// waiting; a refusal: the old token's 401 ends the transport, naming why). A 401 is
/// refreshed and the request sent again once; a 401 nothing can fix ends the transport
/// with the authorizer's failure() ("needs you to sign in: …").
class McpHttpTransportBase : public McpTransport
{
    Q_OBJECT
public:
    struct Endpoint
    {
        QUrl url;
        QList<QPair<QByteArray, QByteArray>> headers; ///< sent with every request
    };

    /// POSTs open at once (requests waiting for a response, answers to the server's
    /// requests, notifications).
    static constexpr std::size_t MaxOpenPosts = 32;
    /// Characters of an HTTP error's body quoted in a failure.
    static constexpr int QuotedBodyChars = 300;

    /// Signs its requests with `authorizer`'s bearer token (docs/mcp.md "Signing in"),
    /// taking it over.
    void setAuthorizer(McpOAuthAuthorizer *authorizer);

    bool send(const JsonRpcMessage &message) final;
    bool isRunning() const final { return m_running; }
    bool answersArePosts() const final { return true; }
    /// POSTs open now (their reply not read to its end or closed).
    virtual std::size_t openPosts() const = 0;
    /// Messages send() refused because MaxOpenPosts were open.
    qint64 refusedSends() const { return m_refusedSends; }
    /// Qt reads no more of `reply` than ReadBufferBytes ahead of the studio, so a server
    /// that floods it is read at the studio's pace (attack39: 18 GB in 18 s). Qt 6.4's
    /// HTTP thread applies a size only to a request it has started — a GET starts at once,
    /// a POST on the next turn of the event loop — so the size is set now and on the
    /// next turn (a caller sets it again with the reply's head, to be sure).
    static void boundReadBuffer(QNetworkReply *reply);

protected:
    McpHttpTransportBase(Endpoint endpoint, QObject *parent);

    /// Posts `message` (send() checked the bounds); `retried` after a 401 already.
    virtual void postMessage(const JsonRpcMessage &message, bool retried) = 0;
    /// Ends the transport (when it runs and is not stopping): everything open is let go,
    /// finished(why) follows.
    virtual void end(const QString &why) = 0;
    /// What send() does of its own with `message` before the bound of POSTs is checked:
    /// send()'s answer when it took it (true) or refused it (false, sendRefusal set);
    /// nothing (by default) when it is to be posted.
    virtual std::optional<bool> holdBack(const JsonRpcMessage &message);
    /// sendRefusal when MaxOpenPosts POSTs are open.
    virtual QString postsFullRefusal() const = 0;

    /// A request to `url` with the endpoint's headers and the bearer token, redirects
    /// not followed, over HTTP/1.1 (never HTTP/2, whose replies Qt 6.4 does not bound).
    QNetworkRequest signedRequest(const QUrl &url) const;
    /// Runs `then` now, or after refreshing an expired token (when the transport still
    /// runs and is not stopping then).
    void withFreshToken(std::function<void()> then);
    /// A 401 to what `again` sends again: refreshes the token and calls `again` once
    /// (`retried`: it was sent again already), else ends with the authorizer's failure().
    void onUnauthorized(bool retried, std::function<void()> again);
    /// Stops reading `reply` and deletes it later.
    void abandon(QNetworkReply *reply);
    /// The endpoint's URL for a person (no user info, no query).
    QString describeUrl() const;
    static std::string_view viewOf(const QByteArray &bytes);

    Endpoint m_endpoint;
    QNetworkAccessManager *m_network = nullptr;
    McpOAuthAuthorizer *m_authorizer = nullptr;
    bool m_running = false;
    bool m_stopping = false;

private:
    qint64 m_refusedSends = 0;
};
