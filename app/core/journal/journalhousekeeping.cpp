// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journalhousekeeping.h"

#include <QAtomicInteger>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace {

QAtomicInteger<quint64> nextConnection;

/// Rows of a run, child tables first (not every table cascades from runs).
constexpr const char *RunTables[] = {"attempts", "steps", "step_tools", "output", "policy_events", "pending_answers"};

qint64 fileBytes(const QString &path)
{
    qint64 bytes = QFileInfo(path).size();
    for (const char *suffix : {"-wal", "-shm"})
        bytes += QFileInfo(path + QLatin1String(suffix)).size();
    return bytes;
}

} // namespace

JournalHousekeeping::JournalHousekeeping()
    : m_connectionName(QStringLiteral("housekeeping-%1").arg(nextConnection.fetchAndAddRelaxed(1)))
{}

JournalHousekeeping::~JournalHousekeeping()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        QSqlDatabase::database(m_connectionName, false).close();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

bool JournalHousekeeping::open(const QString &path, QString *error)
{
    m_path = path;
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        *error = QStringLiteral("%1: cannot open: %2").arg(path, db.lastError().text());
        return false;
    }
    return true;
}

QString JournalHousekeeping::refusal(const QString &runId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT status FROM runs WHERE id = ?"));
    query.addBindValue(runId);
    if (!query.exec() || !query.next())
        return QStringLiteral("no such run in this journal (toolstudio runs lists them)");
    const QString status = query.value(0).toString();
    if (status == QLatin1String("running") || status == QLatin1String("waiting"))
        return QStringLiteral("the run is %1; stop it (or let it end) first").arg(status);
    query.prepare(QStringLiteral("SELECT id FROM runs WHERE source_run = ? AND status IN ('running', 'waiting')"));
    query.addBindValue(runId);
    if (query.exec() && query.next())
        return QStringLiteral("run %1, still live, replays it").arg(query.value(0).toString());
    return {};
}

JournalHousekeeping::Outcome JournalHousekeeping::deleteRuns(const QStringList &runIds, QString *error)
{
    Outcome outcome;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    if (!db.transaction()) {
        *error = db.lastError().text();
        return {};
    }
    QSqlQuery query(db);
    for (const QString &runId : runIds) {
        if (outcome.deleted.contains(runId))
            continue;
        if (const QString why = refusal(runId); !why.isEmpty()) {
            outcome.refused.append(QStringLiteral("%1: %2").arg(runId, why));
            continue;
        }
        bool ok = true;
        for (const char *table : RunTables) {
            query.prepare(QStringLiteral("DELETE FROM %1 WHERE run_id = ?").arg(QLatin1String(table)));
            query.addBindValue(runId);
            ok = ok && query.exec();
        }
        query.prepare(QStringLiteral("DELETE FROM runs WHERE id = ?"));
        query.addBindValue(runId);
        if (!ok || !query.exec()) {
            *error = query.lastError().text();
            db.rollback();
            return {};
        }
        outcome.deleted.append(runId);
    }
    if (!db.commit()) {
        *error = db.lastError().text();
        db.rollback();
        return {};
    }
    return outcome;
}

QStringList JournalHousekeeping::pruneCandidates(std::optional<qint64> startedBeforeMs, std::optional<int> keep,
                                                 QString *error) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    // Newest first, so the first `keep` are the ones kept.
    if (!query.exec(QStringLiteral("SELECT id, started_at FROM runs WHERE status NOT IN ('running', 'waiting')"
                                   " ORDER BY started_at DESC, id DESC"))) {
        *error = query.lastError().text();
        return {};
    }
    QStringList out;
    int seen = 0;
    while (query.next()) {
        ++seen;
        const bool beyondKeep = keep && seen > *keep;
        const bool old = startedBeforeMs && query.value(1).toLongLong() < *startedBeforeMs;
        if (beyondKeep || old)
            out.prepend(query.value(0).toString());
    }
    return out;
}

bool JournalHousekeeping::compact(qint64 *bytesBefore, qint64 *bytesAfter, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(db);
    *bytesBefore = fileBytes(m_path);
    // Fold the WAL in first, so the sizes compare the journal as a whole.
    if (!query.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")) || !query.exec(QStringLiteral("VACUUM"))
        || !query.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"))) {
        *error = QStringLiteral("cannot compact %1: %2 (another window or process may be using the journal; "
                                "try again when its runs have ended)")
                     .arg(m_path, query.lastError().text());
        return false;
    }
    *bytesAfter = fileBytes(m_path);
    return true;
}
