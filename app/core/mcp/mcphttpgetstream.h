// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcpssereader.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <string>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

/// An event stream a Streamable HTTP client opens with `GET` (MCP 2025-06-18 and
/// 2025-11-25 basic/transports): the session's stream for what the server sends outside
/// a request ("Listening for Messages from the Server"), or a request's stream the
/// server cut before its response, resumed ("Resumability and Redelivery": the GET
/// carries `Last-Event-ID`, the server sends what followed that event).
///
/// When the stream ends or is cut it is opened again after the time the server asked
/// for (`retry:`, within MinRetryMs and MaxRetryMs; DefaultRetryMs when it asked none),
/// with the last event id seen (the server then sends only what came after it). A server
/// that ends MaxQuietStreams streams in a row without a whole event in them (or cannot
/// be reached as often) is given up: ended() says why. So is one that answers the GET
/// with an HTTP status other than 2xx (405: it offers no such stream) or with something
/// other than an event stream: ended() names the status and the body's start. Events
/// are cut by McpSseReader with the transport's bound (`maxEventBytes`); the stream
/// itself stays open as long as the server keeps it (what it is for).
class McpHttpGetStream : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultRetryMs = 1000;
    static constexpr int MinRetryMs = 100;
    static constexpr int MaxRetryMs = 60000;
    static constexpr int MaxQuietStreams = 5;
    /// Characters of an HTTP error's body quoted in ended().
    static constexpr int QuotedBodyChars = 200;

    /// `request` makes the GET's request (its URL, the endpoint's headers, the session
    /// id, the token); the stream adds `Accept` and `Last-Event-ID`.
    McpHttpGetStream(QNetworkAccessManager *network, std::function<QNetworkRequest()> request,
                     std::size_t maxEventBytes, QObject *parent = nullptr);
    ~McpHttpGetStream() override;

    /// Opens the stream now, or after `retryMs` (-1: at once) — resuming after
    /// `lastEventId` when it is not empty.
    void open(const std::string &lastEventId = {}, long long retryMs = -1);
    /// Stops reading and opens nothing more; ended() is not emitted.
    void close();
    /// The stream's last event id so far.
    const std::string &lastEventId() const { return m_lastEventId; }
    /// GETs sent so far.
    int connections() const { return m_connections; }

Q_SIGNALS:
    /// A whole `message` event (an oversized one too, with its head).
    void eventReceived(const McpSseReader::Event &event);
    /// The stream is given up and will not be opened again.
    void ended(const QString &why);

private:
    void connectNow();
    void onReadyRead();
    void onFinished();
    /// Opens it again after the retry time, or ends when too many were quiet.
    void again(const QString &why);
    void end(const QString &why);
    void dropReply();

    QNetworkAccessManager *m_network;
    std::function<QNetworkRequest()> m_request;
    std::size_t m_maxEventBytes;
    QNetworkReply *m_reply = nullptr;
    QTimer *m_retry = nullptr;
    std::unique_ptr<McpSseReader> m_events;
    std::string m_lastEventId;
    long long m_retryMs = DefaultRetryMs;
    bool m_headRead = false;
    bool m_isStream = false;
    bool m_eventInThisStream = false;
    bool m_ended = false;
    int m_quiet = 0;
    int m_connections = 0;
    QByteArray m_body; ///< the start of a body that is no event stream
};
