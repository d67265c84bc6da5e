// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/step.h"

#include <array>
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
