// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "livestepstore.h"

#include "journal/journalreader.h"

LiveStepStore::LiveStepStore() = default;
LiveStepStore::~LiveStepStore() = default;

void LiveStepStore::reset(const QString &journalPath, const QString &runId)
{
    m_steps.clear();
    m_order.clear();
    m_keepAll = false;
    m_journalPath = journalPath;
    m_runId = runId;
    m_reader.reset();
}

void LiveStepStore::update(const Step &step)
{
    const auto it = m_steps.find(step.callId);
    if (it != m_steps.end()) {
        *it = step;
        return;
    }
    m_steps.insert(step.callId, step);
    m_order.push_back(step.callId);
    if (m_keepAll)
        return;
    while (int(m_order.size()) > Capacity) {
        m_steps.remove(m_order.front());
        m_order.pop_front();
    }
}

std::optional<Step> LiveStepStore::step(const QString &callId) const
{
    const auto it = m_steps.constFind(callId);
    if (it != m_steps.constEnd())
        return *it;
    if (m_journalPath.isEmpty() || m_runId.isEmpty())
        return std::nullopt;
    if (!m_reader) {
        m_reader = std::make_unique<JournalReader>();
        if (!m_reader->open(m_journalPath)) {
            m_reader.reset();
            return std::nullopt;
        }
    }
    const int sequence = m_reader->sequenceOf(m_runId, callId);
    return sequence > 0 ? m_reader->step(m_runId, sequence) : std::nullopt;
}
