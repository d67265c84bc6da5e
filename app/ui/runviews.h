// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

class BudgetMeters;
class ConsoleView;
class LiveStepStore;
class PendingCallsPanel;
class QLineEdit;
class QWidget;
class RunController;
class ScriptTabs;
class StepInspector;
class QAction;
class TraceModel;
class TracePanel;

/// The window's views of one run (DESIGN.md "The window"): the trace with its timeline
/// and budget meters, the Step inspector and the Console. They follow the live run in
/// batches, or show a run of the journal or an imported run JSON read-only. The window
/// makes the docks around them; the Pending Calls dock is the run commands'.
class RunViews : public QObject
{
    Q_OBJECT
public:
    /// Shows an error to the person: a title and the message.
    using Reporter = std::function<void(const QString &title, const QString &message)>;

    /// Makes the views (children of `window`).
    RunViews(RunController *run, PendingCallsPanel *pending, ScriptTabs *tabs, std::function<const Project *()> project,
             Reporter report, QWidget *window);
    ~RunViews() override;

    TraceModel *traceModel() const { return m_traceModel; }
    TracePanel *tracePanel() const { return m_tracePanel; }
    BudgetMeters *budget() const { return m_budget; }
    StepInspector *inspector() const { return m_inspector; }
    ConsoleView *console() const { return m_console; }
    /// The Console dock's contents: its search field above the output.
    QWidget *consolePane() const { return m_consolePane; }

    /// Another project: no run is shown, and the meters take its limits.
    void clear();
    /// A run is about to start: everything of the last one goes.
    void runStarting();
    /// The run `runId` started: steps that fall out of the kept ones are read from
    /// `journalPath`.
    void runStarted(const QString &journalPath, const QString &runId);
    /// The run ended: the trace is complete and a failed run's traceback is marked.
    void runEnded(const RunRecord &run);
    /// Shows the step `callId` in the inspector (nothing when it is unknown).
    void showStep(const QString &callId);
    /// Shows run `runId` of the project's journal, read as it is scrolled (not while a
    /// run is active). False with the error reported.
    bool showRun(const QString &runId);
    /// File ▸ Import Run…: shows a run JSON (docs/run-export.md; empty `path`: asks for
    /// a file) read-only in the trace, inspector and console. A malformed file or
    /// another format/version is refused with what was wrong and where.
    bool importRun(QString path);
    /// File ▸ Import Run… (importRun with the file asked for).
    QAction *importRunAction() const { return m_importRunAction; }
    /// Runs `runIds` were deleted from the journal: the views empty when they show one.
    void forgetRuns(const QStringList &runIds);
    /// True while the trace shows an imported run (not in the journal).
    bool showsImportedRun() const { return m_showsImportedRun; }
    /// The trace, inspector and console follow run `runId` of another controller live
    /// (the Chat dock's chat run, issue 19): its steps so far from `journalPath`, then
    /// each step, event and output as it happens — unless the window's own run is active,
    /// which always has the views. Following ends when the window's run starts, another
    /// run is shown, or `other` goes. The window's meters and Pending Calls stay the
    /// window's run's: the chat's calls are decided in the Chat dock.
    void follow(RunController *other, const QString &journalPath, const QString &runId);
    /// The run followed live (follow()), or empty.
    QString followedRun() const;

Q_SIGNALS:
    /// The trace's current step changed (empty: none); the inspector shows it.
    void currentStepChanged(const QString &callId);
    /// A short note for the status bar (`timeoutMs` as QStatusBar::showMessage).
    void notice(const QString &text, int timeoutMs);
    /// A run JSON was imported: `summary` says which run, how it ended, how many steps.
    void runImported(const QString &summary);

private:
    /// No run is shown: the trace, inspector, console and Pending Calls are empty.
    void empty();
    void makeConsolePane(QWidget *window);
    /// A batch of the shown run's steps; `own`: of the window's run (meters and Pending
    /// Calls take them too).
    void stepsUpdated(const QList<Step> &steps, bool own = true);
    void unfollow();

    RunController *m_run;
    QWidget *m_window;
    std::function<const Project *()> m_project;
    Reporter m_report;
    PendingCallsPanel *m_pending;
    ScriptTabs *m_tabs;
    TraceModel *m_traceModel = nullptr;
    TracePanel *m_tracePanel = nullptr;
    BudgetMeters *m_budget = nullptr;
    StepInspector *m_inspector = nullptr;
    QWidget *m_consolePane = nullptr;
    QLineEdit *m_consoleSearch = nullptr;
    ConsoleView *m_console = nullptr;
    /// Whole steps of the run shown (the last ones in memory, older ones from the journal).
    std::unique_ptr<LiveStepStore> m_liveSteps;
    int m_markedSequence = 0; ///< the live run's steps up to this one have a console marker
    QByteArray m_stderr;      ///< the run's stderr, for traceback markers
    bool m_showsImportedRun = false;
    QString m_shownRunId; ///< the journal's run shown (live or opened); empty: none, or imported
    QAction *m_importRunAction = nullptr;
    QPointer<RunController> m_followed;             ///< follow(): the other controller
    QList<QMetaObject::Connection> m_followSignals; ///< its signals to the views
};
