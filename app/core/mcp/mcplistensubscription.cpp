// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcplistensubscription.h"

#include "mcprevision.h"
#include "mcptransport.h"

#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <unordered_set>

using nlohmann::json;

namespace {

/// The subscription a notification names (`params._meta[SubscriptionIdKey]`), or null.
const json *subscriptionOf(const json &params)
{
    if (!params.is_object())
        return nullptr;
    const auto meta = params.find("_meta");
    if (meta == params.end() || !meta->is_object())
        return nullptr;
    const auto id = meta->find(McpRevision::SubscriptionIdKey);
    return id == meta->end() ? nullptr : &*id;
}

bool isId(const json &value, qint64 id)
{
    return value.is_number_integer() && value.get<qint64>() == id;
}

bool flagOf(const json &object, const char *key)
{
    return object.is_object() && object.value(key, json()) == json(true);
}

} // namespace

json McpListenSubscription::Filter::toJson() const
{
    json filter = json::object();
    if (tools)
        filter["toolsListChanged"] = true;
    if (prompts)
        filter["promptsListChanged"] = true;
    if (resources)
        filter["resourcesListChanged"] = true;
    if (!resourceUris.isEmpty()) {
        json uris = json::array();
        for (const QString &uri : resourceUris)
            uris.push_back(uri.toStdString());
        filter["resourceSubscriptions"] = std::move(uris);
    }
    return filter;
}

McpListenSubscription::Filter McpListenSubscription::Filter::honouredBy(const json &honoured) const
{
    Filter agreed;
    agreed.tools = tools && flagOf(honoured, "toolsListChanged");
    agreed.prompts = prompts && flagOf(honoured, "promptsListChanged");
    agreed.resources = resources && flagOf(honoured, "resourcesListChanged");
    const auto uris = honoured.is_object() ? honoured.find("resourceSubscriptions") : honoured.end();
    if (resourceUris.isEmpty() || uris == honoured.end() || !uris->is_array())
        return agreed;
    // One pass over what the server lists, however long (attack33 F1: millions of entries
    // compared with each URI asked held the GUI thread for a minute).
    std::unordered_set<std::string> asked;
    for (const QString &uri : resourceUris)
        asked.insert(uri.toStdString());
    std::unordered_set<std::string> listed;
    for (const json &entry : *uris) {
        if (entry.is_string() && asked.count(entry.get_ref<const std::string &>()))
            listed.insert(entry.get<std::string>());
        if (listed.size() == asked.size())
            break;
    }
    for (const QString &uri : resourceUris)
        if (listed.count(uri.toStdString()))
            agreed.resourceUris << uri;
    return agreed;
}

QString McpListenSubscription::Filter::text() const
{
    QStringList parts;
    if (tools)
        parts << QStringLiteral("tool changes");
    if (prompts)
        parts << QStringLiteral("prompt list changes");
    if (resources)
        parts << QStringLiteral("resource list changes");
    if (resourceUris.size() == 1)
        parts << QStringLiteral("updates of resource %1").arg(elidedText(printableText(resourceUris.first()), 200));
    else if (!resourceUris.isEmpty())
        parts << QStringLiteral("updates of %1 resources").arg(resourceUris.size());
    return parts.join(QStringLiteral(", "));
}

McpListenSubscription::McpListenSubscription(Channel channel, QObject *parent)
    : QObject(parent)
    , m_channel(std::move(channel))
    , m_ackTimer(new QTimer(this))
    , m_relistenTimer(new QTimer(this))
{
    m_ackTimer->setSingleShot(true);
    m_relistenTimer->setSingleShot(true);
    connect(m_ackTimer, &QTimer::timeout, this, &McpListenSubscription::onAckTimeout);
    connect(m_relistenTimer, &QTimer::timeout, this, &McpListenSubscription::open);
}

void McpListenSubscription::open()
{
    m_ackTimer->stop();
    m_relistenTimer->stop();
    const QPointer<McpListenSubscription> alive(this);
    if (m_state == State::Opening || m_state == State::Open) {
        cancelListen(QStringLiteral("the studio listens anew"));
        if (!alive)
            return;
    }
    m_id = m_channel.nextId();
    ++m_sent;
    m_state = State::Opening;
    m_openFor.invalidate();
    m_ackTimer->start(m_ackTimeoutMs);
    m_honoured = Filter();
    json params = {{"notifications", m_filter.toJson()}};
    const bool sent
        = m_channel.send(JsonRpcMessage::request(json(m_id), "subscriptions/listen", m_channel.withMeta(params)));
    if (!alive || sent)
        return;
    finish(QStringLiteral("subscriptions/listen could not be sent: %1")
               .arg(m_channel.transport ? m_channel.transport->sendRefusal() : QString()));
}

void McpListenSubscription::end(bool tellServer)
{
    const bool live = m_state == State::Opening || m_state == State::Open;
    m_ackTimer->stop();
    m_relistenTimer->stop();
    if (m_state == State::Idle || m_state == State::Ended)
        return; // why() keeps how it ended
    if (tellServer && live) {
        const QPointer<McpListenSubscription> alive(this);
        cancelListen(QStringLiteral("the session was closed"));
        if (!alive)
            return;
    }
    finish(QStringLiteral("the session was closed"));
}

void McpListenSubscription::reset()
{
    m_ackTimer->stop();
    m_relistenTimer->stop();
    m_state = State::Idle;
    m_id = 0;
    m_sent = 0;
    m_relistens = 0;
    m_ignored = 0;
    m_why.clear();
    m_honoured = Filter();
    m_openFor.invalidate();
}

bool McpListenSubscription::owns(const JsonRpcMessage &message) const
{
    if (m_state != State::Opening && m_state != State::Open)
        return false;
    if (message.kind == JsonRpcMessage::Kind::Result || message.kind == JsonRpcMessage::Kind::Error)
        return isId(message.id, m_id);
    if (message.kind != JsonRpcMessage::Kind::Notification)
        return false;
    const json *subscription = subscriptionOf(message.params);
    return subscription && isId(*subscription, m_id);
}

bool McpListenSubscription::take(const JsonRpcMessage &message)
{
    if (m_state == State::Idle)
        return false;
    const bool live = m_state == State::Opening || m_state == State::Open;
    if (message.kind == JsonRpcMessage::Kind::Result || message.kind == JsonRpcMessage::Kind::Error) {
        if (!live || !isId(message.id, m_id))
            return false;
        // The response ends a listen (basic/patterns/subscriptions "Graceful Closure").
        if (message.kind == JsonRpcMessage::Kind::Error) {
            finishByServer(QStringLiteral("the server refused subscriptions/listen: %1: %2")
                               .arg(message.error.code)
                               .arg(elidedText(printableText(QString::fromStdString(message.error.message)), 200)));
            return true;
        }
        const std::string type = McpRevision::resultType(message.result);
        finishByServer(type == McpRevision::Complete
                           ? QStringLiteral("the server ended the subscription")
                           : QStringLiteral("the server ended the subscription with resultType \"%1\"")
                                 .arg(elidedText(printableText(QString::fromStdString(type)), 40)));
        return true;
    }
    if (message.kind != JsonRpcMessage::Kind::Notification)
        return false;
    const json *subscription = subscriptionOf(message.params);
    if (!subscription)
        return false;
    if (!live || !isId(*subscription, m_id)) {
        ++m_ignored; // another subscription's, or one that ended
        return true;
    }
    if (message.method == "notifications/subscriptions/acknowledged") {
        if (m_state != State::Opening) {
            ++m_ignored;
            return true;
        }
        m_ackTimer->stop();
        const Filter honoured = m_filter.honouredBy(message.params.value("notifications", json()));
        if (honoured.empty()) {
            // Nothing this listen is for: keep nothing open.
            const QString why = QStringLiteral("the server does not send %1 on subscriptions/listen")
                                    .arg(m_filter.text().replace(QStringLiteral(", "), QStringLiteral(" or ")));
            const QPointer<McpListenSubscription> alive(this);
            cancelListen(why);
            if (alive)
                finish(why);
            return true;
        }
        m_honoured = honoured;
        m_state = State::Open;
        m_openFor.start();
        announceSettled();
        return true;
    }
    if (m_state == State::Open) {
        if (message.method == "notifications/tools/list_changed" && m_honoured.tools) {
            Q_EMIT toolsChanged(); // may delete this
            return true;
        }
        if ((message.method == "notifications/prompts/list_changed" && m_honoured.prompts)
            || (message.method == "notifications/resources/list_changed" && m_honoured.resources)
            || (message.method == "notifications/resources/updated" && updatesUri(message.params))) {
            Q_EMIT notified(QString::fromStdString(message.method), message.params); // may delete this
            return true;
        }
    }
    ++m_ignored; // before the acknowledgement, or not asked for
    return true;
}

bool McpListenSubscription::updatesUri(const json &params) const
{
    const json uri = params.is_object() ? params.value("uri", json()) : json();
    return uri.is_string() && m_honoured.resourceUris.contains(QString::fromStdString(uri.get<std::string>()));
}

void McpListenSubscription::announceSettled()
{
    // Queued: a slot may end the session (and this) while take() still runs.
    QMetaObject::invokeMethod(this, &McpListenSubscription::settled, Qt::QueuedConnection);
}

bool McpListenSubscription::takeRefusal(const json &id, const QString &reason)
{
    if ((m_state != State::Opening && m_state != State::Open) || !isId(id, m_id))
        return false;
    if (m_state == State::Opening) {
        finish(QStringLiteral("subscriptions/listen failed before the server acknowledged it: %1").arg(reason));
        return true;
    }
    dropped(reason);
    return true;
}

void McpListenSubscription::onAckTimeout()
{
    if (m_state != State::Opening)
        return;
    const QString why = QStringLiteral("the server did not acknowledge subscriptions/listen within %1 s")
                            .arg(decimalSeconds(m_ackTimeoutMs));
    const QPointer<McpListenSubscription> alive(this);
    cancelListen(why);
    if (alive)
        finish(why);
}

void McpListenSubscription::cancelListen(const QString &reason)
{
    // Over HTTP closing the listen's event stream cancels it (streamable-http
    // "Cancellation"); on stdio, where every message shares one channel, only
    // notifications/cancelled does (stdio "Cancellation").
    if (m_channel.transport && m_channel.transport->forget(json(m_id)))
        return;
    m_channel.send(JsonRpcMessage::notification("notifications/cancelled",
                                                {{"requestId", m_id}, {"reason", reason.toStdString()}}));
}

void McpListenSubscription::finish(const QString &why)
{
    m_ackTimer->stop();
    m_relistenTimer->stop();
    const bool wasOpening = m_state == State::Opening;
    m_state = State::Ended;
    m_why = why;
    if (wasOpening)
        announceSettled();
}

void McpListenSubscription::finishByServer(const QString &why)
{
    const bool acknowledged = m_state == State::Open || m_state == State::Reopening;
    finish(why);
    if (acknowledged)
        QMetaObject::invokeMethod(this, &McpListenSubscription::endedByServer, Qt::QueuedConnection);
}

void McpListenSubscription::dropped(const QString &why)
{
    if (m_openFor.isValid() && m_openFor.elapsed() >= HealthyStreamMs)
        m_relistens = 0;
    if (m_relistens >= MaxRelistens) {
        finishByServer(
            QStringLiteral("the subscription broke off %1 times in a row (the last time: %2); it is not opened "
                           "again")
                .arg(m_relistens + 1)
                .arg(why));
        return;
    }
    // Never at once: a server that drops every stream would be asked again and again.
    const int delayMs = m_relistenDelayMs << m_relistens;
    ++m_relistens;
    m_state = State::Reopening;
    m_why = QStringLiteral("the subscription broke off (%1); it is opened again in %2 s")
                .arg(why, decimalSeconds(delayMs));
    m_relistenTimer->start(delayMs);
}
