// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcphttptransportbase.h"

#include <QByteArray>
#include <QUrl>

#include <map>
#include <memory>
#include <vector>

class McpReadPace;
class McpSseReader;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

/// MCP's older HTTP+SSE transport (protocol revision 2024-11-05, basic/transports "HTTP
/// with SSE"), client side, over Qt Network. start() opens `GET url` with `Accept:
/// text/event-stream`; the server's first event, `event: endpoint`, names the URI
/// (resolved against the URL) to which every message of the studio is then POSTed as
/// JSON. The server takes a POST with 202 (or 200) and sends its own messages —
/// responses, notifications, requests — as `event: message` on the GET stream; the
/// session matches responses to requests by id. Messages sent before the endpoint event
/// wait for it (at most MaxQueued); started() follows the endpoint event.
///
/// The endpoint must be of the URL's origin (scheme, host, port): a server must not
/// steer the studio's POSTs, with the entry's headers and token, anywhere else; one that
/// names another origin ends the transport, naming both. The endpoint's own headers
/// (secrets expanded by McpServerLaunch) and the bearer token of a signed-in server go
/// on the GET and on every POST. Redirects are not followed.
///
/// What comes from the server is outside input, bounded as on Streamable HTTP (the stream
/// read at McpReadPace's pace, attack43 F3): an event
/// over MaxMessageBytes is skipped (messageRefused, with the id found in its first
/// bytes, so its request fails at once), a POST's non-2xx answer fails the request it
/// carried ("HTTP 400 from URL: body"), the endpoint event is at most MaxEndpointBytes
/// and must come within EndpointTimeoutMs. The stream's end or loss ends the transport
/// (finished(), naming the URL): the session's open requests fail with it, and the next
/// session connects again. stop() closes the stream (the spec's way to end the session).
/// The endpoint's headers, the bearer token and the bound of MaxOpenPosts POSTs are
/// McpHttpTransportBase's.
class McpSseTransport : public McpHttpTransportBase
{
    Q_OBJECT
public:
    /// Messages sent before the endpoint event, kept until it comes.
    static constexpr std::size_t MaxQueued = 32;
    /// A POST the server does not answer within this (no byte for so long) is let go and
    /// fails what it carried: its answer comes on the stream, the POST only says "202".
    static constexpr int PostTimeoutMs = 30000;
    /// Bytes of an endpoint event's URI.
    static constexpr std::size_t MaxEndpointBytes = 8192;
    /// How long the GET may go without its endpoint event.
    static constexpr int EndpointTimeoutMs = 30000;

    explicit McpSseTransport(Endpoint endpoint, QObject *parent = nullptr);
    ~McpSseTransport() override;

    /// How long to wait for the endpoint event (EndpointTimeoutMs by default).
    void setEndpointTimeout(int ms) { m_endpointTimeoutMs = ms; }

    /// Opens the GET (with the bearer token of setAuthorizer(), an expired one refreshed first).
    void start() override;
    void stop() override;
    QString transportName() const override { return QStringLiteral("HTTP+SSE"); }
    /// Lets go of a POST still open for `requestId` (a server that never answers POSTs
    /// would otherwise hold all MaxOpenPosts); false: over HTTP+SSE only
    /// notifications/cancelled tells the server.
    bool forget(const nlohmann::json &requestId) override;
    /// Where messages are POSTed, once the endpoint event named it; else empty.
    QUrl messageUrl() const { return m_messageUrl; }
    std::size_t openPosts() const override { return m_posts.size(); }

    /// The URI of an endpoint event (`data`) resolved against `sseUrl`, without user
    /// info; empty with `error` set when it is no URI, too long, or not of the same
    /// origin (scheme, host and port) as `sseUrl`.
    static QUrl resolveEndpoint(const QUrl &sseUrl, const std::string &data, QString *error);

private:
    struct Post
    {
        nlohmann::json requestId; ///< the request it carried, null for a notification or response
        JsonRpcMessage message;   ///< what was posted (sent again after a token refresh)
        bool retried = false;
        QByteArray body; ///< the start of the reply's body, for an error
    };

    void openStream(bool retried);
    /// Reads what came on the stream, at m_pace's pace unless not `paced` (it ended).
    void onStreamReadyRead(bool paced);
    void onStreamFinished();
    /// Acts on one event of the stream; false when a slot deleted the transport.
    bool onEvent(const std::string &type, const std::string &data, bool oversized, const std::string &head);
    /// Messages sent before the endpoint event wait for it (at most MaxQueued).
    std::optional<bool> holdBack(const JsonRpcMessage &message) override;
    QString postsFullRefusal() const override;
    void postMessage(const JsonRpcMessage &message, bool retried) override;
    void onPostFinished(QNetworkReply *reply);
    /// Ends the transport: everything open is aborted, finished(why) follows now.
    void end(const QString &why) override;
    QString describeMessageUrl() const;

    QNetworkReply *m_stream = nullptr;
    bool m_streamRetried = false;
    bool m_streamHeadRead = false;
    bool m_streamIsEvents = false;
    QByteArray m_streamBody; ///< the start of a GET's body that is no event stream, for an error
    std::unique_ptr<McpSseReader> m_events;
    QTimer *m_endpointTimer = nullptr;
    McpReadPace *m_pace; ///< the stream's pace
    int m_endpointTimeoutMs = EndpointTimeoutMs;
    QUrl m_messageUrl;
    std::vector<JsonRpcMessage> m_queue;
    std::map<QNetworkReply *, Post> m_posts;
};
