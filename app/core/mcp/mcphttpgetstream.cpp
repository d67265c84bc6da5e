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
    , m_pace(new QTimer(this))
{
    m_retry->setSingleShot(true);
    m_retry->setTimerType(Qt::PreciseTimer);
    connect(m_retry, &QTimer::timeout, this, &McpHttpGetStream::connectNow);
    m_pace->setSingleShot(true);
    connect(m_pace, &QTimer::timeout, this, &McpHttpGetStream::onReadyRead);
}

McpHttpGetStream::~McpHttpGetStream()
{
    dropReply();
}

void McpHttpGetStream::open(const std::string &lastEventId, long long retryMs)
{
    m_ended = false;
    m_quiet = 0;
    m_short = 0;
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
    m_events = std::make_unique<McpSseReader>(m_maxEventBytes, m_budget);
    m_queued.clear();
    m_pace->stop();
    m_finishPending = false;
    m_headRead = false;
    m_isStream = false;
    m_eventInThisStream = false;
    m_body.clear();
    ++m_connections;
    m_opened.start();
    m_reply = m_network->get(request);
    McpHttpTransportBase::boundReadBuffer(m_reply); // attack39 F1: a flood grew the studio 0.5 GB/s
    connect(m_reply, &QNetworkReply::readyRead, this, &McpHttpGetStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &McpHttpGetStream::onFinished);
}

void McpHttpGetStream::onReadyRead()
{
    if (!m_reply || m_pace->isActive())
        return;
    if (!m_headRead) {
        m_headRead = true;
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray type = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().trimmed().toLower();
        m_isStream = status >= 200 && status < 300 && type.startsWith("text/event-stream");
        m_reply->setReadBufferSize(McpTransport::ReadBufferBytes);
    }
    if (!m_isStream) {
        // Only the start is quoted; once it is kept, the rest of a body that is no
        // stream is not read at all (attack42 F2: an endless one was read as it came).
        const QByteArray bytes = m_reply->readAll();
        m_body += bytes.left(std::max<qsizetype>(0, QuotedBodyChars * 4 - m_body.size()));
        if (m_body.size() >= QuotedBodyChars * 4 && !m_reply->isFinished() && !m_endingEarly) {
            m_endingEarly = true;
            QTimer::singleShot(0, this, [this, reply = QPointer<QNetworkReply>(m_reply)] {
                m_endingEarly = false;
                if (reply && m_reply == reply)
                    onFinished();
            });
        }
        return;
    }
    const QPointer<McpHttpGetStream> alive(this);
    if (pump() && alive && m_reply && m_finishPending)
        onFinished(); // put off while events were left unread
}

bool McpHttpGetStream::pump()
{
    const QPointer<McpHttpGetStream> alive(this);
    while (true) {
        if (!m_window.isValid() || m_window.hasExpired(PaceWindowMs)) {
            m_window.start();
            m_windowEvents = 0;
            m_windowBytes = 0;
        }
        if (m_queued.empty()) {
            if (m_reply->bytesAvailable() <= 0)
                return true;
            if (m_windowBytes >= MaxBytesPerWindow) {
                ++m_pauses;
                m_pace->start(int(std::max<qint64>(1, PaceWindowMs - m_window.elapsed())));
                return false;
            }
            const QByteArray bytes = m_reply->read(ReadChunkBytes);
            m_windowBytes += bytes.size();
            for (McpSseReader::Event &event : m_events->feed(std::string_view(bytes.constData(), bytes.size())))
                m_queued.push_back(std::move(event));
            if (!m_events->lastEventId().empty())
                m_lastEventId = m_events->lastEventId();
            if (m_events->retryMs() >= 0)
                m_retryMs = m_events->retryMs();
            continue;
        }
        if (m_windowEvents >= MaxEventsPerWindow) {
            // The rest waits for the next window; Qt's read buffer, bounded, holds the
            // server's writes back meanwhile.
            ++m_pauses;
            m_pace->start(int(std::max<qint64>(1, PaceWindowMs - m_window.elapsed())));
            return false;
        }
        const McpSseReader::Event event = std::move(m_queued.front());
        m_queued.pop_front();
        ++m_windowEvents;
        m_eventInThisStream = true;
        if (event.type != "message")
            continue;
        Q_EMIT eventReceived(event);
        if (!alive || !m_reply)
            return false;
    }
}

void McpHttpGetStream::onFinished()
{
    if (!m_reply)
        return;
    const QPointer<McpHttpGetStream> alive(this);
    m_finishPending = false;
    if (!m_headRead || !m_isStream)
        onReadyRead(); // what is left of the body
    else if (!m_pace->isActive())
        pump();
    if (!alive || !m_reply)
        return;
    if (m_isStream && (m_pace->isActive() || !m_queued.empty() || m_reply->bytesAvailable() > 0)) {
        m_finishPending = true; // ended once what is left was handed on
        return;
    }
    const QVariant statusValue = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const int status = statusValue.toInt();
    const QString url = m_reply->url().adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery).toString();
    const QString error = m_reply->errorString();
    dropReply();
    if (!statusValue.isValid()) {
        again(url, QStringLiteral("no HTTP reply from %1: %2").arg(url, error));
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
    again(url, QString());
}

void McpHttpGetStream::again(const QString &url, const QString &unreachable)
{
    m_quiet = m_eventInThisStream ? 0 : m_quiet + 1;
    m_short = m_opened.isValid() && m_opened.hasExpired(ShortStreamMs) ? 0 : m_short + 1;
    if (m_quiet >= MaxQuietStreams) {
        end(!unreachable.isEmpty()
                ? unreachable
                : QStringLiteral("the server ended its event stream (GET %1) %2 times in a row with nothing in it")
                      .arg(url)
                      .arg(MaxQuietStreams));
        return;
    }
    if (m_endsOnShortStreams && m_short >= MaxShortStreams) {
        end(!unreachable.isEmpty() ? unreachable
                                   : QStringLiteral("the server ended its event stream (GET %1) %2 times in a row "
                                                    "within %3 s of its opening")
                                         .arg(url)
                                         .arg(MaxShortStreams)
                                         .arg(ShortStreamMs / 1000));
        return;
    }
    m_retry->start(nextDelayMs());
}

int McpHttpGetStream::nextDelayMs() const
{
    const long long asked = std::clamp<long long>(m_retryMs, MinRetryMs, MaxRetryMs);
    if (m_short == 0)
        return int(asked);
    const long long backoff = std::min<long long>(MaxBackoffMs, (long long)MinRetryMs << std::min(m_short - 1, 20));
    return int(std::max(asked, backoff));
}

int McpHttpGetStream::retryDueMs() const
{
    return m_retry->isActive() ? m_retry->interval() : -1;
}

void McpHttpGetStream::close()
{
    m_ended = true;
    m_retry->stop();
    m_pace->stop();
    m_queued.clear();
    dropReply();
}

void McpHttpGetStream::end(const QString &why)
{
    m_ended = true;
    m_retry->stop();
    m_pace->stop();
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
