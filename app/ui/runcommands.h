// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class ConsoleView;
class PendingCallsPanel;
class QAction;
class QDockWidget;
class QStatusBar;
class QWidget;
class RunController;

/// The window's run commands (DESIGN.md "The window"): it owns Run (F5), Stop
/// (Shift+F5) and Answer Pending Call (F6) as actions the window only places (hotspot's
/// FilterAndZoomStack), starts runs, replays and resumes, and turns the run's news into
/// the status line, the console's start and end notices and the Pending Calls dock.
/// What belongs to the window's other parts it reaches through Hooks.
class RunCommands : public QObject
{
    Q_OBJECT
public:
    struct Hooks
    {
        std::function<const Project *()> project;
        /// The script chosen in the toolbar (absolute; empty when none).
        std::function<QString()> scriptPath;
        /// Before Run: saves the modified scripts and reloads toolstudio.json; false
        /// when that failed (reported).
        std::function<bool()> prepareRun;
        /// Empties the trace, inspector, console and meters for a new run.
        std::function<void()> resetRunViews;
        /// A run started: the views follow it (its journal, console markers).
        std::function<void(const QString &runId)> runStarted;
        /// The run ended, before the status says how: the views finish it.
        std::function<void(const RunRecord &run)> runEnded;
        /// After the status says how the run ended (a reload that waited for it).
        std::function<void()> afterRunEnded;
        std::function<void(const QString &text)> setStatus;
        std::function<void(const QString &title, const QString &message)> reportError;
        /// The window's actions follow the run's state.
        std::function<void()> updateActions;
    };

    /// Makes the actions (the window places them in its menus and toolbar).
    RunCommands(RunController *run, Hooks hooks, QObject *parent);
    /// Follows the run from now on, with the window's docks (made after the actions).
    void attach(PendingCallsPanel *pending, QDockWidget *pendingDock, ConsoleView *console, QStatusBar *statusBar);

    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *answerAction() const { return m_answerAction; }

    /// Saves the script if modified, reloads the manifest and starts a run. False
    /// (error reported) when nothing could be started.
    bool run();
    void stop();
    /// Replays (`resume` false) or resumes run `runId` of the journal.
    void startFromJournal(const QString &runId, bool resume);
    /// Starts a run with `start` (returns false with the reason): the run views are
    /// reset first; a refusal is reported under `failTitle`; `statusText` while it runs.
    bool startRunWith(const QString &failTitle, const QString &statusText, const std::function<bool(QString *)> &start);
    /// Shows the oldest pending call's answer (F6); with only calls held by step mode,
    /// the selected (or first) held one with Continue focused.
    void answerPendingCall();
    /// Selects `callId` in the Pending Calls dock and focuses its answer.
    void showPendingCall(const QString &callId);
    /// Run/Stop/Answer follow the run and the project: Run needs a trusted project
    /// with a script; Answer an open call of a run (or of a served run, `serving`).
    void updateActions(bool serving);
    const QList<Step> &pendingCalls() const;
    /// The script chosen in the toolbar (absolute; empty when none).
    QString scriptPath() const { return m_hooks.scriptPath(); }
    /// Before the window closes: with a run active, asks whether to keep it for later
    /// (suspended, resumable) or stop it. False when the person cancelled.
    bool mayClose(QWidget *window);
    /// The project's Python tool files were described (ProjectSession): a Run, Replay
    /// or Resume pressed while they loaded starts now.
    void toolsLoaded();
    /// Another project was opened: a start waiting for the last one's tools is dropped.
    void dropWaitingStart() { m_whenToolsLoaded = nullptr; }

private:
    /// While the Python tools load, keeps `start` for toolsLoaded() and says so; true
    /// when it was kept.
    bool waitForTools(std::function<void()> start);
    void onStarted(const QString &runId);
    void onStatusChanged(RunStatus status);
    void onPendingCallOpened(const Step &step);
    void onStepPaused(const Step &step);
    void onPendingCallClosed(const QString &callId);
    /// Shows `message` about call `callId` in the status bar for 5 s, or until the call closes.
    void announce(const QString &callId, const QString &message);
    void onFinished(const RunRecord &run);
    void showPendingDock();
    QString waitingText() const;

    RunController *m_run = nullptr;
    PendingCallsPanel *m_pending = nullptr;
    QDockWidget *m_pendingDock = nullptr;
    ConsoleView *m_console = nullptr;
    QStatusBar *m_statusBar = nullptr;
    QString m_announcedCall; ///< the call the status bar's last message is about
    QString m_announced;     ///< that message (cleared when the call closes)
    Hooks m_hooks;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_answerAction = nullptr;
    std::function<void()> m_whenToolsLoaded;
};
