// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpreadpace.h"

#include <QTimer>

#include <algorithm>

McpReadPace::McpReadPace(std::function<void()> resume, QObject *parent)
    : QObject(parent)
    , m_resume(std::move(resume))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] { m_resume(); });
}

bool McpReadPace::hasRoom()
{
    if (!m_window.isValid() || m_window.hasExpired(WindowMs)) {
        m_window.start();
        m_bytes = 0;
    }
    if (m_bytes < MaxBytesPerWindow)
        return true;
    if (!m_timer->isActive()) {
        ++m_pauses;
        m_timer->start(int(std::max<qint64>(1, WindowMs - m_window.elapsed())));
    }
    return false;
}
