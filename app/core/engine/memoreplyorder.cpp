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
    m_queued.push_back({endedAt, {std::move(id), std::move(line)}});
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

std::optional<MemoReplyOrder::Reply> MemoReplyOrder::takeNext(bool all)
{
    if (m_queued.empty())
        return std::nullopt;
    const auto first = std::min_element(m_queued.begin(), m_queued.end(),
                                        [](const Queued &a, const Queued &b) { return a.endedAt < b.endedAt; });
    if (!all && blocked(first->endedAt))
        return std::nullopt;
    Reply reply = std::move(first->reply);
    m_queued.erase(first);
    return reply;
}
