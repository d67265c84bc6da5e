// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/stepbatcher.h"

#include "engine/stepengine.h"

#include <algorithm>
#include <utility>

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
    schedule();
}

void StepBatcher::addOutput(int stream, const QByteArray &chunk)
{
    if (chunk.isEmpty())
        return;
    seal();
    if (!m_sealed.empty() && m_sealed.back().stream == stream)
        m_sealed.back().output.append(chunk);
    else
        m_sealed.push_back({{}, stream, chunk});
    schedule();
}

void StepBatcher::seal()
{
    if (m_dirty.empty())
        return;
    for (const int sequence : m_dirty)
        m_marked[std::size_t(sequence - 1)] = false;
    m_sealed.push_back({std::exchange(m_dirty, {}), 0, {}});
}

void StepBatcher::schedule()
{
    if (m_timer.isActive())
        return;
    // The first change after a quiet spell goes out on this turn of the event loop; then
    // at most one flush per interval.
    const qint64 since = m_sinceLast.isValid() ? m_sinceLast.elapsed() : m_intervalMs;
    m_timer.start(int(std::max<qint64>(0, m_intervalMs - since)));
}

QList<Step> StepBatcher::stepsOf(std::vector<int> &sequences) const
{
    std::sort(sequences.begin(), sequences.end());
    QList<Step> batch;
    batch.reserve(qsizetype(sequences.size()));
    for (const int sequence : sequences) {
        if (const Step *step = m_engine->stepBySequence(sequence))
            batch.append(*step);
    }
    return batch;
}

void StepBatcher::flush()
{
    m_timer.stop();
    seal();
    if (m_sealed.empty())
        return;
    std::vector<Item> items = std::exchange(m_sealed, {});
    m_sinceLast.start();
    for (Item &item : items) {
        if (item.stream == 0)
            Q_EMIT stepsUpdated(stepsOf(item.sequences));
        else
            Q_EMIT outputReady(item.stream, item.output);
    }
}
