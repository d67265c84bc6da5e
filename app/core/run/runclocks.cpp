// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runclocks.h"

#include <algorithm>
#include <limits>

RunClocks::RunClocks(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &RunClocks::timedOut);
}

void RunClocks::reset()
{
    m_waitClock.invalidate();
    m_waitTotalMs = 0;
}

void RunClocks::start(qint64 budgetMs)
{
    m_limitMs = budgetMs;
    m_budgetMs = budgetMs;
    m_runClock.start();
    m_timer.start(int(std::min<qint64>(budgetMs, std::numeric_limits<int>::max())));
}

void RunClocks::pause()
{
    if (!m_timer.isActive())
        return;
    m_budgetMs = std::max<qint64>(0, m_budgetMs - m_runClock.elapsed());
    m_timer.stop();
    m_waitClock.start();
}

void RunClocks::resume()
{
    if (m_timer.isActive())
        return;
    endWait();
    m_runClock.restart();
    m_timer.start(int(std::min<qint64>(m_budgetMs, std::numeric_limits<int>::max())));
}

void RunClocks::stop()
{
    m_timer.stop();
}

void RunClocks::endWait()
{
    if (m_waitClock.isValid()) {
        m_waitTotalMs += m_waitClock.elapsed();
        m_waitClock.invalidate();
    }
}

qint64 RunClocks::runClockMs() const
{
    const qint64 running = m_timer.isActive() ? m_runClock.elapsed() : 0;
    return std::max<qint64>(0, m_limitMs - m_budgetMs + running);
}

qint64 RunClocks::waitClockMs() const
{
    return m_waitTotalMs + (m_waitClock.isValid() ? m_waitClock.elapsed() : 0);
}
