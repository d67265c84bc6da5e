// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcplistensubscription.h"

#include <QObject>
#include <QStringList>

#include <functional>

/// The `subscriptions/listen` requests of one 2026-era session (McpClientSession): one
/// for list changes — tools, prompts, resources, as far as the server's capabilities
/// advertise `listChanged` — opened when the session becomes ready, and one for updates
/// of the resources a person subscribed to (`resourceSubscriptions`, which replaced
/// `resources/subscribe`), opened anew whenever that set changes. Each message naming
/// a subscription goes to the one it names; the rest of what names one is dropped by
/// the list-changes listen (McpListenSubscription).
class McpClientSubscriptions : public QObject
{
    Q_OBJECT
public:
    /// Resources subscribed to at once (one per Resources window, docs/mcp.md).
    static constexpr qsizetype MaxResourceUris = 64;
    /// Called once a change of the resource set is settled: "" when the server agreed
    /// to send updates of every URI asked for, else why not.
    using Settled = std::function<void(const QString &failure)>;

    McpClientSubscriptions(const McpListenSubscription::Channel &channel, QObject *parent = nullptr);

    /// The listen for list changes and the one for resource updates.
    McpListenSubscription *lists() const { return m_lists; }
    McpListenSubscription *resources() const { return m_resources; }
    /// The list changes a server with `capabilities` (its server/discover result's)
    /// offers to send: `tools`, `prompts` and `resources` with `listChanged: true`.
    static McpListenSubscription::Filter listFilter(const nlohmann::json &capabilities);

    /// Back to nothing opened (the session opens anew).
    void reset();
    /// Ends both (see McpListenSubscription::end). A slot may delete this.
    void end(bool tellServer);
    /// McpListenSubscription::take() of the subscription `message` names.
    bool take(const JsonRpcMessage &message);
    bool takeRefusal(const nlohmann::json &id, const QString &reason);

    /// The URIs whose updates are asked for now.
    QStringList resourceUris() const { return m_uris; }
    /// Asks for updates of `uris` instead (the listen before is cancelled; none: it just
    /// ends); `settled` hears how it went, later, once.
    void setResourceUris(const QStringList &uris, Settled settled);

Q_SIGNALS:
    void toolsChanged();
    /// prompts or resources `list_changed`, `resources/updated` of a subscribed URI.
    void notified(const QString &method, const nlohmann::json &params);
    /// The server ended the listen for resource updates after acknowledging it: no
    /// updates come for resourceUris() any more (they are cleared); `why` says how.
    void resourceSubscriptionsEnded(const QString &why);

private:
    void onResourcesSettled();
    void settle(const QString &failure);

    McpListenSubscription *m_lists = nullptr;
    McpListenSubscription *m_resources = nullptr;
    QStringList m_uris;
    Settled m_settled;
};
