// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/jobslot.h"

JobSlot::JobSlot()
    : m_state(std::make_shared<State>())
{}

JobSlot::~JobSlot()
{
    cancel(); // a watcher still alive under its context finds its id stale
}

void JobSlot::cancel()
{
    ++m_state->latest;
    m_state->running = false;
}

QThreadPool *JobSlot::pool()
{
    static QThreadPool *const jobs = [] {
        auto *pool = new QThreadPool; // never destroyed: the process does not wait for a job at exit
        pool->setMaxThreadCount(8);
        pool->setExpiryTimeout(30000);
        return pool;
    }();
    return jobs;
}
