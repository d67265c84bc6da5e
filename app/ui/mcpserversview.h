// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>

class McpServerPool;
class Project;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

/// The MCP Servers dock (docs/mcp.md "In the window"): one row per server of the
/// project across the columns — its name, its state (ready, starting, failed, …) with
/// the protocol revision and the number of tools, or why it failed (its stderr tail,
/// under the row and as tooltip) — and its tools (`SERVER__TOOL`, then their title)
/// under it. *Restart* stops the
/// selected server and starts it again (McpServerPool::restart). It follows the pool
/// (serverChanged); it only shows, nothing of the project is edited. *Browse…* opens
/// the selected ready server's resources and prompts (McpServerBrowser). A tool that
/// changed since it was accepted reads "changed since accepted: …" (or "new since
/// accepted") in place of its title; *Review Changes…* shows the selected server's
/// changes and accepts them (McpToolChangesDialog). *Sign In…* signs in to the
/// selected remote server (McpSignIn) and restarts it. Selecting a tool's row shows the
/// tool in the Tool dock (toolSelected), as the Project dock does.
class McpServersView : public QWidget
{
    Q_OBJECT
public:
    explicit McpServersView(QWidget *parent = nullptr);

    /// Shows the servers of `pool` (nullptr: nothing) and follows it.
    void setPool(McpServerPool *pool);
    /// The window's open project, whose models a browser window's *Ask Model* offers
    /// for a server's sampling request (McpServerBrowser::setProjectLookup).
    void setProjectLookup(std::function<const Project *()> lookup) { m_projectLookup = std::move(lookup); }
    QTreeWidget *tree() const { return m_tree; }
    QToolButton *restartButton() const { return m_restart; }
    /// Restarts the server of the selected row (or of the selected tool's row).
    void restartSelected();
    /// Opens (or raises) the resources and prompts window of the selected server, when
    /// it is ready (McpServerBrowser).
    void browseSelected();
    /// Signs in to the selected remote server (McpSignIn), after asking.
    void signInSelected();
    /// Opens Review Changes… for the selected server (modal; accepting records them).
    void reviewSelected();

Q_SIGNALS:
    /// A tool's row was selected (by the person): its `SERVER__TOOL` name, as the
    /// Project dock's toolSelected.
    void toolSelected(const QString &name);

private:
    void refresh();
    QString selectedItemTool() const;
    /// A row of `server` under `parent` whose `text` spans the columns.
    QTreeWidgetItem *spannedRow(QTreeWidgetItem *parent, const QString &server, const QString &text);
    void updateButtons();
    QString selectedServer() const;

    QPointer<McpServerPool> m_pool;
    std::function<const Project *()> m_projectLookup;
    QTreeWidget *m_tree = nullptr;
    QToolButton *m_restart = nullptr;
    QToolButton *m_browse = nullptr;
    QToolButton *m_signIn = nullptr;
    QToolButton *m_review = nullptr;
    bool m_refreshing = false; ///< while the rows are replaced: no toolSelected
    QString m_selectedTool;    ///< the tool row the person selected last
};
