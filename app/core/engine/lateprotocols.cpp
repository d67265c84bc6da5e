// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "lateprotocols.h"

#include <QMetaObject>
#include <QObject>

LateProtocols::LateProtocols(QObject *target, Apply apply)
    : m_target(target)
    , m_apply(std::move(apply))
{}

void LateProtocols::post(int index, int attempt, nlohmann::json record)
{
    const QMutexLocker lock(&m_mutex);
    if (!m_target)
        return;
    // Queued while the target lives (close() waits for this lock); Qt drops the call if
    // the target is deleted before it runs.
    QMetaObject::invokeMethod(
        m_target,
        [apply = m_apply, index, attempt, record = std::move(record)]() mutable {
            apply(index, attempt, std::move(record));
        },
        Qt::QueuedConnection);
}

void LateProtocols::close()
{
    const QMutexLocker lock(&m_mutex);
    m_target = nullptr;
}
