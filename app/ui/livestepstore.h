// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QString>

#include <deque>
#include <memory>
#include <optional>

class JournalReader;

/// The whole steps (arguments, result, attempts with output) of the run the window
/// shows, for the step inspector (issue 8). A live run keeps only the Capacity steps
/// seen last in memory (the trace itself holds light rows); an older step
/// is read from the run's journal when it is asked for — the engine journals a step
/// within ~20 ms of a change, long before it falls out of the kept ones. An imported
/// run has no journal: setKeepAll() keeps every step.
class LiveStepStore
{
public:
    /// Steps kept in memory for a live run.
    static constexpr int Capacity = 1024;

    LiveStepStore();
    ~LiveStepStore();

    /// Forgets every step; later look-ups of steps not kept read run `runId` from the
    /// journal at `journalPath` (empty: none, such steps are then unknown).
    void reset(const QString &journalPath = {}, const QString &runId = {});
    /// Keep every step (an imported run), not only the last Capacity.
    void setKeepAll(bool keepAll) { m_keepAll = keepAll; }

    /// Records the latest state of `step`.
    void update(const Step &step);
    bool contains(const QString &callId) const { return m_steps.contains(callId); }
    /// The step with `callId`: kept, else read from the journal; nullopt when unknown.
    std::optional<Step> step(const QString &callId) const;
    /// Steps kept in memory.
    int keptCount() const { return int(m_steps.size()); }

private:
    QHash<QString, Step> m_steps; ///< by call id
    std::deque<QString> m_order;  ///< call ids of m_steps, first seen first (evicted first)
    bool m_keepAll = false;
    QString m_journalPath;
    QString m_runId;
    mutable std::unique_ptr<JournalReader> m_reader; ///< opened on the first look-up that needs it
};
