// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpserversview.h"

#include "mcp/mcprevision.h"

#include "mcp/mcpserverpool.h"
#include "mcpserverbrowser.h"
#include "mcpsignin.h"
#include "mcptoolchangesdialog.h"
#include "project/printabletext.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QScopedValueRollback>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int ServerRole = Qt::UserRole + 1;
constexpr int ToolRole = Qt::UserRole + 2; ///< a tool row's SERVER__TOOL, whole
/// Characters of a failure shown under its server (the tooltip has up to 4000).
constexpr qsizetype ReasonChars = 300;

QString stringMember(const nlohmann::json &tool, const char *key)
{
    const auto it = tool.find(key);
    return it != tool.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

/// Server text as a tooltip, escaped: Qt takes a tooltip that looks like markup for
/// rich text, and a server's stderr is not the studio's markup (an <img> would be loaded).
QString escapedToolTip(const QString &text)
{
    return QStringLiteral("<p style=\"white-space: pre-wrap\">%1</p>").arg(text.toHtmlEscaped());
}

QString stateLine(const McpServerStatus &server)
{
    QString line = McpServerStatus::stateName(server.state);
    if (server.state == McpServerStatus::State::Ready) {
        // The era shows with the revision: 2026-07-28 is stateless (no initialize).
        QString version = McpRevision::isModern(server.protocolVersion.toStdString())
            ? McpServersView::tr("%1, stateless").arg(printableText(server.protocolVersion))
            : printableText(server.protocolVersion);
        // The older HTTP+SSE transport shows beside it (given, or fallen back to).
        if (server.transport == QLatin1String("HTTP+SSE"))
            version = McpServersView::tr("%1, HTTP+SSE").arg(version);
        line += McpServersView::tr(" · MCP %1 · %n tool(s)", nullptr, int(server.tools.size())).arg(version);
    } else if (server.state == McpServerStatus::State::Starting && !server.activity.isEmpty()) {
        line += QStringLiteral(" · ") + printableText(server.activity);
    }
    return line;
}

} // namespace

McpServersView::McpServersView(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_restart = new QToolButton(this);
    m_restart->setText(tr("Restart"));
    m_restart->setToolTip(tr("Stop the selected MCP server and start it again"));
    m_restart->setEnabled(false);
    connect(m_restart, &QToolButton::clicked, this, &McpServersView::restartSelected);
    m_browse = new QToolButton(this);
    m_browse->setObjectName(QStringLiteral("mcpBrowse"));
    m_browse->setText(tr("Browse…"));
    m_browse->setToolTip(tr("Browse the selected MCP server's resources and prompts"));
    m_browse->setEnabled(false);
    connect(m_browse, &QToolButton::clicked, this, &McpServersView::browseSelected);
    m_signIn = new QToolButton(this);
    m_signIn->setObjectName(QStringLiteral("mcpSignIn"));
    m_signIn->setText(tr("Sign In…"));
    m_signIn->setToolTip(tr("Sign in to the selected remote MCP server (OAuth): your browser opens"));
    m_signIn->setEnabled(false);
    connect(m_signIn, &QToolButton::clicked, this, &McpServersView::signInSelected);
    m_review = new QToolButton(this);
    m_review->setObjectName(QStringLiteral("mcpReviewChanges"));
    m_review->setText(tr("Review Changes…"));
    m_review->setToolTip(tr("Show what changed in the selected server's tools since you accepted them, and accept it"));
    m_review->setEnabled(false);
    connect(m_review, &QToolButton::clicked, this, &McpServersView::reviewSelected);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_restart);
    buttons->addWidget(m_browse);
    buttons->addWidget(m_review);
    buttons->addWidget(m_signIn);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("mcpServers"));
    m_tree->setColumnCount(2);
    // A tool's title (or what changed in it) beside its name; a server's rows span both.
    m_tree->setHeaderLabels({tr("Server / tool"), tr("Title")});
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &McpServersView::updateButtons);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, [this] {
        if (m_refreshing)
            return;
        m_selectedTool = selectedItemTool();
        if (!m_selectedTool.isEmpty())
            Q_EMIT toolSelected(m_selectedTool);
    });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (!item->parent()) // a server's row: browse it
            browseSelected();
    });
    layout->addWidget(m_tree);
}

void McpServersView::setPool(McpServerPool *pool)
{
    if (m_pool)
        m_pool->disconnect(this);
    m_pool = pool;
    if (m_pool)
        connect(m_pool, &McpServerPool::serverChanged, this, &McpServersView::refresh);
    refresh();
}

void McpServersView::refresh()
{
    const QString selected = selectedServer();
    // The person's choice of tool, kept while its server restarts (no tool rows then).
    const QString selectedTool = m_selectedTool;
    const QScopedValueRollback refreshing(m_refreshing, true);
    m_tree->clear();
    if (!m_pool)
        return;
    int nameWidth = 0; // the widest tool name: the first column's width
    for (const McpServerStatus &server : m_pool->servers()) {
        // A server's row and its notes span the columns: its state beside its name
        // ("everything: ready · MCP 2025-11-25 · 17 tool(s)") was cut in the second
        // column of a dock as narrow as the window's left column (nc-shot1).
        auto *row = spannedRow(
            m_tree->invisibleRootItem(), server.name,
            tr("%1: %2", "an MCP server's name: its state").arg(printableText(server.name), stateLine(server)));
        const QString why = printableLines(server.error);
        if (!why.isEmpty() && server.state != McpServerStatus::State::Ready) {
            // The dock is narrower than the reason: the whole of it where the pointer is.
            const QString whole = escapedToolTip(clippedText(why, 4000));
            row->setToolTip(0, whole);
            spannedRow(row, server.name, tr("why: %1").arg(clippedText(why.simplified(), ReasonChars)))
                ->setToolTip(0, whole);
        }
        if (!server.toolsChangedNote.isEmpty())
            spannedRow(row, server.name, tr("tools: %1").arg(printableText(server.toolsChangedNote)));
        if (!server.acceptedError.isEmpty())
            spannedRow(
                row, server.name,
                tr("accepted: %1").arg(clippedText(printableLines(server.acceptedError).simplified(), ReasonChars)))
                ->setToolTip(0, escapedToolTip(clippedText(printableLines(server.acceptedError), 4000)));
        for (const nlohmann::json &tool : server.tools) {
            const QString own = stringMember(tool, "name");
            const QString name = server.name + QStringLiteral("__") + own;
            auto *item = new QTreeWidgetItem(row, {elidedText(name), printableText(stringMember(tool, "title"))});
            item->setData(0, ServerRole, server.name);
            item->setData(0, ToolRole, name);
            nameWidth = std::max(nameWidth, m_tree->fontMetrics().horizontalAdvance(item->text(0)));
            if (name == selectedTool)
                item->setSelected(true);
            const auto change = std::find_if(server.changedTools.begin(), server.changedTools.end(),
                                             [&own](const McpToolChange &entry) { return entry.tool == own; });
            if (change == server.changedTools.end())
                continue;
            item->setText(1,
                          change->isNew ? tr("new since accepted: calls ask first")
                                        : tr("changed since accepted: %1; calls ask first").arg(change->summary()));
            item->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxWarning));
            item->setForeground(1, QBrush(QColor(0xb0, 0x40, 0x00)));
            item->setToolTip(1, escapedToolTip(tr("Review Changes… shows what changed and accepts it")));
        }
        row->setExpanded(server.state != McpServerStatus::State::Ready || server.tools.size() <= 20);
        if (server.name == selected && selectedTool.isEmpty())
            row->setSelected(true);
    }
    // Not ResizeToContents: that would count the spanned rows. Room for the indentation
    // and a changed tool's icon.
    if (nameWidth > 0)
        m_tree->header()->resizeSection(0, nameWidth + 2 * m_tree->indentation() + m_tree->iconSize().width() + 16);
    updateButtons();
}

void McpServersView::updateButtons()
{
    const QString name = selectedServer();
    m_restart->setEnabled(!name.isEmpty());
    const McpServerStatus *status = m_pool && !name.isEmpty() ? m_pool->server(name) : nullptr;
    m_browse->setEnabled(status && status->state == McpServerStatus::State::Ready);
    const McpServerConfig *config = m_pool && !name.isEmpty() ? m_pool->config(name) : nullptr;
    m_signIn->setEnabled(config && config->transport == McpServerConfig::Transport::StreamableHttp);
    m_review->setEnabled(status && status->state == McpServerStatus::State::Ready
                         && (!status->changedTools.empty() || !status->acceptedError.isEmpty()));
}

void McpServersView::signInSelected()
{
    const QString name = selectedServer();
    if (m_pool && !name.isEmpty())
        McpSignIn::run(m_pool, name, this);
}

void McpServersView::reviewSelected()
{
    const QString name = selectedServer();
    if (!m_pool || name.isEmpty())
        return;
    McpToolChangesDialog dialog(m_pool, name, this);
    dialog.exec();
}

void McpServersView::browseSelected()
{
    const QString name = selectedServer();
    if (!m_pool || name.isEmpty())
        return;
    for (McpServerBrowser *open : findChildren<McpServerBrowser *>())
        if (open->server() == name) {
            open->raise();
            open->activateWindow();
            return;
        }
    auto *browser = new McpServerBrowser(m_pool, name, this);
    if (m_projectLookup)
        browser->setProjectLookup(m_projectLookup);
    browser->show();
}

QTreeWidgetItem *McpServersView::spannedRow(QTreeWidgetItem *parent, const QString &server, const QString &text)
{
    auto *row = new QTreeWidgetItem(parent, {text});
    row->setData(0, ServerRole, server);
    row->setFirstColumnSpanned(true);
    return row;
}

QString McpServersView::selectedItemTool() const
{
    const QList<QTreeWidgetItem *> items = m_tree->selectedItems();
    return items.isEmpty() ? QString() : items.front()->data(0, ToolRole).toString();
}

QString McpServersView::selectedServer() const
{
    const QList<QTreeWidgetItem *> items = m_tree->selectedItems();
    return items.isEmpty() ? QString() : items.front()->data(0, ServerRole).toString();
}

void McpServersView::restartSelected()
{
    const QString name = selectedServer();
    if (m_pool && !name.isEmpty())
        m_pool->restart(name);
}
