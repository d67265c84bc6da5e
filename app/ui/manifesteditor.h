// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/projectwriter.h"

#include <QObject>

#include <functional>

class Project;
class QAction;
class QUndoStack;
class QWidget;

/// The window's structured edits of toolstudio.json (DESIGN.md "Tools and the
/// project"): each edit is one command on the undo stack holding the manifest before
/// and after (ProjectWriter keeps key order and unknown keys); redo and undo write it
/// back and reload the project. Also Tools ▸ New Tool… and the Project dock's Rename
/// and Clone, which ask for a name and edit through the same path.
class ManifestEditor : public QObject
{
    Q_OBJECT
public:
    /// Shows an error to the person: a title and the message.
    using Reporter = std::function<void(const QString &title, const QString &message)>;

    /// `window` parents the name dialogs; `project` gives the open project (nullptr:
    /// none, edits are refused); `reload` loads toolstudio.json again after a write.
    ManifestEditor(QWidget *window, std::function<const Project *()> project, std::function<void()> reload,
                   Reporter report);

    QUndoStack *undoStack() const { return m_undoStack; }
    /// Edit ▸ Undo and Redo (within the widgets that add them: Project and Tool docks).
    QAction *undoAction() const { return m_undoAction; }
    QAction *redoAction() const { return m_redoAction; }
    /// Tools ▸ New Mock Tool… (newTool()); enabled with a project.
    QAction *newToolAction() const { return m_newToolAction; }

    /// Applies `edit` to the manifest as one undoable command named `text`. A manifest
    /// that cannot be read, or an edit that refuses (false with a reason), is reported
    /// under `text` and nothing is written (the project is reloaded, e.g. to undo a
    /// checkbox a view already toggled).
    bool edit(const QString &text, const ProjectWriter::Edit &edit);
    /// Asks for a name and adds a mock tool with the retry defaults of Preferences.
    void newTool();
    /// Asks for a new name for `tool`.
    void renameTool(const QString &tool);
    /// Adds a copy of `tool` under a free name (`tool_copy`, `tool_copy2`, …).
    void cloneTool(const QString &tool);

Q_SIGNALS:
    /// New Tool, Rename or Clone wrote the tool `name` (the window selects it).
    void toolWritten(const QString &name);

private:
    QWidget *m_window;
    std::function<const Project *()> m_project;
    std::function<void()> m_reload;
    Reporter m_report;
    QUndoStack *m_undoStack = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_newToolAction = nullptr;
};
