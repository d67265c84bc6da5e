// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectactions.h"

#include "newprojectdialog.h"
#include "project/projecttrust.h"
#include "settings.h"
#include "theme.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

ProjectActions::ProjectActions(Hooks hooks, QWidget *window)
    : QObject(window)
    , m_hooks(std::move(hooks))
    , m_window(window)
{
    m_newProjectAction = new QAction(Theme::icon("document-new", "open"), tr("&New Project…"), this);
    m_newProjectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_newProjectAction->setStatusTip(tr("Make a project in a new or empty folder from a template"));
    connect(m_newProjectAction, &QAction::triggered, this, [this] { newProject(); });

    m_openAction = new QAction(Theme::icon("document-open", "open"), tr("&Open Project…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a project folder (one with a toolstudio.json)"));
    connect(m_openAction, &QAction::triggered, this, &ProjectActions::chooseProject);

    m_newToolFileAction = new QAction(tr("New &Tool…"), this);
    m_newToolFileAction->setStatusTip(tr("Add a tool file (Python or Node) from a template and open it"));
    connect(m_newToolFileAction, &QAction::triggered, this, [this] { newFile(NewFileDialog::Kind::Tool); });
    m_newScriptAction = new QAction(tr("New &Script…"), this);
    m_newScriptAction->setStatusTip(tr("Add an agent script (Python or Node) from a template and open it"));
    connect(m_newScriptAction, &QAction::triggered, this, [this] { newFile(NewFileDialog::Kind::Script); });

    m_generateToolAction = new QAction(tr("&Generate Tool with AI…"), this);
    m_generateToolAction->setStatusTip(
        tr("Describe a tool; one of the project's models writes the Python file, shown as a diff before it is saved"));
    connect(m_generateToolAction, &QAction::triggered, this, &ProjectActions::generateTool);

    m_recentMenu = new QMenu(tr("Open &Recent"), window);
    updateRecentMenu();
}

NewProjectDialog *ProjectActions::newProject(const QString &folder, const QString &note)
{
    auto *dialog = new NewProjectDialog(folder, note, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewProjectDialog::projectCreated, this, [this](const QString &dir) {
        // Made from the studio's own template: trusted, so Run works at once.
        QString error;
        if (!ProjectTrust::grant(dir, &error))
            m_hooks.setStatus(error);
        m_hooks.openProject(dir);
    });
    dialog->open();
    return dialog;
}

NewFileDialog *ProjectActions::newFile(NewFileDialog::Kind kind)
{
    const Project *project = m_hooks.project();
    if (!project)
        return nullptr;
    auto *dialog = new NewFileDialog(kind, project, m_hooks.editManifest, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewFileDialog::fileCreated, this, &ProjectActions::toolFileWritten);
    dialog->open();
    return dialog;
}

void ProjectActions::toolFileWritten(const QString &path)
{
    m_hooks.reloadProject(); // a new tools/*.py is a tool at once
    m_hooks.openFile(path);
}

GenerateToolDialog *ProjectActions::generateTool()
{
    if (!m_hooks.project())
        return nullptr;
    GenerateToolDialog::Hooks hooks;
    hooks.project = m_hooks.project;
    hooks.currentEditor = m_hooks.currentEditor;
    hooks.editorFor = m_hooks.editorFor;
    hooks.toolFileWritten = [this](const QString &path) { toolFileWritten(path); };
    hooks.reloadProject = m_hooks.reloadProject;
    hooks.showDocumentation = m_hooks.showDocumentation;
    auto *dialog = new GenerateToolDialog(std::move(hooks), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void ProjectActions::chooseProject()
{
    Settings *settings = Settings::instance();
    const Project *project = m_hooks.project();
    const QString start = project
        ? QFileInfo(project->dir).absolutePath()
        : (settings->lastProjectParent().isEmpty() ? QDir::homePath() : settings->lastProjectParent());
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Open Project"), start);
    if (dir.isEmpty())
        return;
    settings->setLastProjectParent(QFileInfo(dir).absolutePath());
    m_hooks.openProject(dir);
}

void ProjectActions::addTo(QMenu *menu) const
{
    menu->addActions({m_newProjectAction, m_newToolFileAction, m_newScriptAction, m_openAction});
    menu->addMenu(m_recentMenu);
}

void ProjectActions::addRecentProject(const QString &dir)
{
    Settings *settings = Settings::instance();
    settings->addRecentProject(dir);
    settings->save();
    updateRecentMenu();
}

void ProjectActions::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = Settings::instance()->recentProjects();
    for (const QString &dir : recent) {
        QAction *action = m_recentMenu->addAction(QDir::toNativeSeparators(dir));
        connect(action, &QAction::triggered, this, [this, dir] { m_hooks.openProject(dir); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void ProjectActions::updateActions(bool runActive)
{
    const bool hasProject = m_hooks.project() != nullptr;
    m_openAction->setEnabled(!runActive);
    m_newProjectAction->setEnabled(!runActive);
    m_recentMenu->setEnabled(!runActive && !m_recentMenu->isEmpty());
    m_newToolFileAction->setEnabled(hasProject && !runActive);
    m_newScriptAction->setEnabled(hasProject && !runActive);
    m_generateToolAction->setEnabled(hasProject && !runActive);
}
