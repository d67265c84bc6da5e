// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "mcp/mcpserverpool.h"
#include "mcpserversview.h"

#include "consoleview.h"
#include "docklayout.h"
#include "durablerunactions.h"
#include "editoractions.h"
#include "findbar.h"
#include "helpmenu.h"
#include "manifesteditor.h"
#include "newprojectdialog.h"
#include "pendingcallspanel.h"
#include "project/projecttrust.h"
#include "project/projectwriter.h"
#include "projectactions.h"
#include "projectpanel.h"
#include "projectserving.h"
#include "projectsession.h"
#include "run/runcontroller.h"
#include "runcommands.h"
#include "runspanel.h"
#include "runviews.h"
#include "scriptbox.h"
#include "scripteditor.h"
#include "scripttabs.h"
#include "settings.h"
#include "settingsdialog.h"
#include "stepinspector.h"
#include "stepmodeactions.h"
#include "theme.h"
#include "toolfilesreloader.h"
#include "toolpanel.h"
#include "toolsmenu.h"
#include "tracepanel.h"
#include "trustbar.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QLockFile>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_session(new ProjectSession(this))
    , m_run(new RunController(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    Theme::rememberSystemPalette(); // before a theme changes it
    m_manifest = new ManifestEditor(
        this, [this] { return project(); }, [this] { reloadProject(); }, errorReporter());
    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::fileChangedOnDisk);

    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    m_tabs = new ScriptTabs(m_watcher, errorReporter(), central);
    connect(m_tabs, &ScriptTabs::currentModifiedChanged, this, &QWidget::setWindowModified);
    connect(m_tabs, &ScriptTabs::notice, statusBar(), &QStatusBar::showMessage);
    m_findBar = new FindBar(central);
    m_findBar->setObjectName(QStringLiteral("findBar"));
    m_findBar->hide();
    m_trustBar = new TrustBar(central);
    connect(m_trustBar, &TrustBar::trustRequested, this, &MainWindow::trustProject);
    centralLayout->addWidget(m_trustBar);
    centralLayout->addWidget(m_tabs, 1);
    centralLayout->addWidget(m_findBar);
    setCentralWidget(central);
    connect(m_tabs, &QTabWidget::tabCloseRequested, m_tabs, &ScriptTabs::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_findBar->setEditor(m_tabs->current());
        if (ScriptEditor *e = m_tabs->current())
            m_scriptCombo->selectPath(e->filePath());
        updateTitle();
        updateActions();
    });

    m_durable = new DurableRunActions(this);
    m_serving = new ProjectServing(this);
    createActions();
    createMenus();
    createDocks();
    connectRun();
    m_durable->connectWindow();

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("runStatus"));
    statusBar()->addWidget(m_statusLabel, 1);
    setStatus(tr("Open a project to start (File ▸ Open Project…)"));

    resize(1280, 820);
    m_layout->restore(); // the layout as built is Reset Layout's; then the user's
    Settings *settings = Settings::instance();
    connect(settings, &Settings::changed, this, &MainWindow::applySettings);
    Theme::apply(settings->theme());
    updateTitle();
    updateActions();
}

const Project *MainWindow::project() const
{
    return m_session->project();
}

MainWindow::~MainWindow()
{
    if (m_run->isActive())
        m_run->stop();
}

void MainWindow::createActions()
{
    m_importRunAction = new QAction(tr("&Import Run…"), this);
    m_importRunAction->setStatusTip(tr("Show a run exported as JSON, read-only (docs/run-export.md)"));
    connect(m_importRunAction, &QAction::triggered, this, [this] { m_runViews->importRun({}); });

    ProjectActions::Hooks projectHooks;
    projectHooks.project = [this] { return project(); };
    projectHooks.openProject = [this](const QString &dir) { return openProject(dir); };
    projectHooks.reloadProject = [this] { reloadProject(); };
    projectHooks.openFile = [this](const QString &path) { return openFile(path); };
    projectHooks.editManifest
        = [this](const QString &text, const ProjectWriter::Edit &edit) { return m_manifest->edit(text, edit); };
    projectHooks.setStatus = [this](const QString &text) { setStatus(text); };
    m_projectActions = new ProjectActions(std::move(projectHooks), this);

    m_quitAction = new QAction(Theme::icon("application-exit", "quit"), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    // Run, Stop and Answer Pending Call belong to the run commands; placed here.
    RunCommands::Hooks hooks;
    hooks.project = [this] { return project(); };
    hooks.scriptPath = [this] { return m_scriptCombo->currentPath(); };
    hooks.prepareRun = [this] { return saveModifiedScripts() && reloadForRun(); };
    hooks.resetRunViews = [this] { m_runViews->runStarting(); };
    hooks.runStarted = [this](const QString &runId) {
        m_runViews->runStarted(project() ? project()->journalPath() : QString(), runId);
    };
    hooks.runEnded = [this](const RunRecord &run) {
        m_runViews->runEnded(run);
        m_runsPanel->refresh();
    };
    hooks.afterRunEnded = [this] {
        if (std::exchange(m_manifestChangedDuringRun, false) || (project() && project()->pythonLoading))
            reloadProject();
    };
    hooks.setStatus = [this](const QString &text) { setStatus(text); };
    hooks.reportError = errorReporter();
    hooks.updateActions = [this] { updateActions(); };
    m_editorActions = new EditorActions(m_tabs, m_findBar, centralWidget(), errorReporter());
    connect(m_editorActions, &EditorActions::notice, statusBar(), &QStatusBar::showMessage);
    connect(m_editorActions, &EditorActions::saved, this, [this](const QString &path) {
        if (project() && path == QFileInfo(project()->manifestPath()).absoluteFilePath())
            reloadProject();
    });
    m_runCommands = new RunCommands(m_run, std::move(hooks), this);

    m_layout = new DockLayout(this);

    // Imports write toolstudio.json outside the undo stack: older undo steps would
    // write a manifest without the imported tools back, so they are dropped.
    m_toolsMenu = new ToolsMenu(
        this, [this] { return project(); },
        [this] {
            m_manifest->undoStack()->clear();
            reloadProject();
        });
    m_toolsMenu->setManifestEditor(
        [this](const QString &text, const ProjectWriter::Edit &edit) { return m_manifest->edit(text, edit); });

    m_settingsAction = new QAction(Theme::icon("preferences-system", "settings"), tr("&Preferences…"), this);
    m_settingsAction->setShortcut(QKeySequence::Preferences);
    m_settingsAction->setMenuRole(QAction::PreferencesRole);
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::showSettings);

    m_pendingPanel = new PendingCallsPanel(m_run, this);
    m_pendingPanel->setObjectName(QStringLiteral("pendingPanel"));
    m_pendingPanel->setToolLookup([this](const QString &name) { return project() ? project()->tool(name) : nullptr; });
    m_stepActions = new StepModeActions(
        m_run, m_pendingPanel,
        [this] {
            m_pendingDock->show();
            m_pendingDock->raise();
        },
        this);

    m_runViews = new RunViews(
        m_run, m_pendingPanel, m_tabs, [this] { return project(); }, errorReporter(), this);
    connect(m_runViews, &RunViews::runImported, this, [this](const QString &summary) {
        m_traceDock->show();
        m_traceDock->raise();
        setStatus(summary);
    });
    m_tracePanel = m_runViews->tracePanel();
    m_inspector = m_runViews->inspector();
    m_console = m_runViews->console();
    m_traceModel = m_runViews->traceModel();

    m_helpMenu = new HelpMenu(this, [this](const QString &folder, const QString &templateName) {
        m_projectActions->newProject(folder)->selectTemplate(templateName);
    });
}

void MainWindow::createMenus()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    m_projectActions->addTo(fileMenu);
    fileMenu->addSeparator();
    fileMenu->addActions({m_editorActions->saveAction(), m_editorActions->closeTabAction()});
    fileMenu->addSeparator();
    fileMenu->addActions({m_importRunAction, m_serving->serveAction()});
    fileMenu->addSeparator();
    fileMenu->addAction(m_quitAction);

    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->addAction(m_manifest->undoAction());
    editMenu->addAction(m_manifest->redoAction());
    editMenu->addSeparator();
    editMenu->addAction(m_editorActions->findAction());
    editMenu->addAction(m_editorActions->replaceAction());
    editMenu->addAction(m_editorActions->goToLineAction());
    editMenu->addSeparator();
    editMenu->addAction(m_settingsAction);

    QMenu *toolsMenu = menuBar()->addMenu(tr("&Tools"));
    toolsMenu->addAction(m_manifest->newToolAction());
    toolsMenu->addSeparator();
    toolsMenu->addActions(m_toolsMenu->actions());

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(m_runCommands->runAction());
    runMenu->addAction(m_runCommands->stopAction());
    runMenu->addAction(m_stepActions->stepModeAction());
    runMenu->addActions(m_stepActions->actions());
    runMenu->addSeparator();
    runMenu->addAction(m_tracePanel->nextPendingAction());
    runMenu->addAction(m_tracePanel->nextFailedAction());
    runMenu->addSeparator();
    runMenu->addAction(m_runCommands->answerAction());
    runMenu->addSeparator();
    m_durable->addTo(runMenu);

    m_viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    m_helpMenu->addTo(helpMenu);

    QToolBar *toolBar = addToolBar(tr("Run"));
    toolBar->setObjectName(QStringLiteral("runToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_projectActions->openAction());
    toolBar->addAction(m_editorActions->saveAction());
    toolBar->addSeparator();
    auto *scriptLabel = new QLabel(tr("Script:"), toolBar);
    scriptLabel->setContentsMargins(6, 0, 4, 0);
    toolBar->addWidget(scriptLabel);
    m_scriptCombo = new ScriptBox(toolBar);
    scriptLabel->setBuddy(m_scriptCombo);
    toolBar->addWidget(m_scriptCombo);
    connect(m_scriptCombo, &QComboBox::activated, this, &MainWindow::scriptChosen);
    toolBar->addSeparator();
    toolBar->addAction(m_runCommands->runAction());
    toolBar->addAction(m_runCommands->stopAction());
    toolBar->addAction(m_stepActions->stepModeAction());
    toolBar->addAction(m_runCommands->answerAction());
}

void MainWindow::createDocks()
{
    const auto makeDock = [this](const QString &title, const char *name, QWidget *widget, Qt::DockWidgetArea area) {
        return m_layout->add(title, name, widget, area);
    };

    m_projectPanel = new ProjectPanel(this);
    m_projectPanel->setObjectName(QStringLiteral("projectPanel"));
    m_projectDock = makeDock(tr("Project"), "projectDock", m_projectPanel, Qt::LeftDockWidgetArea);
    m_mcpServers = new McpServersView(this);
    m_mcpDock = makeDock(tr("MCP Servers"), "mcpDock", m_mcpServers, Qt::LeftDockWidgetArea);
    tabifyDockWidget(m_projectDock, m_mcpDock);
    m_mcpDock->hide(); // startMcpServers() shows it for a project with servers
    m_projectDock->raise();
    connect(m_projectPanel, &ProjectPanel::toolSelected, this, [this](const QString &tool) {
        m_toolPanel->setTool(project(), tool);
        m_toolDock->raise(); // it shares its place with Step and Pending Calls
    });
    connect(m_projectPanel, &ProjectPanel::scriptActivated, this, [this](const QString &path) { openFile(path); });
    connect(m_projectPanel, &ProjectPanel::manifestEditRequested, m_manifest, &ManifestEditor::edit);
    connect(m_projectPanel, &ProjectPanel::newToolRequested, m_manifest, &ManifestEditor::newTool);
    connect(m_projectPanel, &ProjectPanel::renameToolRequested, m_manifest, &ManifestEditor::renameTool);
    connect(m_projectPanel, &ProjectPanel::cloneToolRequested, m_manifest, &ManifestEditor::cloneTool);
    connect(m_manifest, &ManifestEditor::toolWritten, m_projectPanel, &ProjectPanel::selectTool);
    connect(m_projectPanel, &ProjectPanel::deleteToolsRequested, m_toolsMenu, &ToolsMenu::deleteTools);
    connect(m_projectPanel, &ProjectPanel::requirementsInstalled, this, &MainWindow::reloadProject);
    m_projectPanel->addActions({m_manifest->undoAction(), m_manifest->redoAction()});

    m_toolPanel = new ToolPanel(this);
    m_toolPanel->setObjectName(QStringLiteral("toolPanel"));
    m_toolDock = makeDock(tr("Tool"), "toolDock", m_toolPanel, Qt::LeftDockWidgetArea);
    connect(m_toolPanel, &ToolPanel::callFinished, this, [this] { m_runsPanel->refresh(); });
    connect(m_toolPanel, &ToolPanel::manifestEditRequested, m_manifest, &ManifestEditor::edit);
    m_toolPanel->addActions({m_manifest->undoAction(), m_manifest->redoAction()});

    m_pendingDock = makeDock(tr("Pending Calls"), "pendingDock", m_pendingPanel, Qt::LeftDockWidgetArea);

    connect(m_runViews, &RunViews::currentStepChanged, this, [this](const QString &callId) {
        // Step shares its place with Tool and Pending Calls; an open call keeps its tab.
        if (!callId.isEmpty() && m_pendingPanel->openCount() == 0)
            m_stepDock->raise();
    });
    connect(m_runViews, &RunViews::notice, statusBar(), &QStatusBar::showMessage);
    connect(m_tracePanel, &TracePanel::stepActivated, this, &MainWindow::traceActivated);
    m_traceDock = makeDock(tr("Trace"), "traceDock", m_tracePanel, Qt::RightDockWidgetArea);
    m_stepDock = makeDock(tr("Step"), "stepDock", m_inspector, Qt::LeftDockWidgetArea);
    connect(m_pendingPanel, &PendingCallsPanel::openCountChanged, this, [this](int open) {
        m_pendingDock->setWindowTitle(open == 0 ? tr("Pending Calls") : tr("Pending Calls (%1)").arg(open));
        updateActions();
    });

    m_consoleDock = makeDock(tr("Console"), "consoleDock", m_runViews->consolePane(), Qt::BottomDockWidgetArea);

    m_runsPanel = new RunsPanel(
        this, m_run, [this] { return project(); }, errorReporter(), m_durable);
    connect(m_runsPanel, &RunsPanel::openRequested, m_runViews, &RunViews::showRun);
    connect(m_runsPanel, &RunsPanel::startRequested, this, &MainWindow::startFromJournal);
    m_runsDock = makeDock(tr("Runs"), "runsDock", m_runsPanel, Qt::BottomDockWidgetArea);

    m_layout->arrange({m_projectDock, m_toolDock, m_traceDock, m_stepDock, m_pendingDock, m_consoleDock, m_runsDock},
                      m_viewMenu);
}

void MainWindow::connectRun()
{
    m_runCommands->attach(m_pendingPanel, m_pendingDock, m_console, statusBar());
    // Saving, adding or removing a tools/*.py file changes the tools a model sees;
    // during a run the reload waits for its end.
    m_toolFilesReloader = new ToolFilesReloader(
        m_run, [this] { reloadProject(); }, this);
    connect(m_toolFilesReloader, &ToolFilesReloader::notice, statusBar(), &QStatusBar::showMessage);
    // The Python tool files were described (off the GUI thread): the project is whole
    // now; a Run pressed while they loaded starts.
    connect(m_session, &ProjectSession::pythonToolsDescribed, this, [this] {
        if (m_run->isActive())
            return; // after the run (hooks.afterRunEnded)
        reloadProject();
        // As an open with the tools at hand would: the first tool is shown.
        if (m_projectPanel->currentTool().isEmpty() && !project()->tools.empty())
            m_projectPanel->selectTool(project()->tools.front().name);
        if (m_whenPythonLoaded && !project()->pythonLoading)
            std::exchange(m_whenPythonLoaded, nullptr)();
    });
    connect(m_session, &ProjectSession::mcpServersStarted, this, [this](McpServerPool *pool) {
        m_mcpDock->setVisible(project() && !project()->mcpServers.empty());
        m_mcpServers->setPool(pool);
    });
    connect(m_session, &ProjectSession::mcpToolsChanged, this, [this](const QStringList &problems) {
        m_projectPanel->setProject(project());
        updateCompletions();
        if (!problems.isEmpty())
            setStatus(problems.join(QStringLiteral("; ")));
    });
}

bool MainWindow::openProject(const QString &dir)
{
    if (m_run->isActive()) {
        reportError(tr("Open Project"), tr("Stop the run before opening another project."));
        return false;
    }
    ProjectError error;
    std::optional<Project> opened = m_session->read(dir, &error);
    if (!opened && QFileInfo(dir).isDir()
        && !QFileInfo::exists(QDir(dir).filePath(QStringLiteral("toolstudio.json")))) {
        // A folder that is not a project yet: offer to make one there.
        m_projectActions->newProject(
            QDir(dir).absolutePath(),
            tr("%1 has no toolstudio.json, so it is not a Tool Studio project yet. Make one here from a "
               "template:")
                .arg(QDir::toNativeSeparators(QDir(dir).absolutePath())));
        return false;
    }
    if (!opened) {
        reportError(tr("Cannot Open Project"), error.toString());
        return false;
    }
    // One window per project: the lock lives in the project's .toolstudio/.
    std::unique_ptr<QLockFile> lock;
    QString lockError;
    if (!m_session->lock(*opened, &lock, &lockError)) {
        reportError(tr("Project Already Open"), lockError);
        return false;
    }
    const bool sameProject = project() && project()->dir == opened->dir;
    if (!m_tabs->maybeSaveAll())
        return false;
    if (!sameProject) {
        m_serving->stop();           // the last project is served no more
        statusBar()->clearMessage(); // a note about the last project's run is not about this one
    }

    m_session->adopt(std::move(*opened), std::move(lock));
    m_whenPythonLoaded = nullptr;
    m_toolFilesReloader->setProjectDir(project()->dir);
    m_runViews->clear();
    m_manifest->undoStack()->clear();

    m_tabs->closeAll();
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_watcher->addPath(project()->manifestPath());

    m_scriptCombo->clear(); // a new project: its default script, not the old choice
    m_scriptCombo->setProject(project());
    m_showsLoadError = false;

    m_projectActions->addRecentProject(project()->dir);
    m_projectPanel->setProject(project());
    m_toolPanel->setTool(project(), QString());
    if (!project()->tools.empty())
        m_projectPanel->selectTool(project()->tools.front().name);
    if (m_scriptCombo->currentIndex() >= 0)
        openFile(m_scriptCombo->currentPath());
    else
        setStatus(tr("The project has no script."));
    if (m_tabs->current())
        setStatus(tr("Ready"));
    m_runsPanel->refresh();
    updateTitle();
    updateTrustBar();
    updateActions();
    return true;
}

bool MainWindow::reloadProject()
{
    if (!project())
        return false;
    ProjectError error;
    std::optional<Project> reloaded = m_session->read(project()->dir, &error);
    if (!reloaded) {
        if (!m_showsLoadError)
            m_statusBeforeLoadError = statusText();
        m_showsLoadError = true;
        setStatus(tr("toolstudio.json: %1").arg(error.toString()));
        return false;
    }
    const bool wasTrusted = project()->trusted;
    m_session->adopt(std::move(*reloaded));
    // The toolbar follows the manifest: its scripts, the one Run starts, the status.
    m_scriptCombo->setProject(project());
    if (m_showsLoadError) {
        m_showsLoadError = false;
        setStatus(m_statusBeforeLoadError);
    }
    if (!m_run->isActive()) {
        if (m_scriptCombo->currentIndex() < 0)
            setStatus(tr("The project has no script."));
        else if (statusText() == tr("The project has no script."))
            setStatus(tr("Ready"));
    }
    if (!m_tabs->current() && m_scriptCombo->currentIndex() >= 0)
        openFile(m_scriptCombo->currentPath());
    const QString selected = m_projectPanel->currentTool();
    m_projectPanel->setProject(project());
    m_toolPanel->setTool(project(), m_projectPanel->currentTool().isEmpty() ? selected : m_projectPanel->currentTool());
    updateCompletions();
    // "Stay Restricted" holds until the next open, unless what would run changes again.
    if (project()->trusted || wasTrusted || m_trustBar->isVisible())
        updateTrustBar();
    updateActions();
    return true;
}

void MainWindow::updateTrustBar()
{
    if (!project() || project()->trusted)
        m_trustBar->hide();
    else
        m_trustBar->showFor(ProjectTrust::check(project()->dir));
}

void MainWindow::trustProject()
{
    if (!project())
        return;
    QString error, note;
    const bool ok = ProjectTrust::grant(project()->dir, &error, &note);
    if (!note.isEmpty())
        setStatus(note);
    if (!ok) {
        reportError(tr("Cannot Trust Project"), error);
        return;
    }
    m_trustBar->hide();
    reloadProject(); // now its Python tool files load
    setStatus(tr("The project is trusted: its tools load and it may run."));
}

bool MainWindow::openFile(const QString &path)
{
    QString error;
    if (!m_tabs->openFile(path, &error)) {
        setStatus(error);
        reportError(tr("Cannot Open Script"), error);
        return false;
    }
    updateCompletions();
    updateTitle();
    updateActions();
    return true;
}

void MainWindow::scriptChosen(int index)
{
    openFile(m_scriptCombo->itemData(index, ScriptBox::PathRole).toString());
    updateActions();
}

void MainWindow::updateCompletions()
{
    QStringList entries;
    if (project()) {
        for (const Tool &tool : project()->tools) {
            const QString params = tool.parameterOrder.join(QStringLiteral(", "));
            entries.append(QStringLiteral("tools.%1(%2)").arg(tool.name, params));
            entries.append(QStringLiteral("%1(%2)").arg(tool.name, params));
        }
    }
    m_tabs->setToolCompletions(entries);
}

void MainWindow::fileChangedOnDisk(const QString &path)
{
    // Editors that save atomically replace the file: watch the new one.
    if (QFileInfo::exists(path) && !m_watcher->files().contains(path))
        m_watcher->addPath(path);
    if (project() && path == project()->manifestPath()) {
        if (m_run->isActive())
            m_manifestChangedDuringRun = true; // the run keeps the manifest it started with
        else
            reloadProject();
        return;
    }
    m_tabs->reloadChanged(path);
}

bool MainWindow::saveModifiedScripts()
{
    // A run executes the files on disk, so what is shown is what runs.
    return m_tabs->saveModified();
}

bool MainWindow::reloadForRun()
{
    // Pick up edits to toolstudio.json made since the project was opened.
    ProjectError loadError;
    std::optional<Project> reloaded = m_session->read(project()->dir, &loadError);
    if (!reloaded) {
        setStatus(tr("Failed: %1").arg(loadError.toString()));
        reportError(tr("Cannot Run"), loadError.toString());
        return false;
    }
    m_session->adopt(std::move(*reloaded));
    m_projectPanel->setProject(project());
    m_scriptCombo->setProject(project());
    if (project()->pythonLoading) {
        // tools/*.py changed since they were last described: the run starts once they are.
        m_whenPythonLoaded = [this] { m_runCommands->run(); };
        setStatus(tr("Loading the Python tools… the run starts when they are loaded."));
        updateActions();
        return false;
    }
    return true;
}

void MainWindow::traceActivated(const QString &callId)
{
    if (std::any_of(m_pendingPanel->pendingCalls().begin(), m_pendingPanel->pendingCalls().end(),
                    [&](const Step &s) { return s.callId == callId; }))
        m_runCommands->showPendingCall(callId);
}

void MainWindow::setStatus(const QString &text)
{
    m_statusLabel->setText(text);
}

QString MainWindow::statusText() const
{
    return m_statusLabel->text();
}

std::function<void(const QString &, const QString &)> MainWindow::errorReporter()
{
    return [this](const QString &title, const QString &message) { reportError(title, message); };
}

void MainWindow::reportError(const QString &title, const QString &message)
{
    m_lastError = message;
    Q_EMIT errorReported(message);
    if (!m_errorDialogsEnabled)
        return;
    // Window-modal and opened with open(): never blocks the event loop (runs keep
    // reporting, tests keep running).
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::PlainText); // an error quotes names and paths: data, never markup
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::updateActions()
{
    const bool active = m_run->isActive();
    m_runCommands->updateActions(m_serving->isServing());
    m_projectActions->updateActions(active);
    m_scriptCombo->setEnabled(!active && m_scriptCombo->count() > 0);
    m_editorActions->updateActions();
    m_manifest->newToolAction()->setEnabled(project() != nullptr);
    m_toolsMenu->updateActions(project() != nullptr, active);
}

void MainWindow::updateTitle()
{
    // Every title carries the [*] placeholder, so setWindowModified always has a place.
    QString title = QApplication::applicationName() + QStringLiteral("[*]");
    ScriptEditor *e = m_tabs->current();
    if (project()) {
        const QString script = e ? QDir(project()->dir).relativeFilePath(e->filePath()) : QString();
        const QString name = project()->name.isEmpty() ? QFileInfo(project()->dir).fileName() : project()->name;
        title = script.isEmpty() ? QStringLiteral("%1[*] — %2").arg(name, QApplication::applicationName())
                                 : QStringLiteral("%1[*] — %2 — %3").arg(script, name, QApplication::applicationName());
    }
    setWindowTitle(title);
    setWindowModified(e && e->isModified());
}

void MainWindow::applySettings(const QString &key)
{
    const Settings *settings = Settings::instance();
    if (key == QLatin1String("editorFont") || key == QLatin1String("tabWidth")) {
        m_tabs->applyEditorSettings();
    } else if (key == QLatin1String("theme")) {
        Theme::apply(settings->theme());
    } else if (key == QLatin1String("language")) {
        statusBar()->showMessage(tr("The language changes the next time Tool Studio starts."), 5000);
    }
}

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(Settings::instance(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::startFromJournal(const QString &runId, bool resume)
{
    if (project() && project()->pythonLoading) {
        // A resumed or replayed run calls the project's tools: it starts once they are loaded.
        m_whenPythonLoaded = [this, runId, resume] { m_runCommands->startFromJournal(runId, resume); };
        setStatus(tr("Loading the Python tools… the run starts when they are loaded."));
        return;
    }
    m_runCommands->startFromJournal(runId, resume);
}

bool MainWindow::importToolFile(const QString &path)
{
    if (!project()) {
        reportError(tr("Import Tool"), tr("Open a project before importing tools."));
        return false;
    }
    // The same as Tools ▸ Import Tools… (JSON as manual tools, undoable; a tool file is
    // copied into tools/ if it loads), with its summary.
    return m_toolsMenu->importTools(path, ToolImport::As::Manual);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool any = std::any_of(urls.begin(), urls.end(), [](const QUrl &url) {
        const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
        return url.isLocalFile() && (suffix == QLatin1String("json") || suffix == QLatin1String("py"));
    });
    if (any)
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            importToolFile(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Unsaved scripts first: cancelling there leaves the run as it is.
    if (!m_tabs->maybeSaveAll()) {
        event->ignore();
        return;
    }
    if (!m_runCommands->mayClose(this)) {
        event->ignore();
        return;
    }
    m_layout->save();
    m_serving->stop();
    event->accept();
}
