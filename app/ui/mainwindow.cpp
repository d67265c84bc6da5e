// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "mcp/mcpserverpool.h"
#include "mcpserversview.h"

#include "answerpane.h"
#include "chatdock.h"
#include "docklayout.h"
#include "durablerunactions.h"
#include "editoractions.h"
#include "editorarea.h"
#include "elidedlabel.h"
#include "manifesteditor.h"
#include "pendingcallspanel.h"
#include "presenterview.h"
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
#include "samplingmodelpanel.h"
#include "scriptbox.h"
#include "scripteditor.h"
#include "scripttabs.h"
#include "settings.h"
#include "stepinspector.h"
#include "theme.h"
#include "toolfilesreloader.h"
#include "toolpanel.h"
#include "toolsmenu.h"
#include "tracepanel.h"
#include "windowchat.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLockFile>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

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
    m_editorArea = new EditorArea(errorReporter(), this);
    setCentralWidget(m_editorArea);
    m_tabs = m_editorArea->tabs();
    connect(m_editorArea, &EditorArea::notice, statusBar(), &QStatusBar::showMessage);
    connect(m_editorArea, &EditorArea::trustRequested, this, &MainWindow::trustProject);
    connect(m_editorArea, &EditorArea::manifestChanged, this, [this] {
        if (m_run->isActive())
            m_manifestChangedDuringRun = true; // the run keeps the manifest it started with
        else
            reloadProject();
    });
    connect(m_tabs, &ScriptTabs::currentModifiedChanged, this, &QWidget::setWindowModified);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
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

    m_statusLabel = new ElidedLabel(this); // a failed server's stderr does not grow the bar
    m_statusLabel->setObjectName(QStringLiteral("runStatus"));
    statusBar()->addWidget(m_statusLabel, 1);
    setStatus(tr("Open a project to start (File ▸ Open Project…)"));

    resize(1280, 820);
    m_layout->restore(); // the layout as built is Reset Layout's; then the user's
    Settings *settings = Settings::instance();
    connect(settings, &Settings::changed, this, [this, settings](const QString &key) {
        if (key == QLatin1String("theme"))
            Theme::apply(settings->theme());
        else if (key == QLatin1String("language"))
            statusBar()->showMessage(tr("The language changes the next time Tool Studio starts."), 5000);
    });
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

void MainWindow::createDocks()
{
    m_projectPanel = new ProjectPanel(this);
    m_projectDock = m_layout->add(tr("Project"), "projectDock", m_projectPanel, Qt::LeftDockWidgetArea);
    m_mcpServers = new McpServersView(this);
    m_mcpServers->setProjectLookup([this] { return project(); }); // Ask Model in its browser windows
    m_mcpDock = m_layout->add(tr("MCP Servers"), "mcpDock", m_mcpServers, Qt::LeftDockWidgetArea);
    // A tool chosen in the Project dock or the MCP Servers dock shows in the Tool dock.
    const auto showTool = [this](const QString &tool) {
        m_toolPanel->setTool(project(), tool);
        if (!tool.isEmpty())
            m_toolDock->raise(); // it shares its place with Step and Pending Calls
    };
    connect(m_projectPanel, &ProjectPanel::toolSelected, this, showTool);
    connect(m_mcpServers, &McpServersView::toolSelected, this, showTool);
    connect(m_projectPanel, &ProjectPanel::scriptActivated, this, [this](const QString &path) { openFile(path); });
    connect(m_projectPanel, &ProjectPanel::manifestEditRequested, m_manifest, &ManifestEditor::edit);
    connect(m_projectPanel, &ProjectPanel::newToolRequested, m_manifest, &ManifestEditor::newTool);
    connect(m_projectPanel, &ProjectPanel::renameToolRequested, m_manifest, &ManifestEditor::renameTool);
    connect(m_projectPanel, &ProjectPanel::cloneToolRequested, m_manifest, &ManifestEditor::cloneTool);
    connect(m_manifest, &ManifestEditor::toolWritten, m_projectPanel, &ProjectPanel::selectTool);
    connect(m_projectPanel, &ProjectPanel::deleteToolsRequested, m_toolsMenu, &ToolsMenu::deleteTools);
    connect(m_projectPanel, &ProjectPanel::requirementsInstalled, this, [this] { reloadProject(); });
    m_projectPanel->addActions({m_manifest->undoAction(), m_manifest->redoAction()});

    m_toolPanel = new ToolPanel(this);
    m_toolDock = m_layout->add(tr("Tool"), "toolDock", m_toolPanel, Qt::LeftDockWidgetArea);
    connect(m_toolPanel, &ToolPanel::callFinished, this, [this] { m_runsPanel->refresh(); });
    connect(m_toolPanel, &ToolPanel::manifestEditRequested, m_manifest, &ManifestEditor::edit);
    m_toolPanel->addActions({m_manifest->undoAction(), m_manifest->redoAction()});

    m_pendingDock = m_layout->add(tr("Pending Calls"), "pendingDock", m_pendingPanel, Qt::LeftDockWidgetArea);

    connect(m_runViews, &RunViews::currentStepChanged, this, [this](const QString &callId) {
        // Step shares its place with Tool and Pending Calls; an open call keeps its tab.
        if (!callId.isEmpty() && m_pendingPanel->openCount() == 0)
            m_stepDock->raise();
    });
    connect(m_runViews, &RunViews::notice, statusBar(), &QStatusBar::showMessage);
    // Activating a pending step in the trace opens its answer.
    connect(m_tracePanel, &TracePanel::stepActivated, m_runCommands, &RunCommands::showPendingCall);
    m_traceDock = m_layout->add(tr("Trace"), "traceDock", m_tracePanel, Qt::RightDockWidgetArea);
    m_stepDock = m_layout->add(tr("Step"), "stepDock", m_inspector, Qt::LeftDockWidgetArea);
    connect(m_pendingPanel, &PendingCallsPanel::openCountChanged, this, [this](int open) {
        m_pendingDock->setWindowTitle(open == 0 ? tr("Pending Calls") : tr("Pending Calls (%1)").arg(open));
        updateActions();
    });

    m_consoleDock = m_layout->add(tr("Console"), "consoleDock", m_runViews->consolePane(), Qt::BottomDockWidgetArea);

    m_runsPanel = new RunsPanel(
        this, m_run, [this] { return project(); }, errorReporter(), m_durable);
    connect(m_runsPanel, &RunsPanel::openRequested, m_runViews, &RunViews::showRun);
    connect(m_runsPanel, &RunsPanel::runsGone, m_runViews, &RunViews::forgetRuns);
    connect(m_runsPanel, &RunsPanel::startRequested, m_runCommands, &RunCommands::startFromJournal);
    m_runsDock = m_layout->add(tr("Runs"), "runsDock", m_runsPanel, Qt::BottomDockWidgetArea);
    m_chat = new WindowChat([this] { return project(); }, m_runViews, m_layout, this);

    m_layout->arrange(
        {m_projectDock, m_toolDock, m_traceDock, m_stepDock, m_pendingDock, m_consoleDock, m_runsDock, m_chat->dock()},
        m_viewMenu);
    // After arrange: a dock tabified before it was split off (Qt adds a dock split from a
    // tabbed one as one more tab) put Project, Tool, MCP Servers, Step, Pending Calls and
    // Chat in one row of six cut titles, and selecting a tool hid the list (nc-shot1).
    tabifyDockWidget(m_projectDock, m_mcpDock);
    m_mcpDock->hide(); // mcpServersStarted shows it for a project with servers
    m_projectDock->raise();
    // The trace and Pending Calls in one column of 45 % beside the editor (issue 20: side
    // by side at 1280 pixels they left the editor ~13 %); Pending Calls gets 40 % of its
    // height, room for an answer form.
    m_presenter = new PresenterView(this, {{m_traceDock, 45, m_pendingDock, 40}, {m_consoleDock, 0}});
    m_viewMenu->addSeparator();
    m_presenter->addTo(m_viewMenu);
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
        m_runCommands->toolsLoaded();
    });
    connect(m_session, &ProjectSession::mcpServersStarted, this, [this](McpServerPool *pool) {
        m_mcpDock->setVisible(project() && !project()->mcpServers.empty());
        m_mcpServers->setPool(pool);
    });
    connect(m_session, &ProjectSession::mcpToolsChanged, this, [this](const QStringList &problems) {
        m_projectPanel->setProject(project());
        m_editorArea->completeTools(project());
        m_serving->projectReloaded(); // the served sessions get the servers' tools too (attack27 F6)
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
    m_runCommands->dropWaitingStart();
    m_toolFilesReloader->setProjectDir(project()->dir);
    m_runViews->clear();
    m_manifest->undoStack()->clear();
    m_editorArea->switchTo(*project());
    m_scriptCombo->clear(); // a new project: its default script, not the old choice
    m_showsLoadError = false;
    m_projectActions->addRecentProject(project()->dir);
    present(true);
    if (!m_tabs->current() && m_scriptCombo->currentIndex() < 0)
        setStatus(tr("The project has no script."));
    else if (m_tabs->current())
        setStatus(tr("Ready"));
    m_runsPanel->refresh();
    return true;
}

bool MainWindow::reloadProject(ProjectError *failure)
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
        if (failure)
            *failure = error;
        return false;
    }
    m_session->adopt(std::move(*reloaded));
    if (std::exchange(m_showsLoadError, false))
        setStatus(m_statusBeforeLoadError);
    present(false);
    m_serving->projectReloaded();
    return true;
}

void MainWindow::present(bool opened)
{
    // The toolbar follows the manifest: its scripts, the one Run starts, the status.
    m_scriptCombo->setProject(project());
    if (!m_run->isActive() && !opened) {
        if (m_scriptCombo->currentIndex() < 0)
            setStatus(tr("The project has no script."));
        else if (statusText() == tr("The project has no script."))
            setStatus(tr("Ready"));
    }
    if (!m_tabs->current() && m_scriptCombo->currentIndex() >= 0)
        openFile(m_scriptCombo->currentPath());
    // An opened project shows its first tool; a reload keeps the tool shown.
    const QString selected = m_projectPanel->currentTool();
    m_projectPanel->setProject(project());
    m_chat->panel()->refresh();
    if (opened && !project()->tools.empty())
        m_projectPanel->selectTool(project()->tools.front().name);
    const QString current = m_projectPanel->currentTool();
    m_toolPanel->setTool(project(), current.isEmpty() && !opened ? selected : current);
    m_editorArea->completeTools(project());
    m_editorArea->showTrustFor(project());
    updateTitle();
    updateActions();
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
    m_editorArea->showTrustFor(nullptr);
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
    m_editorArea->completeTools(project());
    updateTitle();
    updateActions();
    return true;
}

bool MainWindow::saveModifiedScripts()
{
    // A run executes the files on disk, so what is shown is what runs.
    return m_tabs->saveModified();
}

void MainWindow::setStatus(const QString &text)
{
    m_statusLabel->setFullText(text);
}

QString MainWindow::statusText() const
{
    return m_statusLabel->fullText();
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
    m_editorArea->actions()->updateActions();
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

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (ToolsMenu::importable(event->mimeData()->urls()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    m_toolsMenu->importDropped(event->mimeData()->urls());
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Unsaved scripts first: cancelling there leaves the runs as they are.
    if (!m_tabs->maybeSaveAll() || !m_chat->mayQuit(this, [this] { return m_runCommands->mayClose(this); })) {
        event->ignore();
        return;
    }
    m_presenter->leave(); // the layout saved is the person's own
    m_layout->save();
    m_serving->stop();
    event->accept();
}
