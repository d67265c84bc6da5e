// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

/// The two clocks of a run (docs/steps.md "Run timeout"): the run clock counts against
/// limits.run_timeout_seconds and is paused while a call waits for a person; the wait
/// clock counts that waiting, which is not charged. Lives on the GUI (or main) thread
/// with its RunController: the timeout never waits for the run thread.
class RunClocks : public QObject
{
    Q_OBJECT
public:
    explicit RunClocks(QObject *parent = nullptr);

    /// Before a run starts: no waiting counted yet.
    void reset();
    /// The run started: `budgetMs` (limits.run_timeout_seconds in ms) runs down from now.
    void start(qint64 budgetMs);
    /// A call waits for a person: the run clock stops, the wait clock runs.
    void pause();
    /// Nobody waits any more: the wait is counted, the run clock runs on.
    void resume();
    /// The run ended (or is ending): no timeout any more; a wait in progress is over.
    void stop();
    /// The wait in progress (if any) is over and counted; the run clock stays as it is.
    void endWait();
    bool isRunning() const { return m_timer.isActive(); }

    /// Time counted against the run timeout, ms.
    qint64 runClockMs() const;
    /// Time spent waiting for a person, ms; not counted.
    qint64 waitClockMs() const;

Q_SIGNALS:
    /// The run timeout's budget is used up.
    void timedOut();

private:
    QTimer m_timer;
    qint64 m_limitMs = 0;  ///< the run timeout of the current run
    qint64 m_budgetMs = 0; ///< time left when the timer was last (re)started
    QElapsedTimer m_runClock;
    QElapsedTimer m_waitClock; ///< valid while the run clock is paused for a person
    qint64 m_waitTotalMs = 0;  ///< time spent waiting for a person, not counted
};
