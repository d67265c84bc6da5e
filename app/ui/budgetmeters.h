// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

#include <functional>
#include <memory>

class AttemptClocks;
class QTimer;
class RunController;
class Project;
struct RunRecord;
struct Step;

/// The run header's budget meters above the trace (issue 8 item 7): calls used of
/// max_calls, for a project with models its model calls of max_model_calls and the
/// tokens of their replies (of max_tokens when set), the largest request and reply
/// against their caps, elapsed time against
/// the run timeout (time waiting for a person is not counted) and the per-call attempt
/// clocks (AttemptClocks). A meter at 80 % of its cap turns amber, at 100 % red. Sizes
/// and counts come from the run's StepEngine; the line refreshes every 250 ms while a
/// run is live and once when it ends.
class BudgetMeters : public QLabel
{
    Q_OBJECT
public:
    /// `project` gives the open project (its limits and tools), nullptr when none.
    BudgetMeters(RunController *run, std::function<const Project *()> project, QWidget *parent = nullptr);
    ~BudgetMeters() override;

    /// A run is starting: forgets the last run's clocks and refreshes every 250 ms.
    void runStarted();
    /// The run ended: stops refreshing and shows the final figures.
    void runEnded();
    /// Feeds the attempt clocks with the latest state of `step`.
    void stepChanged(const Step &step);
    /// Rewrites the line from the engine's figures (empty without a project); not while
    /// a recorded run is shown.
    void refresh();
    /// The trace shows a recorded run (from the journal, or `imported`), not the live
    /// one: the line says so, with its steps, status and wall time, instead of the last
    /// live run's figures. runStarted() or showLive() leave it.
    void showRecorded(const RunRecord &run, int steps, bool imported);
    /// Back to the live run's figures (another project opened, the shown run deleted).
    void showLive();

private:
    RunController *m_run;
    std::function<const Project *()> m_project;
    QTimer *m_timer = nullptr;
    std::unique_ptr<AttemptClocks> m_clocks;
    bool m_recorded = false; ///< showRecorded: the line is the recorded run's
};
