// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "generatetooldialog.h"
#include "newfiledialog.h"
#include "project/project.h"
#include "project/projectwriter.h"

#include <QObject>
#include <QString>

#include <functional>

class NewProjectDialog;
class QAction;
class QMenu;
class QWidget;
class ScriptEditor;

/// File ▸ New Project…, New Tool…, New Script…, Open Project… and Open Recent
/// (DESIGN.md "The window"): it owns these actions (the window places them), their
/// dialogs and the recent projects; what it opens goes through the window's Hooks.
class ProjectActions : public QObject
{
    Q_OBJECT
public:
    struct Hooks
    {
        std::function<const Project *()> project;
        /// Opens the project in a folder (false with the error reported).
        std::function<bool(const QString &dir)> openProject;
        /// Reads toolstudio.json and tools/ again (a new tool file is a tool at once).
        std::function<void()> reloadProject;
        /// Opens a file in an editor tab.
        std::function<bool(const QString &path)> openFile;
        /// One undoable edit of toolstudio.json (ManifestEditor::edit).
        std::function<bool(const QString &text, const ProjectWriter::Edit &edit)> editManifest;
        std::function<void(const QString &text)> setStatus;
        /// The editor of the current tab, and the one showing a path (nullptr when none).
        std::function<ScriptEditor *()> currentEditor;
        std::function<ScriptEditor *(const QString &path)> editorFor;
        /// Shows a page of the user docs ("models.md", a heading's anchor).
        std::function<void(const QString &page, const QString &anchor)> showDocumentation;
    };

    ProjectActions(Hooks hooks, QWidget *window);

    QAction *newProjectAction() const { return m_newProjectAction; }
    QAction *openAction() const { return m_openAction; }
    QAction *newToolFileAction() const { return m_newToolFileAction; }
    QAction *newScriptAction() const { return m_newScriptAction; }
    /// Tools ▸ Generate Tool with AI… (the window places it in the Tools menu).
    QAction *generateToolAction() const { return m_generateToolAction; }
    QMenu *recentMenu() const { return m_recentMenu; }
    /// Adds New Project…, New Tool…, New Script…, Open Project… and Open Recent to `menu`.
    void addTo(QMenu *menu) const;

    /// File ▸ New Project…: the dialog (open, not blocking) with `folder` filled in and
    /// `note` above it; the project it makes is trusted and opened.
    NewProjectDialog *newProject(const QString &folder = QString(), const QString &note = QString());
    /// File ▸ New Tool… / New Script…: the dialog (open, not blocking) for the open
    /// project; the file it writes opens in the editor. nullptr without a project.
    NewFileDialog *newFile(NewFileDialog::Kind kind);
    /// Tools ▸ Generate Tool with AI…: the dialog (open, not blocking) for the open
    /// project; a new file it writes opens in the editor. nullptr without a project.
    GenerateToolDialog *generateTool();
    /// A tool file was written into the project (New Tool…, Generate Tool with AI…): the
    /// project reloads, so a new tools/*.py is a tool at once, and the file opens.
    void toolFileWritten(const QString &path);
    /// Remembers `dir` at the top of Open Recent.
    void addRecentProject(const QString &dir);
    /// Nothing opens or is made while a run is active; New Tool/Script need a project.
    void updateActions(bool runActive);

private:
    void chooseProject();
    void updateRecentMenu();

    Hooks m_hooks;
    QWidget *m_window;
    QAction *m_newProjectAction = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_newToolFileAction = nullptr;
    QAction *m_newScriptAction = nullptr;
    QAction *m_generateToolAction = nullptr;
    QMenu *m_recentMenu = nullptr;
};
