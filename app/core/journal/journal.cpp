// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journal.h"

#include "journal/answermailbox.h"
#include "journal/journalrows.h"
#include "journal/journalruns.h"
#include "journal/journalschema.h"
#include "journal/journalstatement.h"
#include "journal/journaltail.h"
#include "journal/walcheckpointer.h"

#include "procfs.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QVariant>

#include <atomic>
#include <map>
#include <utility>

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

namespace {

using JournalSql::ClearToolsSql;
using JournalSql::EnsureRunSql;
using JournalSql::UnmarkToolsSql;
/// WAL pages (4 KiB each) before SQLite checkpoints by itself: 16 384 = 64 MiB, about
/// 4 000 calls. Runs normally end (and checkpoint) before that. The WAL is folded into
/// the database by a WalCheckpointer every CheckpointEveryCommits step commits, off
/// this thread, and when a run ends (checkpoint()); SQLite's own checkpoint, on the
/// committing thread (between a commit and its reply), is a safety net past this: at
/// its default of 1 000 pages a busy run paid that fsync on a reply every ~250 calls.
constexpr int AutoCheckpointPages = 16384;
/// Step commits between two checkpoints by the WalCheckpointer (a call's commit writes
/// a handful of pages).
constexpr int CheckpointEveryCommits = 200;

std::atomic<int> connectionCounter{0};

using JournalRows::notNull;

} // namespace

/// Prepared write statements, keyed by their SQL text (a literal, so its address is
/// stable): Qt SQL ones, and the step-commit path's on the connection's sqlite3 handle.
/// Destroyed before the connection is removed.
struct Journal::Statements
{
    std::map<const char *, std::unique_ptr<QSqlQuery>> queries;
    std::map<const char *, std::unique_ptr<SqliteStatement>> native;
};

Journal::Journal()
    : m_connectionName(QStringLiteral("toolstudio-journal-%1").arg(++connectionCounter))
{}

Journal::~Journal()
{
    closeDatabase();
}

void Journal::closeDatabase()
{
    if (m_open)
        closeTail(); // the pending group commit, then the tail file goes
    if (m_open && m_statements)
        indexTools(); // a run that ended without a checkpoint() since (the CLI's runs)
    m_toolsToIndex.clear();
    m_open = false;
    m_checkpointer.reset();
    m_commitsSinceCheckpoint = 0;
    m_suspendedOnOpen.clear();
    m_statements.reset(); // every query on the connection must be gone first
    m_knownRuns.clear();
    m_runRows.clear();
    m_liveStatus.clear();
    m_pendingStatus.clear();
    if (!QSqlDatabase::contains(m_connectionName))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        if (db.isOpen())
            db.close();
    } // the handle must be gone before the connection is removed
    QSqlDatabase::removeDatabase(m_connectionName);
}

SqliteStatement *Journal::nativeStatement(const char *sql)
{
    if (!m_statements)
        m_statements = std::make_unique<Statements>();
    auto &statement = m_statements->native[sql];
    if (!statement) {
        sqlite3 *db = nativeHandle();
        if (!db) {
            m_lastError = QStringLiteral("the journal's SQLite connection has no handle");
            m_statements->native.erase(sql);
            return nullptr;
        }
        statement = std::make_unique<SqliteStatement>(db, sql);
    }
    return statement.get();
}

sqlite3 *Journal::nativeHandle() const
{
    const QVariant handle = QSqlDatabase::database(m_connectionName, false).driver()->handle();
    return handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0
        ? *static_cast<sqlite3 *const *>(handle.constData())
        : nullptr;
}

QSqlQuery *Journal::statement(const char *sql)
{
    if (!m_statements)
        m_statements = std::make_unique<Statements>();
    auto &query = m_statements->queries[sql];
    if (!query) {
        query = std::make_unique<QSqlQuery>(QSqlDatabase::database(m_connectionName, false));
        if (!query->prepare(QString::fromLatin1(sql))) {
            m_lastError = query->lastError().text();
            auto failed = std::move(query);
            m_statements->queries.erase(sql);
            return nullptr;
        }
    }
    return query.get();
}

bool Journal::open(const QString &path, QString *error)
{
    // Returns why the file cannot be used, or an empty string. Every database handle
    // lives inside it, so that the connection can be removed afterwards on failure.
    const QString failure = openDatabase(path);
    if (failure.isEmpty()) {
        m_lastError.clear();
        m_open = true;
        return true;
    }
    m_lastError = failure;
    if (error)
        *error = failure;
    closeDatabase();
    m_path.clear();
    return false;
}

QString Journal::openDatabase(const QString &path)
{
    closeDatabase();
    m_path = QFileInfo(path).absoluteFilePath();
    const QFileInfo info(m_path);
    if (info.exists() && !info.isFile())
        return QStringLiteral("%1: not a file").arg(m_path);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("%1: cannot create the folder %2").arg(m_path, info.absolutePath());
    // A new journal is this user's only (0600; SQLite gives its -wal and -shm the same
    // mode): it holds every call's arguments and results.
    if (!info.exists()) {
        const int fd = ::open(QFile::encodeName(m_path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0)
            ::close(fd);
    }

    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(m_path);
        // Another Journal (the UI, a second window) may hold the write lock briefly.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(BusyTimeoutMs));
        if (!db.open())
            return QStringLiteral("%1: cannot open: %2").arg(m_path, db.lastError().text());

        // The header checked, WAL and the pragmas set, the schema migrated (by another
        // process opening it at the same moment, maybe).
        if (const QString failed = JournalSchema::prepare(db, AutoCheckpointPages); !failed.isEmpty())
            return QStringLiteral("%1: %2").arg(m_path, failed);
    }
    // Commits a dead writer left in its tail first: its runs are then suspended below.
    suspendOrphanedRuns(recoverTails());
    return QString();
}

bool Journal::isOpen() const
{
    // Kept, not looked up: QSqlDatabase::contains/database take a global lock and hash
    // lookups, and every commit asks (the bridge's hot path).
    return m_open;
}

QString Journal::path() const
{
    return m_path;
}

QString Journal::lastError() const
{
    return m_lastError;
}

namespace {

constexpr auto UpsertRunSql
    = "INSERT INTO runs (id, project_dir, script_path, status, started_at, ended_at, exit_code, error,"
      " kind, source_run, owner_pid, owner_start)"
      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
      " ON CONFLICT (id) DO UPDATE SET project_dir = excluded.project_dir, script_path = excluded.script_path,"
      " status = excluded.status,"
      // A run keeps its first start: a resume records the run again (same id) and must not
      // move it (the resume time is the "resumed" event's). 0 = a placeholder row's.
      " started_at = CASE WHEN runs.started_at > 0 AND runs.started_at < excluded.started_at"
      " THEN runs.started_at ELSE excluded.started_at END, ended_at = excluded.ended_at,"
      " exit_code = excluded.exit_code, error = excluded.error, kind = excluded.kind,"
      " source_run = excluded.source_run, owner_pid = excluded.owner_pid, owner_start = excluded.owner_start";
/// What a writer needs to know of a run it has not written yet (Journal::RunRows).
constexpr auto RunRowsSql = "SELECT EXISTS (SELECT 1 FROM attempts WHERE run_id = ?1),"
                            " IFNULL((SELECT tools_indexed FROM runs WHERE id = ?1), 0)";
constexpr auto ToolsIndexedSql = "SELECT tools_indexed FROM runs WHERE id = ?";
/// Only while the run is not live: another process may have resumed it since.
constexpr auto FillToolsSql = "INSERT INTO step_tools (run_id, tool, sequence) SELECT run_id, tool, sequence FROM steps"
                              " WHERE run_id = ?1 AND EXISTS (SELECT 1 FROM runs WHERE id = ?1"
                              " AND status NOT IN ('running', 'waiting'))";
constexpr auto MarkToolsSql = "UPDATE runs SET tools_indexed = 1 WHERE id = ? AND status NOT IN ('running', 'waiting')";

/// Binds `values` in order and runs the statement; its cursor is released at once so
/// readers and the next transaction are not held up.
bool run(QSqlQuery *query, std::initializer_list<QVariant> values, QString *error)
{
    if (!query)
        return false;
    int index = 0;
    for (const QVariant &value : values)
        query->bindValue(index++, value);
    const bool ok = query->exec();
    if (!ok)
        *error = query->lastError().text();
    query->finish();
    return ok;
}

} // namespace

bool Journal::recordRun(const RunRecord &run)
{
    if (!isOpen()) {
        m_lastError = QStringLiteral("the journal is not open");
        return false;
    }
    m_pendingStatus.remove(run.id); // this row says it all
    flush();
    QString error;
    SqliteStatement *begin = nativeStatement("BEGIN");
    SqliteStatement *end = nativeStatement("COMMIT");
    SqliteStatement *rollback = nativeStatement("ROLLBACK");
    if (!begin || !end || !rollback || !begin->run(&error)) {
        m_lastError = QStringLiteral("recording run %1: %2").arg(run.id, error.isEmpty() ? m_lastError : error);
        return false;
    }
    // A live run belongs to this process; a journal opened after it died suspends it.
    const bool live = run.status == RunStatus::Running || run.status == RunStatus::Waiting;
    bool ok = ::run(statement(UpsertRunSql),
                    {notNull(run.id), notNull(run.projectDir), notNull(run.scriptPath), runStatusName(run.status),
                     run.startedAt, run.endedAt, run.exitCode, notNull(run.error), notNull(runKindName(run.kind)),
                     notNull(run.sourceRun), live ? selfPid() : 0, live ? selfStartTicks() : 0},
                    &error);
    // The by-tool rows (schema 6): written for the whole run when it stops being live,
    // dropped when it goes live again (a resume), so a step's commit never writes them.
    SqliteStatement *indexed = ok ? nativeStatement(ToolsIndexedSql) : nullptr;
    ok = ok && indexed && indexed->add(run.id).run(&error);
    if (ok && live && indexed->column(0) != 0)
        ok = runAll({UnmarkToolsSql, ClearToolsSql}, run.id, &error);
    // Not live: the rows are written by indexTools() (checkpoint(), after RunController
    // queued finished(); or closeDatabase()), not here: at a million steps they take
    // 1-3 s, which the run's finished() and the window waited for. Until then the run
    // has tools_indexed = 0 and the trace's tool filter scans its rows (correct, slower).
    if (live)
        m_toolsToIndex.remove(run.id);
    else if (ok && indexed->column(0) == 0)
        m_toolsToIndex.insert(run.id);
    ok = ok && end->run(&error);
    if (!ok) {
        m_lastError = QStringLiteral("recording run %1: %2").arg(run.id, error.isEmpty() ? m_lastError : error);
        QString ignored;
        rollback->run(&ignored);
        m_runRows.clear();
        return false;
    }
    m_knownRuns.insert(run.id);
    if (live)
        m_liveStatus.insert(run.id, run.status);
    else
        m_liveStatus.remove(run.id);
    if (auto it = m_runRows.find(run.id); it != m_runRows.end())
        it->toolsIndexed = !live && !m_toolsToIndex.contains(run.id);
    return true;
}

bool Journal::indexTools()
{
    bool allOk = true;
    const QSet<QString> runs = std::exchange(m_toolsToIndex, {});
    for (const QString &runId : runs) {
        QString error;
        SqliteStatement *begin = nativeStatement("BEGIN");
        SqliteStatement *end = nativeStatement("COMMIT");
        SqliteStatement *rollback = nativeStatement("ROLLBACK");
        bool ok = begin && end && rollback && begin->run(&error)
            && runAll({ClearToolsSql, FillToolsSql, MarkToolsSql}, runId, &error) && end->run(&error);
        if (!ok) {
            m_lastError
                = QStringLiteral("indexing the tools of run %1: %2").arg(runId, error.isEmpty() ? m_lastError : error);
            QString ignored;
            if (rollback)
                rollback->run(&ignored);
            allOk = false;
            continue;
        }
        if (auto it = m_runRows.find(runId); it != m_runRows.end())
            it->toolsIndexed = true;
    }
    return allOk;
}

Journal::RunRows *Journal::runRows(const QString &runId, QString *error)
{
    auto it = m_runRows.find(runId);
    if (it == m_runRows.end()) {
        flush(); // the file must hold what this Journal wrote
        SqliteStatement *query = nativeStatement(RunRowsSql);
        if (!query || !query->add(runId).run(error)) {
            *error = QStringLiteral("rows of run %1: ").arg(runId) + (query ? *error : m_lastError);
            return nullptr;
        }
        // Records still pending (another writer holds the file) may have attempt rows the
        // file has not: the run's steps are replaced whole on their first write.
        it = m_runRows.insert(runId, RunRows{query->column(0) != 0 || !m_pending.isEmpty(), query->column(1) != 0, {}});
    }
    return &it.value();
}

bool Journal::runAll(std::initializer_list<const char *> sqls, const QString &runId, QString *error)
{
    for (const char *sql : sqls) {
        SqliteStatement *statement = nativeStatement(sql);
        if (!statement || !statement->add(runId).run(error)) {
            if (!statement)
                *error = m_lastError;
            return false;
        }
    }
    return true;
}

void Journal::committed(int rows)
{
    m_commitsSinceCheckpoint += rows;
    if (m_commitsSinceCheckpoint >= CheckpointEveryCommits) {
        m_commitsSinceCheckpoint = 0;
        if (!m_checkpointer)
            m_checkpointer = std::make_unique<WalCheckpointer>(m_path);
        m_checkpointer->request();
    }
}

bool Journal::checkpoint()
{
    if (!isOpen())
        return false;
    if (!flush())
        return false;
    // The runs that ended since: their step_tools rows first, then the WAL they wrote.
    const bool indexed = indexTools();
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    // PASSIVE: copies what it can without waiting for readers or blocking writers.
    if (!query.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)"))) {
        m_lastError = query.lastError().text();
        return false;
    }
    return indexed;
}

bool Journal::clearOutput(const QString &runId)
{
    if (!isOpen())
        return false;
    flush();
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM output WHERE run_id = ?"));
    query.addBindValue(notNull(runId));
    if (!query.exec()) {
        m_lastError = query.lastError().text();
        return false;
    }
    return true;
}

std::vector<RunRecord> Journal::runs() const
{
    if (!isOpen())
        return {};
    settle();
    return JournalRuns(m_connectionName).runs();
}

std::optional<RunRecord> Journal::run(const QString &runId) const
{
    if (!isOpen())
        return std::nullopt;
    settle();
    return JournalRuns(m_connectionName).run(runId);
}

std::vector<Step> Journal::steps(const QString &runId) const
{
    if (!isOpen())
        return {};
    settle();
    return JournalRuns(m_connectionName).steps(runId);
}

QByteArray Journal::output(const QString &runId, int stream) const
{
    if (!isOpen())
        return {};
    settle();
    return JournalRuns(m_connectionName).output(runId, stream);
}

std::vector<PolicyEvent> Journal::events(const QString &runId) const
{
    if (!isOpen())
        return {};
    settle();
    return JournalRuns(m_connectionName).events(runId);
}

QHash<QString, qint64> Journal::lastResumes() const
{
    if (!isOpen())
        return {};
    settle();
    return JournalRuns(m_connectionName).lastResumes();
}

int Journal::stepCount(const QString &runId) const
{
    if (!isOpen())
        return 0;
    settle();
    return JournalRuns(m_connectionName).stepCount(runId);
}

qint64 Journal::addPendingAnswer(const PendingAnswer &answer)
{
    if (!isOpen())
        return 0;
    flush();
    return AnswerMailbox(m_connectionName).add(answer, &m_lastError);
}

std::vector<PendingAnswer> Journal::newPendingAnswers(const QString &runId) const
{
    if (!isOpen())
        return {};
    settle();
    return AnswerMailbox(m_connectionName).fresh(runId);
}

std::optional<PendingAnswer> Journal::pendingAnswer(qint64 id) const
{
    if (!isOpen())
        return std::nullopt;
    settle();
    return AnswerMailbox(m_connectionName).find(id);
}

bool Journal::resolvePendingAnswer(qint64 id, bool accepted, const QString &reason)
{
    if (!isOpen())
        return false;
    flush();
    return AnswerMailbox(m_connectionName).resolve(id, accepted, reason, &m_lastError);
}

namespace {

/// Field 22 of /proc/PID/stat (start time in clock ticks since boot), or -1 (also for
/// a zombie).
qint64 startTicksOf(qint64 pid)
{
    Procfs::ProcessStat stat;
    if (!Procfs::readStat(pid_t(pid), &stat) || stat.isZombie())
        return -1;
    return stat.startTicks;
}

} // namespace

qint64 Journal::selfPid()
{
    return qint64(::getpid());
}

qint64 Journal::selfStartTicks()
{
    static const qint64 ticks = startTicksOf(selfPid());
    return ticks;
}

bool Journal::ownerAlive(qint64 pid, qint64 startTicks)
{
    if (pid <= 0)
        return false;
    if (pid == selfPid())
        return true;
    const qint64 ticks = startTicksOf(pid);
    return ticks >= 0 && ticks == startTicks;
}

void Journal::suspendOrphanedRuns(const QSet<QPair<qint64, qint64>> &leftTails)
{
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QStringList orphans;
    {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        if (!query.exec(
                QStringLiteral("SELECT id, owner_pid, owner_start FROM runs WHERE status IN ('running', 'waiting')")))
            return;
        while (query.next()) {
            const qint64 pid = query.value(1).toLongLong();
            const qint64 ticks = query.value(2).toLongLong();
            if (!ownerAlive(pid, ticks) && !leftTails.contains({pid, ticks}))
                orphans << query.value(0).toString();
        }
    }
    if (orphans.isEmpty() || !db.transaction())
        return;
    QSqlQuery update(db);
    update.prepare(QStringLiteral("UPDATE runs SET status = 'suspended', owner_pid = 0, owner_start = 0,"
                                  " error = 'the studio exited while the run was live; Resume replays it' WHERE id = ?"
                                  " AND status IN ('running', 'waiting')"));
    const qint64 at = QDateTime::currentMSecsSinceEpoch();
    for (const QString &id : std::as_const(orphans)) {
        update.addBindValue(id);
        QString error;
        TailRecord record;
        writeEvent({id, 0, at, PolicyEventKind::Suspended, {{"reason", "the process that ran it is gone"}}}, record);
        record.seal(1);
        if (!update.exec() || !runRecord(record, &error)) {
            db.rollback();
            return;
        }
    }
    if (db.commit())
        m_suspendedOnOpen = orphans;
    else
        db.rollback();
}
