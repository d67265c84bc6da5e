// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QSet>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class DurableRunActions;
class JournalHousekeeping;
class JournalWatch;
class QLabel;
struct RunRecord;
class Project;
class QMainWindow;
class QTimer;
class QTreeWidget;
class RunComparePanel;
class RunController;

/// The Runs dock's contents (issue 8 item 6): the journal's runs, newest first
/// (run id, script, status, start, duration, kind such as "rerun of RUN"), with Open,
/// Replay, Resume, Rerun from Step, Export JSON / Chrome Trace and Compare. Buttons
/// that cannot apply are disabled (nothing selected, a run in progress, Resume on a
/// run that is not suspended, Compare without exactly two runs selected).
///
/// The run the RunController runs (or ran last) is shown as the controller has it: its
/// live status (running, waiting) while the journal may still say suspended, and a
/// duration that ticks while it runs and matches the status bar ("Completed in 20.9 s").
/// A resumed run's duration counts from its latest resume (the journal's `resumed`
/// event), labelled "20.9 s since resume": the time before the studio that ran it
/// went away is not known. Started stays the run's first start.
///
/// Open, Replay and Resume change what the window shows, so they are signals; export
/// and compare only read the journal and are done here.
class RunsPanel : public QWidget
{
    Q_OBJECT
public:
    /// Shows an error to the person: a title and the message.
    using Reporter = std::function<void(const QString &title, const QString &message)>;

    /// `window` parents the file dialogs and compare windows and shows the status
    /// messages; `project` gives the open project (nullptr: none); `durable` makes the
    /// Rerun from Step button.
    RunsPanel(QMainWindow *window, RunController *run, std::function<const Project *()> project, Reporter report,
              DurableRunActions *durable);

    QTreeWidget *view() const { return m_view; }
    /// Re-reads the journal's runs (empty without a project or a journal); the
    /// controller's run as it has it.
    void refresh();
    /// "12.3 s", or "12.3 s since resume" for a run resumed at `from` (`resumed`).
    static QString durationText(qint64 from, qint64 to, bool resumed);
    /// Exports run `runId` as "json" (docs/run-export.md) or "chrome" (trace-event
    /// JSON for Perfetto) to `path` (empty: asks for a file). Failures are reported.
    bool exportRun(const QString &runId, const QString &format, QString path);
    /// Compares run `leftRun` (A) with `rightRun` (B) in a window of its own; nullptr
    /// with the error reported.
    RunComparePanel *compareRuns(const QString &leftRun, const QString &rightRun);
    /// Deletes the selected runs from the journal after asking (a live run is refused
    /// with the reason); the list is re-read.
    void deleteSelectedRuns();
    /// *Clean Up…*: prunes runs by age and/or count and compacts the journal, as chosen
    /// in a CleanUpRunsDialog; the outcome goes to the status bar, refusals and errors
    /// to the person.
    void cleanUpRuns();

Q_SIGNALS:
    /// Open (or a double-click): show run `runId`'s trace and output.
    void openRequested(const QString &runId);
    /// Replay (`resume` false) or Resume run `runId`.
    void startRequested(const QString &runId, bool resume);
    /// Runs listed before are no longer in the journal: deleted here or by another
    /// process (`toolstudio runs --delete/--prune`).
    void runsGone(const QStringList &runIds);

private:
    QString currentRun() const;
    /// Deletes `runs` (none: only re-reads the list); refusals and errors reported under
    /// `title`. How many went, or nullopt when SQLite failed (nothing went).
    std::optional<int> deleteRuns(JournalHousekeeping &house, const QStringList &runs, const QString &title);
    /// Shows the controller's run (status, duration) in its row, adding the row when the
    /// journal does not list the run yet.
    void showControllerRun();

    QMainWindow *m_window;
    RunController *m_run;
    std::function<const Project *()> m_project;
    Reporter m_report;
    QTreeWidget *m_view = nullptr;
    QTimer *m_ticker = nullptr;      ///< ticks the live run's duration
    JournalWatch *m_watch = nullptr; ///< runs written by other processes refresh the list
    QString m_listedPath;            ///< the journal the listed runs are from
    /// "Run X was suspended … [Resume] [Dismiss]": the newest suspended run, offered once
    /// per run (issue 20: a suspended run found on open is offered for Resume).
    QWidget *m_suspendedBar = nullptr;
    QLabel *m_suspendedText = nullptr;
    QString m_offeredRun;          ///< the run the bar offers
    QSet<QString> m_dismissedRuns; ///< offered and dismissed (or resumed): not again
    void offerSuspended(const std::vector<RunRecord> &newestFirst);
    QString m_watchedPath;
    /// Latest `resumed` event per run id (ms since the epoch), read by refresh().
    QHash<QString, qint64> m_resumedAt;
};
