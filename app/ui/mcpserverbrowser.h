// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclientsession.h"

#include <QPointer>
#include <QWidget>

#include <nlohmann/json.hpp>

class McpClientSession;
class McpServerPool;
class QCheckBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;
namespace McpBrowserDetail {
class ResultPane;
}

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
/// Nothing blocks: every request is asynchronous, with a busy bar and its error in
/// place; an answer to a request that was superseded is dropped. A server that does not
/// declare `resources` or `prompts` is not asked, and the tab says so. What the server
/// sends is shown, never followed: no URI is opened by the studio.
class McpServerBrowser : public QWidget
{
    Q_OBJECT
public:
    McpServerBrowser(McpServerPool *pool, const QString &server, QWidget *parent = nullptr);
    ~McpServerBrowser() override;

    QString server() const { return m_server; }
    /// Lists the resources, templates and prompts again.
    void reload();

private:
    void listResources();
    void listPrompts();
    void onResourceSelected();
    void onPromptSelected();
    void updateUriFromTemplate();
    void readResource();
    void getPrompt();
    void setSubscribed(bool on);
    void onServerChanged(const QString &name);
    McpClientSession *session(QString *why) const;

    QPointer<McpServerPool> m_pool;
    QString m_server;
    /// The session the lists came from: a server started again is listed again.
    QPointer<McpClientSession> m_listedWith;
    // Resources
    QLabel *m_resourcesNote = nullptr;
    QTreeWidget *m_resources = nullptr;
    QGroupBox *m_templateBox = nullptr;
    QFormLayout *m_templateForm = nullptr;
    QLabel *m_templateNote = nullptr;
    QString m_template;
    QLineEdit *m_uri = nullptr;
    QPushButton *m_read = nullptr;
    QCheckBox *m_subscribe = nullptr;
    QString m_subscribedUri;
    McpBrowserDetail::ResultPane *m_resourceResult = nullptr;
    // Prompts
    QLabel *m_promptsNote = nullptr;
    QTreeWidget *m_prompts = nullptr;
    QLabel *m_promptDescription = nullptr;
    QGroupBox *m_argumentsBox = nullptr;
    QFormLayout *m_argumentsForm = nullptr;
    QStringList m_requiredArguments;
    QPushButton *m_get = nullptr;
    McpBrowserDetail::ResultPane *m_promptResult = nullptr;
    /// Generations of the lists: an answer for an older one is dropped.
    int m_resourcesGeneration = 0;
    int m_promptsGeneration = 0;
};
