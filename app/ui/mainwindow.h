// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project.h"
#include "step.h"

#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

#include <optional>

class AnswerDialog;
class ConsoleView;
class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QTreeView;
class RunController;
class ScriptEditor;
class TraceModel;

/// The studio's main window, first version (issue 2): a project's script in the
/// editor, Run/Stop, the trace of steps filling live, the script's output, and a
/// dialog for pending calls. It only observes RunController's signals and sends it
/// commands (start, stop, answer).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Loads the project in `dir` and its default script. On failure shows the
    /// ProjectError (see reportError) and returns false; the current project stays.
    bool openProject(const QString &dir);

    /// The open project, or nullptr.
    const Project *project() const { return m_project ? &*m_project : nullptr; }
    TraceModel *traceModel() const { return m_traceModel; }
    QTreeView *traceView() const { return m_traceView; }
    RunController *runController() const { return m_run; }
    ConsoleView *console() const { return m_console; }
    ScriptEditor *editor() const { return m_editor; }
    /// The dialog for pending calls; nullptr until the first call waits.
    AnswerDialog *answerDialog() const;
    /// Calls waiting for a person, oldest first.
    const QList<Step> &pendingCalls() const { return m_pendingCalls; }

    QAction *openAction() const { return m_openAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *answerAction() const { return m_answerAction; }

    /// The run status shown in the status bar ("Running…", "Completed in 0.4 s", …).
    QString statusText() const;
    /// The last error reported to the user; empty when none.
    QString lastError() const { return m_lastError; }
    /// Errors are shown in a (window-modal, non-blocking) message box unless disabled.
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogsEnabled = enabled; }

public Q_SLOTS:
    /// Saves the script if modified, reloads the manifest and starts a run. Returns
    /// false (error reported) when nothing could be started.
    bool run();
    /// Stops the current run.
    void stop();
    /// Writes the editor's script back to disk.
    bool save();
    /// Opens the answer dialog for the oldest pending call.
    void answerPendingCall();

Q_SIGNALS:
    /// An error was reported to the user (also in lastError()).
    void errorReported(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void connectRun();
    void readSettings();
    void writeSettings() const;
    void addRecentProject(const QString &dir);
    void updateRecentMenu();
    void updateActions();
    void updateTitle();
    void setStatus(const QString &text);
    void reportError(const QString &title, const QString &message);
    bool maybeSave();
    bool loadScript(const QString &path);
    void chooseProject();
    void scriptChosen(int index);

    void onStarted(const QString &runId);
    void onStatusChanged(RunStatus status);
    void onPendingCallOpened(const Step &step);
    void onPendingCallClosed(const QString &callId);
    void onFinished(const RunRecord &run);
    void showAnswerDialog(const Step &step);
    void showNextPendingCall();
    void traceActivated(const QModelIndex &index);
    QString waitingText() const;

    std::optional<Project> m_project;
    RunController *m_run = nullptr;
    TraceModel *m_traceModel = nullptr;
    QTreeView *m_traceView = nullptr;
    ConsoleView *m_console = nullptr;
    ScriptEditor *m_editor = nullptr;
    QPointer<AnswerDialog> m_answerDialog;
    QList<Step> m_pendingCalls;
    QSet<QString> m_dismissedCalls; ///< pending calls the person put off ("Later")

    QDockWidget *m_traceDock = nullptr;
    QDockWidget *m_consoleDock = nullptr;
    QComboBox *m_scriptCombo = nullptr;
    QLabel *m_statusLabel = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;

    QAction *m_openAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_answerAction = nullptr;
    QAction *m_resetLayoutAction = nullptr;
    QAction *m_aboutAction = nullptr;

    QByteArray m_defaultState;
    QString m_lastError;
    bool m_errorDialogsEnabled = true;
};
