// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <vector>

class StepEngine;

/// Coalesces a StepEngine's stepAdded/stepChanged into batches for the views
/// (RunController::stepsUpdated, issue 4 item 8): each batch holds the latest state of
/// every step added or changed since the previous one, at most one entry per step, in
/// sequence order. A batch goes out at most every `intervalMs` (16 ms: one frame) while
/// steps change, and at once on flush(). Lives on the engine's thread; the steps are
/// copied once per batch (not once per change).
class StepBatcher : public QObject
{
    Q_OBJECT
public:
    explicit StepBatcher(StepEngine *engine, int intervalMs = 16, QObject *parent = nullptr);
    ~StepBatcher() override;

    /// Emits the pending batch now (nothing when no step changed since the last one).
    void flush();
    /// Whether a step changed since the last batch went out. Safe to call from any
    /// thread: RunController asks from the GUI thread before it hands on script output,
    /// so that a call's step marker is never shown after output written after it.
    bool hasPending() const { return m_pending.load(std::memory_order_acquire); }

Q_SIGNALS:
    void stepsUpdated(const QList<Step> &steps);

private:
    void mark(const Step &step);

    StepEngine *m_engine = nullptr;
    int m_intervalMs = 16;
    std::vector<int> m_dirty;   ///< sequences changed since the last batch
    std::vector<bool> m_marked; ///< by sequence − 1: already in m_dirty
    QTimer m_timer;
    QElapsedTimer m_sinceLast;  ///< since the last batch went out
    std::atomic<bool> m_pending{false}; ///< !m_dirty.empty(), readable from other threads
};
