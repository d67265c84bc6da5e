// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpclientsubscriptions.h"

#include "project/printabletext.h"

#include <QPointer>
#include <QTimer>

#include <utility>

using nlohmann::json;

namespace {

bool listChanged(const json &capabilities, const char *feature)
{
    const auto entry = capabilities.is_object() ? capabilities.find(feature) : capabilities.end();
    return entry != capabilities.end() && entry->is_object() && entry->value("listChanged", json()) == json(true);
}

} // namespace

McpClientSubscriptions::McpClientSubscriptions(const McpListenSubscription::Channel &channel, QObject *parent)
    : QObject(parent)
    , m_lists(new McpListenSubscription(channel, this))
    , m_resources(new McpListenSubscription(channel, this))
{
    connect(m_lists, &McpListenSubscription::toolsChanged, this, &McpClientSubscriptions::toolsChanged);
    connect(m_lists, &McpListenSubscription::notified, this, &McpClientSubscriptions::notified);
    connect(m_resources, &McpListenSubscription::notified, this, &McpClientSubscriptions::notified);
    connect(m_resources, &McpListenSubscription::settled, this, &McpClientSubscriptions::onResourcesSettled);
    connect(m_resources, &McpListenSubscription::endedByServer, this, [this] {
        if (m_resources->state() != McpListenSubscription::State::Ended || m_uris.isEmpty())
            return; // asked anew meanwhile, or nothing was asked
        m_uris.clear();
        Q_EMIT resourceSubscriptionsEnded(m_resources->why());
    });
}

McpListenSubscription::Filter McpClientSubscriptions::listFilter(const json &capabilities)
{
    McpListenSubscription::Filter filter;
    filter.tools = listChanged(capabilities, "tools");
    filter.prompts = listChanged(capabilities, "prompts");
    filter.resources = listChanged(capabilities, "resources");
    return filter;
}

void McpClientSubscriptions::reset()
{
    m_lists->reset();
    m_resources->reset();
    m_uris.clear();
    settle(QStringLiteral("the session was opened anew"));
}

void McpClientSubscriptions::end(bool tellServer)
{
    const QPointer<McpClientSubscriptions> alive(this);
    m_lists->end(tellServer);
    if (!alive)
        return;
    m_resources->end(tellServer);
    if (alive)
        settle(QStringLiteral("the session was closed"));
}

bool McpClientSubscriptions::take(const JsonRpcMessage &message)
{
    return m_resources->owns(message) ? m_resources->take(message) : m_lists->take(message);
}

bool McpClientSubscriptions::takeRefusal(const json &id, const QString &reason)
{
    return m_lists->takeRefusal(id, reason) || m_resources->takeRefusal(id, reason);
}

void McpClientSubscriptions::setResourceUris(const QStringList &uris, Settled settled)
{
    settle(QStringLiteral("another subscription was asked for before the server acknowledged this one"));
    if (uris.size() > MaxResourceUris) {
        QTimer::singleShot(0, this, [settled = std::move(settled)] {
            settled(QStringLiteral("at most %1 resources are subscribed to at once").arg(MaxResourceUris));
        });
        return;
    }
    m_uris = uris;
    if (uris.isEmpty()) {
        const QPointer<McpClientSubscriptions> alive(this);
        m_resources->end(true);
        if (alive)
            QTimer::singleShot(0, this, [settled = std::move(settled)] { settled(QString()); });
        return;
    }
    m_settled = std::move(settled);
    McpListenSubscription::Filter filter;
    filter.resourceUris = uris;
    m_resources->setFilter(filter);
    m_resources->open();
}

void McpClientSubscriptions::onResourcesSettled()
{
    if (m_resources->state() == McpListenSubscription::State::Opening)
        return; // a late word of a listen asked for before this one
    if (m_resources->state() != McpListenSubscription::State::Open) {
        settle(m_resources->why().isEmpty() ? QStringLiteral("the subscription ended") : m_resources->why());
        return;
    }
    QStringList refused;
    for (const QString &uri : m_uris)
        if (!m_resources->honoured().resourceUris.contains(uri))
            refused << elidedText(printableText(uri), 200);
    settle(refused.isEmpty() ? QString()
                             : QStringLiteral("the server does not send updates of %1 on subscriptions/listen")
                                   .arg(refused.join(QStringLiteral(", "))));
}

void McpClientSubscriptions::settle(const QString &failure)
{
    if (Settled settled = std::exchange(m_settled, {}))
        settled(failure);
}
