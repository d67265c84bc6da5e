// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "stepbatcher.h"

#include "stepengine.h"

#include <algorithm>

StepBatcher::StepBatcher(StepEngine *engine, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_intervalMs(intervalMs)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &StepBatcher::flush);
    connect(engine, &StepEngine::stepAdded, this, &StepBatcher::mark);
    connect(engine, &StepEngine::stepChanged, this, &StepBatcher::mark);
}

StepBatcher::~StepBatcher() = default;

void StepBatcher::mark(const Step &step)
{
    const auto index = std::size_t(step.sequence - 1);
    if (step.sequence < 1)
        return;
    if (m_marked.size() <= index)
        m_marked.resize(index + 1, false);
    if (m_marked[index])
        return;
    m_marked[index] = true;
    m_dirty.push_back(step.sequence);
    m_pending.store(true, std::memory_order_release);
    if (m_timer.isActive())
        return;
    // The first change after a quiet spell goes out on this turn of the event loop; then
    // at most one batch per interval.
    const qint64 since = m_sinceLast.isValid() ? m_sinceLast.elapsed() : m_intervalMs;
    m_timer.start(int(std::max<qint64>(0, m_intervalMs - since)));
}

void StepBatcher::flush()
{
    m_timer.stop();
    if (m_dirty.empty())
        return;
    std::sort(m_dirty.begin(), m_dirty.end());
    const std::vector<Step> &steps = m_engine->steps();
    QList<Step> batch;
    batch.reserve(qsizetype(m_dirty.size()));
    for (const int sequence : m_dirty) {
        m_marked[std::size_t(sequence - 1)] = false;
        if (std::size_t(sequence) <= steps.size())
            batch.append(steps[std::size_t(sequence - 1)]);
    }
    m_dirty.clear();
    m_pending.store(false, std::memory_order_release);
    m_sinceLast.start();
    Q_EMIT stepsUpdated(batch);
}
