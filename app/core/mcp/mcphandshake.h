// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

class QTimer;
struct McpReply;

/// The opening of an MCP session, for McpClientSession (basic/versioning "Backward
/// Compatibility"): the era probe first — server/discover; a DiscoverResult listing
/// McpRevision::Modern makes the session 2026-era (stateless) — then, for a server of the
/// 2025 era, initialize and `notifications/initialized`. A probe not answered within
/// ProbeTimeoutMs falls back to initialize, still listening for the probe's answer: a
/// DiscoverResult that comes before initialize is answered makes the session 2026-era
/// after all. Its requests go through the session (Channel), which routes their replies.
class McpHandshake : public QObject
{
    Q_OBJECT
public:
    using ReplyHandler = std::function<void(const McpReply &)>;

    /// What the server said of itself, for a session that is ready.
    struct Hello
    {
        bool stateless = false; ///< 2026-era (server/discover), not initialize
        QString protocolVersion;
        nlohmann::json serverInfo;
        nlohmann::json capabilities;
        std::optional<QString> instructions; ///< when the server gave some
    };

    /// What the handshake needs of its session.
    struct Channel
    {
        /// The session's next request id (taken).
        std::function<qint64()> nextId;
        /// Gives `id` back when it was the last taken: it may be used again.
        std::function<void(qint64)> giveBackId;
        /// Waits for the reply to request `id` (`done` with it); `timer` ends the wait
        /// and is the session's to delete from then on.
        std::function<void(qint64, ReplyHandler, QTimer *)> expect;
        /// Stops waiting for request `id` without an answer; false when it is not awaited.
        std::function<bool(qint64)> forget;
        /// Ends the wait for request `id` with `reply`.
        std::function<void(qint64, const McpReply &)> finish;
        std::function<bool(const JsonRpcMessage &)> send;
        /// True while the session is opening (not failed, closed or ended meanwhile).
        std::function<bool()> opening;
        std::function<void(const QString &)> fail;
        /// What the server said of itself (before `notifications/initialized` goes out).
        std::function<void(const Hello &)> learned;
        /// The session is ready (after learned()).
        std::function<void()> ready;
    };

    static constexpr int InitializeTimeoutMs = 30000;
    /// How long the era probe (server/discover) waits before falling back to initialize
    /// (a 2025 server need not answer an unknown method before initialize).
    static constexpr int ProbeTimeoutMs = 10000;

    explicit McpHandshake(Channel channel, QObject *parent = nullptr);

    /// Sends the era probe (after a start before, anew).
    void start();
    /// How long initialize waits for its result (InitializeTimeoutMs by default).
    void setInitializeTimeout(int ms) { m_initializeTimeoutMs = ms; }

private:
    void onDiscovered(const McpReply &reply);
    void onLateDiscover(const McpReply &reply);
    void sendInitialize();
    void onInitialized(const McpReply &reply);

    Channel m_channel;
    bool m_probeLate = false; ///< server/discover was not answered within ProbeTimeoutMs: initialize went out
    qint64 m_initializeId = 0;
    int m_initializeTimeoutMs = InitializeTimeoutMs;
};
