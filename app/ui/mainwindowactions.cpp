// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's actions (with the hooks the action groups call back through) and menus.
#include "mainwindow.h"

#include "answerpane.h"
#include "docklayout.h"
#include "documentationwindow.h"
#include "durablerunactions.h"
#include "editoractions.h"
#include "editorarea.h"
#include "helpmenu.h"
#include "manifesteditor.h"
#include "newprojectdialog.h"
#include "pendingcallspanel.h"
#include "project/projectwriter.h"
#include "projectactions.h"
#include "projectserving.h"
#include "runcommands.h"
#include "runspanel.h"
#include "runviews.h"
#include "samplingmodelpanel.h"
#include "scriptbox.h"
#include "scripteditor.h"
#include "scripttabs.h"
#include "settings.h"
#include "settingsdialog.h"
#include "stepmodeactions.h"
#include "theme.h"
#include "toolsmenu.h"
#include "tracepanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

void MainWindow::createActions()
{
    ProjectActions::Hooks projectHooks;
    projectHooks.project = [this] { return project(); };
    projectHooks.openProject = [this](const QString &dir) { return openProject(dir); };
    projectHooks.reloadProject = [this] { reloadProject(); };
    projectHooks.openFile = [this](const QString &path) { return openFile(path); };
    projectHooks.editManifest
        = [this](const QString &text, const ProjectWriter::Edit &edit) { return m_manifest->edit(text, edit); };
    projectHooks.setStatus = [this](const QString &text) { setStatus(text); };
    projectHooks.currentEditor = [this] { return m_tabs->current(); };
    projectHooks.editorFor = [this](const QString &path) { return m_tabs->editorFor(path); };
    projectHooks.showDocumentation = [this](const QString &page, const QString &anchor) {
        m_helpMenu->showDocumentation()->showPage(page, anchor);
    };
    m_projectActions = new ProjectActions(std::move(projectHooks), this);

    m_quitAction = new QAction(Theme::icon("application-exit", "quit"), tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    // Run, Stop and Answer Pending Call belong to the run commands; placed here.
    RunCommands::Hooks hooks;
    hooks.project = [this] { return project(); };
    hooks.scriptPath = [this] { return m_scriptCombo->currentPath(); };
    hooks.prepareRun = [this] {
        // What is shown is what runs: the scripts on disk, toolstudio.json as it is now.
        if (!saveModifiedScripts())
            return false;
        ProjectError error;
        if (reloadProject(&error))
            return true;
        setStatus(tr("Failed: %1").arg(error.toString()));
        reportError(tr("Cannot Run"), error.toString());
        return false;
    };
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
    connect(m_settingsAction, &QAction::triggered, this, [this] {
        auto *dialog = new SettingsDialog(Settings::instance(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });

    m_pendingPanel = new PendingCallsPanel(m_run, this);
    m_pendingPanel->setToolLookup([this](const QString &name) { return project() ? project()->tool(name) : nullptr; });
    m_pendingPanel->answerPane()->samplingModel()->setProjectLookup([this] { return project(); });
    m_stepActions = new StepModeActions(
        m_run, m_pendingPanel,
        [this] {
            m_pendingDock->show();
            m_pendingDock->raise();
        },
        this);
    m_serving->followStepMode(m_stepActions);

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
    const EditorActions *editor = m_editorArea->actions();
    fileMenu->addActions({editor->saveAction(), editor->closeTabAction()});
    fileMenu->addSeparator();
    fileMenu->addActions({m_runViews->importRunAction(), m_serving->serveAction()});
    fileMenu->addSeparator();
    fileMenu->addAction(m_quitAction);

    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->addAction(m_manifest->undoAction());
    editMenu->addAction(m_manifest->redoAction());
    editMenu->addSeparator();
    editMenu->addActions({editor->findAction(), editor->replaceAction(), editor->goToLineAction()});
    editMenu->addSeparator();
    editMenu->addAction(m_settingsAction);

    QMenu *toolsMenu = menuBar()->addMenu(tr("&Tools"));
    toolsMenu->addActions({m_manifest->newToolAction(), m_projectActions->generateToolAction()});
    toolsMenu->addSeparator();
    toolsMenu->addActions(m_toolsMenu->actions());

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addActions({m_runCommands->runAction(), m_runCommands->stopAction(), m_stepActions->stepModeAction()});
    runMenu->addActions(m_stepActions->actions());
    runMenu->addSeparator();
    runMenu->addActions({m_tracePanel->nextPendingAction(), m_tracePanel->nextFailedAction()});
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
    toolBar->addActions({m_projectActions->openAction(), editor->saveAction()});
    toolBar->addSeparator();
    auto *scriptLabel = new QLabel(tr("Script:"), toolBar);
    scriptLabel->setContentsMargins(6, 0, 4, 0);
    toolBar->addWidget(scriptLabel);
    m_scriptCombo = new ScriptBox(toolBar);
    scriptLabel->setBuddy(m_scriptCombo);
    toolBar->addWidget(m_scriptCombo);
    connect(m_scriptCombo, &QComboBox::activated, this,
            [this](int index) { openFile(m_scriptCombo->itemData(index, ScriptBox::PathRole).toString()); });
    toolBar->addSeparator();
    toolBar->addActions({m_runCommands->runAction(), m_runCommands->stopAction(), m_stepActions->stepModeAction(),
                         m_runCommands->answerAction()});
}
