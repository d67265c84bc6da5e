// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <vector>

class McpToolAcceptance;
class QTimer;
struct McpServerStatus;

/// The review of a pool's listed tools against what a person accepted (docs/mcp.md
/// "Tools that change"): keeps each server's McpServerStatus::changedTools and
/// acceptedError up to date with the project's record (McpToolAcceptance) — after each
/// listing, whenever the record changed on disk, and while someone waits on a person's
/// answer (polled) — and records what a person accepts. Owned by McpServerPool, whose
/// statuses it updates; changed() for each whose changes changed.
class McpToolReview : public QObject
{
    Q_OBJECT
public:
    /// The pool's server statuses, in the order toolstudio.json lists the servers.
    using Statuses = std::function<std::vector<McpServerStatus *>()>;

    McpToolReview(McpToolAcceptance &acceptance, Statuses statuses, QObject *parent = nullptr);

    /// Reads the record again when the file changed since it was read, and updates
    /// every server's changes.
    void refresh();
    /// Polls the record every `intervalMs` while `watcher` is watching (one timer however
    /// many watch), until unwatch() or `watcher` is destroyed.
    void watch(QObject *watcher, int intervalMs);
    void unwatch(QObject *watcher);
    /// After server `name` listed its tools: accepts them when the record has no entry for
    /// it yet (the first listing), then updates its changes.
    void observe(const QString &name);
    /// McpServerPool::acceptTools().
    bool accept(const QString &name, const std::vector<McpToolChange> &changes, QString *error, QString *note);

Q_SIGNALS:
    /// The status of server `name` changed (its changedTools or acceptedError, or tools
    /// were accepted).
    void changed(const QString &name);

private:
    McpServerStatus *find(const QString &name) const;
    /// Sets changedTools and acceptedError of `server`; true when they changed.
    bool update(McpServerStatus &server);
    /// update() of every server, changed() for each whose changes changed.
    void updateAll();

    McpToolAcceptance &m_acceptance;
    Statuses m_statuses;
    QSet<QObject *> m_watchers;
    QTimer *m_poll = nullptr; ///< runs while m_watchers is not empty
};
