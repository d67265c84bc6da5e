// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>

class McpClientSession;
class McpPromptsPage;
class McpResourcesPage;
class McpServerPool;
class Project;

/// A window onto one MCP server's resources and prompts (docs/mcp.md "Resources and
/// prompts"), opened from the MCP Servers dock (*Browse…*).
///
/// Resources: the server's resources and resource templates (resources/list and
/// resources/templates/list, every page); a resource read (resources/read) is shown as
/// content — text as text, an image rendered, a blob by its size — and as a tree, and
/// can be copied or saved. A template's `{variables}` (RFC 6570 level 1) get a field
/// each and make the URI as they are typed; any URI can also be typed. *Subscribe*
/// (when the server offers it) reads the resource again each time the server says it
/// changed. Prompts: prompts/list, an argument form (required ones marked `*`), and
/// *Get* shows the messages prompts/get returns, each with its role.
///
/// The window is the frame: its tabs (McpResourcesPage, McpPromptsPage), the server's
/// session they ask, and what the server's pool says (stopped, started again, a list
/// or a resource changed).
///
/// Nothing blocks: every request is asynchronous, with a busy bar and its error in
/// place; an answer to a request that was superseded is dropped. A server that does not
/// declare `resources` or `prompts` is not asked, and the tab says so. What the server
/// sends is shown, never followed: no URI is opened by the studio.
class McpServerBrowser : public QWidget
{
    Q_OBJECT
public:
    McpServerBrowser(McpServerPool *pool, const QString &server, QWidget *parent = nullptr);

    QString server() const { return m_server; }
    /// Lists the resources, templates and prompts again.
    void reload();
    /// Where *Ask Model* of a server's sampling request (asked while a resource is read
    /// or a prompt got) finds the project's models; without one the chooser is disabled.
    void setProjectLookup(const std::function<const Project *()> &lookup);

private:
    void onServerChanged(const QString &name);
    /// The ready session of `server` in `pool`, or nullptr with why not in `why`.
    static McpClientSession *readySession(McpServerPool *pool, const QString &server, QString *why);

    QPointer<McpServerPool> m_pool;
    QString m_server;
    /// The session the lists came from: a server started again is listed again.
    QPointer<McpClientSession> m_listedWith;
    McpResourcesPage *m_resources = nullptr;
    McpPromptsPage *m_prompts = nullptr;
};
