// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphttpgetstream.h"

#include "mcphttptransportbase.h"
#include "project/printabletext.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <algorithm>
#include <string_view>

McpHttpGetStream::McpHttpGetStream(QNetworkAccessManager *network, std::function<QNetworkRequest()> request,
                                   std::size_t maxEventBytes, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_request(std::move(request))
    , m_maxEventBytes(maxEventBytes)
    , m_retry(new QTimer(this))
{
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &McpHttpGetStream::connectNow);
}

McpHttpGetStream::~McpHttpGetStream()
{
    dropReply();
}

void McpHttpGetStream::open(const std::string &lastEventId, long long retryMs)
{
    m_ended = false;
    m_quiet = 0;
    if (!lastEventId.empty())
        m_lastEventId = lastEventId;
    if (retryMs >= 0)
        m_retryMs = retryMs;
    if (retryMs < 0)
        connectNow();
    else
        m_retry->start(int(std::clamp<long long>(retryMs, MinRetryMs, MaxRetryMs)));
}

void McpHttpGetStream::connectNow()
{
    if (m_ended)
        return;
    dropReply();
    QNetworkRequest request = m_request();
    request.setRawHeader("Accept", "text/event-stream");
    if (!m_lastEventId.empty())
        request.setRawHeader("Last-Event-ID", QByteArray::fromStdString(m_lastEventId));
    m_events = std::make_unique<McpSseReader>(m_maxEventBytes);
    m_headRead = false;
    m_isStream = false;
    m_eventInThisStream = false;
    m_body.clear();
    ++m_connections;
    m_reply = m_network->get(request);
    McpHttpTransportBase::boundReadBuffer(m_reply); // attack39 F1: a flood grew the studio 0.5 GB/s
    connect(m_reply, &QNetworkReply::readyRead, this, &McpHttpGetStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &McpHttpGetStream::onFinished);
}

void McpHttpGetStream::onReadyRead()
{
    if (!m_reply)
        return;
    if (!m_headRead) {
        m_headRead = true;
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray type = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().trimmed().toLower();
        m_isStream = status >= 200 && status < 300 && type.startsWith("text/event-stream");
        m_reply->setReadBufferSize(McpTransport::ReadBufferBytes);
    }
    const QByteArray bytes = m_reply->readAll();
    if (!m_isStream) {
        // Only the start is quoted: the rest of a body that is no stream is not kept.
        m_body += bytes.left(std::max<qsizetype>(0, QuotedBodyChars * 4 - m_body.size()));
        return;
    }
    const QPointer<McpHttpGetStream> alive(this);
    for (const McpSseReader::Event &event : m_events->feed(std::string_view(bytes.constData(), bytes.size()))) {
        m_eventInThisStream = true;
        if (!m_events->lastEventId().empty())
            m_lastEventId = m_events->lastEventId();
        if (event.type != "message")
            continue;
        Q_EMIT eventReceived(event);
        if (!alive || !m_reply)
            return;
    }
    if (!m_events->lastEventId().empty())
        m_lastEventId = m_events->lastEventId();
    if (m_events->retryMs() >= 0)
        m_retryMs = m_events->retryMs();
}

void McpHttpGetStream::onFinished()
{
    if (!m_reply)
        return;
    const QPointer<McpHttpGetStream> alive(this);
    onReadyRead(); // what is left of the body
    if (!alive || !m_reply)
        return;
    const QVariant statusValue = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const int status = statusValue.toInt();
    const QString url = m_reply->url().adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery).toString();
    const QString error = m_reply->errorString();
    dropReply();
    if (!statusValue.isValid()) {
        again(QStringLiteral("no HTTP reply from %1: %2").arg(url, error));
        return;
    }
    if (!m_isStream) {
        const QString body = elidedText(printableLines(QString::fromUtf8(m_body)).simplified(), QuotedBodyChars);
        end(status >= 200 && status < 300
                ? QStringLiteral("GET %1 was answered with HTTP %2 and no event stream").arg(url).arg(status)
                : QStringLiteral("GET %1 was answered with HTTP %2%3")
                      .arg(url)
                      .arg(status)
                      .arg(body.isEmpty() ? QString() : QStringLiteral(": ") + body));
        return;
    }
    again(QStringLiteral("the server ended its event stream (GET %1) %2 times in a row with nothing in it")
              .arg(url)
              .arg(MaxQuietStreams));
}

void McpHttpGetStream::again(const QString &why)
{
    m_quiet = m_eventInThisStream ? 0 : m_quiet + 1;
    if (m_quiet >= MaxQuietStreams) {
        end(why);
        return;
    }
    m_retry->start(int(std::clamp<long long>(m_retryMs, MinRetryMs, MaxRetryMs)));
}

void McpHttpGetStream::close()
{
    m_ended = true;
    m_retry->stop();
    dropReply();
}

void McpHttpGetStream::end(const QString &why)
{
    m_ended = true;
    m_retry->stop();
    Q_EMIT ended(why);
}

void McpHttpGetStream::dropReply()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = std::exchange(m_reply, nullptr);
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}
