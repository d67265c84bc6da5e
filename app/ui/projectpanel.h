// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/projectwriter.h"

#include <QHash>
#include <QWidget>

#include <functional>

class Project;
class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItem;
class QStandardItemModel;
class QTimer;
class QToolButton;
class QTreeView;
class QTreeWidget;
class QTreeWidgetItem;
class ToolFilterModel;
class ToolProblemsView;

/// The Project dock (DESIGN.md "The window"): the project's tools — an icon per
/// handler kind, tags (edited in place, comma separated), an active checkbox —
/// filtered by text and tag, and its scripts with one checkbox per tool under each:
/// the tools bound to the script (issue 6 "Binding tools to scripts"; unbound tools
/// are refused as unknown_tool). Under the tool list, the tool files' load problems
/// (ToolProblemsView, with Install Requirements… for a missing module). It only shows; an edit (active, tags, binding) is a
/// ProjectWriter edit requested through manifestEditRequested(), which the window
/// runs as an undoable command.
class ProjectPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column { NameColumn, HandlerColumn, TagsColumn, NUM_COLUMNS };

    explicit ProjectPanel(QWidget *parent = nullptr);

    /// Shows `project` (nullptr: nothing), keeping the selected tool when it still exists.
    void setProject(const Project *project);

    QString currentTool() const;
    /// The selected tools' names in view order (the current tool when none is selected).
    QStringList selectedTools() const;
    void selectTool(const QString &name);

    QTreeView *toolView() const { return m_toolView; }
    QAbstractItemModel *toolModel() const;
    QSortFilterProxyModel *filterModel() const;
    /// Scripts as top-level items (text: the path), their tools as checkable children.
    QTreeWidget *scriptList() const { return m_scriptList; }
    /// The item of tool `tool` under script `script` (by script name), or nullptr.
    QTreeWidgetItem *bindingItem(const QString &script, const QString &tool) const;
    QLineEdit *filterEdit() const { return m_filterEdit; }
    /// The tool files' load problems, under the tool list (hidden when none).
    ToolProblemsView *problemsView() const { return m_problems; }
    QComboBox *tagCombo() const { return m_tagCombo; }
    /// Applies the text filter now (typing is debounced).
    void applyFilter();

Q_SIGNALS:
    void toolSelected(const QString &name);
    void scriptActivated(const QString &absolutePath);
    /// An edit of toolstudio.json; `text` names it in Edit ▸ Undo.
    void manifestEditRequested(const QString &text, const ProjectWriter::Edit &edit);
    void newToolRequested();
    void renameToolRequested(const QString &tool);
    void cloneToolRequested(const QString &tool);
    void deleteToolsRequested(const QStringList &tools);
    /// Install Requirements… succeeded: the project should be loaded again.
    void requirementsInstalled();

private:
    QStandardItemModel *m_model = nullptr;
    ToolFilterModel *m_filter = nullptr;
    QTreeView *m_toolView = nullptr;
    ToolProblemsView *m_problems = nullptr;
    QLabel *m_loading = nullptr; ///< "Loading the Python tools…" while Project::pythonLoading
    /// Runs `change` (a new filter text or tag) keeping the current tool if still
    /// listed, without toolSelected.
    void refilter(const std::function<void()> &change);
    void toolItemChanged(QStandardItem *item);
    void bindingChanged(QTreeWidgetItem *item);

    QTreeWidget *m_scriptList = nullptr;
    QHash<QString, bool> m_isPython; ///< tool name → defined in tools/*.py
    QStringList m_activeTools;       ///< in project order
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_tagCombo = nullptr;
    QTimer *m_filterTimer = nullptr;
    bool m_filling = false;
};
