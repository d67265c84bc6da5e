// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectpanel.h"

#include "project/project.h"
#include "toolproblemsview.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int TagsRole = Qt::UserRole + 1;
constexpr int PathRole = Qt::UserRole;
constexpr int ScriptRole = Qt::UserRole + 1;

QStringList splitTags(const QString &text)
{
    QStringList tags;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty() && !tags.contains(part.trimmed()))
            tags << part.trimmed();
    return tags;
}

QIcon handlerIcon(HandlerKind kind)
{
    // The icons live in the executable's resources (not in the tests).
    const QString path = QStringLiteral(":/icons/handler-%1.svg").arg(handlerKindName(kind));
    return QFile::exists(path) ? QIcon(path) : QIcon();
}

} // namespace

/// Text (name, description, tags) and tag filter over the tool rows.
class ToolFilterModel : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setTag(const QString &tag)
    {
        m_tag = tag;
        invalidateFilter();
    }
    void setText(const QString &text)
    {
        m_text = text;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        const QModelIndex name = sourceModel()->index(row, ProjectPanel::NameColumn, parent);
        const QStringList tags = name.data(TagsRole).toStringList();
        if (!m_tag.isEmpty() && !tags.contains(m_tag))
            return false;
        if (m_text.isEmpty())
            return true;
        return name.data().toString().contains(m_text, Qt::CaseInsensitive)
            || name.data(Qt::ToolTipRole).toString().contains(m_text, Qt::CaseInsensitive)
            || tags.join(QLatin1Char(' ')).contains(m_text, Qt::CaseInsensitive);
    }

private:
    QString m_tag;
    QString m_text;
};

ProjectPanel::ProjectPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new QStandardItemModel(0, NUM_COLUMNS, this))
    , m_filter(new ToolFilterModel(this))
{
    setObjectName(QStringLiteral("projectPanel"));
    m_model->setHorizontalHeaderLabels({tr("Tool"), tr("Handler"), tr("Tags")});
    m_filter->setSourceModel(m_model);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto *filterRow = new QHBoxLayout;
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("toolFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter tools"));
    m_filterEdit->setClearButtonEnabled(true);
    m_tagCombo = new QComboBox(this);
    m_tagCombo->setObjectName(QStringLiteral("tagFilter"));
    m_tagCombo->setToolTip(tr("Show only the tools with this tag"));
    m_tagCombo->addItem(tr("All tags"), QString());
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_tagCombo);
    layout->addLayout(filterRow);

    auto *bar = new QToolBar(this);
    bar->setIconSize(QSize(16, 16));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    QAction *add = bar->addAction(tr("New"), this, &ProjectPanel::newToolRequested);
    add->setToolTip(tr("Add a mock tool to toolstudio.json"));
    QAction *rename = bar->addAction(tr("Rename"), this, [this] {
        if (!currentTool().isEmpty())
            Q_EMIT renameToolRequested(currentTool());
    });
    QAction *clone = bar->addAction(tr("Clone"), this, [this] {
        if (!currentTool().isEmpty())
            Q_EMIT cloneToolRequested(currentTool());
    });
    QAction *remove = bar->addAction(tr("Delete"), this, [this] {
        const QStringList tools = selectedTools();
        if (!tools.isEmpty())
            Q_EMIT deleteToolsRequested(tools);
    });
    remove->setToolTip(tr("Delete the selected tools (Delete); Ctrl+click or Shift+click selects several"));
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    QAction *editTags = bar->addAction(tr("Tags…"), this, [this] {
        const QModelIndex index = m_toolView->currentIndex();
        if (!index.isValid())
            return;
        m_toolView->setFocus();
        m_toolView->edit(index.siblingAtColumn(TagsColumn));
    });
    editTags->setToolTip(tr("Edit the selected tool's tags, separated by commas"));
    layout->addWidget(bar);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_toolView = new QTreeView(splitter);
    m_toolView->setObjectName(QStringLiteral("toolView"));
    m_toolView->setModel(m_filter);
    m_toolView->setRootIsDecorated(false);
    m_toolView->setUniformRowHeights(true);
    m_toolView->setAllColumnsShowFocus(true);
    m_toolView->setSelectionMode(QAbstractItemView::ExtendedSelection); // delete several at once
    m_toolView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_toolView->header()->setStretchLastSection(true);
    m_toolView->header()->resizeSection(NameColumn, 160);
    m_toolView->header()->resizeSection(HandlerColumn, 80);
    m_toolView->addActions({rename, clone, remove, editTags});
    m_toolView->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto *toolsBox = new QWidget(splitter);
    auto *toolsLayout = new QVBoxLayout(toolsBox);
    toolsLayout->setContentsMargins(0, 0, 0, 0);
    toolsLayout->addWidget(m_toolView, 1);
    // While the tool worker describes tools/*.py (off the GUI thread), their tools are
    // not listed yet: say so rather than show a project without them.
    m_loading = new QLabel(tr("Loading the Python tools in tools/…"), toolsBox);
    m_loading->setObjectName(QStringLiteral("pythonToolsLoading"));
    m_loading->setEnabled(false);
    m_loading->setVisible(false);
    toolsLayout->addWidget(m_loading);
    m_problems = new ToolProblemsView(toolsBox);
    toolsLayout->addWidget(m_problems);
    connect(m_problems, &ToolProblemsView::requirementsInstalled, this, &ProjectPanel::requirementsInstalled);

    auto *scriptsBox = new QWidget(splitter);
    auto *scriptsLayout = new QVBoxLayout(scriptsBox);
    scriptsLayout->setContentsMargins(0, 0, 0, 0);
    auto *scriptsLabel = new QLabel(tr("&Scripts"), scriptsBox);
    m_scriptList = new QTreeWidget(scriptsBox);
    m_scriptList->setObjectName(QStringLiteral("scriptList"));
    m_scriptList->setHeaderHidden(true);
    m_scriptList->setToolTip(tr("Tick the tools a script may call; a call to any other is refused as unknown_tool"));
    scriptsLabel->setBuddy(m_scriptList);
    scriptsLayout->addWidget(scriptsLabel);
    scriptsLayout->addWidget(m_scriptList);
    splitter->addWidget(toolsBox);
    splitter->addWidget(scriptsBox);
    // Above the Tool dock in the left column, the window's least height adds this dock's
    // to the tallest of Tool, Step and Pending Calls: lists two text lines high at least
    // (not the 70 pixels of a scroll area), so the window still fits 1280×720 (tst_newcomer).
    const int listHeight = 2 * fontMetrics().height() + 8;
    m_toolView->setMinimumHeight(listHeight);
    m_scriptList->setMinimumHeight(listHeight);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, &ProjectPanel::applyFilter);
    connect(m_tagCombo, &QComboBox::currentIndexChanged, this,
            [this] { refilter([this] { m_filter->setTag(m_tagCombo->currentData().toString()); }); });
    // Not while the rows are replaced (a reload): the selection is empty for a moment.
    connect(m_toolView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        if (!m_filling)
            Q_EMIT toolSelected(currentTool());
    });
    connect(m_model, &QStandardItemModel::itemChanged, this, &ProjectPanel::toolItemChanged);
    connect(m_scriptList, &QTreeWidget::itemChanged, this, &ProjectPanel::bindingChanged);
    connect(m_scriptList, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (!item->parent())
            Q_EMIT scriptActivated(item->data(0, PathRole).toString());
    });

    setTabOrder(m_filterEdit, m_tagCombo);
    setTabOrder(m_tagCombo, m_toolView);
    setTabOrder(m_toolView, m_scriptList);
}

QAbstractItemModel *ProjectPanel::toolModel() const
{
    return m_model;
}

QSortFilterProxyModel *ProjectPanel::filterModel() const
{
    return m_filter;
}

void ProjectPanel::applyFilter()
{
    m_filterTimer->stop();
    refilter([this] { m_filter->setText(m_filterEdit->text()); });
}

void ProjectPanel::refilter(const std::function<void()> &change)
{
    // A filter moves the current row (the current tool hidden, another row made current
    // without a click): no tool is chosen by that, so no toolSelected (it would bring the
    // Tool dock forward over this list while the person types). The current tool still
    // listed stays current; one hidden leaves no current row, so a click on any row left
    // selects it (a row made current unseen took the click as no change).
    const QString selected = currentTool();
    m_filling = true;
    change();
    m_toolView->selectionModel()->clear();
    if (!selected.isEmpty())
        selectTool(selected);
    m_filling = false;
}

void ProjectPanel::setProject(const Project *project)
{
    const QString selected = currentTool();
    m_filling = true;
    m_model->removeRows(0, m_model->rowCount());
    m_scriptList->clear();
    m_isPython.clear();
    m_activeTools.clear();
    QStringList tags;
    if (project) {
        for (const Tool &tool : project->tools) {
            m_isPython.insert(tool.name, tool.handler == HandlerKind::Python);
            if (tool.active)
                m_activeTools << tool.name;
            auto *name = new QStandardItem(handlerIcon(tool.handler), tool.name);
            name->setEditable(false);
            name->setCheckable(true);
            name->setCheckState(tool.active ? Qt::Checked : Qt::Unchecked);
            name->setToolTip(tool.description);
            name->setData(tool.tags, TagsRole);
            auto *handler = new QStandardItem(handlerKindName(tool.handler));
            handler->setEditable(false);
            if (!tool.warnings.isEmpty()) {
                // What the derived schema cannot say exactly: visible on the row, not silence.
                const QString text
                    = tr("Warnings:") + QStringLiteral("\n• ") + tool.warnings.join(QStringLiteral("\n• "));
                handler->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
                handler->setToolTip(text);
                name->setToolTip(tool.description.isEmpty() ? text : tool.description + QStringLiteral("\n\n") + text);
            }
            auto *tagItem = new QStandardItem(tool.tags.join(QStringLiteral(", ")));
            tagItem->setToolTip(tr("Double-click to edit the tags, separated by commas"));
            m_model->appendRow({name, handler, tagItem});
            for (const QString &tag : tool.tags)
                if (!tags.contains(tag))
                    tags.append(tag);
        }
        for (const ScriptEntry &script : project->scripts) {
            auto *item = new QTreeWidgetItem(m_scriptList, {script.path});
            item->setData(0, PathRole, QDir(project->dir).absoluteFilePath(script.path));
            item->setData(0, ScriptRole, script.name);
            item->setToolTip(0,
                             script.tools.isEmpty()
                                 ? tr("Calls every active tool (none is unticked)")
                                 : tr("Bound tools: %1").arg(script.tools.join(QStringLiteral(", "))));
            const QStringList bound = project->boundTools(script.name);
            for (const Tool &tool : project->tools) {
                auto *child = new QTreeWidgetItem(item, {tool.name});
                child->setIcon(0, handlerIcon(tool.handler));
                child->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
                child->setCheckState(0, bound.contains(tool.name) ? Qt::Checked : Qt::Unchecked);
                if (!tool.active)
                    child->setToolTip(0, tr("%1 is inactive: refused on the bridge even when bound").arg(tool.name));
            }
            item->setExpanded(true);
        }
    }
    m_filling = false;
    m_loading->setVisible(project && project->pythonLoading);
    m_problems->setProject(project);
    tags.sort();
    const QString tag = m_tagCombo->currentData().toString();
    m_tagCombo->blockSignals(true);
    while (m_tagCombo->count() > 1)
        m_tagCombo->removeItem(1);
    for (const QString &t : std::as_const(tags))
        m_tagCombo->addItem(t, t);
    const int tagIndex = m_tagCombo->findData(tag);
    m_tagCombo->setCurrentIndex(tagIndex < 0 ? 0 : tagIndex);
    m_tagCombo->blockSignals(false);
    m_filling = true;
    m_filter->setTag(m_tagCombo->currentData().toString());
    if (!selected.isEmpty())
        selectTool(selected);
    m_filling = false;
    if (currentTool() != selected)
        Q_EMIT toolSelected(currentTool());
}

QString ProjectPanel::currentTool() const
{
    const QModelIndex index = m_toolView->currentIndex();
    return index.isValid() ? index.siblingAtColumn(NameColumn).data().toString() : QString();
}

QStringList ProjectPanel::selectedTools() const
{
    QModelIndexList rows = m_toolView->selectionModel()->selectedRows(NameColumn);
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList names;
    for (const QModelIndex &index : std::as_const(rows))
        names << index.data().toString();
    if (names.isEmpty() && !currentTool().isEmpty())
        names << currentTool();
    return names;
}

void ProjectPanel::selectTool(const QString &name)
{
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        const QModelIndex index = m_filter->index(row, NameColumn);
        if (index.data().toString() == name) {
            m_toolView->setCurrentIndex(index);
            return;
        }
    }
}

QTreeWidgetItem *ProjectPanel::bindingItem(const QString &script, const QString &tool) const
{
    for (int i = 0; i < m_scriptList->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_scriptList->topLevelItem(i);
        if (item->data(0, ScriptRole).toString() != script)
            continue;
        for (int c = 0; c < item->childCount(); ++c)
            if (item->child(c)->text(0) == tool)
                return item->child(c);
    }
    return nullptr;
}

void ProjectPanel::toolItemChanged(QStandardItem *item)
{
    if (m_filling)
        return;
    const QString tool = m_model->item(item->row(), NameColumn)->text();
    const bool python = m_isPython.value(tool);
    if (item->column() == NameColumn) {
        const bool active = item->checkState() == Qt::Checked;
        Q_EMIT manifestEditRequested(active ? tr("Activate %1").arg(tool) : tr("Deactivate %1").arg(tool),
                                     [tool, active, python](ProjectWriter::Manifest &m, QString *error) {
                                         return python ? ProjectWriter::setPythonToolActive(m, tool, active, error)
                                                       : ProjectWriter::setToolActive(m, tool, active, error);
                                     });
    } else if (item->column() == TagsColumn) {
        // Deferred: the edit reloads the project, which replaces the item being edited.
        const QStringList tags = splitTags(item->text());
        QTimer::singleShot(0, this, [this, tool, tags, python] {
            Q_EMIT manifestEditRequested(tr("Set the tags of %1").arg(tool),
                                         [tool, tags, python](ProjectWriter::Manifest &m, QString *error) {
                                             return python ? ProjectWriter::setPythonToolTags(m, tool, tags, error)
                                                           : ProjectWriter::setToolTags(m, tool, tags, error);
                                         });
        });
    }
}

void ProjectPanel::bindingChanged(QTreeWidgetItem *item)
{
    QTreeWidgetItem *scriptItem = item->parent();
    if (m_filling || !scriptItem)
        return;
    const QString script = scriptItem->data(0, ScriptRole).toString();
    QStringList bound;
    for (int c = 0; c < scriptItem->childCount(); ++c)
        if (scriptItem->child(c)->checkState(0) == Qt::Checked)
            bound << scriptItem->child(c)->text(0);
    // Exactly the active tools is the default: stored as no list, so a tool added
    // later is bound too.
    const QStringList stored = bound == m_activeTools ? QStringList() : bound;
    const bool none = bound.isEmpty();
    const QString tool = item->text(0);
    const bool checked = item->checkState(0) == Qt::Checked;
    const QString text = checked ? tr("Bind %1 to %2").arg(tool, script) : tr("Unbind %1 from %2").arg(tool, script);
    // Deferred: the edit reloads the project, which replaces the item that changed.
    QTimer::singleShot(0, this, [this, text, script, stored, none] {
        Q_EMIT manifestEditRequested(text, [script, stored, none](ProjectWriter::Manifest &m, QString *error) {
            if (none) {
                if (error)
                    *error = tr("%1 would have no tool left to call, and an empty list means every active tool; "
                                "keep at least one tool ticked.")
                                 .arg(script);
                return false;
            }
            return ProjectWriter::setScriptTools(m, script, stored, error);
        });
    });
}
