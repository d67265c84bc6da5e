// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpssetransport.h"

#include "mcpreadpace.h"
#include "mcpreplyid.h"
#include "mcpssereader.h"
#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

using nlohmann::json;

namespace {

/// Bytes of an HTTP error's body kept to quote it.
constexpr qsizetype KeptBodyBytes = 4096;

int defaultPort(const QString &scheme)
{
    return scheme == QLatin1String("https") ? 443 : 80;
}

/// "scheme://host:port" of `url`, for a person.
QString originOf(const QUrl &url)
{
    return QStringLiteral("%1://%2:%3")
        .arg(url.scheme(), url.host(QUrl::FullyEncoded))
        .arg(url.port(defaultPort(url.scheme())));
}

bool isSuccess(int status)
{
    return status >= 200 && status < 300;
}

QString quotedBody(const QByteArray &body, int chars)
{
    const QString text = elidedText(printableLines(QString::fromUtf8(body)).simplified(), chars);
    return text.isEmpty() ? QString() : QStringLiteral(": ") + text;
}

} // namespace

McpSseTransport::McpSseTransport(Endpoint endpoint, QObject *parent)
    : McpHttpTransportBase(std::move(endpoint), parent)
    , m_endpointTimer(new QTimer(this))
    , m_pace(new McpReadPace(
          [this] {
              if (m_stream)
                  onStreamReadyRead(true);
          },
          this))
{
    m_endpointTimer->setSingleShot(true);
    connect(m_endpointTimer, &QTimer::timeout, this, [this] {
        if (m_running && !m_stopping && m_messageUrl.isEmpty())
            end(QStringLiteral("sent no endpoint event within %1 s on its event stream (GET %2)")
                    .arg(decimalSeconds(m_endpointTimeoutMs), describeUrl()));
    });
}

McpSseTransport::~McpSseTransport()
{
    if (m_stream)
        abandon(m_stream);
    for (auto &[reply, post] : m_posts)
        abandon(reply);
}

QString McpSseTransport::describeMessageUrl() const
{
    // Without the query: the reference servers put the session id there.
    return elidedText(m_messageUrl.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery), 200);
}

QUrl McpSseTransport::resolveEndpoint(const QUrl &sseUrl, const std::string &data, QString *error)
{
    const QByteArray bytes = QByteArray::fromStdString(data).trimmed();
    if (bytes.isEmpty()) {
        *error = QStringLiteral("sent an empty endpoint event");
        return {};
    }
    if (std::size_t(bytes.size()) > MaxEndpointBytes) {
        *error = QStringLiteral("sent an endpoint event of %1 bytes, more than the %2 the studio takes")
                     .arg(bytes.size())
                     .arg(MaxEndpointBytes);
        return {};
    }
    const QString text = QString::fromUtf8(bytes);
    const QUrl relative(text, QUrl::StrictMode);
    if (!relative.isValid()) {
        *error
            = QStringLiteral("sent an endpoint event that is no URI: \"%1\"").arg(elidedText(printableText(text), 200));
        return {};
    }
    QUrl resolved = sseUrl.resolved(relative);
    if (resolved.scheme() != sseUrl.scheme() || resolved.host().isEmpty() || resolved.host() != sseUrl.host()
        || resolved.port(defaultPort(resolved.scheme())) != sseUrl.port(defaultPort(sseUrl.scheme()))) {
        *error = QStringLiteral("named another origin in its endpoint event, %1, than its URL's %2 (scheme, host "
                                "and port must be the same: the studio sends its messages, with the entry's "
                                "headers and token, only where it connected)")
                     .arg(elidedText(printableText(resolved.isValid() ? originOf(resolved) : text), 200),
                          originOf(sseUrl));
        return {};
    }
    resolved.setUserInfo(QString());
    resolved.setFragment(QString());
    return resolved;
}

void McpSseTransport::start()
{
    if (m_running && !m_stopping)
        return;
    m_running = true;
    m_stopping = false;
    m_messageUrl.clear();
    m_queue.clear();
    m_endpointTimer->start(m_endpointTimeoutMs);
    // An expired token is refreshed before the stream is opened; when that fails, the old
    // token's 401 ends the transport, naming why.
    withFreshToken([this] { openStream(false); });
}

void McpSseTransport::openStream(bool retried)
{
    m_streamRetried = retried;
    m_streamHeadRead = false;
    m_streamIsEvents = false;
    m_streamBody.clear();
    m_events = std::make_unique<McpSseReader>(MaxMessageBytes);
    QNetworkRequest get = signedRequest(m_endpoint.url);
    get.setRawHeader("Accept", "text/event-stream");
    get.setRawHeader("Cache-Control", "no-cache");
    m_stream = m_network->get(get);
    boundReadBuffer(m_stream); // a flooding stream is read at the studio's pace
    connect(m_stream, &QNetworkReply::readyRead, this, [this] { onStreamReadyRead(true); });
    connect(m_stream, &QNetworkReply::finished, this, &McpSseTransport::onStreamFinished);
}

void McpSseTransport::onStreamReadyRead(bool paced)
{
    if (!m_stream)
        return;
    if (!m_streamHeadRead) {
        m_streamHeadRead = true;
        const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray type = m_stream->header(QNetworkRequest::ContentTypeHeader).toByteArray().trimmed().toLower();
        m_streamIsEvents = isSuccess(status) && type.startsWith("text/event-stream");
    }
    if (!m_streamIsEvents) {
        // Kept only to quote: the GET fails when it ends (or at the endpoint timeout).
        const QByteArray bytes = m_stream->readAll();
        m_streamBody += bytes.left(std::max<qsizetype>(0, KeptBodyBytes - m_streamBody.size()));
        return;
    }
    // Paced (attack43 F3: a flood of comment lines was read as fast as it came, for as
    // long as the session lived); what is left when the stream ended is read at once.
    const QPointer<McpSseTransport> alive(this);
    const QNetworkReply *stream = m_stream;
    while (m_stream->bytesAvailable() > 0) {
        if (paced && !m_pace->hasRoom())
            return; // read on when the window ended
        const QByteArray bytes = m_stream->read(McpReadPace::ReadChunkBytes);
        m_pace->count(bytes.size());
        for (const McpSseReader::Event &event : m_events->feed(viewOf(bytes))) {
            if (!onEvent(event.type, event.data, event.oversized, event.head) || !alive)
                return;
            if (m_stream != stream || !m_running)
                return; // ended meanwhile
        }
    }
}

bool McpSseTransport::onEvent(const std::string &type, const std::string &data, bool oversized, const std::string &head)
{
    const QPointer<McpSseTransport> alive(this);
    if (type == "endpoint") {
        if (!m_messageUrl.isEmpty())
            return true; // the first one names it for the session
        QString error;
        const QUrl url = oversized ? QUrl() : resolveEndpoint(m_endpoint.url, data, &error);
        if (oversized)
            error = QStringLiteral("sent an endpoint event of more than %1 bytes").arg(MaxMessageBytes);
        if (url.isEmpty()) {
            end(error);
            return bool(alive);
        }
        m_messageUrl = url;
        m_endpointTimer->stop();
        for (const JsonRpcMessage &message : std::exchange(m_queue, {}))
            postMessage(message, false);
        Q_EMIT started();
        return bool(alive);
    }
    if (type != "message")
        return true;
    if (oversized) {
        Q_EMIT messageRefused(
            QStringLiteral("an event of more than %1 bytes is over the limit; it was skipped").arg(MaxMessageBytes),
            McpReplyId::scan(head));
        return bool(alive);
    }
    const JsonRpcDecoded decoded = JsonRpc::decode(data);
    if (!decoded.message) {
        Q_EMIT messageRefused(QString::fromStdString(decoded.problem.message), McpReplyId::scan(data));
        return bool(alive);
    }
    Q_EMIT messageReceived(*decoded.message);
    return bool(alive);
}

void McpSseTransport::onStreamFinished()
{
    QNetworkReply *reply = m_stream;
    if (!reply)
        return;
    const QPointer<McpSseTransport> alive(this);
    onStreamReadyRead(false); // what is left of it
    if (!alive || m_stream != reply)
        return;
    m_stream = nullptr;
    reply->disconnect(this);
    reply->deleteLater();
    if (!m_running || m_stopping)
        return;
    const QVariant statusValue = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!statusValue.isValid()) {
        end(QStringLiteral("could not be reached: GET %1: %2").arg(describeUrl(), reply->errorString()));
        return;
    }
    const int status = statusValue.toInt();
    if (status == 401 && m_authorizer) {
        onUnauthorized(m_streamRetried, [this] { openStream(true); });
        return;
    }
    if (!m_streamIsEvents) {
        if (!isSuccess(status)) {
            end(QStringLiteral("answered GET %1 with HTTP %2%3")
                    .arg(describeUrl())
                    .arg(status)
                    .arg(quotedBody(m_streamBody, QuotedBodyChars)));
            return;
        }
        const QString type = printableText(reply->header(QNetworkRequest::ContentTypeHeader).toString());
        end(QStringLiteral("answered GET %1 with %2, not an event stream (text/event-stream)")
                .arg(describeUrl(),
                     type.isEmpty() ? QStringLiteral("no Content-Type")
                                    : QStringLiteral("Content-Type %1").arg(elidedText(type, 100))));
        return;
    }
    const QString where = m_events->midEvent() ? QStringLiteral(" in the middle of an event") : QString();
    if (m_messageUrl.isEmpty()) {
        end(QStringLiteral("ended its event stream (GET %1)%2 before its endpoint event").arg(describeUrl(), where));
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        end(QStringLiteral("cut its event stream (GET %1)%2: %3").arg(describeUrl(), where, reply->errorString()));
        return;
    }
    end(QStringLiteral("ended its event stream (GET %1)%2").arg(describeUrl(), where));
}

std::optional<bool> McpSseTransport::holdBack(const JsonRpcMessage &message)
{
    if (!m_messageUrl.isEmpty())
        return std::nullopt;
    if (m_queue.size() >= MaxQueued) {
        m_sendRefusal
            = QStringLiteral("%1 messages wait for the endpoint event of %2 already, the most the studio keeps")
                  .arg(MaxQueued)
                  .arg(describeUrl());
        return false;
    }
    m_queue.push_back(message);
    return true;
}

QString McpSseTransport::postsFullRefusal() const
{
    return QStringLiteral("%1 messages to %2 are being posted, the most the studio keeps open at once; wait for some "
                          "to end")
        .arg(MaxOpenPosts)
        .arg(describeMessageUrl());
}

void McpSseTransport::postMessage(const JsonRpcMessage &message, bool retried)
{
    QNetworkRequest post = signedRequest(m_messageUrl);
    post.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    post.setTransferTimeout(PostTimeoutMs);
    const std::string body = message.encode();
    QNetworkReply *reply = m_network->post(post, QByteArray(body.data(), qsizetype(body.size())));
    Post &open = m_posts[reply];
    if (message.kind == JsonRpcMessage::Kind::Request)
        open.requestId = message.id;
    if (m_authorizer)
        open.message = message;
    open.retried = retried;
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] {
        const auto found = m_posts.find(reply);
        if (found == m_posts.end())
            return;
        // The response comes on the stream: a POST's body only says how it went.
        const QByteArray bytes = reply->readAll();
        QByteArray &kept = found->second.body;
        kept += bytes.left(std::max<qsizetype>(0, KeptBodyBytes - kept.size()));
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onPostFinished(reply); });
}

bool McpSseTransport::forget(const nlohmann::json &requestId)
{
    for (auto &[reply, post] : m_posts) {
        if (post.requestId != requestId)
            continue;
        QNetworkReply *open = reply;
        m_posts.erase(open); // its request ended already: nothing to fail
        abandon(open);
        break;
    }
    return false;
}

void McpSseTransport::onPostFinished(QNetworkReply *reply)
{
    const auto found = m_posts.find(reply);
    if (found == m_posts.end())
        return;
    reply->deleteLater();
    Post post = std::move(found->second);
    m_posts.erase(found);
    post.body += reply->readAll().left(std::max<qsizetype>(0, KeptBodyBytes - post.body.size()));
    if (!m_running || m_stopping)
        return;
    const QVariant statusValue = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    QString why;
    if (!statusValue.isValid()) {
        why = QStringLiteral("no HTTP reply from %1: %2").arg(describeMessageUrl(), reply->errorString());
    } else {
        const int status = statusValue.toInt();
        if (isSuccess(status))
            return; // 202 Accepted (or 200): its answer comes on the stream
        if (status == 401 && m_authorizer) {
            onUnauthorized(post.retried, [this, message = post.message] { postMessage(message, true); });
            return;
        }
        why = QStringLiteral("HTTP %1 from %2%3")
                  .arg(status)
                  .arg(describeMessageUrl(), quotedBody(post.body, QuotedBodyChars));
    }
    // The request failed now, not at its timeout (a notification's loss is only counted).
    Q_EMIT messageRefused(why, post.requestId);
}

void McpSseTransport::stop()
{
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    m_endpointTimer->stop();
    m_queue.clear();
    if (QNetworkReply *stream = std::exchange(m_stream, nullptr))
        abandon(stream); // closing the stream ends the session (2024-11-05 transports)
    for (auto &[reply, post] : std::exchange(m_posts, {}))
        abandon(reply);
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_running = false;
            m_stopping = false;
            Q_EMIT finished(QStringLiteral("was disconnected"));
        },
        Qt::QueuedConnection);
}

void McpSseTransport::end(const QString &why)
{
    if (!m_running || m_stopping)
        return;
    m_running = false;
    m_endpointTimer->stop();
    m_queue.clear();
    if (QNetworkReply *stream = std::exchange(m_stream, nullptr))
        abandon(stream);
    for (auto &[reply, post] : std::exchange(m_posts, {}))
        abandon(reply);
    Q_EMIT finished(why);
}
