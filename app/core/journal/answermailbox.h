// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <optional>
#include <vector>

/// The journal's `pending_answers` table: answers to a waiting call that another process
/// (`toolstudio answer`, the server) leaves for the process running the call
/// (DESIGN.md "Steps: the engine"). An answer is stored with state "new"; the runner
/// picks up the new ones of its run, applies each and marks it accepted or refused, once.
/// Works on an open journal connection (Journal's, by its Qt SQL connection name) from
/// that connection's thread; Journal flushes its group commit before it asks.
class AnswerMailbox
{
public:
    explicit AnswerMailbox(const QString &connectionName);

    /// Stores `answer` (its id, state and reason are ignored) as "new". Its id (> 0), or
    /// 0 with `error` set.
    qint64 add(const PendingAnswer &answer, QString *error);
    /// The run's answers still "new", oldest first.
    std::vector<PendingAnswer> fresh(const QString &runId) const;
    /// The answer with `id`, in whatever state.
    std::optional<PendingAnswer> find(qint64 id) const;
    /// Marks a "new" answer accepted or refused (with `reason`). False when it was not
    /// new (resolved once only) or, with `error` set, on an SQL error.
    bool resolve(qint64 id, bool accepted, const QString &reason, QString *error);

private:
    QString m_connectionName;
};
