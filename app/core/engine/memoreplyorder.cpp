// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memoreplyorder.h"

#include <algorithm>

void MemoReplyOrder::reset(const std::vector<Step> &planSteps)
{
    const std::size_t count = planSteps.size();
    m_queuedAt.assign(count, 0);
    m_endedAt.assign(count, 0);
    m_arrived.assign(count, false);
    m_byEnd.clear();
    m_firstNotArrived = 0;
    m_queued.clear();
    m_added = 0;
    m_lastEndedAt = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Step &step = planSteps[i];
        m_queuedAt[i] = step.queuedAt;
        m_endedAt[i] = step.endedAt;
        if (isFinal(step.status) && step.status != StepStatus::Cancelled && step.endedAt > 0)
            m_byEnd.push_back(int(i));
    }
    std::stable_sort(m_byEnd.begin(), m_byEnd.end(),
                     [this](int a, int b) { return m_endedAt[std::size_t(a)] < m_endedAt[std::size_t(b)]; });
}

void MemoReplyOrder::arrived(int planIndex)
{
    if (planIndex >= 0 && std::size_t(planIndex) < m_arrived.size())
        m_arrived[std::size_t(planIndex)] = true;
}

void MemoReplyOrder::add(int planIndex, std::string id, std::string line)
{
    arrived(planIndex);
    const qint64 endedAt
        = planIndex >= 0 && std::size_t(planIndex) < m_endedAt.size() ? m_endedAt[std::size_t(planIndex)] : 0;
    m_queued.push_back({endedAt, m_added++, planIndex, {std::move(id), std::move(line)}});
    std::push_heap(m_queued.begin(), m_queued.end(), Later());
}

qint64 MemoReplyOrder::queuedAt(int planIndex) const
{
    return planIndex >= 0 && std::size_t(planIndex) < m_queuedAt.size() ? m_queuedAt[std::size_t(planIndex)] : 0;
}

bool MemoReplyOrder::blocked(qint64 endedAt)
{
    while (m_firstNotArrived < m_byEnd.size() && m_arrived[std::size_t(m_byEnd[m_firstNotArrived])])
        ++m_firstNotArrived;
    for (std::size_t k = m_firstNotArrived; k < m_byEnd.size(); ++k) {
        const std::size_t y = std::size_t(m_byEnd[k]);
        if (m_endedAt[y] >= endedAt)
            break;
        if (!m_arrived[y] && m_queuedAt[y] < endedAt)
            return true;
    }
    return false;
}

MemoReplyOrder::State MemoReplyOrder::next(bool all)
{
    if (m_queued.empty())
        return State::Empty;
    return !all && blocked(m_queued.front().endedAt) ? State::Held : State::Ready;
}

bool MemoReplyOrder::wantsGap() const
{
    if (m_queued.empty() || m_lastEndedAt <= 0)
        return false;
    const Queued &first = m_queued.front();
    // In flight when the last one completed, and completed after it: the recorded
    // script had the last reply alone for a while.
    return first.endedAt > m_lastEndedAt && queuedAt(first.planIndex) < m_lastEndedAt;
}

MemoReplyOrder::Reply MemoReplyOrder::take()
{
    std::pop_heap(m_queued.begin(), m_queued.end(), Later());
    Queued first = std::move(m_queued.back());
    m_queued.pop_back();
    m_lastEndedAt = first.endedAt;
    return std::move(first.reply);
}
