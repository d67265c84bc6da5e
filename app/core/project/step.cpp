// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/step.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace {

constexpr std::array<std::pair<StepStatus, const char *>, 8> stepNames{{
    {StepStatus::Queued, "queued"},
    {StepStatus::Running, "running"},
    {StepStatus::Retrying, "retrying"},
    {StepStatus::Waiting, "waiting"},
    {StepStatus::Succeeded, "succeeded"},
    {StepStatus::Failed, "failed"},
    {StepStatus::Memoized, "memoized"},
    {StepStatus::Cancelled, "cancelled"},
}};

constexpr std::array<std::pair<RunStatus, const char *>, 7> runNames{{
    {RunStatus::Running, "running"},
    {RunStatus::Waiting, "waiting"},
    {RunStatus::Completed, "completed"},
    {RunStatus::Failed, "failed"},
    {RunStatus::TimedOut, "timed_out"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::Suspended, "suspended"},
}};

constexpr std::array<std::pair<RunKind, const char *>, 7> runKindNames{{
    {RunKind::Run, "run"},
    {RunKind::Replay, "replay"},
    {RunKind::Resume, "resume"},
    {RunKind::Rerun, "rerun"},
    {RunKind::Cassette, "cassette"},
    {RunKind::Served, "served"}, ///< a session of `toolstudio serve` (docs/server.md)
    {RunKind::Chat, "chat"},     ///< `toolstudio chat` (docs/models.md "Chat")
}};

constexpr std::array<std::pair<PolicyEventKind, const char *>, 18> policyEventNames{{
    {PolicyEventKind::RetryScheduled, "retry_scheduled"},
    {PolicyEventKind::RetryNow, "retry_now"},
    {PolicyEventKind::Timeout, "timeout"},
    {PolicyEventKind::Cancelled, "cancelled"},
    {PolicyEventKind::Divergence, "divergence"},
    {PolicyEventKind::Resumed, "resumed"},
    {PolicyEventKind::RerunFrom, "rerun_from"},
    {PolicyEventKind::StepPaused, "step_paused"},
    {PolicyEventKind::StepDecision, "step_decision"},
    {PolicyEventKind::AnswerFromJournal, "answer_from_journal"},
    {PolicyEventKind::Suspended, "suspended"},
    {PolicyEventKind::SandboxRefused, "sandbox_refused"},
    {PolicyEventKind::SandboxApplied, "sandbox_applied"},
    {PolicyEventKind::CallsRefused, "calls_refused"},
    {PolicyEventKind::SandboxRefusedSummary, "sandbox_refused_summary"},
    {PolicyEventKind::NullsLeftOut, "nulls_left_out"},
    {PolicyEventKind::PersonAsked, "person_asked"},
    {PolicyEventKind::PersonAnswered, "person_answered"},
}};

template<typename Enum, std::size_t N>
QString nameIn(const std::array<std::pair<Enum, const char *>, N> &names, Enum value)
{
    for (const auto &[candidate, name] : names)
        if (candidate == value)
            return QString::fromLatin1(name);
    return QString();
}

template<typename Enum, std::size_t N>
std::optional<Enum> valueIn(const std::array<std::pair<Enum, const char *>, N> &names, const QString &name)
{
    for (const auto &[value, text] : names)
        if (name == QLatin1String(text))
            return value;
    return std::nullopt;
}

} // namespace

QString stepStatusName(StepStatus status)
{
    return nameIn(stepNames, status);
}

QString runStatusName(RunStatus status)
{
    return nameIn(runNames, status);
}

QString runKindName(RunKind kind)
{
    return nameIn(runKindNames, kind);
}

QString policyEventKindName(PolicyEventKind kind)
{
    return nameIn(policyEventNames, kind);
}

std::optional<StepStatus> stepStatusFromName(const QString &name)
{
    return valueIn(stepNames, name);
}

std::optional<RunStatus> runStatusFromName(const QString &name)
{
    return valueIn(runNames, name);
}

std::optional<RunKind> runKindFromName(const QString &name)
{
    return valueIn(runKindNames, name);
}

std::optional<PolicyEventKind> policyEventKindFromName(const QString &name)
{
    return valueIn(policyEventNames, name);
}

bool isFinal(StepStatus status)
{
    return status == StepStatus::Succeeded || status == StepStatus::Failed || status == StepStatus::Memoized
        || status == StepStatus::Cancelled;
}

bool isFinal(RunStatus status)
{
    // A suspended run is not final: it can be resumed.
    return status == RunStatus::Completed || status == RunStatus::Failed || status == RunStatus::TimedOut
        || status == RunStatus::Cancelled;
}

QString Step::attemptsText() const
{
    return QStringLiteral("%1/%2").arg(attempts.size()).arg(maxAttempts);
}

nlohmann::json personWaitsJson(const std::vector<PersonWait> &waits)
{
    nlohmann::json json = nlohmann::json::array();
    for (const PersonWait &wait : waits)
        json.push_back({wait.askedAt, wait.answeredAt});
    return json;
}

std::vector<PersonWait> personWaitsFromJson(const nlohmann::json &value)
{
    std::vector<PersonWait> waits;
    if (!value.is_array())
        return waits;
    for (const nlohmann::json &pair : value) {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_integer())
            continue;
        const auto asked = pair[0].get<qint64>();
        const auto answered = pair[1].get<qint64>();
        if (asked <= 0 || answered < 0 || (answered > 0 && answered < asked))
            continue;
        waits.push_back({asked, answered});
    }
    return waits;
}

std::vector<PersonWait> closedWaits(std::vector<PersonWait> waits, qint64 endedAt)
{
    if (endedAt > 0) {
        for (PersonWait &wait : waits)
            if (wait.answeredAt == 0)
                wait.answeredAt = std::max(endedAt, wait.askedAt);
    }
    return waits;
}

qint64 waitedMs(const std::vector<PersonWait> &waits, qint64 from, qint64 to)
{
    // Saturated: times come from imported run files too (no overflow whatever they say).
    constexpr qint64 most = std::numeric_limits<qint64>::max();
    qint64 total = 0;
    for (const PersonWait &wait : waits) {
        const qint64 start = std::max(wait.askedAt, from);
        const qint64 end = std::min(wait.answeredAt > 0 ? wait.answeredAt : to, to);
        if (end <= start)
            continue;
        const qint64 span = start < 0 && end > most + start ? most : end - start;
        total = span > most - total ? most : total + span;
    }
    return total;
}

void Attempt::personAsked(qint64 at)
{
    personAnswered(at);
    personWaits.push_back({at, 0});
}

void Attempt::personAnswered(qint64 at)
{
    if (!personWaits.empty() && personWaits.back().answeredAt == 0)
        personWaits.back().answeredAt = std::max(at, personWaits.back().askedAt);
}

qint64 Step::waitedMs() const
{
    constexpr qint64 most = std::numeric_limits<qint64>::max();
    qint64 total = 0;
    for (const Attempt &a : attempts) {
        const qint64 waited = ::waitedMs(a.personWaits, a.startedAt, a.endedAt > 0 ? a.endedAt : endedAt);
        total = waited > most - total ? most : total + waited;
    }
    return total;
}
