// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "journal/attemptrowswritten.h"
#include "project/step.h"

#include <QHash>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <memory>
#include <vector>

class JournalTail;
class QByteArrayView;
class QSqlQuery;
class QTimer;
class SqliteStatement;
class TailRecord;
class WalCheckpointer;
struct sqlite3;

/// The durable record of runs, steps, attempts, output chunks and policy events
/// (DESIGN.md glossary "journal"): SQLite in WAL mode through Qt SQL, schema versioned
/// with `PRAGMA user_version` (journalschema.h; docs/steps.md "The journal" lists what
/// each version added). Not thread-safe: use it from the one thread that opened it
/// (RunController's run thread for a run's journal).
///
/// The rule it upholds (DESIGN.md "Steps: the engine"): a step acknowledged to the
/// script is never lost — commit() makes it durable before it returns, and the engine
/// sends the reply after that. Durable means: it survives a crash or SIGKILL of the
/// studio (it is in the OS page cache), not necessarily a power loss or kernel crash —
/// the same class as SQLite's WAL with synchronous=NORMAL, which every other write uses.
///
/// Group commit (setGroupCommit(), docs/steps.md "The commit path"; off by default):
/// commit() (and appendOutput()) then appends the rows as one record to this object's
/// tail file (journaltail.h, one write()) and keeps them in memory; they go into SQLite in one
/// transaction after `intervalMs`, at `maxRows`, before any other write or read of this
/// object (so its own reads always see them), before a step waits for a person or is
/// held in step mode (other processes look those up), and on close. Other connections
/// (JournalReader, the CLI) see a step up to `intervalMs` late meanwhile. open() applies
/// the tail files of writers that are gone (pid and process start no longer match)
/// before it suspends their runs; a live writer's tail is never touched. Each group
/// commit records in `journal_tails` (schema 7) how far it got, in the same transaction,
/// so a tail is applied exactly once.
///
/// Without group commit every write method commits to SQLite before it returns.
/// Checkpoints: the WAL is checkpointed by checkpoint() (RunController: when a run ends)
/// and by SQLite past 64 MiB of WAL, so the fsync of a checkpoint is not paid on a reply
/// every few hundred calls: every 200 step rows a PASSIVE checkpoint runs on a thread
/// and connection of its own (WalCheckpointer).
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
    /// A live run's switch between `running` and `waiting` (`status`; RunSession, from
    /// its engine's commits): no transaction of its own — written with the next one of
    /// this object (the same transaction as a step that waits for a person, the group
    /// commit, recordRun()), within the group-commit interval at the latest; at once
    /// without group commit. Never changes a run that is no longer live. False when the
    /// journal is not open or `status` is not a live one.
    bool setLiveStatus(const QString &runId, RunStatus status);
    /// Inserts or replaces the step and all its attempts in one transaction.
    bool recordStep(const Step &step);
    /// Steps (with their attempts) and policy events, all or none: in SQLite (one
    /// transaction), or with group commit in the tail and, later, in SQLite. Durable when
    /// it returns true (see the class comment); false with lastError() ("recording step
    /// 3 (echo): attempt 1: UNIQUE constraint failed: ...") when nothing was recorded.
    bool commit(const std::vector<const Step *> &steps, const std::vector<PolicyEvent> &events);
    /// Turns group commit on for this object: commit() appends to the tail and SQLite
    /// gets the rows at most `intervalMs` (milliseconds; a single-shot timer on this
    /// thread) or `maxRows` steps and events later. 0 turns it off. Needs this thread's
    /// event loop (RunController's run thread); on a thread without one it stays off.
    void setGroupCommit(int intervalMs, int maxRows = 256);
    /// Writes the rows group commit holds into SQLite now, in one transaction, and
    /// empties the tail. True when nothing is left pending. A row SQLite refuses (a
    /// constraint) is dropped with a warning; while another writer holds the file
    /// (SQLITE_BUSY past the 5 s timeout) everything stays pending and in the tail.
    bool flush();
    /// This object's tail file (JOURNAL-tail.PID.STARTTICKS.N), empty before the first
    /// group commit.
    QString tailPath() const;
    bool recordEvent(const PolicyEvent &event);
    /// Writes the `step_tools` rows of the runs that stopped being live since (see
    /// recordRun), then copies the WAL into the database file as far as no reader holds
    /// it back (`PRAGMA wal_checkpoint(PASSIVE)`). RunController calls it on the run
    /// thread after queueing the run's finished(). False with lastError() on an SQL error.
    bool checkpoint();
    /// Deletes the run's recorded output (Resume re-runs the script from the start).
    bool clearOutput(const QString &runId);
    /// Appends a chunk of the script's output (stream 1 = stdout, 2 = stderr); with group
    /// commit it goes through the tail like a step (commit()).
    bool appendOutput(const QString &runId, int stream, const QByteArray &chunk);

    std::vector<RunRecord> runs() const;
    std::optional<RunRecord> run(const QString &runId) const;
    std::vector<Step> steps(const QString &runId) const;
    QByteArray output(const QString &runId, int stream) const;
    std::vector<PolicyEvent> events(const QString &runId) const;
    /// When each resumed run last started again: the `at` (ms since the Unix epoch) of
    /// its latest run-level `resumed` event (sequence 0, written by a resume; not a
    /// step's, written when the replay reaches the call that was waiting), by run id.
    /// Runs never resumed are absent. One query, for the runs list.
    QHash<QString, qint64> lastResumes() const;
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
    /// How long a write waits for another writer that holds the file (ms).
    static constexpr int BusyTimeoutMs = 5000;
    /// How long the group commit's timer waits for one, on the run's thread, where the
    /// steps' attempt timers run too; left pending (in the tail) it tries again.
    static constexpr int TimerBusyTimeoutMs = 20;
    /// A group commit deferred by another writer is tried again after this long (ms).
    static constexpr int DeferredFlushMs = 100;
    struct Statements;
    QString openDatabase(const QString &path);
    void closeDatabase();
    /// The write statement for `sql`, prepared once per open database.
    QSqlQuery *statement(const char *sql);
    /// The same on SQLite's C API (the step-commit path; see SqliteStatement).
    SqliteStatement *nativeStatement(const char *sql);
    /// The connection's SQLite handle; nullptr when it has none.
    sqlite3 *nativeHandle() const;

    QString m_connectionName;
    QString m_path;
    QString m_lastError;
    /// What this Journal knows of a run's rows besides its steps: the attempt rows it
    /// wrote (AttemptRowsWritten: a step written once, final, with its attempt folded is a
    /// single statement; a step written again writes only its new and changed attempts)
    /// and whether its `step_tools` rows are complete (schema 6). Cleared whenever a
    /// write may not have reached the file (a rollback, a dropped record): looked up again.
    struct RunRows
    {
        bool olderRows = false;    ///< the run had attempt rows when first seen: replace a step's on its first write
        bool toolsIndexed = false; ///< runs.tools_indexed: a step written now must clear it
        AttemptRowsWritten written;
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
    // The step-commit path (journalcommit.cpp): rows are encoded as tail records, then
    // run on SQLite (at once, or by the group commit).
    void upsertStep(const Step &step, bool fold, TailRecord &record);
    bool writeStep(const Step &step, TailRecord &record, QString *error);
    void writeEvent(const PolicyEvent &event, TailRecord &record);
    /// Commits m_record (`rows` steps, events or output chunks): to the tail (group
    /// commit; `urgent`: into SQLite at once as well) or to SQLite. On failure the
    /// known runs are reset to `knownBefore`.
    bool commitRecord(int rows, bool urgent, const QSet<QString> &knownBefore);
    /// Runs a record's ops (no transaction of its own). `code`: SQLite's result code.
    bool runOps(QByteArrayView ops, QString *error, int *code = nullptr);
    bool runRecord(const TailRecord &record, QString *error, int *code = nullptr);
    /// One transaction: the records of `records` after serial `after`, and (when
    /// `tailName` is set) journal_tails' mark for that tail. On failure rolls back.
    /// `liveStatuses`: the pending setLiveStatus() rows go into the same transaction.
    bool writeRecords(QByteArrayView records, const QString &tailName, quint64 after, quint64 *last, QString *error,
                      int *code = nullptr, bool liveStatuses = false);
    /// The pending live statuses, inside a transaction (journallivestatus.cpp); once it
    /// committed, liveStatusesWritten() makes them the known ones.
    bool writeLiveStatuses(QString *error, int *code);
    void liveStatusesWritten();
    /// Starts the group commit's timer unless it runs (m_groupCommitMs > 0).
    void scheduleFlush();
    /// Writes each record of `records` after serial `after` in a transaction of its own;
    /// one SQLite refuses is dropped (warned, `allOk` false, marked handled). Returns
    /// the records left for later (from the first one the file was locked for).
    QByteArray writeEach(QByteArrayView records, const QString &tailName, quint64 after, bool verify, bool *allOk);
    /// flush() for the const readers.
    void settle() const;
    /// The last flush on close; deletes the tail file when it is empty.
    void closeTail();
    /// Applies and deletes the tail files of dead writers (open()); returns the pid and
    /// start ticks of those left (another writer held the file).
    QSet<QPair<qint64, qint64>> recoverTails();
    /// After each successful commit of `rows` steps and events: starts a WAL checkpoint
    /// every CheckpointEveryCommits.
    void committed(int rows);
    /// Runs whose owner is gone are marked suspended — except those of a dead writer
    /// whose tail could not be applied (`leftTails`: its pid and start ticks): resumed
    /// from a file without its last commits, a run would call again what its script was
    /// answered (attack41 F4); the next open tries again.
    void suspendOrphanedRuns(const QSet<QPair<qint64, qint64>> &leftTails);
    /// What every run's AttemptRowsWritten planned is in the file now.
    void rowsSettled();

    QStringList m_suspendedOnOpen;
    QSet<QString> m_knownRuns;         ///< runs known to have a row (skips the placeholder insert)
    QHash<QString, RunRows> m_runRows; ///< by run id; cleared by a rollback
    std::unique_ptr<Statements> m_statements;
    std::unique_ptr<WalCheckpointer> m_checkpointer; ///< started by the first commits
    int m_commitsSinceCheckpoint = 0;
    // Group commit (setGroupCommit).
    int m_groupCommitMs = 0;
    int m_groupCommitRows = 256;
    std::unique_ptr<JournalTail> m_tail;       ///< created by the first group commit
    std::unique_ptr<TailRecord> m_record;      ///< reused by commit()
    std::unique_ptr<QTimer> m_flushTimer;      ///< on the journal's thread
    QByteArray m_pending;                      ///< sealed records in the tail, not yet in SQLite
    bool m_quietDeferral = false;              ///< the timer's group commit: a deferral is not warned
    int m_pendingRows = 0;                     ///< steps and events in m_pending
    quint64 m_tailSerial = 0;                  ///< serial of the last record appended
    QHash<QString, RunStatus> m_liveStatus;    ///< live runs' status as this object last wrote it
    QHash<QString, RunStatus> m_pendingStatus; ///< setLiveStatus() rows for the next transaction
    bool m_open = false;                       ///< open() succeeded and closeDatabase() has not run since
};
