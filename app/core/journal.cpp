// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>
#include <map>

namespace {

/// Schema version in `PRAGMA user_version`; migrate() brings older files up to it.
constexpr int CurrentVersion = 1;
/// `PRAGMA application_id`: "TSJ1", so another program's SQLite file is not mistaken
/// for a journal.
constexpr int ApplicationId = 0x54534A31;

std::atomic<int> connectionCounter{0};

/// Qt binds a null QString as SQL NULL; the text columns are NOT NULL.
QString text(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

QString jsonText(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

QVariant optionalJsonText(const std::optional<nlohmann::json> &value)
{
    return value ? QVariant(jsonText(*value)) : QVariant(QMetaType(QMetaType::QString));
}

QVariant errorText(const std::optional<BridgeError> &error)
{
    return error ? QVariant(jsonText(error->toJson())) : QVariant(QMetaType(QMetaType::QString));
}

std::optional<nlohmann::json> parseJson(const QVariant &text)
{
    if (text.isNull())
        return std::nullopt;
    const QByteArray bytes = text.toString().toUtf8();
    nlohmann::json value = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    if (value.is_discarded())
        return std::nullopt;
    return value;
}

std::optional<BridgeError> parseError(const QVariant &text)
{
    const auto json = parseJson(text);
    if (!json || !json->is_object())
        return std::nullopt;
    try {
        return BridgeError::fromJson(*json);
    } catch (const std::exception &) {
        return std::nullopt; // written by a newer or broken studio; show no error rather than a wrong one
    }
}

/// Each entry brings the schema from version `index` to `index + 1`. Add new versions
/// at the end; never edit a shipped one.
const std::vector<std::vector<const char *>> &migrations()
{
    static const std::vector<std::vector<const char *>> steps = {
        // 0 → 1: runs, steps, attempts, output
        {
            "CREATE TABLE runs ("
            " id TEXT PRIMARY KEY,"
            " project_dir TEXT NOT NULL DEFAULT '',"
            " script_path TEXT NOT NULL DEFAULT '',"
            " status TEXT NOT NULL,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " exit_code INTEGER NOT NULL DEFAULT -1,"
            " error TEXT NOT NULL DEFAULT '')",
            "CREATE TABLE steps ("
            " run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
            " sequence INTEGER NOT NULL,"
            " call_id TEXT NOT NULL,"
            " tool TEXT NOT NULL,"
            " args TEXT NOT NULL,"
            " idempotency_key TEXT NOT NULL,"
            " status TEXT NOT NULL,"
            " max_attempts INTEGER NOT NULL,"
            " result TEXT,"
            " error TEXT,"
            " queued_at INTEGER NOT NULL DEFAULT 0,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " next_attempt_at INTEGER NOT NULL DEFAULT 0,"
            " PRIMARY KEY (run_id, sequence))",
            "CREATE TABLE attempts ("
            " run_id TEXT NOT NULL,"
            " sequence INTEGER NOT NULL,"
            " number INTEGER NOT NULL,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " succeeded INTEGER NOT NULL DEFAULT 0,"
            " error TEXT,"
            " output BLOB,"
            " PRIMARY KEY (run_id, sequence, number),"
            " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE)",
            "CREATE TABLE output ("
            " run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
            " stream INTEGER NOT NULL,"
            " seq INTEGER NOT NULL,"
            " chunk BLOB NOT NULL,"
            " PRIMARY KEY (run_id, stream, seq))",
        },
    };
    return steps;
}

} // namespace

/// Prepared write statements, keyed by their SQL text (a literal, so its address is
/// stable). Destroyed before the connection is removed.
struct Journal::Statements
{
    std::map<const char *, std::unique_ptr<QSqlQuery>> queries;
};

Journal::Journal()
    : m_connectionName(QStringLiteral("toolstudio-journal-%1").arg(++connectionCounter))
{
}

Journal::~Journal()
{
    closeDatabase();
}

void Journal::closeDatabase()
{
    m_statements.reset(); // every query on the connection must be gone first
    m_knownRuns.clear();
    if (!QSqlDatabase::contains(m_connectionName))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        if (db.isOpen())
            db.close();
    } // the handle must be gone before the connection is removed
    QSqlDatabase::removeDatabase(m_connectionName);
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
    auto failWith = [](const QString &message) { return message; };
    closeDatabase();
    m_path = QFileInfo(path).absoluteFilePath();
    const QFileInfo info(m_path);
    if (info.exists() && !info.isFile())
        return failWith(QStringLiteral("%1: not a file").arg(m_path));
    if (!QDir().mkpath(info.absolutePath()))
        return failWith(QStringLiteral("%1: cannot create the folder %2").arg(m_path, info.absolutePath()));

    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(m_path);
        // Another Journal (the UI, a second window) may hold the write lock briefly.
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open())
            return failWith(QStringLiteral("%1: cannot open: %2").arg(m_path, db.lastError().text()));

        QSqlQuery query(db);
        // The first read of the header tells a database from any other file.
        if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
            return failWith(QStringLiteral("%1: not a Tool Studio journal (%2)").arg(m_path, query.lastError().databaseText()));
        const int version = query.value(0).toInt();
        if (!query.exec(QStringLiteral("PRAGMA application_id")) || !query.next())
            return failWith(QStringLiteral("%1: not a Tool Studio journal (%2)").arg(m_path, query.lastError().databaseText()));
        const int applicationId = query.value(0).toInt();
        if (!query.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")) || !query.next())
            return failWith(QStringLiteral("%1: not a Tool Studio journal (%2)").arg(m_path, query.lastError().databaseText()));
        const int objects = query.value(0).toInt();

        if (version == 0 && objects > 0)
            return failWith(QStringLiteral("%1: an SQLite database, but not a Tool Studio journal").arg(m_path));
        if (version > 0 && applicationId != ApplicationId)
            return failWith(QStringLiteral("%1: an SQLite database, but not a Tool Studio journal (application id %2)")
                                .arg(m_path).arg(applicationId));
        if (version > CurrentVersion)
            return failWith(QStringLiteral("%1: journal version %2 is newer than this Tool Studio supports (%3); update Tool Studio")
                                .arg(m_path).arg(version).arg(CurrentVersion));

        // WAL: readers (the UI, a second Journal) never block the writer; NORMAL: a
        // commit survives a crash of the studio, not necessarily a power loss.
        if (!query.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !query.next()
            || query.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
            return failWith(QStringLiteral("%1: cannot switch to WAL mode (%2)").arg(m_path, query.lastError().text()));
        if (!query.exec(QStringLiteral("PRAGMA synchronous=NORMAL")) || !query.exec(QStringLiteral("PRAGMA foreign_keys=ON")))
            return failWith(QStringLiteral("%1: %2").arg(m_path, query.lastError().text()));
        query.finish();

        // Migrations, one transaction each, so a crash leaves a consistent version.
        for (int from = version; from < CurrentVersion; ++from) {
            if (!db.transaction())
                return failWith(QStringLiteral("%1: cannot migrate: %2").arg(m_path, db.lastError().text()));
            bool ok = true;
            QString failed;
            for (const char *statement : migrations()[std::size_t(from)]) {
                if (!query.exec(QString::fromLatin1(statement))) {
                    ok = false;
                    failed = query.lastError().text();
                    break;
                }
            }
            ok = ok && query.exec(QStringLiteral("PRAGMA user_version = %1").arg(from + 1))
                && query.exec(QStringLiteral("PRAGMA application_id = %1").arg(ApplicationId));
            if (ok && !db.commit())
                ok = false;
            if (!ok) {
                if (failed.isEmpty())
                    failed = query.lastError().text();
                db.rollback();
                return failWith(QStringLiteral("%1: migration to version %2 failed: %3").arg(m_path).arg(from + 1).arg(failed));
            }
        }
    }
    return QString();
}

bool Journal::isOpen() const
{
    return QSqlDatabase::contains(m_connectionName) && QSqlDatabase::database(m_connectionName, false).isOpen();
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

constexpr auto EnsureRunSql = "INSERT OR IGNORE INTO runs (id, status, started_at) VALUES (?, 'running', ?)";
constexpr auto UpsertRunSql =
    "INSERT INTO runs (id, project_dir, script_path, status, started_at, ended_at, exit_code, error)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET project_dir = excluded.project_dir, script_path = excluded.script_path,"
    " status = excluded.status, started_at = excluded.started_at, ended_at = excluded.ended_at,"
    " exit_code = excluded.exit_code, error = excluded.error";
constexpr auto UpsertStepSql =
    "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts,"
    " result, error, queued_at, started_at, ended_at, next_attempt_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (run_id, sequence) DO UPDATE SET call_id = excluded.call_id, tool = excluded.tool,"
    " args = excluded.args, idempotency_key = excluded.idempotency_key, status = excluded.status,"
    " max_attempts = excluded.max_attempts, result = excluded.result, error = excluded.error,"
    " queued_at = excluded.queued_at, started_at = excluded.started_at, ended_at = excluded.ended_at,"
    " next_attempt_at = excluded.next_attempt_at";
constexpr auto DeleteAttemptsSql = "DELETE FROM attempts WHERE run_id = ? AND sequence = ?";
constexpr auto InsertAttemptSql =
    "INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded, error, output)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
constexpr auto InsertOutputSql =
    "INSERT INTO output (run_id, stream, seq, chunk) VALUES (?, ?,"
    " (SELECT COALESCE(MAX(seq), 0) + 1 FROM output WHERE run_id = ? AND stream = ?), ?)";

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
    QString error;
    if (!::run(statement(UpsertRunSql),
               {text(run.id), text(run.projectDir), text(run.scriptPath), runStatusName(run.status), run.startedAt,
                run.endedAt, run.exitCode, text(run.error)},
               &error)) {
        m_lastError = QStringLiteral("recording run %1: %2").arg(run.id, error.isEmpty() ? m_lastError : error);
        return false;
    }
    m_knownRuns.insert(run.id);
    return true;
}

bool Journal::recordStep(const Step &step)
{
    if (!isOpen()) {
        m_lastError = QStringLiteral("the journal is not open");
        return false;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    if (!db.transaction()) {
        m_lastError = QStringLiteral("recording step %1: %2").arg(step.sequence).arg(db.lastError().text());
        return false;
    }
    QString error;
    auto failed = [&](const QString &what) {
        m_lastError = QStringLiteral("recording step %1 (%2): %3: %4")
                          .arg(step.sequence).arg(step.tool, what, error.isEmpty() ? m_lastError : error);
        db.rollback();
        return false;
    };
    // A minimal run row, so steps can be recorded before (or without) recordRun.
    if (!m_knownRuns.contains(step.runId) && !::run(statement(EnsureRunSql), {text(step.runId), step.queuedAt}, &error))
        return failed(QStringLiteral("run row"));
    if (!::run(statement(UpsertStepSql),
               {text(step.runId), step.sequence, text(step.callId), text(step.tool), jsonText(step.args),
                text(step.idempotencyKey), stepStatusName(step.status), step.maxAttempts, optionalJsonText(step.result),
                errorText(step.error), step.queuedAt, step.startedAt, step.endedAt, step.nextAttemptAt},
               &error))
        return failed(QStringLiteral("step row"));
    if (!::run(statement(DeleteAttemptsSql), {text(step.runId), step.sequence}, &error))
        return failed(QStringLiteral("old attempts"));
    for (const Attempt &attempt : step.attempts) {
        const QVariant output = attempt.output.isNull() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(attempt.output);
        if (!::run(statement(InsertAttemptSql),
                   {text(step.runId), step.sequence, attempt.number, attempt.startedAt, attempt.endedAt,
                    attempt.succeeded ? 1 : 0, errorText(attempt.error), output},
                   &error))
            return failed(QStringLiteral("attempt %1").arg(attempt.number));
    }
    if (!db.commit()) {
        m_lastError = QStringLiteral("recording step %1: commit: %2").arg(step.sequence).arg(db.lastError().text());
        db.rollback();
        return false;
    }
    m_knownRuns.insert(step.runId);
    return true;
}

bool Journal::appendOutput(const QString &runId, int stream, const QByteArray &chunk)
{
    if (!isOpen()) {
        m_lastError = QStringLiteral("the journal is not open");
        return false;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    if (!db.transaction()) {
        m_lastError = QStringLiteral("recording output: %1").arg(db.lastError().text());
        return false;
    }
    QString error;
    const bool ok = (m_knownRuns.contains(runId) || ::run(statement(EnsureRunSql), {text(runId), 0}, &error))
        && ::run(statement(InsertOutputSql), {text(runId), stream, text(runId), stream, chunk.isNull() ? QByteArray("") : chunk}, &error);
    if (!ok) {
        m_lastError = QStringLiteral("recording output of run %1: %2").arg(runId, error.isEmpty() ? m_lastError : error);
        db.rollback();
        return false;
    }
    if (!db.commit()) {
        m_lastError = QStringLiteral("recording output: commit: %1").arg(db.lastError().text());
        db.rollback();
        return false;
    }
    m_knownRuns.insert(runId);
    return true;
}

namespace {

RunRecord runFromQuery(const QSqlQuery &query)
{
    RunRecord run;
    run.id = query.value(0).toString();
    run.projectDir = query.value(1).toString();
    run.scriptPath = query.value(2).toString();
    run.status = runStatusFromName(query.value(3).toString()).value_or(RunStatus::Failed);
    run.startedAt = query.value(4).toLongLong();
    run.endedAt = query.value(5).toLongLong();
    run.exitCode = query.value(6).toInt();
    run.error = query.value(7).toString();
    return run;
}

constexpr auto RunColumns = "SELECT id, project_dir, script_path, status, started_at, ended_at, exit_code, error FROM runs";

} // namespace

std::vector<RunRecord> Journal::runs() const
{
    std::vector<RunRecord> result;
    if (!isOpen())
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.exec(QLatin1String(RunColumns) + QStringLiteral(" ORDER BY started_at, rowid")))
        return result;
    while (query.next())
        result.push_back(runFromQuery(query));
    return result;
}

std::optional<RunRecord> Journal::run(const QString &runId) const
{
    if (!isOpen())
        return std::nullopt;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QLatin1String(RunColumns) + QStringLiteral(" WHERE id = ?"));
    query.addBindValue(text(runId));
    if (!query.exec() || !query.next())
        return std::nullopt;
    return runFromQuery(query);
}

std::vector<Step> Journal::steps(const QString &runId) const
{
    std::vector<Step> result;
    if (!isOpen())
        return result;
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral(
        "SELECT sequence, call_id, tool, args, idempotency_key, status, max_attempts, result, error,"
        " queued_at, started_at, ended_at, next_attempt_at FROM steps WHERE run_id = ? ORDER BY sequence"));
    query.addBindValue(text(runId));
    if (!query.exec())
        return result;
    std::map<int, std::size_t> bySequence;
    while (query.next()) {
        Step step;
        step.runId = runId;
        step.sequence = query.value(0).toInt();
        step.callId = query.value(1).toString();
        step.tool = query.value(2).toString();
        step.args = parseJson(query.value(3)).value_or(nlohmann::json::object());
        step.idempotencyKey = query.value(4).toString();
        step.status = stepStatusFromName(query.value(5).toString()).value_or(StepStatus::Failed);
        step.maxAttempts = query.value(6).toInt();
        step.result = parseJson(query.value(7));
        step.error = parseError(query.value(8));
        step.queuedAt = query.value(9).toLongLong();
        step.startedAt = query.value(10).toLongLong();
        step.endedAt = query.value(11).toLongLong();
        step.nextAttemptAt = query.value(12).toLongLong();
        bySequence[step.sequence] = result.size();
        result.push_back(std::move(step));
    }

    QSqlQuery attempts(db);
    attempts.setForwardOnly(true);
    attempts.prepare(QStringLiteral(
        "SELECT sequence, number, started_at, ended_at, succeeded, error, output FROM attempts"
        " WHERE run_id = ? ORDER BY sequence, number"));
    attempts.addBindValue(runId);
    if (!attempts.exec())
        return result;
    while (attempts.next()) {
        const auto it = bySequence.find(attempts.value(0).toInt());
        if (it == bySequence.end())
            continue;
        Attempt attempt;
        attempt.number = attempts.value(1).toInt();
        attempt.startedAt = attempts.value(2).toLongLong();
        attempt.endedAt = attempts.value(3).toLongLong();
        attempt.succeeded = attempts.value(4).toInt() != 0;
        attempt.error = parseError(attempts.value(5));
        attempt.output = attempts.value(6).toByteArray();
        result[it->second].attempts.push_back(std::move(attempt));
    }
    return result;
}

QByteArray Journal::output(const QString &runId, int stream) const
{
    QByteArray result;
    if (!isOpen())
        return result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT chunk FROM output WHERE run_id = ? AND stream = ? ORDER BY seq"));
    query.addBindValue(text(runId));
    query.addBindValue(stream);
    if (!query.exec())
        return result;
    while (query.next())
        result += query.value(0).toByteArray();
    return result;
}
