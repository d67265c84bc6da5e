// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QHash>
#include <QSet>
#include <QStringList>
#include <QString>

#include <initializer_list>
#include <memory>
#include <vector>

class QSqlQuery;
class SqliteStatement;
class WalCheckpointer;

/// The durable record of runs, steps, attempts, output chunks and policy events
/// (DESIGN.md glossary "journal"): SQLite in WAL mode through Qt SQL, schema versioned
/// with `PRAGMA user_version` (migrations in journal.cpp; version 2 adds policy events,
/// pending answers, argument hashes and run ownership; version 3 the indexes the
/// trace's filters read through JournalReader; version 4 makes steps and attempts
/// WITHOUT ROWID tables, fewer pages written per step commit; version 5 folds a step's
/// one successful attempt into its row, JournalRows::foldsAttempt — such a step's commit
/// is a single statement and writes no attempts row; version 6 moves the trace's by-tool
/// index out of the step commit: `step_tools` rows are written for a whole run by
/// recordRun when the run stops being live). Every write method commits
/// before it returns, so a step recorded before its reply is sent is never lost.
/// Durability: WAL with synchronous=NORMAL — a commit is in the WAL file (the OS page
/// cache) when it returns, so it survives a crash or SIGKILL of the studio, which is
/// what DESIGN.md ("Steps: the engine") asks; a power loss or kernel crash may drop the
/// last commits (never corrupting the file). The WAL is checkpointed by checkpoint()
/// (RunController: when a run ends) and by SQLite past 64 MiB of WAL, so the fsync of a
/// checkpoint is not paid on a reply every few hundred calls: every 200 commits a
/// PASSIVE checkpoint runs on a thread and connection of its own (WalCheckpointer).
/// commit() writes several steps and events in one transaction (the engine batches when
/// several calls are in flight). Not thread-safe: use it from the one thread that
/// opened it (RunController's run thread for a run's journal).
///
/// Opening a journal marks every `running`/`waiting` run whose owning process is gone
/// (pid and process start time no longer match) as `suspended`, with a policy event.
class Journal
{
public:
    Journal();
    ~Journal();
    Journal(const Journal &) = delete;
    Journal &operator=(const Journal &) = delete;

    /// Opens or creates the database at `path` (parent folders created). Returns false
    /// with `error` set when the file cannot be opened or is not a journal.
    bool open(const QString &path, QString *error = nullptr);
    bool isOpen() const;
    QString path() const;

    /// Inserts or updates the run's row. An existing row keeps its (earlier) started_at:
    /// a resumed run is recorded again under its id and still started when it first did.
    /// A run that is no longer live (final or suspended) is due its `step_tools` rows
    /// (the trace's filter by tool; one insert for the whole run, 1-3 s at a million
    /// steps) unless it has them: written by the next checkpoint() or when the journal
    /// closes, so recording the run's end does not wait for them. A live one loses them
    /// (runs.tools_indexed).
    bool recordRun(const RunRecord &run);
    /// Inserts or replaces the step and all its attempts in one transaction.
    bool recordStep(const Step &step);
    /// Steps (with their attempts) and policy events in one transaction.
    bool commit(const std::vector<const Step *> &steps, const std::vector<PolicyEvent> &events);
    bool recordEvent(const PolicyEvent &event);
    /// Writes the `step_tools` rows of the runs that stopped being live since (see
    /// recordRun), then copies the WAL into the database file as far as no reader holds
    /// it back (`PRAGMA wal_checkpoint(PASSIVE)`). RunController calls it on the run
    /// thread after queueing the run's finished(). False with lastError() on an SQL error.
    bool checkpoint();
    /// Deletes the run's recorded output (Resume re-runs the script from the start).
    bool clearOutput(const QString &runId);
    /// Appends a chunk of the script's output (stream 1 = stdout, 2 = stderr).
    bool appendOutput(const QString &runId, int stream, const QByteArray &chunk);

    std::vector<RunRecord> runs() const;
    std::optional<RunRecord> run(const QString &runId) const;
    std::vector<Step> steps(const QString &runId) const;
    QByteArray output(const QString &runId, int stream) const;
    std::vector<PolicyEvent> events(const QString &runId) const;
    /// Number of steps per run, for the runs list.
    int stepCount(const QString &runId) const;

    /// Pending answers (`toolstudio answer`): stored with state "new"; the process
    /// running the call applies them and marks them accepted or refused.
    qint64 addPendingAnswer(const PendingAnswer &answer);
    std::vector<PendingAnswer> newPendingAnswers(const QString &runId) const;
    std::optional<PendingAnswer> pendingAnswer(qint64 id) const;
    bool resolvePendingAnswer(qint64 id, bool accepted, const QString &reason);

    /// Runs marked suspended by the last open() (their owner was gone).
    QStringList suspendedOnOpen() const { return m_suspendedOnOpen; }
    /// True when `pid` is this process, or a live process that started at `startTicks`
    /// (field 22 of /proc/PID/stat).
    static bool ownerAlive(qint64 pid, qint64 startTicks);
    /// This process's pid and start time, as recorded for live runs.
    static qint64 selfPid();
    static qint64 selfStartTicks();

    QString lastError() const;

private:
    struct Statements;
    QString openDatabase(const QString &path);
    void closeDatabase();
    /// The write statement for `sql`, prepared once per open database.
    QSqlQuery *statement(const char *sql);
    /// The same on SQLite's C API (the step-commit path; see SqliteStatement).
    SqliteStatement *nativeStatement(const char *sql);

    QString m_connectionName;
    QString m_path;
    QString m_lastError;
    /// What this Journal knows of a run's rows besides its steps: which steps have rows
    /// in `attempts` — a step written with a folded attempt (JournalRows::foldsAttempt)
    /// deletes rows only when it may have some, so a step written once, final, is a
    /// single statement — and whether its `step_tools` rows are complete (schema 6).
    struct RunRows
    {
        bool olderRows = false;    ///< the run had attempt rows when first seen: always replace
        bool toolsIndexed = false; ///< runs.tools_indexed: a step written now must clear it
        QSet<int> sequences;       ///< steps this Journal wrote attempt rows for
    };
    /// The run's entry, looked up in the file on first use; nullptr with `error` set.
    RunRows *runRows(const QString &runId, QString *error);
    /// Runs each native statement of `sqls` with `runId` as its one parameter.
    bool runAll(std::initializer_list<const char *> sqls, const QString &runId, QString *error);
    /// Writes the step_tools rows of m_toolsToIndex's runs, one transaction each, and
    /// marks them indexed; false with lastError() if one failed (it stays unindexed:
    /// the trace scans its rows).
    bool indexTools();
    QSet<QString> m_toolsToIndex; ///< runs recordRun saw stop being live, not indexed yet
    bool upsertStep(const Step &step, bool fold, QString *error);
    bool writeStep(const Step &step, QString *error);
    /// After each successful commit: starts a WAL checkpoint every CheckpointEveryCommits.
    void committed();
    bool writeEvent(const PolicyEvent &event, QString *error);
    void suspendOrphanedRuns();

    QStringList m_suspendedOnOpen;
    QSet<QString> m_knownRuns; ///< runs known to have a row (skips the placeholder insert)
    QHash<QString, RunRows> m_runRows; ///< by run id; cleared by a rollback
    std::unique_ptr<Statements> m_statements;
    std::unique_ptr<WalCheckpointer> m_checkpointer; ///< started by the first commits
    int m_commitsSinceCheckpoint = 0;
    bool m_open = false; ///< open() succeeded and closeDatabase() has not run since
};
