// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class McpTransport;
class QTimer;

/// One `subscriptions/listen` of a 2026-era session (basic/patterns/subscriptions),
/// owned by McpClientSession, which hands it each message naming it first (owns(),
/// take()) and each reply that could not be read (takeRefusal()).
///
/// open() sends `subscriptions/listen` with the per-request `_meta` and its Filter as
/// `notifications` (tool, prompt and resource list changes; updates of resources). The
/// request stays open: it has no request timeout and is not among the session's open
/// requests; only its acknowledgement is waited for, at most AckTimeoutMs (then it is
/// cancelled and not sent again: the server works without notifications). The server's
/// `notifications/subscriptions/acknowledged` with the listen's id in
/// `params._meta["io.modelcontextprotocol/subscriptionId"]` opens the subscription for
/// what it honours of the filter (honoured()); an acknowledgement that honours nothing
/// asked for closes it at once. Then each `notifications/tools/list_changed` carrying
/// that id emits toolsChanged(), and each prompts or resources `list_changed` and
/// `resources/updated` (of a URI honoured) emits notified().
///
/// It ends by end() (the session closes: on stdio `notifications/cancelled` with the
/// listen's id goes to the server; over HTTP the request's event stream is closed), by
/// the server's response to the listen (`resultType` "complete": the server ended it;
/// an error: it refused it), or by the listen's reply breaking off (an HTTP event
/// stream that ends without the response, a reply that cannot be read). A reply that
/// breaks off after the acknowledgement is a dropped stream: the listen is sent again
/// after RelistenDelayMs, doubled each time, at most MaxRelistens times in a row (a
/// stream that stayed open HealthyStreamMs starts the count anew); before it, the
/// server is not asked again.
///
/// A message naming another subscription (or this one before its acknowledgement, or a
/// notification the listen did not ask for) is dropped and counted (ignoredMessages);
/// so is every message naming a subscription once it ended. While nothing was opened
/// (Idle, the 2025 era) every message is left to the session.
class McpListenSubscription : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle,      ///< never opened
        Opening,   ///< sent, waiting for the acknowledgement
        Open,      ///< acknowledged for tools: list_changed notifications are heard
        Reopening, ///< its stream dropped: sent again after a delay
        Ended,     ///< ended (ended() says why); not sent again
    };

    /// What a listen asks for: its `notifications` filter.
    struct Filter
    {
        bool tools = false;       ///< toolsListChanged
        bool prompts = false;     ///< promptsListChanged
        bool resources = false;   ///< resourcesListChanged
        QStringList resourceUris; ///< resourceSubscriptions

        bool empty() const { return !tools && !prompts && !resources && resourceUris.isEmpty(); }
        nlohmann::json toJson() const;
        /// What of this filter an acknowledgement's `notifications` (`honoured`) agrees to.
        Filter honouredBy(const nlohmann::json &honoured) const;
        /// "tool changes", "prompt list changes, updates of 2 resources", … for a person.
        QString text() const;
        bool operator==(const Filter &) const = default;
    };

    /// What the subscription needs of its session.
    struct Channel
    {
        std::function<qint64()> nextId;                         ///< a request id of the session
        std::function<bool(const JsonRpcMessage &)> send;       ///< sends one message
        std::function<nlohmann::json(nlohmann::json)> withMeta; ///< params with the per-request _meta
        McpTransport *transport = nullptr;
    };

    /// How long the acknowledgement is waited for: as long as a request's answer
    /// (McpClientSession::DefaultTimeoutMs).
    static constexpr int AckTimeoutMs = 60000;
    static constexpr int RelistenDelayMs = 1000;
    static constexpr int MaxRelistens = 3;
    static constexpr qint64 HealthyStreamMs = 5 * 60 * 1000;

    explicit McpListenSubscription(Channel channel, QObject *parent = nullptr);

    /// What the next open() asks for (tool changes unless set).
    void setFilter(Filter filter) { m_filter = std::move(filter); }
    const Filter &filter() const { return m_filter; }
    /// What the server's acknowledgement agreed to (empty until it came).
    const Filter &honoured() const { return m_honoured; }
    /// Sends subscriptions/listen (anything open before is let go first).
    void open();
    /// Ends it (the session closes): `tellServer` cancels an open listen (stdio:
    /// notifications/cancelled; HTTP: its stream is closed); false when the transport is
    /// gone already. Nothing when it ended before.
    void end(bool tellServer);

    /// Back to Idle, nothing sent, the counts cleared (the session opens anew).
    void reset();

    /// True when `message` names this subscription while it is live: a notification
    /// whose `_meta` names its id, or the response to the listen.
    bool owns(const JsonRpcMessage &message) const;
    /// Handles `message` when it belongs to a subscription: a notification naming one in
    /// `_meta`, or the response to the listen. True when it was taken (the session
    /// does nothing more with it). A slot of toolsChanged() may delete this object.
    bool take(const JsonRpcMessage &message);
    /// A reply to `id` the transport could not read, or that broke off (`reason`):
    /// true when `id` is the listen's.
    bool takeRefusal(const nlohmann::json &id, const QString &reason);

    State state() const { return m_state; }
    /// The id of the listen sent last (the subscription id), 0 before the first.
    qint64 requestId() const { return m_id; }
    /// subscriptions/listen requests sent since the session opened.
    int requestsSent() const { return m_sent; }
    /// Messages naming a subscription that were dropped (see the class comment).
    qint64 ignoredMessages() const { return m_ignored; }
    /// Why it ended or was last reopened, for a person; "" while it never ended.
    QString why() const { return m_why; }

    void setAckTimeout(int ms) { m_ackTimeoutMs = ms; }
    void setRelistenDelay(int ms) { m_relistenDelayMs = ms; }

Q_SIGNALS:
    void toolsChanged();
    /// `notifications/prompts/list_changed`, `notifications/resources/list_changed` or
    /// `notifications/resources/updated` (of a URI honoured) on the subscription.
    void notified(const QString &method, const nlohmann::json &params);
    /// The acknowledgement came (state Open) or the listen ended before it (Ended).
    void settled();
    /// The server ended the listen after acknowledging it (its response, an error, or
    /// its stream broke off too often): what it was told of stops coming (why()).
    void endedByServer();

private:
    void onAckTimeout();
    /// A `resources/updated` of a URI the acknowledgement honoured.
    bool updatesUri(const nlohmann::json &params) const;
    /// settled(), queued.
    void announceSettled();
    /// Lets go of the listen in flight: closes its stream or sends notifications/cancelled.
    void cancelListen(const QString &reason);
    void finish(const QString &why);
    /// finish(), and endedByServer() (queued) when it was acknowledged.
    void finishByServer(const QString &why);
    void dropped(const QString &why);

    Channel m_channel;
    Filter m_filter{true, false, false, {}};
    Filter m_honoured;
    State m_state = State::Idle;
    qint64 m_id = 0;
    int m_sent = 0;
    int m_relistens = 0; ///< in a row, since the last healthy stream
    qint64 m_ignored = 0;
    QString m_why;
    int m_ackTimeoutMs = AckTimeoutMs;
    int m_relistenDelayMs = RelistenDelayMs;
    QTimer *m_ackTimer = nullptr;
    QTimer *m_relistenTimer = nullptr;
    QElapsedTimer m_openFor; ///< since the acknowledgement
};
