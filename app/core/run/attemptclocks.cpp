// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/attemptclocks.h"

#include "project/durationtext.h"
#include "project/tool.h"

#include <QCoreApplication>

void AttemptClocks::update(const Step &step)
{
    const Attempt *attempt = step.currentAttempt();
    const bool open = (step.status == StepStatus::Running || step.status == StepStatus::Waiting) && attempt
        && attempt->startedAt > 0 && attempt->endedAt == 0;
    if (open) {
        if (!m_open.contains(step.callId))
            m_order.append(step.callId);
        m_open.insert(step.callId, step);
    } else if (m_open.remove(step.callId) > 0) {
        m_order.removeOne(step.callId);
    }
}

QList<AttemptClocks::Clock>
AttemptClocks::clocks(qint64 now, const std::function<const Tool *(const QString &)> &toolOf, int max) const
{
    QList<Clock> result;
    for (const QString &callId : m_order) {
        if (result.size() == max)
            break;
        const Step &step = m_open[callId];
        const Tool *tool = toolOf ? toolOf(step.tool) : nullptr;
        result.append(clock(step, tool ? tool->retry.attemptTimeoutMs : 0, now));
    }
    if (m_order.size() > max) {
        const int more = int(m_order.size()) - max;
        result.append({QCoreApplication::translate("AttemptClocks", "+%n more call(s) in flight", nullptr, more), 0});
    }
    return result;
}

AttemptClocks::Clock AttemptClocks::clock(const Step &step, qint64 boundMs, qint64 now)
{
    const Attempt *attempt = step.currentAttempt();
    const qint64 started = attempt ? attempt->startedAt : step.startedAt;
    const qint64 elapsed = started > 0 ? std::max<qint64>(0, now - started) : 0;
    // The meters' line wraps: a duration stays whole ("5.2 s" never split after "5.2").
    const QString time = unbrokenDurationText(elapsed);
    const QString bound = unbrokenDurationText(boundMs);
    const bool waiting = step.status == StepStatus::Waiting;
    // A running call whose server asked a person (an MCP elicitation, say): its attempt
    // timeout waits with the person, so the clock shows no bound it is not held to.
    if (waiting && attempt && attempt->question)
        return {QCoreApplication::translate("AttemptClocks", "#%1 %2 waiting %3 for a person (attempt timeout paused)")
                    .arg(step.sequence)
                    .arg(step.tool, time),
                0.0};
    QString text;
    if (boundMs <= 0)
        text = waiting ? QCoreApplication::translate("AttemptClocks", "#%1 %2 waiting %3 (no wait bound)")
                             .arg(step.sequence)
                             .arg(step.tool, time)
                       : QCoreApplication::translate("AttemptClocks", "#%1 %2 attempt %3: %4 (no attempt timeout)")
                             .arg(step.sequence)
                             .arg(step.tool)
                             .arg(attempt ? attempt->number : 1)
                             .arg(time);
    else
        text = waiting ? QCoreApplication::translate("AttemptClocks", "#%1 %2 waiting %3 of %4")
                             .arg(step.sequence)
                             .arg(step.tool, time, bound)
                       : QCoreApplication::translate("AttemptClocks", "#%1 %2 attempt %3: %4 of %5")
                             .arg(step.sequence)
                             .arg(step.tool)
                             .arg(attempt ? attempt->number : 1)
                             .arg(time, bound);
    return {text, boundMs > 0 ? double(elapsed) / double(boundMs) : 0.0};
}
