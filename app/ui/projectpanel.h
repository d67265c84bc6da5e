// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class Project;
class QAbstractItemModel;
class QComboBox;
class QLineEdit;
class QListWidget;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTimer;
class QToolButton;
class QTreeView;
class ToolFilterModel;

/// The Project dock (DESIGN.md "The window"): the project's tools — an icon per
/// handler kind, tags, an active checkbox — filtered by text and tag, and its scripts.
/// It only shows; edits are requests the window turns into undoable commands.
class ProjectPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column { NameColumn, HandlerColumn, TagsColumn, NUM_COLUMNS };

    explicit ProjectPanel(QWidget *parent = nullptr);

    /// Shows `project` (nullptr: nothing), keeping the selected tool when it still exists.
    void setProject(const Project *project);

    QString currentTool() const;
    void selectTool(const QString &name);

    QTreeView *toolView() const { return m_toolView; }
    QAbstractItemModel *toolModel() const;
    QSortFilterProxyModel *filterModel() const;
    QListWidget *scriptList() const { return m_scriptList; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QComboBox *tagCombo() const { return m_tagCombo; }
    /// Applies the text filter now (typing is debounced).
    void applyFilter();

Q_SIGNALS:
    void toolSelected(const QString &name);
    void scriptActivated(const QString &absolutePath);
    void activeToggled(const QString &tool, bool active);
    void newToolRequested();
    void renameToolRequested(const QString &tool);
    void cloneToolRequested(const QString &tool);
    void deleteToolRequested(const QString &tool);

private:
    QStandardItemModel *m_model = nullptr;
    ToolFilterModel *m_filter = nullptr;
    QTreeView *m_toolView = nullptr;
    QListWidget *m_scriptList = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_tagCombo = nullptr;
    QTimer *m_filterTimer = nullptr;
    bool m_filling = false;
};
