// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>
#include <vector>

/// Whole-run reads of a journal: the runs list, one run, all of a run's steps with their
/// attempts, its output and its policy events, when runs were resumed, how many steps a
/// run has. Works on an open journal connection (by its Qt SQL connection name) from that
/// connection's thread: Journal's own reads (after it flushed its group commit) and
/// JournalReader's events. The trace pages through JournalReader instead, never loading
/// a whole run. An SQL error reads as nothing (an empty list, nullopt, 0).
class JournalRuns
{
public:
    explicit JournalRuns(const QString &connectionName);

    /// Every run, oldest first.
    std::vector<RunRecord> runs() const;
    std::optional<RunRecord> run(const QString &runId) const;
    /// The run's steps by sequence, each with its attempts.
    std::vector<Step> steps(const QString &runId) const;
    /// The run's output on `stream` (1 = stdout, 2 = stderr), its chunks joined.
    QByteArray output(const QString &runId, int stream) const;
    /// The run's policy events in the order they were recorded; kinds this studio does
    /// not know (a newer one wrote them) are skipped.
    std::vector<PolicyEvent> events(const QString &runId) const;
    /// Journal::lastResumes().
    QHash<QString, qint64> lastResumes() const;
    int stepCount(const QString &runId) const;

private:
    QString m_connectionName;
};
