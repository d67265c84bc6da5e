// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

/// Deleting runs, pruning old ones and compacting a journal (issue 20 "Housekeeping";
/// `toolstudio runs --delete/--prune/--compact`, the Runs dock's Delete). A connection of
/// its own on a journal file that a Journal has opened before (migrated, runs of writers
/// that are gone suspended), so other processes — a window, a served project — may keep
/// the file open meanwhile.
///
/// A live run (`running`, `waiting`: its owner is alive, or Journal::open would have
/// suspended it) and a run a live run replays are refused: their rows are still being
/// written or read. Everything else — final and suspended runs — can go.
class JournalHousekeeping
{
public:
    JournalHousekeeping();
    ~JournalHousekeeping();
    JournalHousekeeping(const JournalHousekeeping &) = delete;
    JournalHousekeeping &operator=(const JournalHousekeeping &) = delete;

    bool open(const QString &path, QString *error);

    struct Outcome
    {
        QStringList deleted; ///< run ids, in the order asked
        QStringList refused; ///< "RUN: reason", one per run left alone
    };
    /// Deletes each run with its steps, attempts, output, events and pending answers, all
    /// in one transaction; `error` is set (and nothing deleted) when SQLite fails.
    Outcome deleteRuns(const QStringList &runIds, QString *error);

    /// The runs pruning would delete, oldest first: runs that are not live and started
    /// before `startedBeforeMs`, and/or all but the `keep` newest such runs.
    QStringList pruneCandidates(std::optional<qint64> startedBeforeMs, std::optional<int> keep, QString *error) const;

    /// VACUUM: gives the space of deleted runs back to the file system. Fails with a
    /// clear error while another connection reads or writes.
    bool compact(qint64 *bytesBefore, qint64 *bytesAfter, QString *error);

private:
    /// Why `runId` may not be deleted, or an empty string.
    QString refusal(const QString &runId) const;

    QString m_connectionName;
    QString m_path;
};
