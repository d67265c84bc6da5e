// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/jobslot.h"

JobSlot::JobSlot(QThreadPool *pool)
    : m_latest(std::make_shared<std::atomic<quint64>>(0))
    , m_pool(pool)
{}

JobSlot::~JobSlot()
{
    cancel(); // jobs in flight finish on their pool threads; their results are dropped
}

quint64 JobSlot::currentId() const
{
    return m_latest->load();
}

void JobSlot::cancel()
{
    m_latest->fetch_add(1);
}
