// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectpanel.h"

#include "project.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace {

constexpr int TagsRole = Qt::UserRole + 1;

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
        if (!currentTool().isEmpty())
            Q_EMIT deleteToolRequested(currentTool());
    });
    layout->addWidget(bar);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_toolView = new QTreeView(splitter);
    m_toolView->setObjectName(QStringLiteral("toolView"));
    m_toolView->setModel(m_filter);
    m_toolView->setRootIsDecorated(false);
    m_toolView->setUniformRowHeights(true);
    m_toolView->setAllColumnsShowFocus(true);
    m_toolView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_toolView->header()->setStretchLastSection(true);
    m_toolView->header()->resizeSection(NameColumn, 160);
    m_toolView->header()->resizeSection(HandlerColumn, 80);
    m_toolView->addActions({rename, clone, remove});
    m_toolView->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto *scriptsBox = new QWidget(splitter);
    auto *scriptsLayout = new QVBoxLayout(scriptsBox);
    scriptsLayout->setContentsMargins(0, 0, 0, 0);
    auto *scriptsLabel = new QLabel(tr("&Scripts"), scriptsBox);
    m_scriptList = new QListWidget(scriptsBox);
    m_scriptList->setObjectName(QStringLiteral("scriptList"));
    scriptsLabel->setBuddy(m_scriptList);
    scriptsLayout->addWidget(scriptsLabel);
    scriptsLayout->addWidget(m_scriptList);
    splitter->addWidget(m_toolView);
    splitter->addWidget(scriptsBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_filterTimer, &QTimer::timeout, this, &ProjectPanel::applyFilter);
    connect(m_tagCombo, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setTag(m_tagCombo->currentData().toString()); });
    connect(m_toolView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { Q_EMIT toolSelected(currentTool()); });
    connect(m_model, &QStandardItemModel::itemChanged, this, [this](QStandardItem *item) {
        if (m_filling || item->column() != NameColumn)
            return;
        Q_EMIT activeToggled(item->text(), item->checkState() == Qt::Checked);
    });
    connect(m_scriptList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { Q_EMIT scriptActivated(item->data(Qt::UserRole).toString()); });

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
    m_filter->setText(m_filterEdit->text());
}

void ProjectPanel::setProject(const Project *project)
{
    const QString selected = currentTool();
    m_filling = true;
    m_model->removeRows(0, m_model->rowCount());
    m_scriptList->clear();
    QStringList tags;
    if (project) {
        for (const Tool &tool : project->tools) {
            auto *name = new QStandardItem(handlerIcon(tool.handler), tool.name);
            name->setCheckable(true);
            name->setCheckState(tool.active ? Qt::Checked : Qt::Unchecked);
            name->setToolTip(tool.description);
            name->setData(tool.tags, TagsRole);
            auto *handler = new QStandardItem(handlerKindName(tool.handler));
            auto *tagItem = new QStandardItem(tool.tags.join(QStringLiteral(", ")));
            m_model->appendRow({name, handler, tagItem});
            for (const QString &tag : tool.tags)
                if (!tags.contains(tag))
                    tags.append(tag);
        }
        for (const ScriptEntry &script : project->scripts) {
            auto *item = new QListWidgetItem(script.path, m_scriptList);
            item->setData(Qt::UserRole, QDir(project->dir).absoluteFilePath(script.path));
            item->setToolTip(script.tools.isEmpty() ? tr("Calls every active tool")
                                                    : tr("Bound tools: %1").arg(script.tools.join(QStringLiteral(", "))));
        }
    }
    m_filling = false;
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
    m_filter->setTag(m_tagCombo->currentData().toString());
    if (!selected.isEmpty())
        selectTool(selected);
}

QString ProjectPanel::currentTool() const
{
    const QModelIndex index = m_toolView->currentIndex();
    return index.isValid() ? index.siblingAtColumn(NameColumn).data().toString() : QString();
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
