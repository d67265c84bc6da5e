// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journalrows.h"
#include "jsoninput.h"

#include <QSqlQuery>
#include <QVariant>

namespace JournalRows {

std::optional<nlohmann::json> parseJson(const QVariant &text)
{
    if (text.isNull())
        return std::nullopt;
    const QByteArray bytes = text.toString().toUtf8();
    nlohmann::json value
        = JsonInput::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())), "a journal value");
    if (value.is_discarded())
        return std::nullopt;
    return value;
}

std::optional<StepError> parseError(const QVariant &text)
{
    const auto json = parseJson(text);
    if (!json || !json->is_object())
        return std::nullopt;
    Result<StepError> error = StepError::fromJson(*json);
    if (!error)
        return std::nullopt;
    return std::move(error).value();
}

void readStep(const QSqlQuery &query, int first, Step &step)
{
    const auto at = [&](int column) { return query.value(first + column); };
    step.callId = at(0).toString();
    step.tool = at(1).toString();
    step.args = parseJson(at(2)).value_or(nlohmann::json::object());
    step.idempotencyKey = at(3).toString();
    step.status = stepStatusFromName(at(4).toString()).value_or(StepStatus::Failed);
    step.maxAttempts = at(5).toInt();
    step.result = parseJson(at(6));
    step.error = parseError(at(7));
    step.queuedAt = at(8).toLongLong();
    step.startedAt = at(9).toLongLong();
    step.endedAt = at(10).toLongLong();
    step.nextAttemptAt = at(11).toLongLong();
    step.argsHash = at(12).toString();
    step.originalArgs = parseJson(at(13));
    step.divergence = at(14).toString();
    step.recordedStartedAt = at(16).toLongLong();
    step.recordedEndedAt = at(17).toLongLong();
    step.heldAt = at(18).toLongLong();
    step.attempts.clear();
    if (const qint64 attemptEnd = at(15).toLongLong(); attemptEnd > 0)
        step.attempts.push_back(foldedAttempt(step.startedAt, attemptEnd));
}

Attempt foldedAttempt(qint64 startedAt, qint64 endedAt)
{
    Attempt attempt;
    attempt.number = 1;
    attempt.startedAt = startedAt;
    attempt.endedAt = endedAt;
    attempt.succeeded = true;
    return attempt;
}

bool foldsAttempt(const Step &step)
{
    if (step.attempts.size() != 1)
        return false;
    const Attempt &a = step.attempts.front();
    return a.number == 1 && a.succeeded && !a.error && a.output.isEmpty() && a.protocol.is_null()
        && a.personWaits.empty() && a.startedAt == step.startedAt && a.endedAt > 0;
}

Attempt readAttempt(const QSqlQuery &query, int first)
{
    Attempt attempt;
    attempt.number = query.value(first).toInt();
    attempt.startedAt = query.value(first + 1).toLongLong();
    attempt.endedAt = query.value(first + 2).toLongLong();
    attempt.succeeded = query.value(first + 3).toInt() != 0;
    attempt.error = parseError(query.value(first + 4));
    attempt.output = query.value(first + 5).toByteArray();
    attempt.protocol = parseJson(query.value(first + 6)).value_or(nlohmann::json());
    attempt.personWaits = readPersonWaits(query.value(first + 7));
    return attempt;
}

std::vector<PersonWait> readPersonWaits(const QVariant &text)
{
    const auto json = parseJson(text);
    return json ? personWaitsFromJson(*json) : std::vector<PersonWait>();
}

} // namespace JournalRows
