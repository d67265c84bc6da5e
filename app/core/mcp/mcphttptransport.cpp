// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphttptransport.h"

#include "mcprevision.h"

#include "mcphttpgetstream.h"

#include "mcpoauthauthorizer.h"
#include "mcpoauthmetadata.h"
#include "mcpreadpace.h"
#include "mcpreplyid.h"
#include "mcpssereader.h"
#include "project/printabletext.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

using nlohmann::json;

namespace {

/// True for 1 to `max` bytes of visible ASCII (a header value the studio sends back).
bool visibleAscii(const QByteArray &value, int max)
{
    if (value.isEmpty() || value.size() > max)
        return false;
    for (const char c : value)
        if (c < 0x21 || c > 0x7E)
            return false;
    return true;
}

} // namespace

McpHttpTransport::McpHttpTransport(Endpoint endpoint, QObject *parent)
    : McpHttpTransportBase(std::move(endpoint), parent)
    , m_pace(new McpReadPace([this] { resumePaced(); }, this))
{}

McpHttpTransport::~McpHttpTransport()
{
    for (auto &[reply, post] : m_posts)
        abandon(reply);
    closeGetStreams();
}

void McpHttpTransport::start()
{
    m_running = true;
    m_stopping = false;
    m_sessionId.clear();
    m_protocolVersion.clear();
    m_listenEnd.clear();
    // Nothing to connect: the first POST (initialize) reaches the server.
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT started(); }, Qt::QueuedConnection);
}

QNetworkRequest McpHttpTransport::sessionRequest() const
{
    QNetworkRequest request = signedRequest(m_endpoint.url);
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId);
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
    return request;
}

QString McpHttpTransport::postsFullRefusal() const
{
    return QStringLiteral("%1 requests to %2 are open, the most the studio keeps open at once; wait for some to "
                          "end (a server that keeps its event streams open or sends request after request fills them)")
        .arg(MaxOpenPosts)
        .arg(describeUrl());
}

void McpHttpTransport::postMessage(const JsonRpcMessage &message, bool retried)
{
    QNetworkRequest request = sessionRequest();
    if (message.kind == JsonRpcMessage::Kind::Request && McpRevision::declaresVersion(message.params)) {
        // The 2026 era: the routing headers mirror the body (streamable-http "Request
        // Metadata"); no session.
        const json version = message.params["_meta"][McpRevision::ProtocolVersionKey];
        request.setRawHeader("MCP-Protocol-Version",
                             QByteArray::fromStdString(version.is_string() ? version.get<std::string>() : ""));
        request.setRawHeader("Mcp-Method", QByteArray::fromStdString(McpRevision::encodeHeaderValue(message.method)));
        if (const auto name = McpRevision::mirroredName(message.method, message.params))
            request.setRawHeader("Mcp-Name", QByteArray::fromStdString(McpRevision::encodeHeaderValue(*name)));
        // The tool's x-mcp-header parameters (streamable-http "Custom Headers from Tool
        // Parameters"), from the arguments sent.
        const json &params = message.params;
        if (message.method == "tools/call" && params.contains("name") && params["name"].is_string())
            if (const auto tool = m_toolParameters.find(params["name"].get<std::string>());
                tool != m_toolParameters.end()) {
                const auto headers
                    = McpParamHeaders::headersFor(tool->second, params.value("arguments", json::object()));
                if (const QString refused = McpParamHeaders::oversized(headers); !refused.isEmpty()) {
                    // Answered here, after the caller's send() returned, as the server would.
                    JsonRpcMessage error;
                    error.kind = JsonRpcMessage::Kind::Error;
                    error.id = message.id;
                    error.error.code = JsonRpcError::InvalidParams;
                    error.error.message = refused.toStdString();
                    QMetaObject::invokeMethod(
                        this, [this, error] { Q_EMIT messageReceived(error); }, Qt::QueuedConnection);
                    return;
                }
                for (const auto &[header, value] : headers)
                    request.setRawHeader(QByteArray::fromStdString(header), QByteArray::fromStdString(value));
            }
        request.setRawHeader("Mcp-Session-Id", QByteArray());
    }
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    const std::string body = message.encode();
    QNetworkReply *reply = m_network->post(request, QByteArray(body.data(), qsizetype(body.size())));
    boundReadBuffer(reply);
    Post &post = m_posts[reply];
    if (message.kind == JsonRpcMessage::Kind::Request)
        post.requestId = message.id;
    if (m_authorizer || (m_initializeFallback && message.method == "initialize"))
        post.message = message;
    post.retried = retried;
    post.opensStream
        = message.kind == JsonRpcMessage::Kind::Notification && message.method == "notifications/initialized";
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

void McpHttpTransport::end(const QString &why)
{
    if (!m_running || m_stopping)
        return;
    m_running = false;
    for (auto &[reply, open] : std::exchange(m_posts, {}))
        abandon(reply);
    closeGetStreams();
    Q_EMIT finished(why);
}

void McpHttpTransport::stop()
{
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    for (auto &[reply, post] : std::exchange(m_posts, {}))
        abandon(reply);
    closeGetStreams();
    const auto ended = [this] {
        m_running = false;
        Q_EMIT finished(QStringLiteral("was disconnected"));
    };
    if (m_sessionId.isEmpty()) {
        QMetaObject::invokeMethod(this, ended, Qt::QueuedConnection);
        return;
    }
    QNetworkRequest request = sessionRequest();
    request.setTransferTimeout(StopGraceMs);
    QNetworkReply *reply = m_network->deleteResource(request);
    connect(reply, &QNetworkReply::finished, this, [reply, ended] {
        reply->deleteLater();
        ended(); // a server that refuses DELETE (405) keeps the session until it times out
    });
}

bool McpHttpTransport::readHead(QNetworkReply *reply, Post &post)
{
    if (post.typeKnown)
        return true;
    post.typeKnown = true;
    const QByteArray session = reply->rawHeader("Mcp-Session-Id");
    if (m_sessionId.isEmpty() && visibleAscii(session, MaxSessionIdBytes))
        m_sessionId = session;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().trimmed().toLower();
    post.sse = status >= 200 && status < 300 && type.startsWith("text/event-stream");
    if (post.sse) {
        post.events = std::make_unique<McpSseReader>(MaxMessageBytes, m_budget);
        reply->setReadBufferSize(ReadBufferBytes); // again, should the first have come too early
    }
    return true;
}

void McpHttpTransport::onReadyRead(QNetworkReply *reply, bool paced)
{
    const auto found = m_posts.find(reply);
    if (found == m_posts.end())
        return;
    Post &post = found->second;
    readHead(reply, post);
    if (post.sse && post.requestId.is_null()) {
        close(reply); // a notification or response is answered with 202 and no body (spec)
        return;
    }
    if (!post.sse) {
        const QByteArray bytes = reply->readAll();
        const bool overMax = std::size_t(post.body.size() + bytes.size()) > MaxMessageBytes;
        if (overMax || !post.bodyHold.fits(std::size_t(bytes.size()))) {
            const QPointer<McpHttpTransport> alive(this);
            refuse(overMax ? QStringLiteral("an HTTP reply of more than %1 bytes is over the limit; it was dropped")
                                 .arg(MaxMessageBytes)
                           : heldRefusal(),
                   post);
            if (!alive)
                return;
            close(reply);
            return;
        }
        post.body += bytes;
        post.bodyHold.set(std::size_t(post.body.size()));
        return;
    }
    // Paced, all event streams of POSTs together (attack43 F3); what is left when the
    // reply finished is read at once (Qt's read buffer holds at most ReadBufferBytes).
    while (reply->bytesAvailable() > 0) {
        if (paced && !m_pace->hasRoom())
            return; // resumePaced() reads on when the window ended
        const QByteArray bytes = reply->read(McpReadPace::ReadChunkBytes);
        m_pace->count(bytes.size());
        for (McpSseReader::Event &event : post.events->feed(viewOf(bytes))) {
            if (event.type != "message")
                continue;
            const QPointer<McpHttpTransport> alive(this);
            deliverEvent(event, post);
            if (!alive || !m_posts.count(reply))
                return;
            if (post.answered) {
                close(reply); // the response came: nothing more belongs to this request (spec)
                return;
            }
        }
    }
}

void McpHttpTransport::resumePaced()
{
    std::vector<QPointer<QNetworkReply>> waiting;
    for (const auto &[reply, post] : m_posts)
        if (post.sse && reply->bytesAvailable() > 0)
            waiting.emplace_back(reply);
    const QPointer<McpHttpTransport> alive(this);
    for (const QPointer<QNetworkReply> &reply : waiting) {
        if (!alive)
            return;
        if (reply && m_posts.count(reply))
            onReadyRead(reply);
    }
}

void McpHttpTransport::close(QNetworkReply *reply)
{
    m_posts.erase(reply);
    abandon(reply);
}

bool McpHttpTransport::forget(const json &requestId)
{
    if (requestId.is_null())
        return false;
    for (auto &[reply, post] : m_posts)
        if (post.requestId == requestId) {
            close(reply);
            return true;
        }
    for (auto &[stream, post] : m_resumed)
        if (post.requestId == requestId) {
            stream->close();
            stream->deleteLater();
            m_resumed.erase(stream);
            return true;
        }
    return false;
}

void McpHttpTransport::onFinished(QNetworkReply *reply)
{
    const auto found = m_posts.find(reply);
    if (found == m_posts.end())
        return;
    reply->deleteLater();
    const QPointer<McpHttpTransport> alive(this);
    onReadyRead(reply, false); // what is left of the body
    if (!alive)
        return;
    const auto still = m_posts.find(reply);
    if (still == m_posts.end())
        return;
    Post post = std::move(still->second);
    m_posts.erase(still);

    const QVariant statusValue = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const int status = statusValue.toInt();
    if (!statusValue.isValid()) {
        refuse(QStringLiteral("no HTTP reply from %1: %2").arg(describeUrl(), reply->errorString()), post);
        return;
    }
    if (status == 404 && !m_sessionId.isEmpty() && !post.requestId.is_null()) {
        // The server ended the session (spec): the client must start a new one.
        if (!refuse(QStringLiteral("HTTP 404: the server ended the session"), post))
            return;
        m_running = false;
        m_sessionId.clear();
        closeGetStreams();
        Q_EMIT finished(QStringLiteral("ended the session (HTTP 404 to its session id)"));
        return;
    }
    if (status == 401 && m_authorizer) {
        onUnauthorized(post.retried, [this, message = post.message] { postMessage(message, true); });
        return;
    }
    if (status == 403 && m_authorizer) {
        // Step-up (spec "Scope Challenge Handling"): this request needs scopes the token
        // lacks; the others may go on. The next sign-in asks for them too.
        const McpOAuthMetadata::Challenge challenge
            = McpOAuthMetadata::parseChallenge(reply->rawHeader("WWW-Authenticate"));
        if (challenge.error == QLatin1String("insufficient_scope")) {
            const QString why
                = QStringLiteral("HTTP 403 from %1: %2").arg(describeUrl(), m_authorizer->needScope(challenge.scope));
            if (post.answered || post.requestId.is_null())
                return;
            // An answer, not a lost request: trying it again gets the same 403 (not retried).
            JsonRpcMessage error;
            error.kind = JsonRpcMessage::Kind::Error;
            error.id = post.requestId;
            error.error.code = InsufficientScopeCode;
            error.error.message = why.toStdString();
            post.answered = true;
            Q_EMIT messageReceived(error);
            return;
        }
    }
    if (status < 200 || status >= 300) {
        // A 2026-era server's refusal (UnsupportedProtocolVersion, HeaderMismatch, …)
        // is a JSON-RPC error in the body: the session reads it (the era probe does).
        const JsonRpcDecoded decoded = JsonRpc::decode(viewOf(post.body));
        if (!post.answered && !post.requestId.is_null() && decoded.message
            && decoded.message->kind == JsonRpcMessage::Kind::Error
            && decoded.message->error.code <= McpRevision::HeaderMismatch
            && decoded.message->error.code >= McpRevision::UnsupportedProtocolVersion) {
            JsonRpcMessage error = *decoded.message;
            error.id = post.requestId;
            post.answered = true;
            Q_EMIT messageReceived(error);
            return;
        }
        const QString body = elidedText(printableLines(QString::fromUtf8(post.body)).simplified(), QuotedBodyChars);
        const QString why = QStringLiteral("HTTP %1 from %2%3")
                                .arg(status)
                                .arg(describeUrl(), body.isEmpty() ? QString() : QStringLiteral(": ") + body);
        if (m_initializeFallback && !post.answered && post.message.kind == JsonRpcMessage::Kind::Request
            && post.message.method == "initialize" && (status == 400 || status == 404 || status == 405)) {
            // Perhaps a server of the older HTTP+SSE transport (spec "Backwards Compatibility").
            post.answered = true;
            Q_EMIT initializeRefused(post.message, why);
            return;
        }
        refuse(why, post);
        return;
    }
    if (post.opensStream)
        openGetStream(); // the session is initialized: what the server sends outside a request
    if (post.sse && !post.answered && !post.requestId.is_null() && !post.events->lastEventId().empty()) {
        // Cut before the response, after an event with an id: the server can go on from it.
        const std::string lastEventId = post.events->lastEventId();
        const long long retryMs = post.events->retryMs();
        resume(std::move(post), lastEventId, retryMs);
        return;
    }
    if (post.sse) {
        if (post.events->midEvent()
            && !refuse(QStringLiteral("its event stream ended in the middle of an event"), post))
            return;
    } else if (reply->error() != QNetworkReply::NoError) {
        // The body did not come whole (cut, or Qt stopped a decompression bomb): what came
        // is no reply, and the reason is Qt's (attack43 F5: "not valid JSON", "no response").
        refuse(QStringLiteral("the HTTP reply (status %1) could not be read whole: %2")
                   .arg(status)
                   .arg(elidedText(printableText(reply->errorString()), QuotedBodyChars)),
               post);
        return;
    } else if (!post.body.trimmed().isEmpty()) {
        if (!deliver(viewOf(post.body), post))
            return;
    }
    if (!post.answered && !post.requestId.is_null())
        refuse(post.sse ? QStringLiteral("its event stream ended before the response")
                        : QStringLiteral("the HTTP reply (status %1) had no response in it").arg(status),
               post);
}

bool McpHttpTransport::deliver(std::string_view text, Post &post)
{
    const QPointer<McpHttpTransport> alive(this);
    JsonRpcDecoded decoded = JsonRpc::decode(text);
    if (!decoded.message) {
        json id = McpReplyId::scan(text);
        const QString reason = QString::fromStdString(decoded.problem.message);
        if (id.is_null() && !post.sse && !post.answered && !post.requestId.is_null())
            return refuse(reason, post); // a JSON body answers the request it was posted with
        if (!id.is_null() && id == post.requestId)
            post.answered = true;
        Q_EMIT messageRefused(reason, id);
        return bool(alive);
    }
    const JsonRpcMessage &message = *decoded.message;
    const bool isResponse = message.kind == JsonRpcMessage::Kind::Result || message.kind == JsonRpcMessage::Kind::Error;
    if (isResponse && message.id == post.requestId)
        post.answered = true;
    if (message.kind == JsonRpcMessage::Kind::Result && m_protocolVersion.isEmpty() && message.result.is_object()) {
        // The revision initialize chose: every later request names it (spec).
        const auto version = message.result.find("protocolVersion");
        if (version != message.result.end() && version->is_string() && message.result.contains("serverInfo")) {
            const QByteArray chosen = QByteArray::fromStdString(version->get<std::string>());
            if (visibleAscii(chosen, 40))
                m_protocolVersion = chosen;
        }
    }
    // Decided before the message goes on: its slot may end the session, and stop()
    // destroys `post` with the others (attack42 F1: read after that).
    const bool answeredElsewhere = isResponse && message.id != post.requestId;
    Q_EMIT messageReceived(message);
    if (alive && answeredElsewhere)
        forget(message.id); // answered on another stream: nothing more belongs to its own (attack39 F2)
    return bool(alive);
}

bool McpHttpTransport::refuse(const QString &reason, Post &post)
{
    if (post.answered)
        return true;
    post.answered = true;
    const QPointer<McpHttpTransport> alive(this);
    Q_EMIT messageRefused(reason, post.requestId);
    return bool(alive);
}

void McpHttpTransport::openGetStream()
{
    if (m_listen) {
        m_listen->close();
        m_listen->deleteLater();
    }
    m_listenEnd.clear();
    m_listenPost = Post();
    m_listenPost.sse = true;
    m_listen = new McpHttpGetStream(
        m_network, [this] { return sessionRequest(); }, MaxMessageBytes, this);
    m_listen->setBudget(m_budget);
    McpHttpGetStream *stream = m_listen;
    connect(stream, &McpHttpGetStream::eventReceived, this,
            [this](const McpSseReader::Event &event) { deliverEvent(event, m_listenPost); });
    connect(stream, &McpHttpGetStream::ended, this, [this, stream](const QString &why) {
        // An optional stream (405: the server offers none): the session goes on without.
        m_listenEnd = why;
        m_listenRequests = stream->connections();
        if (m_listen == stream)
            m_listen = nullptr;
        stream->deleteLater();
    });
    stream->open();
}

int McpHttpTransport::getStreamRequests() const
{
    return m_listen ? m_listen->connections() : m_listenRequests;
}

void McpHttpTransport::resume(Post post, const std::string &lastEventId, long long retryMs)
{
    auto *stream = new McpHttpGetStream(
        m_network, [this] { return sessionRequest(); }, MaxMessageBytes, this);
    stream->setEndsOnShortStreams(false); // "SSE polling" may end each; the call's timeout bounds it
    stream->setBudget(m_budget);
    post.events.reset();
    m_resumed.emplace(stream, std::move(post));
    connect(stream, &McpHttpGetStream::eventReceived, this, [this, stream](const McpSseReader::Event &event) {
        const auto found = m_resumed.find(stream);
        if (found == m_resumed.end())
            return;
        const QPointer<McpHttpTransport> alive(this);
        if (!deliverEvent(event, found->second))
            return;
        const auto still = m_resumed.find(stream);
        if (still != m_resumed.end() && still->second.answered) {
            // The response came: nothing more belongs to this request (spec).
            stream->close();
            stream->deleteLater();
            m_resumed.erase(still);
        }
    });
    connect(stream, &McpHttpGetStream::ended, this, [this, stream](const QString &why) {
        stream->deleteLater();
        const auto found = m_resumed.find(stream);
        if (found == m_resumed.end())
            return;
        Post ended = std::move(found->second);
        m_resumed.erase(found);
        refuse(QStringLiteral("its event stream ended before the response and could not be resumed: %1").arg(why),
               ended);
    });
    stream->open(lastEventId, retryMs);
}

bool McpHttpTransport::deliverEvent(const McpSseReader::Event &event, Post &post)
{
    if (!event.oversized)
        return deliver(event.data, post);
    const QPointer<McpHttpTransport> alive(this);
    Q_EMIT messageRefused(
        event.overBudget
            ? heldRefusal()
            : QStringLiteral("an event of more than %1 bytes is over the limit; it was skipped").arg(MaxMessageBytes),
        nullptr);
    return bool(alive);
}

QString McpHttpTransport::heldRefusal() const
{
    return QStringLiteral("it was skipped: the studio holds %1 bytes of unfinished messages from %2 already, the "
                          "most it keeps (a server that keeps its streams' messages from ending fills them)")
        .arg(MaxHeldBytes)
        .arg(describeUrl());
}

void McpHttpTransport::closeGetStreams()
{
    if (McpHttpGetStream *stream = std::exchange(m_listen, nullptr)) {
        stream->close();
        stream->deleteLater();
    }
    for (auto &[stream, post] : std::exchange(m_resumed, {})) {
        stream->close();
        stream->deleteLater();
    }
}

qint64 McpHttpTransport::readPauses() const
{
    return m_pace->pauses();
}
