// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpserverbrowser.h"

#include "answerpane.h"
#include "mcp/mcpserverpool.h"
#include "mcpinputquestionview.h"
#include "mcppromptspage.h"
#include "mcpresourcespage.h"
#include "mcpresultpane.h"
#include "project/printabletext.h"
#include "samplingmodelpanel.h"

#include <QTabWidget>
#include <QVBoxLayout>

McpServerBrowser::McpServerBrowser(McpServerPool *pool, const QString &server, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_pool(pool)
    , m_server(server)
{
    setObjectName(QStringLiteral("mcpBrowser"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("MCP Server %1 — Resources and Prompts").arg(printableText(server)));
    resize(900, 640);
    auto *layout = new QVBoxLayout(this);
    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("mcpBrowserTabs"));
    layout->addWidget(tabs);
    // The pages ask by value: the resources page ends its subscription when it goes,
    // after this window's members.
    const auto session = [pool = m_pool, server](QString *why) { return readySession(pool, server, why); };
    m_resources = new McpResourcesPage(server, session, tabs);
    tabs->addTab(m_resources, tr("Resources"));
    connect(m_resources, &McpResourcesPage::reloadRequested, this, &McpServerBrowser::reload);
    m_prompts = new McpPromptsPage(server, session, tabs);
    tabs->addTab(m_prompts, tr("Prompts"));

    if (m_pool) {
        connect(m_pool, &McpServerPool::serverChanged, this, &McpServerBrowser::onServerChanged);
        connect(m_pool, &McpServerPool::featureListChanged, this, [this](const QString &name, const QString &what) {
            if (name != m_server)
                return;
            if (what == QLatin1String("prompts"))
                m_prompts->list();
            else
                m_resources->list();
        });
        connect(m_pool, &McpServerPool::resourceUpdated, this, [this](const QString &name, const QString &uri) {
            if (name == m_server)
                m_resources->resourceUpdated(uri);
        });
        connect(m_pool, &McpServerPool::resourceSubscriptionsEnded, this,
                [this](const QString &name, const QString &why) {
                    if (name == m_server)
                        m_resources->subscriptionEnded(why);
                });
    }
    reload();
}

McpClientSession *McpServerBrowser::readySession(McpServerPool *pool, const QString &server, QString *why)
{
    McpClientSession *ready = pool ? pool->readySession(server) : nullptr;
    if (!ready) {
        const McpServerStatus *status = pool ? pool->server(server) : nullptr;
        *why = tr("MCP server '%1' is not running (%2): start it with Restart in the MCP Servers dock")
                   .arg(printableText(server),
                        status ? McpServerStatus::stateName(status->state) : tr("not in the project"));
    }
    return ready;
}

void McpServerBrowser::setProjectLookup(const std::function<const Project *()> &lookup)
{
    for (McpInputQuestionView *questions : findChildren<McpInputQuestionView *>())
        questions->pane()->samplingModel()->setProjectLookup(lookup);
}

void McpServerBrowser::reload()
{
    QString why;
    m_listedWith = readySession(m_pool, m_server, &why);
    // A subscription lives in a session: a server started again has none.
    m_resources->forgetSubscription();
    m_resources->list();
    m_prompts->list();
}

void McpServerBrowser::onServerChanged(const QString &name)
{
    if (name != m_server || !m_pool)
        return;
    McpClientSession *now = m_pool->readySession(m_server);
    // A request on a session that ended gets no answer from it any more: said in place.
    const QString stopped = tr("MCP server '%1' stopped before it answered").arg(printableText(m_server));
    for (McpResultPane *pane : {m_resources->result(), m_prompts->result()})
        if (pane->isBusy() && (!pane->session() || pane->session() != now))
            pane->failOpen(stopped);
    if (now && now != m_listedWith)
        reload(); // started again: list what it has now
}
