// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journalruns.h"

#include "journal/journalrows.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariant>

#include <map>
#include <utility>

namespace {

using JournalRows::notNull;

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
    run.kind = runKindFromName(query.value(8).toString()).value_or(RunKind::Run);
    run.sourceRun = query.value(9).toString();
    run.ownerPid = query.value(10).toLongLong();
    return run;
}

constexpr auto RunColumns = "SELECT id, project_dir, script_path, status, started_at, ended_at, exit_code, error,"
                            " kind, source_run, owner_pid FROM runs";
} // namespace

JournalRuns::JournalRuns(const QString &connectionName)
    : m_connectionName(connectionName)
{}

std::vector<RunRecord> JournalRuns::runs() const
{
    std::vector<RunRecord> result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.exec(QLatin1String(RunColumns) + QStringLiteral(" ORDER BY started_at, rowid")))
        return result;
    while (query.next())
        result.push_back(runFromQuery(query));
    return result;
}

std::optional<RunRecord> JournalRuns::run(const QString &runId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QLatin1String(RunColumns) + QStringLiteral(" WHERE id = ?"));
    query.addBindValue(notNull(runId));
    if (!query.exec() || !query.next())
        return std::nullopt;
    return runFromQuery(query);
}

std::vector<Step> JournalRuns::steps(const QString &runId) const
{
    std::vector<Step> result;
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT sequence, %1 FROM steps WHERE run_id = ? ORDER BY sequence")
                      .arg(QLatin1String(JournalRows::StepColumns)));
    query.addBindValue(notNull(runId));
    if (!query.exec())
        return result;
    std::map<int, std::size_t> bySequence;
    while (query.next()) {
        Step step;
        step.runId = runId;
        step.sequence = query.value(0).toInt();
        JournalRows::readStep(query, 1, step);
        bySequence[step.sequence] = result.size();
        result.push_back(std::move(step));
    }

    QSqlQuery attempts(db);
    attempts.setForwardOnly(true);
    attempts.prepare(QStringLiteral("SELECT sequence, %1 FROM attempts WHERE run_id = ? ORDER BY sequence, number")
                         .arg(QLatin1String(JournalRows::AttemptColumns)));
    attempts.addBindValue(runId);
    if (!attempts.exec())
        return result;
    while (attempts.next()) {
        const auto it = bySequence.find(attempts.value(0).toInt());
        if (it == bySequence.end())
            continue;
        result[it->second].attempts.push_back(JournalRows::readAttempt(attempts, 1));
    }
    return result;
}

QByteArray JournalRuns::output(const QString &runId, int stream) const
{
    QByteArray result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT chunk FROM output WHERE run_id = ? AND stream = ? ORDER BY seq"));
    query.addBindValue(notNull(runId));
    query.addBindValue(stream);
    if (!query.exec())
        return result;
    while (query.next())
        result += query.value(0).toByteArray();
    return result;
}

std::vector<PolicyEvent> JournalRuns::events(const QString &runId) const
{
    std::vector<PolicyEvent> result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT sequence, at, kind, detail FROM policy_events WHERE run_id = ? ORDER BY id"));
    query.addBindValue(notNull(runId));
    if (!query.exec())
        return result;
    while (query.next()) {
        const std::optional<PolicyEventKind> kind = policyEventKindFromName(query.value(2).toString());
        if (!kind)
            continue; // a kind this studio does not know (a newer one wrote it)
        PolicyEvent event;
        event.runId = runId;
        event.sequence = query.value(0).toInt();
        event.at = query.value(1).toLongLong();
        event.kind = *kind;
        event.detail = JournalRows::parseJson(query.value(3)).value_or(nlohmann::json::object());
        result.push_back(std::move(event));
    }
    return result;
}

QHash<QString, qint64> JournalRuns::lastResumes() const
{
    QHash<QString, qint64> result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT run_id, MAX(at) FROM policy_events WHERE kind = 'resumed' AND sequence = 0"
                                   " GROUP BY run_id")))
        return result;
    while (query.next())
        result.insert(query.value(0).toString(), query.value(1).toLongLong());
    return result;
}

int JournalRuns::stepCount(const QString &runId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT count(*) FROM steps WHERE run_id = ?"));
    query.addBindValue(notNull(runId));
    return query.exec() && query.next() ? query.value(0).toInt() : 0;
}
