// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcpssereader.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <deque>
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
/// with the last event id seen (the server then sends only what came after it). A
/// stream that lived less than ShortStreamMs is short: after the n-th short stream in a
/// row the wait is at least MinRetryMs·2^(n-1), up to MaxBackoffMs (attack39 F5: a
/// server answering `retry: 0` and one event per GET had the studio reconnect ten times
/// a second for ever); a stream that lived longer starts it over. A server that ends
/// MaxQuietStreams streams in a row without a whole event in them (or cannot be reached
/// as often) is given up: ended() says why. So is, unless setEndsOnShortStreams(false),
/// one that ends MaxShortStreams short streams in a row, and one that answers the GET
/// with an HTTP status other than 2xx (405: it offers no such stream) or with something
/// other than an event stream: ended() names the status and the body's start. Events
/// are cut by McpSseReader with the transport's bound (`maxEventBytes`) and handed on at
/// most MaxEventsPerWindow each PaceWindowMs: what comes faster waits in Qt's bounded
/// read buffer, and the server's writes wait for it (attack39 F4: a server flooding the
/// stream with pings kept a core busy). The stream itself stays open as long as the
/// server keeps it (what it is for).
class McpHttpGetStream : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultRetryMs = 1000;
    static constexpr int MinRetryMs = 100;
    static constexpr int MaxRetryMs = 60000;
    static constexpr int MaxQuietStreams = 5;
    /// A stream the server ended sooner than this after it was opened is short. The
    /// session's stream is meant to stay open for minutes; one that ends within seconds,
    /// again and again, is at best a server polling its clients, at worst a reconnect
    /// storm.
    static constexpr int ShortStreamMs = 10000;
    /// Short streams in a row after which the stream is given up (setEndsOnShortStreams):
    /// with the backoff that is 12.7 s of a server that asks `retry: 0`, 8 GETs instead of
    /// 127, and a polling server is still read a few times before the session goes on
    /// without its stream (as it does after a 405).
    static constexpr int MaxShortStreams = 8;
    /// The longest wait the backoff adds (a server's own `retry:` may ask up to MaxRetryMs):
    /// a resumed request's stream, which is not given up when short (its call's timeout
    /// ends it), is still asked at least twice a minute.
    static constexpr int MaxBackoffMs = 30000;
    /// Events handed on at most per PaceWindowMs: 500 a second, far more than a server's
    /// progress and log messages need, and at the studio's cost per message (a ping
    /// flood measured at 0.5 to 0.9 of a core in a Debug build before) a few percent of one.
    static constexpr int MaxEventsPerWindow = 50;
    static constexpr int PaceWindowMs = 100;
    /// Bytes read from the reply at a time (the events they complete are queued).
    static constexpr qint64 ReadChunkBytes = 64 * 1024;
    /// Bytes read at most per PaceWindowMs (5 MB a second): bytes that make no event
    /// (comment lines, a line without end, `id:` lines) are paced too (attack42 F2: a
    /// comment flood was read as fast as it came, most of a core on the main thread).
    static constexpr qint64 MaxBytesPerWindow = 512 * 1024;
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
    /// Whether MaxShortStreams short streams in a row give the stream up (the default);
    /// off for a resumed request's stream, which its call's timeout bounds and which a
    /// 2025-11-25 server may end after each event on purpose ("SSE polling").
    void setEndsOnShortStreams(bool ends) { m_endsOnShortStreams = ends; }
    /// What the stream's unfinished event takes from, with the transport's other streams
    /// (McpSseReader); none by default.
    void setBudget(std::shared_ptr<McpByteBudget> budget) { m_budget = std::move(budget); }
    /// The stream's last event id so far.
    const std::string &lastEventId() const { return m_lastEventId; }
    /// GETs sent so far.
    int connections() const { return m_connections; }
    /// The wait before the next GET, in ms, while one is due (the server's `retry:` and
    /// the backoff); -1 when none is.
    int retryDueMs() const;
    /// Times reading was put off because MaxEventsPerWindow events came in a window.
    qint64 pauses() const { return m_pauses; }

Q_SIGNALS:
    /// A whole `message` event (an oversized one too, with its head).
    void eventReceived(const McpSseReader::Event &event);
    /// The stream is given up and will not be opened again.
    void ended(const QString &why);

private:
    void connectNow();
    void onReadyRead();
    void onFinished();
    /// Hands on the queued events and reads more, MaxEventsPerWindow a window; false when
    /// it paused (or a slot closed or deleted the stream) with some left.
    bool pump();
    /// Opens it again after the retry time and backoff, or ends when too many in a row
    /// were quiet or short; `unreachable` says why a GET got no HTTP reply ("" when the
    /// server ended the stream).
    void again(const QString &url, const QString &unreachable);
    /// The wait before the next GET: the server's `retry:`, at least the backoff.
    int nextDelayMs() const;
    void end(const QString &why);
    void dropReply();

    QNetworkAccessManager *m_network;
    std::function<QNetworkRequest()> m_request;
    std::size_t m_maxEventBytes;
    QNetworkReply *m_reply = nullptr;
    QTimer *m_retry = nullptr;
    QTimer *m_pace = nullptr; ///< reading put off until the window ends
    std::shared_ptr<McpByteBudget> m_budget;
    std::unique_ptr<McpSseReader> m_events;
    std::deque<McpSseReader::Event> m_queued; ///< read, not handed on yet
    QElapsedTimer m_opened;                   ///< since the GET was sent
    QElapsedTimer m_window;                   ///< the pace window's start
    int m_windowEvents = 0;
    qint64 m_windowBytes = 0;
    std::string m_lastEventId;
    long long m_retryMs = DefaultRetryMs;
    bool m_headRead = false;
    bool m_endingEarly = false; ///< a body that is no stream is ended on the next turn
    bool m_isStream = false;
    bool m_eventInThisStream = false;
    bool m_ended = false;
    bool m_finishPending = false; ///< the reply finished while events were still unread
    bool m_endsOnShortStreams = true;
    int m_quiet = 0;
    int m_short = 0; ///< short streams in a row
    int m_connections = 0;
    qint64 m_pauses = 0;
    QByteArray m_body; ///< the start of a body that is no event stream
};
