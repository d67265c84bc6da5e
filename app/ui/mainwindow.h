// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"

#include <functional>

#include <QMainWindow>

class ElidedLabel;
class McpServersView;
class ProjectActions;
class ProjectServing;
class DurableRunActions;
class EditorActions;
class EditorArea;
class StepModeActions;
class PendingCallsPanel;
class PresenterView;
class ProjectSession;
class ToolFilesReloader;
class RunsPanel;
class RunCommands;
class DockLayout;
class ConsoleView;
class RunViews;
class ManifestEditor;
class HelpMenu;
class StepInspector;
class ProjectPanel;
class QAction;
class QDockWidget;
class QLabel;
class QLockFile;
class QMenu;
class QUndoStack;
class RunController;
class ScriptBox;
class ScriptEditor;
class ScriptTabs;
class ToolPanel;
class ToolsMenu;
class TraceModel;
class TracePanel;
class WindowChat;

/// The studio's main window (DESIGN.md "The window"): docks — Project, Tool, Trace,
/// Step, Pending calls, Console, Runs — around a tabbed editor; Run/Stop; structured
/// edits of toolstudio.json with undo; settings through Settings. It only observes
/// RunController's signals and sends it commands (start, stop, answer).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Loads the project in `dir` and its default script. On failure shows the
    /// ProjectError (see reportError) and returns false; the current project stays.
    bool openProject(const QString &dir);

    /// File ▸ New Project…, New Tool…, New Script…, Open Project…, Open Recent.
    ProjectActions *projectActions() const { return m_projectActions; }
    HelpMenu *helpMenu() const { return m_helpMenu; }

    /// The open project, or nullptr.
    const Project *project() const;
    TraceModel *traceModel() const { return m_traceModel; }
    RunController *runController() const { return m_run; }
    ConsoleView *console() const { return m_console; }
    ProjectPanel *projectPanel() const { return m_projectPanel; }
    ToolPanel *toolPanel() const { return m_toolPanel; }
    ToolsMenu *toolsMenu() const { return m_toolsMenu; }
    StepInspector *stepInspector() const { return m_inspector; }
    /// The Trace dock's contents: filter bar, budget meters, timeline and step tree.
    TracePanel *tracePanel() const { return m_tracePanel; }
    /// Rerun from Step and cassettes (Run menu, Runs dock, trace context menu).
    DurableRunActions *durableActions() const { return m_durable; }
    /// Run ▸ Continue Held Call, Answer Instead…, Fail Held Call…, Continue to End.
    StepModeActions *stepModeActions() const { return m_stepActions; }
    /// File ▸ Serve Project… and the served runs shown live (docs/server.md).
    ProjectServing *serving() const { return m_serving; }
    /// The trace, Step inspector, Console and meters of the run shown (live, from the
    /// journal, or imported).
    RunViews *runViews() const { return m_runViews; }
    /// The Pending Calls dock: open calls and the answer to the selected one.
    PendingCallsPanel *pendingPanel() const { return m_pendingPanel; }
    /// The Runs dock's contents: the journal's runs and their commands.
    RunsPanel *runsPanel() const { return m_runsPanel; }

    /// Opens `path` in a tab (or shows its tab). False with the error reported on failure.
    bool openFile(const QString &path);
    /// The structured, undoable edits of toolstudio.json (the project reloads after each).
    ManifestEditor *manifestEditor() const { return m_manifest; }
    /// Reloads toolstudio.json into the panels (after an edit or an outside change);
    /// false with the reason in the status bar (and in `failure`).
    bool reloadProject(ProjectError *failure = nullptr);

    /// The trust bar, script tabs and find bar, with Save, Close File, Find…, Find and
    /// Replace… and Go to Line….
    EditorArea *editorArea() const { return m_editorArea; }
    QAction *settingsAction() const { return m_settingsAction; }

    /// Run, Stop, Answer Pending Call; runs started, replayed and resumed.
    RunCommands *runCommands() const { return m_runCommands; }
    /// Saves every modified editor tab (an error is reported); false when one failed.
    bool saveModifiedScripts();
    /// Sets the run status in the status bar.
    void setStatus(const QString &text);
    /// Shows an error to the person (window-modal, never blocking) and keeps it as
    /// lastError(); errorReported() says it.
    void reportError(const QString &title, const QString &message);

    /// The run status shown in the status bar ("Running…", "Completed in 0.4 s", …).
    QString statusText() const;
    /// The last error reported to the user; empty when none.
    QString lastError() const { return m_lastError; }
    /// Errors are shown in a (window-modal, non-blocking) message box unless disabled.
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogsEnabled = enabled; }

Q_SIGNALS:
    /// An error was reported to the user (also in lastError()).
    void errorReported(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void connectRun();
    void updateActions();
    /// Shows the project the session holds in the toolbar, panels and editor area:
    /// `opened` after Open (its first tool), else after a reload (the tool kept).
    void present(bool opened);
    void trustProject();
    void updateTitle();
    /// reportError() for the window's parts (docks, editors) to report through.
    std::function<void(const QString &title, const QString &message)> errorReporter();

    ProjectSession *m_session = nullptr; ///< the open project: read, locked, its MCP servers
    RunController *m_run = nullptr;
    TraceModel *m_traceModel = nullptr;
    ConsoleView *m_console = nullptr;
    EditorArea *m_editorArea = nullptr; ///< trust bar, script tabs, find bar
    ScriptTabs *m_tabs = nullptr;
    ProjectPanel *m_projectPanel = nullptr;
    ToolPanel *m_toolPanel = nullptr;
    ToolsMenu *m_toolsMenu = nullptr;
    ToolFilesReloader *m_toolFilesReloader = nullptr; ///< tools/*.py changes → reloadProject (after a run)
    StepInspector *m_inspector = nullptr;
    TracePanel *m_tracePanel = nullptr;
    RunViews *m_runViews = nullptr; ///< trace, Step, Console and meters of the run shown
    PendingCallsPanel *m_pendingPanel = nullptr;
    RunsPanel *m_runsPanel = nullptr;
    ProjectServing *m_serving = nullptr;
    ManifestEditor *m_manifest = nullptr; ///< undoable edits of toolstudio.json

    QDockWidget *m_projectDock = nullptr;
    McpServersView *m_mcpServers = nullptr; ///< in m_mcpDock, shown for a project with MCP servers
    QDockWidget *m_mcpDock = nullptr;
    QDockWidget *m_toolDock = nullptr;
    QDockWidget *m_traceDock = nullptr;
    QDockWidget *m_stepDock = nullptr;
    QDockWidget *m_pendingDock = nullptr;
    QDockWidget *m_consoleDock = nullptr;
    QDockWidget *m_runsDock = nullptr;
    WindowChat *m_chat = nullptr; ///< the Chat dock: a conversation with a model over the project's tools
    ScriptBox *m_scriptCombo = nullptr;
    ElidedLabel *m_statusLabel = nullptr; ///< one line, the whole text in its tooltip
    QMenu *m_viewMenu = nullptr;

    QAction *m_quitAction = nullptr;
    QAction *m_settingsAction = nullptr;
    HelpMenu *m_helpMenu = nullptr;
    ProjectActions *m_projectActions = nullptr;
    DurableRunActions *m_durable = nullptr;
    RunCommands *m_runCommands = nullptr; ///< owns Run, Stop, Answer
    DockLayout *m_layout = nullptr;       ///< makes and arranges the docks; owns Reset Layout
    PresenterView *m_presenter = nullptr; ///< View ▸ Zoom and Presenter Layout
    StepModeActions *m_stepActions = nullptr;

    QString m_lastError;
    bool m_errorDialogsEnabled = true;
    /// The status bar shows why the manifest did not load; the next good load puts
    /// m_statusBeforeLoadError back.
    bool m_showsLoadError = false;
    QString m_statusBeforeLoadError;
    bool m_manifestChangedDuringRun = false; ///< reload when the run ends
};
