// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcptoolreview.h"

#include "mcp/mcpserverstatus.h"
#include "mcp/mcptoolacceptance.h"

#include <QTimer>

using nlohmann::json;

McpToolReview::McpToolReview(McpToolAcceptance &acceptance, Statuses statuses, QObject *parent)
    : QObject(parent)
    , m_acceptance(acceptance)
    , m_statuses(std::move(statuses))
{}

void McpToolReview::refresh()
{
    if (m_acceptance.refresh())
        updateAll();
}

void McpToolReview::watch(QObject *watcher, int intervalMs)
{
    if (!watcher || m_watchers.contains(watcher))
        return;
    m_watchers.insert(watcher);
    connect(watcher, &QObject::destroyed, this, [this, watcher] { unwatch(watcher); });
    if (!m_poll) {
        m_poll = new QTimer(this);
        m_poll->setInterval(intervalMs);
        connect(m_poll, &QTimer::timeout, this, &McpToolReview::refresh);
    }
    if (!m_poll->isActive())
        m_poll->start();
}

void McpToolReview::unwatch(QObject *watcher)
{
    if (!m_watchers.remove(watcher))
        return;
    disconnect(watcher, &QObject::destroyed, this, nullptr);
    if (m_watchers.isEmpty() && m_poll)
        m_poll->stop();
}

McpServerStatus *McpToolReview::find(const QString &name) const
{
    for (McpServerStatus *status : m_statuses())
        if (status->name == name)
            return status;
    return nullptr;
}

void McpToolReview::updateAll()
{
    for (McpServerStatus *server : m_statuses())
        if (update(*server))
            Q_EMIT changed(server->name);
}

void McpToolReview::observe(const QString &name)
{
    refresh();
    McpServerStatus *server = find(name);
    if (!server)
        return;
    if (m_acceptance.observe(name, server->tools))
        updateAll();
    update(*server);
}

bool McpToolReview::update(McpServerStatus &server)
{
    const bool listed
        = server.state == McpServerStatus::State::Ready || server.state == McpServerStatus::State::Starting;
    McpToolAcceptance::Changes now = m_acceptance.changesOf(server.name, listed ? server.tools : std::vector<json>());
    const auto summaries = [](const std::vector<McpToolChange> &all) {
        QStringList lines;
        for (const McpToolChange &change : all)
            lines << change.tool + u'\n' + change.summary() + u'\n' + QString::fromStdString(change.now.dump());
        return lines;
    };
    const bool changed = summaries(now.tools) != summaries(server.changedTools) || now.error != server.acceptedError;
    server.changedTools = std::move(now.tools);
    server.acceptedError = now.error;
    return changed;
}

bool McpToolReview::accept(const QString &name, const std::vector<McpToolChange> &changes, QString *error,
                           QString *note)
{
    McpServerStatus *server = find(name);
    if (!server || server->state != McpServerStatus::State::Ready) {
        *error = tr("MCP server '%1' is not ready; its tools can be accepted once it listed them").arg(name);
        return false;
    }
    QStringList servers;
    for (const McpServerStatus *status : m_statuses())
        servers << status->name;
    const bool accepted = m_acceptance.accept(name, server->tools, changes, servers, error, note);
    updateAll();
    if (accepted)
        Q_EMIT changed(name);
    return accepted;
}
