// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <QtGlobal>

#include <functional>
#include <optional>
#include <vector>

/// The `subscriptions/listen` streams of one MCP server session (2026-07-28,
/// basic/patterns/subscriptions; docs/server.md "Change notifications"). A subscription
/// is a request that stays open: it is acknowledged at once
/// (`notifications/subscriptions/acknowledged`, with the part of the filter served:
/// `toolsListChanged`; prompts and resources are not served, so left out), then gets
/// `notifications/tools/list_changed` when the served tools change, every message with
/// the request's id as `io.modelcontextprotocol/subscriptionId` in `_meta`. It ends when
/// the client cancels it (`notifications/cancelled` on stdio, a closed stream over HTTP:
/// no response), or when the server ends it (closeAll: the graceful closure, a result
/// `{"resultType": "complete"}` with the subscription id).
class McpSubscriptions
{
public:
    /// Where a subscription's messages go: its notifications (`send`), and its response,
    /// once, when the server ends it (`reply`, as McpServerSession::Reply).
    using Send = std::function<void(const JsonRpcMessage &)>;
    using Reply = std::function<void(std::optional<JsonRpcMessage>)>;

    /// Open at once in one session: a client needs one (several filters fit in one).
    static constexpr std::size_t MaxOpen = 16;

    /// Opens the subscription of request `request` (its params' `notifications` filter):
    /// sends the acknowledgment through `send` and keeps both. A filter that is not
    /// an object, a field of the wrong type, or MaxOpen open: the error is `reply`'s at
    /// once and nothing is kept. (The session refuses an id in use before.) The
    /// acknowledgment is the last thing done: `send` may cancel the subscription (an
    /// HTTP stream that could not be opened).
    void open(const JsonRpcMessage &request, Send send, Reply reply, quint64 exchange = 0);
    /// Every subscription that asked for toolsListChanged gets the notification.
    void toolsChanged();
    /// The client cancelled request `requestId` (of `exchange`, when not 0): its
    /// subscription ends without a response. False when no subscription has that id.
    bool cancel(const nlohmann::json &requestId, quint64 exchange = 0);
    /// The server ends every subscription: each gets its closing result, whose `_meta`
    /// has the subscription id and `serverInfo` (the server's identity, as every 2026 result).
    void closeAll(const nlohmann::json &serverInfo);
    /// True when request id `requestId` is an open subscription's.
    bool contains(const nlohmann::json &requestId) const;
    std::size_t count() const { return m_open.size(); }

private:
    struct Subscription
    {
        nlohmann::json requestId;
        bool tools = false;
        Send send;
        Reply reply;
        quint64 exchange = 0;
    };
    std::vector<Subscription> m_open;
};
