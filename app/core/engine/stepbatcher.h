// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

#include <vector>

class StepEngine;

/// The views' one ordered feed of a run (RunController::stepsUpdated and
/// outputReceived; issue 4 item 8, issue 8 "Console"): coalesces a StepEngine's
/// stepAdded/stepChanged into batches, and keeps the script's output in order with
/// them. Each step batch holds the latest state of every step added or changed since
/// the previous one, at most one entry per step, in sequence order. Output cuts the
/// steps in two: steps changed before a chunk was added go out in a batch before it,
/// steps changed after it in a batch after it (so a flush may emit several batches).
/// Everything goes out at most every `intervalMs` (16 ms: one frame) while things
/// change, the first change after a quiet spell at once, and on flush(). Lives on the
/// engine's thread; the steps are copied once per batch (not once per change); the
/// receivers on another thread get the emissions in the order they were made.
class StepBatcher : public QObject
{
    Q_OBJECT
public:
    explicit StepBatcher(StepEngine *engine, int intervalMs = 16, QObject *parent = nullptr);
    ~StepBatcher() override;

    /// Emits what is pending now, in order (nothing when nothing changed).
    void flush();
    /// Script output (`stream` 1 = stdout, 2 = stderr): goes out after the steps that
    /// changed before this call and before those that change after it. Consecutive
    /// chunks of one stream are joined.
    void addOutput(int stream, const QByteArray &chunk);

Q_SIGNALS:
    void stepsUpdated(const QList<Step> &steps);
    void outputReady(int stream, const QByteArray &chunk);

private:
    /// A batch of steps (`stream` 0) or a chunk of output, waiting for the next flush.
    struct Item
    {
        std::vector<int> sequences;
        int stream = 0;
        QByteArray output;
    };
    void mark(const Step &step);
    /// Ends the current batch of steps: later changes go in a new one.
    void seal();
    void schedule();
    QList<Step> stepsOf(std::vector<int> &sequences) const;

    StepEngine *m_engine = nullptr;
    int m_intervalMs = 16;
    std::vector<Item> m_sealed; ///< step batches and output before m_dirty, in order
    std::vector<int> m_dirty;   ///< sequences changed since the last batch or output
    std::vector<bool> m_marked; ///< by sequence − 1: already in m_dirty
    QTimer m_timer;
    QElapsedTimer m_sinceLast; ///< since the last flush went out
};
