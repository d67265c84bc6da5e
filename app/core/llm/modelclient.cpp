// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/modelclient.h"

#include "llm/outgoingnetwork.h"

#include "llm/anthropiccodec.h"
#include "llm/modelstream.h"
#include "llm/openaichatcodec.h"
#include "llm/sseparser.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <limits>

namespace {

bool isAnthropic(const ModelConfig &config)
{
    return config.provider == ModelConfig::Provider::Anthropic;
}

/// Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP date; -1 when absent or unreadable.
int retryAfterMs(const QByteArray &header)
{
    const QByteArray value = header.trimmed();
    if (value.isEmpty())
        return -1;
    constexpr int Longest = std::numeric_limits<int>::max();
    bool ok = false;
    const qint64 seconds = value.toLongLong(&ok);
    if (ok) // clamped before the product: a server's int64 times 1000 overflowed into a negative delay
        return seconds < 0 ? -1 : seconds > Longest / 1000 ? Longest : int(seconds * 1000);
    if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return Longest; // more digits than an int64 holds
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return int(
        qBound(qint64(0), QDateTime::currentDateTimeUtc().msecsTo(when), qint64(std::numeric_limits<int>::max())));
}

QString networkReason(QNetworkReply::NetworkError error, const QString &text)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused; is the server running?");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host not found; check base_url");
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("the server closed the connection before it answered");
    default:
        return text;
    }
}

} // namespace

ModelClient::ModelClient(ModelConfig config, Secrets secrets, QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_secrets(std::move(secrets))
    , m_network(network)
{}

ModelClient::~ModelClient()
{
    for (Pending &pending : m_pending)
        if (pending.reply) {
            pending.reply->disconnect(this);
            pending.reply->abort();
            pending.reply->deleteLater();
        }
}

ModelError ModelClient::error(const QString &code, const QString &message, bool retryable) const
{
    ModelError result;
    result.code = code;
    result.message = m_secrets.mask(QStringLiteral("model '%1': %2").arg(m_config.name, message));
    result.retryable = retryable;
    return result;
}

void ModelClient::finishLater(quint64 id, Done done, ModelResult result, int delayMs)
{
    // A placeholder so cancel() can drop it; the callback never runs inside send().
    m_pending.insert(id, Pending{});
    QTimer::singleShot(delayMs, this, [this, id, done = std::move(done), result = std::move(result)] {
        if (m_pending.remove(id))
            done(result);
    });
}

std::optional<ModelReply> ModelClient::mockTurn(ModelError *failure)
{
    const ModelTurn &turn = m_config.turns[qMin(m_mockTurn, m_config.turns.size() - 1)];
    ++m_mockTurn;
    if (turn.isError) {
        *failure = error(QStringLiteral("model_failed"), turn.error, turn.retryable);
        return std::nullopt;
    }
    ModelReply reply;
    reply.message = turn.message;
    reply.inputTokens = turn.inputTokens;
    reply.outputTokens = turn.outputTokens;
    reply.stopReason = turn.stopReason;
    ModelMessage::checkArguments(reply);
    return reply;
}

quint64 ModelClient::send(const ModelRequest &request, Done done, Preview preview)
{
    const quint64 id = m_nextId++;
    ModelResult result;
    if (m_config.provider == ModelConfig::Provider::Manual) {
        result.error = error(QStringLiteral("manual_model"),
                             QStringLiteral("a person answers this model's turns; it takes no HTTP request"));
        finishLater(id, std::move(done), std::move(result));
        return id;
    }
    if (m_config.provider == ModelConfig::Provider::Mock) {
        if (QString problem = ModelMessage::checkMessages(request.messages); !problem.isEmpty()) {
            result.error = error(QStringLiteral("invalid_request"), problem);
        } else {
            const int delayMs = m_config.turns[qMin(m_mockTurn, m_config.turns.size() - 1)].delayMs;
            result.reply = mockTurn(&result.error);
            finishLater(id, std::move(done), std::move(result), delayMs);
            return id;
        }
        finishLater(id, std::move(done), std::move(result));
        return id;
    }

    if (!m_config.stream)
        preview = {}; // "stream": false: the reply is shown when it is whole
    QString problem;
    auto body = isAnthropic(m_config) ? AnthropicCodec::buildRequest(m_config, request, &problem)
                                      : OpenAIChatCodec::buildRequest(m_config, request, &problem);
    if (body && preview) {
        (*body)["stream"] = true;
        if (!isAnthropic(m_config)) // without it a streamed Chat Completions reply has no usage
            (*body)["stream_options"] = {{"include_usage", true}};
    }
    if (!body) {
        result.error = error(QStringLiteral("invalid_request"), problem);
        finishLater(id, std::move(done), std::move(result));
        return id;
    }
    QString key;
    if (!m_config.apiKeySecret.isEmpty()) {
        key = m_secrets.value(m_config.apiKeySecret);
        if (key.isEmpty()) {
            result.error = error(QStringLiteral("missing_secret"),
                                 QStringLiteral("the secret %1 is not set; set it with `toolstudio tools secret "
                                                "PROJECT %1` (the key on stdin)")
                                     .arg(m_config.apiKeySecret));
            finishLater(id, std::move(done), std::move(result));
            return id;
        }
        // Issue 16: the key goes only to the host it was entered for (bound on first use).
        if (const QString refused = m_secrets.allowSend(m_config.apiKeySecret, QUrl(m_config.endpointUrl()));
            !refused.isEmpty()) {
            result.error = error(QStringLiteral("secret_not_for_host"), refused);
            finishLater(id, std::move(done), std::move(result));
            return id;
        }
    }

    // A redirect would carry the key to another URL: it is an error instead; HTTP/1.1
    // only, so Qt bounds what it reads ahead of the stream (attack44 F1).
    QNetworkRequest http = OutgoingNetwork::request(QUrl(m_config.endpointUrl()));
    http.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    http.setRawHeader("Accept", preview ? "text/event-stream" : "application/json");
    if (isAnthropic(m_config)) {
        http.setRawHeader("anthropic-version", AnthropicCodec::ApiVersion);
        if (!key.isEmpty())
            http.setRawHeader("x-api-key", key.toUtf8());
    } else if (!key.isEmpty()) {
        http.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    }

    Pending pending;
    pending.done = std::move(done);
    pending.preview = std::move(preview);
    pending.reply = m_network->post(http, QByteArray::fromStdString(body->dump()));
    pending.timer = new QTimer(this);
    pending.timer->setSingleShot(true);
    connect(pending.timer, &QTimer::timeout, this, [this, id] {
        const auto it = m_pending.find(id);
        if (it == m_pending.end() || !it->reply)
            return;
        it->timedOut = !(it->stream && it->stream->ended()); // a whole streamed reply is not late
        it->reply->abort();
    });
    if (m_config.timeoutMs > 0)
        pending.timer->start(m_config.timeoutMs);
    QNetworkReply *reply = pending.reply;
    // Qt reads at most this far ahead of the client, so a server that sends faster than the
    // client reads waits instead of growing Qt's buffer (HTTP/1.1; set again once the reply
    // has started, as Qt 6.4 may not apply it before; its HTTP/2 ignores it).
    reply->setReadBufferSize(ReadBufferBytes);
    QMetaObject::invokeMethod(
        reply, [reply] { reply->setReadBufferSize(ReadBufferBytes); }, Qt::QueuedConnection);
    m_pending.insert(id, std::move(pending));
    connect(reply, &QNetworkReply::readyRead, this, [this, id] { onReadyRead(id); });
    connect(reply, &QNetworkReply::finished, this, [this, id] { onFinished(id); });
    return id;
}

std::optional<ModelClient::Pending> ModelClient::take(quint64 id)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return std::nullopt;
    Pending pending = std::move(*it);
    m_pending.erase(it);
    delete pending.timer;
    pending.timer = nullptr;
    delete pending.idle;
    pending.idle = nullptr;
    delete pending.previewTimer;
    pending.previewTimer = nullptr;
    return pending;
}

void ModelClient::cancel(quint64 id)
{
    std::optional<Pending> taken = take(id);
    if (!taken)
        return;
    Pending &pending = *taken;
    if (pending.reply) {
        pending.reply->disconnect(this);
        pending.reply->abort();
        pending.reply->deleteLater();
    }
}

void ModelClient::read(quint64 id, Pending &pending)
{
    QNetworkReply *reply = pending.reply;
    if (!pending.decided) {
        pending.decided = true;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().trimmed().toLower();
        // An error status keeps its body (the error message); a 2xx event stream is read
        // as it comes, whether or not it was asked for (`params` may hold "stream").
        if (status >= 200 && status <= 299 && (type == "text/event-stream" || type.startsWith("text/event-stream;"))) {
            pending.sse = std::make_shared<SseParser>();
            pending.stream = std::make_shared<ModelStream>(isAnthropic(m_config) ? ModelStream::Protocol::Anthropic
                                                                                 : ModelStream::Protocol::OpenAIChat);
            pending.idle = new QTimer(this);
            pending.idle->setSingleShot(true);
            connect(pending.idle, &QTimer::timeout, this, [this, id] {
                const auto it = m_pending.find(id);
                if (it == m_pending.end() || !it->reply)
                    return;
                // After the terminator this is the grace for the body's end: the reply is whole.
                it->idleTimedOut = !(it->stream && it->stream->ended());
                it->reply->abort();
            });
        }
    }
    const qint64 held = pending.sse ? pending.received : pending.body.size();
    if (!pending.sse) {
        if (reply->bytesAvailable() > m_replyCap - held) {
            pending.overCap = true; // nothing more is read
            return;
        }
        pending.body += reply->readAll();
        return;
    }
    // A stream is read up to the cap: it is over the cap only when more than that came
    // before its terminator (bytes after it in the same read are not held against it).
    const QByteArray chunk = reply->read(qMin(reply->bytesAvailable(), m_replyCap - held));
    pending.received += chunk.size();
    if (pending.body.size() < 80) // the stream's first bytes, for an error about what it was
        pending.body += chunk.left(80 - pending.body.size());
    std::vector<SseEvent> events;
    pending.sse->feed(std::string_view(chunk.constData(), std::size_t(chunk.size())), &events);
    for (const SseEvent &event : events) {
        if (!pending.stream->add(event, &pending.streamError))
            return;
    }
    if (!pending.stream->ended() && reply->bytesAvailable() > 0)
        pending.overCap = true; // nothing more is read
}

bool ModelClient::letGoAfterTerminator(Pending &pending)
{
    // Bytes after the terminator are let go as they come: left unread they would pile up
    // in Qt for the grace, which does not bound a reply's read buffer (attack44 F1). Past
    // AfterTerminatorBytes the reply is whole and the rest is not waited for.
    pending.afterTerminator += pending.reply->skip(pending.reply->bytesAvailable());
    if (pending.afterTerminator <= AfterTerminatorBytes)
        return false;
    pending.reply->abort(); // finished() follows (maybe at once: `pending` is not used after this)
    return true;
}

bool ModelClient::mustEnd(const Pending &pending)
{
    return pending.overCap || !pending.streamError.isEmpty();
}

void ModelClient::onReadyRead(quint64 id)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end() || !it->reply || mustEnd(*it))
        return;
    QNetworkReply *reply = it->reply;
    if (it->stream && it->stream->ended()) {
        letGoAfterTerminator(*it);
        return;
    }
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    if (length.isValid() && length.toLongLong() > m_replyCap)
        it->overCap = true;
    else
        read(id, *it);
    if (mustEnd(*it)) {
        reply->abort(); // finished() follows (maybe at once: `it` is not used after this)
        return;
    }
    if (it->stream && it->stream->ended()) {
        // The reply is whole. The body's end normally follows at once, and waiting for it
        // keeps the connection for the next request; a server that keeps the body open
        // after its terminator is cut off after a short grace.
        if (!letGoAfterTerminator(*it))
            it->idle->start(TerminatorGraceMs);
        return;
    }
    if (!it->stream)
        return;
    if (m_config.streamIdleMs > 0)
        it->idle->start(m_config.streamIdleMs); // bytes arrived: the stream is alive
    if (it->preview && it->stream->changed() && !(it->previewTimer && it->previewTimer->isActive())) {
        if (!it->previewTimer) {
            it->previewTimer = new QTimer(this);
            it->previewTimer->setSingleShot(true);
            connect(it->previewTimer, &QTimer::timeout, this, [this, id] {
                const auto found = m_pending.find(id);
                if (found != m_pending.end() && found->stream && found->preview && !mustEnd(*found)
                    && !found->stream->ended())
                    found->preview(found->stream->preview(&m_secrets));
            });
        }
        it->previewTimer->start(PreviewIntervalMs);
    }
}

void ModelClient::onFinished(quint64 id)
{
    std::optional<Pending> taken = take(id);
    if (!taken)
        return;
    Pending &pending = *taken;
    QNetworkReply *reply = pending.reply;
    if (!reply)
        return;
    if (!mustEnd(pending) && !pending.timedOut && !pending.idleTimedOut && !(pending.stream && pending.stream->ended())
        && reply->bytesAvailable() > 0)
        read(id, pending);
    delete pending.idle; // made by read() when the first bytes came with the end
    pending.idle = nullptr;
    const ModelResult result = resultOf(reply, pending);
    reply->disconnect(this);
    reply->deleteLater();
    pending.done(result);
}

ModelResult ModelClient::resultOf(QNetworkReply *reply, const Pending &pending) const
{
    ModelResult result;
    const QString url = m_config.endpointUrl();
    if (pending.timedOut) {
        result.error = error(QStringLiteral("timeout"),
                             QStringLiteral("no complete answer from %1 within %2 s (timeout_seconds)")
                                 .arg(url)
                                 .arg(m_config.timeoutMs / 1000.0),
                             true);
        return result;
    }
    if (pending.idleTimedOut) {
        result.error = error(QStringLiteral("timeout"),
                             QStringLiteral("the stream from %1 stopped mid-reply: nothing came for %2 s after %3 "
                                            "events")
                                 .arg(url)
                                 .arg(m_config.streamIdleMs / 1000.0)
                                 .arg(pending.stream->events()),
                             true);
        return result;
    }
    if (pending.overCap) {
        result.error = error(QStringLiteral("reply_too_large"),
                             QStringLiteral("the reply from %1 is larger than %2 bytes; it was not read further")
                                 .arg(url)
                                 .arg(m_replyCap));
        return result;
    }
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid()) {
        const bool retryable = reply->error() != QNetworkReply::SslHandshakeFailedError;
        result.error
            = error(QStringLiteral("model_unreachable"),
                    QStringLiteral("cannot reach %1: %2").arg(url, networkReason(reply->error(), reply->errorString())),
                    retryable);
        return result;
    }
    // A server may echo the key (or another secret) in what it sends; an error quotes
    // only the first 200 characters, so mask before cutting, or a key at the cut shows.
    const QByteArray masked = m_secrets.mask(pending.body);
    const int code = status.toInt();
    if (code < 200 || code > 299) {
        result.error = httpError(code, masked, reply, bool(pending.preview));
        return result;
    }
    if (pending.stream)
        return streamResult(reply, pending);
    // A 2xx whose transfer failed (reset mid-body; a gzip body Qt stopped inflating as a
    // decompression bomb) leaves a cut or zero-filled body: not a reply.
    if (reply->error() != QNetworkReply::NoError) {
        QString why = reply->errorString().trimmed();
        while (why.endsWith(QLatin1Char(':')))
            why.chop(1);
        result.error = error(QStringLiteral("model_bad_reply"),
                             QStringLiteral("the reply from %1 could not be read whole: %2").arg(url, why),
                             reply->error() < QNetworkReply::ProxyConnectionRefusedError);
        return result;
    }
    QString problem;
    const std::string_view body(masked.constData(), std::size_t(masked.size()));
    result.reply = isAnthropic(m_config) ? AnthropicCodec::parseReply(body, &problem)
                                         : OpenAIChatCodec::parseReply(body, &problem);
    if (!result.reply)
        result.error = error(QStringLiteral("model_bad_reply"), QStringLiteral("%1 (from %2)").arg(problem, url));
    return result;
}

ModelResult ModelClient::streamResult(QNetworkReply *reply, const Pending &pending) const
{
    ModelResult result;
    const QString url = m_config.endpointUrl();
    const ModelStream &stream = *pending.stream;
    if (!pending.streamError.isEmpty()) {
        const bool serverError = stream.failure() == ModelStream::Failure::ServerError;
        result.error = error(serverError ? QStringLiteral("model_server_error") : QStringLiteral("model_bad_reply"),
                             QStringLiteral("%1 (from %2)").arg(pending.streamError, url), serverError);
        return result;
    }
    if (!stream.ended()) {
        // Cut short: a reset, or a connection closed in the middle of an event, is worth
        // another attempt; a stream that ended cleanly between events without its
        // terminator is the server's way, not an accident.
        const bool networkError = reply->error() != QNetworkReply::NoError;
        // Not one event: no stream at all (a body labelled text/event-stream that is not one).
        const bool midEvent = pending.sse->inEvent() && stream.events() > 0;
        const QString begins = stream.events() == 0 && !pending.body.isEmpty()
            ? QStringLiteral("; it begins: %1")
                  .arg(ModelMessage::quoteText(
                      std::string_view(pending.body.constData(), std::size_t(pending.body.size()))))
            : QString();
        QString why = networkError ? reply->errorString().trimmed() : QString();
        while (why.endsWith(QLatin1Char(':')))
            why.chop(1);
        result.error = error(
            QStringLiteral("model_bad_reply"),
            QStringLiteral("the stream from %1 ended before its end (%2) after %3 events%4%5%6")
                .arg(url, isAnthropic(m_config) ? QStringLiteral("no message_stop") : QStringLiteral("no data: [DONE]"))
                .arg(stream.events())
                .arg(midEvent ? QStringLiteral(", in the middle of an event") : QString(),
                     why.isEmpty() ? QString() : QStringLiteral(": ") + why, begins),
            midEvent || (networkError && reply->error() < QNetworkReply::ProxyConnectionRefusedError));
        return result;
    }
    QString problem;
    result.reply = stream.reply(&problem, &m_secrets);
    if (!result.reply)
        result.error = error(QStringLiteral("model_bad_reply"), QStringLiteral("%1 (from %2)").arg(problem, url));
    return result;
}

ModelError ModelClient::httpError(int status, const QByteArray &body, QNetworkReply *reply, bool streamAsked) const
{
    const std::string_view text(body.constData(), std::size_t(body.size()));
    QString said = isAnthropic(m_config) ? AnthropicCodec::errorMessage(text) : OpenAIChatCodec::errorMessage(text);
    if (said.isEmpty() && !body.isEmpty())
        said = ModelMessage::quoteText(text);
    const QString what = QStringLiteral("HTTP %1 from %2%3")
                             .arg(status)
                             .arg(m_config.endpointUrl(), said.isEmpty() ? QString() : QStringLiteral(": ") + said);
    ModelError result;
    if (status == 401 || status == 403) {
        const QString fix = m_config.apiKeySecret.isEmpty()
            ? QStringLiteral("the model has no 'api_key_secret'; add one naming the secret that holds the key")
            : QStringLiteral("set the secret %1 to a valid key (`toolstudio tools secret PROJECT %1`, the key on "
                             "stdin)")
                  .arg(m_config.apiKeySecret);
        result = error(QStringLiteral("model_auth"), QStringLiteral("the key was refused (%1); %2").arg(what, fix));
    } else if (status == 429) {
        result = error(QStringLiteral("rate_limited"), QStringLiteral("rate limited (%1)").arg(what), true);
    } else if (status >= 500) {
        result = error(QStringLiteral("model_server_error"), QStringLiteral("server error (%1)").arg(what), true);
    } else if (status >= 300 && status < 400) {
        const QString target = QString::fromUtf8(reply->rawHeader("Location")).left(200);
        result = error(QStringLiteral("model_refused"),
                       QStringLiteral("redirected (%1) to %2; the key is not sent on: set base_url to the new address")
                           .arg(what, target.isEmpty() ? QStringLiteral("nowhere") : target));
    } else if ((status == 400 || status == 422) && streamAsked
               && said.contains(QLatin1String("stream"), Qt::CaseInsensitive)) {
        // Some compatible servers refuse streamed requests, or "stream_options", outright.
        result = error(QStringLiteral("model_refused"),
                       QStringLiteral("the request was refused (%1); if this server does not take streamed requests, "
                                      "set \"stream\": false on this model in toolstudio.json")
                           .arg(what));
    } else {
        result = error(QStringLiteral("model_refused"), QStringLiteral("the request was refused (%1)").arg(what));
    }
    result.httpStatus = status;
    if (result.retryable)
        result.retryAfterMs = retryAfterMs(reply->rawHeader("Retry-After"));
    return result;
}
