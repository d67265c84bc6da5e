// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "traceliverows.h"

#include "tracerowformat.h"

const StepSummary *TraceLiveRows::queued(const QString &callId) const
{
    const auto it = m_queueIndexByCallId.constFind(callId);
    return it == m_queueIndexByCallId.constEnd() ? nullptr : &m_queue[size_t(*it)];
}

StepSummary *TraceLiveRows::queued(const QString &callId)
{
    const auto it = m_queueIndexByCallId.constFind(callId);
    return it == m_queueIndexByCallId.constEnd() ? nullptr : &m_queue[size_t(*it)];
}

void TraceLiveRows::enqueue(StepSummary summary)
{
    m_queueIndexByCallId.insert(summary.callId, int(m_queue.size()));
    m_queue.push_back(std::move(summary));
}

void TraceLiveRows::appendQueued()
{
    for (StepSummary &s : m_queue) {
        const int ordinal = int(m_rows.size());
        m_ordinalByCallId.insert(s.callId, ordinal);
        m_ordinalBySequence.insert(s.sequence, ordinal);
        m_rows.push_back(std::move(s));
        track(ordinal);
    }
    m_queue.clear();
    m_queueIndexByCallId.clear();
}

void TraceLiveRows::track(int ordinal)
{
    const StepSummary &summary = m_rows[size_t(ordinal)];
    if (summary.isFailed())
        m_failed.insert(ordinal);
    else
        m_failed.erase(ordinal);
    if (summary.isPending())
        m_pending.insert(ordinal);
    else
        m_pending.erase(ordinal);
}

int TraceLiveRows::next(int ordinal, bool failed, bool forward) const
{
    const std::set<int> &set = failed ? m_failed : m_pending;
    if (forward) {
        const auto it = set.upper_bound(ordinal);
        return it == set.end() ? -1 : *it;
    }
    auto it = ordinal < 0 ? set.end() : set.lower_bound(ordinal);
    return it == set.begin() ? -1 : *std::prev(it);
}

bool TraceLiveRows::matches(int ordinal, const StepQuery &query) const
{
    if (ordinal < 0 || ordinal >= size())
        return false;
    const StepSummary &s = at(ordinal);
    if (!query.tool.isEmpty() && s.tool != query.tool)
        return false;
    if (query.status == StepQuery::Status::FailedOnly && !s.isFailed())
        return false;
    if (query.status == StepQuery::Status::HadFailures && !s.hadFailures())
        return false;
    if (query.status == StepQuery::Status::PendingOnly && !s.isPending())
        return false;
    if (query.text.isEmpty())
        return true;
    return s.tool.contains(query.text, Qt::CaseInsensitive) || s.callId.contains(query.text, Qt::CaseInsensitive)
        || TraceRowFormat::elide(TraceRowFormat::summaryText(s), StepSummary::MaxSummaryChars)
               .contains(query.text, Qt::CaseInsensitive);
}

void TraceLiveRows::clear()
{
    m_rows.clear();
    m_ordinalByCallId.clear();
    m_ordinalBySequence.clear();
    m_queue.clear();
    m_queueIndexByCallId.clear();
    m_failed.clear();
    m_pending.clear();
}
