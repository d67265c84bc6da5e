// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/steprows.h"

#include "project/printabletext.h"

#include <algorithm>

namespace {

QString compactJson(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

QString StepSummary::cut(const QString &text)
{
    // MaxSummaryChars + 1 so a view can tell it was cut; never half a surrogate pair.
    return text.size() > MaxSummaryChars + 1 ? QString::fromUtf8(clipChars(text, MaxSummaryChars + 1).kept) : text;
}

QString StepSummary::joinError(const QString &code, const QString &message)
{
    if (code.isEmpty())
        return message;
    if (message.isEmpty())
        return code;
    return code + QStringLiteral(": ") + message;
}

QString StepSummary::attemptsText() const
{
    return QStringLiteral("%1/%2").arg(attempts.size()).arg(maxAttempts);
}

bool StepSummary::hadFailures() const
{
    if (status == StepStatus::Failed)
        return true;
    return std::any_of(attempts.begin(), attempts.end(),
                       [](const AttemptSummary &a) { return a.endedAt > 0 && !a.succeeded; });
}

StepSummary StepSummary::of(const Step &step)
{
    StepSummary s;
    s.sequence = step.sequence;
    s.callId = step.callId;
    s.tool = step.tool;
    s.status = step.status;
    s.maxAttempts = step.maxAttempts;
    s.queuedAt = step.queuedAt;
    s.startedAt = step.startedAt;
    s.endedAt = step.endedAt;
    s.hasResult = step.result.has_value();
    if (step.result)
        s.resultText = cut(compactJson(*step.result));
    if (step.error) {
        s.errorCode = step.error->codeName();
        s.errorText = cut(joinError(s.errorCode, QString::fromStdString(step.error->message)));
    }
    s.divergence = cut(step.divergence);
    s.paused = step.paused;
    s.heldAt = step.heldAt;
    if (step.status == StepStatus::Running && !step.attempts.empty())
        s.progress = step.attempts.back().progress;
    s.attempts.reserve(step.attempts.size());
    for (const Attempt &a : step.attempts) {
        AttemptSummary as;
        as.number = a.number;
        as.startedAt = a.startedAt;
        as.endedAt = a.endedAt;
        as.succeeded = a.succeeded;
        if (a.error) {
            as.errorCode = a.error->codeName();
            as.errorText = cut(joinError(as.errorCode, QString::fromStdString(a.error->message)));
        }
        as.outputBytes = a.output.size();
        as.personWaits = closedWaits(a.personWaits, a.endedAt);
        s.attempts.push_back(std::move(as));
    }
    return s;
}

qint64 StepSpan::startOf(const StepSummary &step)
{
    if (step.heldAt > 0)
        return step.heldAt;
    if (step.paused && step.attempts.empty())
        return step.queuedAt;
    if (!step.attempts.empty())
        return step.attempts.front().startedAt;
    return step.startedAt > 0 ? step.startedAt : step.queuedAt;
}

std::vector<StepSpan::Segment> StepSpan::segmentsOf(const StepSummary &step)
{
    std::vector<Segment> segments;
    if (step.attempts.size() >= 2) {
        for (const AttemptSummary &a : step.attempts)
            segments.push_back({a.startedAt, a.endedAt, a.succeeded, false});
    }
    if (step.heldAt > 0)
        segments.push_back({step.heldAt, step.queuedAt, false, true});
    else if (step.paused && step.attempts.empty() && step.queuedAt > 0)
        segments.push_back({step.queuedAt, 0, false, true});
    for (const AttemptSummary &a : step.attempts)
        for (const PersonWait &wait : a.personWaits)
            segments.push_back({wait.askedAt, wait.answeredAt, false, true});
    return segments;
}
