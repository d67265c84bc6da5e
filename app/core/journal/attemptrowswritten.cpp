// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/attemptrowswritten.h"

AttemptRowsWritten::Plan AttemptRowsWritten::plan(const Step &step, bool fold, bool olderRows)
{
    Plan plan;
    auto written = m_written.find(step.sequence);
    const bool known = written != m_written.end();
    const qsizetype before = known ? written->size() : 0;
    const bool unsettled = m_unsettled.contains(step.sequence);
    plan.deleteAll = known ? before > 0 && (fold || unsettled || before > qsizetype(step.attempts.size())) : olderRows;
    if (fold) {
        // No rows to build on: whether this write is settled never matters (the common
        // step, written once with its attempt folded, costs no bookkeeping).
        if (known)
            m_written.erase(written);
        else if (olderRows)
            m_written.insert(step.sequence, {}); // replaced: none left
        return plan;
    }
    if (!unsettled)
        m_unsettled.insert(step.sequence);
    if (!known)
        written = m_written.insert(step.sequence, {});
    QList<Mark> &marks = *written;
    if (plan.deleteAll)
        marks.clear();
    // Only what is new or changed: a changed attempt's row is deleted and written again.
    for (std::size_t i = 0; i < step.attempts.size(); ++i) {
        const Mark mark = Mark::of(step.attempts[i]);
        if (qsizetype(i) < marks.size()) {
            Mark &old = marks[qsizetype(i)];
            if (old == mark)
                continue;
            plan.rows.push_back({int(i), old.number});
            old = mark;
        } else {
            plan.rows.push_back({int(i), 0});
            marks.append(mark);
        }
    }
    return plan;
}

AttemptRowsWritten::Mark AttemptRowsWritten::Mark::of(const Attempt &attempt)
{
    Mark mark;
    mark.number = attempt.number;
    mark.startedAt = attempt.startedAt;
    mark.endedAt = attempt.endedAt;
    mark.succeeded = attempt.succeeded;
    mark.failed = attempt.error.has_value();
    mark.outputBytes = attempt.output.size();
    mark.personWaits = attempt.personWaits.size();
    mark.lastAnsweredAt = attempt.personWaits.empty() ? 0 : attempt.personWaits.back().answeredAt;
    if (!attempt.protocol.is_null()) {
        const auto messages = attempt.protocol.is_object() ? attempt.protocol.find("messages") : attempt.protocol.end();
        mark.protocolMessages = messages != attempt.protocol.end() ? qsizetype(messages->size()) : 0;
    }
    return mark;
}
