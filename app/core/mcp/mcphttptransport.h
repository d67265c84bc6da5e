// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcphttptransportbase.h"
#include "mcpssereader.h"

#include <QByteArray>

#include <map>
#include <memory>

class McpHttpGetStream;
class McpReadPace;
class QNetworkReply;
class QNetworkRequest;

/// MCP's Streamable HTTP transport (spec "Transports", 2025 era), client side, over Qt
/// Network: each message the studio sends is one POST of JSON to the server's URL
/// (`Accept: application/json, text/event-stream`), with the server's
/// `Mcp-Session-Id` once it gave one and `MCP-Protocol-Version` once initialize chose
/// one, and the endpoint's own headers (e.g. `Authorization`, its secrets expanded by
/// McpServerLaunch). The server answers a request with one JSON body or with an event
/// stream (notifications and requests of its own, then the response); a notification
/// or response it takes with 202.
///
/// What comes back is outside input, bounded as on stdio: a body or an event over
/// MaxMessageBytes is dropped (the reply is aborted), the rest read by JsonRpc::decode.
/// A POST that ends without the response to its request — not JSON, an HTTP error, no
/// connection, a stream cut in the middle of an event or before the response — is
/// reported by messageRefused with that request's id, so the request fails at once,
/// naming why. HTTP 404 to a request that carried a session id means the server ended
/// the session: finished() follows ("the server ended the session …"), the next call
/// opens a new session.
///
/// Once a 2025-era session is initialized (its `notifications/initialized` taken), the
/// studio opens the session's GET stream for what the server sends outside a request
/// (resource updates, list changes, log messages, its own requests): McpHttpGetStream,
/// opened again with `Last-Event-ID` when the server ends or cuts it, given up when the
/// server answers 405 (it offers none) or keeps ending it empty. A request's event
/// stream that ends before the response, after an event with an id, is resumed the same
/// way (a GET with `Last-Event-ID`; 2025-11-25 servers close streams on purpose and
/// expect it, "SSE polling"); one without an id fails its request as before.
/// A request's event stream is closed as soon as its response came, or when the session
/// stops waiting for it (forget(): timed out, cancelled), and the event stream a server
/// opens on the POST of a notification or response is closed at once (the spec wants
/// 202 and no body): a stream that lingers, drips or never ends holds none of Qt's six
/// connections to the host for longer. The stream of a `subscriptions/listen` (2026
/// era) stays open by design until its response or forget(): no timeout applies to a
/// POST here, and each event on it is bounded by MaxMessageBytes as any other. The POSTs'
/// event streams are read at McpReadPace's pace, all together (attack43 F3). At most
/// MaxOpenPosts POSTs are open at once; past that send() refuses (a server that answers
/// each `ping` answer with more pings grew the studio by a queued request each); the
/// endpoint's headers, the bearer token and those bounds are McpHttpTransportBase's.
/// stop() sends DELETE with the session id (spec: the client ends its session), waits
/// for it at most StopGraceMs, then reports finished(); a transport destroyed before
/// (or without stop()) sends nothing.
class McpHttpTransport : public McpHttpTransportBase
{
    Q_OBJECT
public:
    static constexpr int StopGraceMs = 2000;
    /// The JSON-RPC error code a request gets when the server answered it 403
    /// `insufficient_scope` (step-up: McpOAuthAuthorizer::needScope says what to do).
    static constexpr int InsufficientScopeCode = -32003;
    /// Bytes a session id may have (visible ASCII only, as the spec asks).
    static constexpr int MaxSessionIdBytes = 1024;
    /// Bytes of unfinished messages all the transport's streams and bodies hold together
    /// (McpByteBudget; each one alone at most MaxMessageBytes): a server whose six
    /// connections each hold a line that never ends holds no more than this (attack43 F2).
    static constexpr std::size_t MaxHeldBytes = 2 * MaxMessageBytes;

    explicit McpHttpTransport(Endpoint endpoint, QObject *parent = nullptr);
    ~McpHttpTransport() override;

    /// The spec's backwards compatibility with the older HTTP+SSE transport (2025-03-26
    /// transports "Backwards Compatibility"): an `initialize` answered HTTP 400, 404 or
    /// 405 (and no 2026 error in its body) is handed to initializeRefused() instead of
    /// failing (McpHttpFallbackTransport then tries HTTP+SSE). Off by default.
    void setInitializeFallback(bool fallBack) { m_initializeFallback = fallBack; }

    void start() override;
    void stop() override;
    QString transportName() const override { return QStringLiteral("Streamable HTTP"); }
    bool forget(const nlohmann::json &requestId) override;
    bool mirrorsToolParameters() const override { return true; }
    void setToolParameters(McpParamHeaders::ToolParameters parameters) override
    {
        m_toolParameters = std::move(parameters);
    }
    std::size_t openPosts() const override { return m_posts.size() + m_resumed.size(); }
    /// The session id the server gave with its initialize answer, else "".
    QByteArray sessionId() const { return m_sessionId; }
    /// The session's GET stream, while it is open or being opened again; else null.
    const McpHttpGetStream *getStream() const { return m_listen; }
    /// Why the session's GET stream was given up ("" while it is open or never was).
    QString getStreamEnd() const { return m_listenEnd; }
    /// Times reading the POSTs' event streams waited for the pace (McpReadPace).
    qint64 readPauses() const;
    /// GETs the session's stream sent so far (McpHttpGetStream::connections; Qt may send
    /// one again on its own when the server closed the connection before reading it).
    int getStreamRequests() const;

Q_SIGNALS:
    /// With setInitializeFallback: `initialize` (the message as sent) was answered with an
    /// HTTP status that says the URL is no Streamable HTTP endpoint; `why` says which
    /// ("HTTP 404 from URL: body"). Its request is not refused: the receiver answers it.
    void initializeRefused(const JsonRpcMessage &initialize, const QString &why);

private:
    struct Post
    {
        nlohmann::json requestId; ///< the request it carried, null for a notification or response
        JsonRpcMessage message;   ///< what was posted (sent again after a token refresh)
        bool retried = false;     ///< sent again after a 401 already
        bool answered = false;    ///< its response came (or its failure was reported)
        bool opensStream = false; ///< `notifications/initialized`: the GET stream opens once it is taken
        bool sse = false;
        bool typeKnown = false;
        QByteArray body;
        McpByteBudget::Hold bodyHold; ///< what `body` takes of m_budget
        std::unique_ptr<McpSseReader> events;
    };

    void postMessage(const JsonRpcMessage &message, bool retried) override;
    void end(const QString &why) override;
    QString postsFullRefusal() const override;
    /// Reads what came of a POST's reply; an event stream at the pace of m_pace unless
    /// not `paced` (the reply finished: what is left is read now).
    void onReadyRead(QNetworkReply *reply, bool paced = true);
    /// Reads on the event streams that waited for the pace's window to end.
    void resumePaced();
    void onFinished(QNetworkReply *reply);
    /// A request to the endpoint with its headers, the session id and protocol version
    /// once known, and redirects not followed.
    QNetworkRequest sessionRequest() const;
    /// Reads the status and headers once they are there; false when the reply is done
    /// with (its body over the cap).
    bool readHead(QNetworkReply *reply, Post &post);
    /// Hands on one message's text; false when a slot deleted the transport. A slot may
    /// also have stopped it, destroying `post` when it was one of the open ones: a
    /// caller reading it after a true return looks it up again.
    bool deliver(std::string_view text, Post &post);
    /// Reports `reason` for the post's request, once; false when a slot deleted the transport.
    bool refuse(const QString &reason, Post &post);
    /// Closes the POST's reply and forgets it (nothing more is read from it).
    void close(QNetworkReply *reply);
    /// Opens the session's GET stream (closing one open before).
    void openGetStream();
    /// Resumes the event stream of `post`'s request with a GET after its last event id.
    void resume(Post post, const std::string &lastEventId, long long retryMs);
    /// Hands on a message event (of a POST's stream or a GET stream), read for `post`;
    /// false when a slot deleted the transport.
    bool deliverEvent(const McpSseReader::Event &event, Post &post);
    /// Why a message was skipped when MaxHeldBytes were held.
    QString heldRefusal() const;
    /// Closes the GET streams (the session's and the resumed ones) and forgets them.
    void closeGetStreams();

    std::shared_ptr<McpByteBudget> m_budget = std::make_shared<McpByteBudget>(MaxHeldBytes);
    std::map<QNetworkReply *, Post> m_posts;
    McpReadPace *m_pace; ///< the pace of the POSTs' event streams
    McpHttpGetStream *m_listen = nullptr;
    Post m_listenPost; ///< what the session's GET stream is read as (no request of its own)
    QString m_listenEnd;
    int m_listenRequests = 0;                     ///< GETs of the session's stream given up
    std::map<McpHttpGetStream *, Post> m_resumed; ///< requests whose stream is being resumed
    QByteArray m_sessionId;
    QByteArray m_protocolVersion;
    bool m_initializeFallback = false;
    McpParamHeaders::ToolParameters m_toolParameters; ///< mirrored into a tools/call's headers (2026 era)
};
