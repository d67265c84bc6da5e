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

} // namespace

QString stepStatusName(StepStatus status)
{
    for (const auto &[value, name] : stepNames)
        if (value == status)
            return QString::fromLatin1(name);
    return QString();
}

QString runStatusName(RunStatus status)
{
    for (const auto &[value, name] : runNames)
        if (value == status)
            return QString::fromLatin1(name);
    return QString();
}

std::optional<StepStatus> stepStatusFromName(const QString &name)
{
    for (const auto &[value, text] : stepNames)
        if (name == QLatin1String(text))
            return value;
    return std::nullopt;
}

std::optional<RunStatus> runStatusFromName(const QString &name)
{
    for (const auto &[value, text] : runNames)
        if (name == QLatin1String(text))
            return value;
    return std::nullopt;
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
