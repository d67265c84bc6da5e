// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/answermailbox.h"

#include "journal/journalrows.h"
#include "project/jsonqt.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <climits>

namespace {

using JournalRows::notNull;
using JournalRows::parseJson;

nlohmann::json answerJson(const ManualAnswer &answer)
{
    nlohmann::json json = answer.isError
        ? nlohmann::json{{"error", answer.message.toStdString()}, {"retryable", answer.retryable}}
        : nlohmann::json{{"result", answer.result}};
    if (answer.question > 0)
        json["question"] = answer.question;
    return json;
}

ManualAnswer answerFromJson(const nlohmann::json &json)
{
    ManualAnswer answer;
    if (json.is_object() && json.contains("error")) {
        answer.isError = true;
        answer.message = JsonQt::stringField(json, "error");
        answer.retryable = json.value("retryable", nlohmann::json()) == true;
    } else if (json.is_object()) {
        answer.result = json.value("result", nlohmann::json());
    }
    if (const auto question = json.is_object() ? json.find("question") : json.end();
        question != json.end() && question->is_number_integer())
        answer.question = std::clamp<qint64>(question->get<qint64>(), 0, INT_MAX);
    return answer;
}

PendingAnswer pendingFromQuery(const QSqlQuery &query)
{
    PendingAnswer answer;
    answer.id = query.value(0).toLongLong();
    answer.runId = query.value(1).toString();
    answer.callId = query.value(2).toString();
    answer.attempt = query.value(3).toInt();
    answer.answer = answerFromJson(parseJson(query.value(4)).value_or(nlohmann::json()));
    answer.createdAt = query.value(5).toLongLong();
    answer.state = query.value(6).toString();
    answer.reason = query.value(7).toString();
    return answer;
}

constexpr auto PendingColumns
    = "SELECT id, run_id, call_id, attempt, answer, created_at, state, reason FROM pending_answers";

QString jsonText(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

AnswerMailbox::AnswerMailbox(const QString &connectionName)
    : m_connectionName(connectionName)
{}

qint64 AnswerMailbox::add(const PendingAnswer &answer, QString *error)
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral(
        "INSERT INTO pending_answers (run_id, call_id, attempt, answer, created_at) VALUES (?, ?, ?, ?, ?)"));
    query.addBindValue(notNull(answer.runId));
    query.addBindValue(notNull(answer.callId));
    query.addBindValue(answer.attempt);
    query.addBindValue(jsonText(answerJson(answer.answer)));
    query.addBindValue(answer.createdAt);
    if (!query.exec()) {
        *error = query.lastError().text();
        return 0;
    }
    return query.lastInsertId().toLongLong();
}

std::vector<PendingAnswer> AnswerMailbox::fresh(const QString &runId) const
{
    std::vector<PendingAnswer> result;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QLatin1String(PendingColumns) + QStringLiteral(" WHERE run_id = ? AND state = 'new' ORDER BY id"));
    query.addBindValue(notNull(runId));
    if (!query.exec())
        return result;
    while (query.next())
        result.push_back(pendingFromQuery(query));
    return result;
}

std::optional<PendingAnswer> AnswerMailbox::find(qint64 id) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QLatin1String(PendingColumns) + QStringLiteral(" WHERE id = ?"));
    query.addBindValue(id);
    if (!query.exec() || !query.next())
        return std::nullopt;
    return pendingFromQuery(query);
}

bool AnswerMailbox::resolve(qint64 id, bool accepted, const QString &reason, QString *error)
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral(
        "UPDATE pending_answers SET state = ?, reason = ?, handled_at = ? WHERE id = ? AND state = 'new'"));
    query.addBindValue(accepted ? QStringLiteral("accepted") : QStringLiteral("refused"));
    query.addBindValue(notNull(reason));
    query.addBindValue(QDateTime::currentMSecsSinceEpoch());
    query.addBindValue(id);
    if (!query.exec()) {
        *error = query.lastError().text();
        return false;
    }
    return query.numRowsAffected() == 1;
}
