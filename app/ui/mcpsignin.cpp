// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpsignin.h"

#include "mcp/mcpoauthflow.h"
#include "mcp/mcpserverpool.h"

#include <QDesktopServices>
#include <QMessageBox>
#include <QTimer>

void McpSignIn::run(McpServerPool *pool, const QString &server, QWidget *parent)
{
    const McpServerConfig *config = pool ? pool->config(server) : nullptr;
    if (!config || config->transport != McpServerConfig::Transport::StreamableHttp)
        return;
    const auto asked = QMessageBox::question(
        parent, McpSignIn::tr("Sign In"),
        McpSignIn::tr("Sign in to the MCP server %1?\n\nYour browser opens at its authorization server; the tokens are "
                      "kept with the project's secrets.")
            .arg(server));
    if (asked != QMessageBox::Yes)
        return;
    new McpSignIn(pool, server, parent);
}

McpSignIn::McpSignIn(McpServerPool *pool, const QString &server, QWidget *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_server(server)
    , m_parent(parent)
{
    QStringList missing;
    const McpOAuthFlow::Settings settings
        = McpOAuthFlow::settingsFor(*pool->config(server), pool->projectDir(), &missing);
    if (!missing.isEmpty()) {
        QTimer::singleShot(0, this, [this, missing] {
            finish(false,
                   tr("its oauth.client_secret names secrets that are not set: %1")
                       .arg(missing.join(QStringLiteral(", "))));
        });
        return;
    }
    m_flow = new McpOAuthFlow(settings, this);
    connect(m_flow, &McpOAuthFlow::authorizationUrl, this, [this](const QUrl &url) {
        QDesktopServices::openUrl(url);
        m_waiting = new QMessageBox(QMessageBox::Information, tr("Sign In"),
                                    tr("Sign in to %1 in your browser.\n\nIf no browser opened, open this URL:\n%2")
                                        .arg(m_server, url.toString(QUrl::FullyEncoded)),
                                    QMessageBox::Cancel, m_parent);
        m_waiting->setObjectName(QStringLiteral("mcpSignInWaiting"));
        m_waiting->setTextFormat(Qt::PlainText); // the URL is the server's (attack31 F7)
        m_waiting->setTextInteractionFlags(Qt::TextSelectableByMouse);
        connect(m_waiting, &QMessageBox::rejected, this,
                [this] { m_flow->abort(tr("cancelled before the browser came back")); });
        m_waiting->open();
        QTimer::singleShot(TimeoutMs, m_flow, [flow = m_flow] {
            flow->abort(QStringLiteral("no redirect came within %1 s").arg(TimeoutMs / 1000));
        });
    });
    connect(m_flow, &McpOAuthFlow::notNeeded, this, [this] { finish(true, {}); });
    connect(m_flow, &McpOAuthFlow::succeeded, this, [this] { finish(true, {}); });
    connect(m_flow, &McpOAuthFlow::failed, this, [this](const QString &why) { finish(false, why); });
    QTimer::singleShot(0, m_flow, &McpOAuthFlow::start);
}

void McpSignIn::finish(bool ok, const QString &why)
{
    if (m_waiting) {
        m_waiting->disconnect(this);
        m_waiting->close();
        m_waiting->deleteLater();
    }
    if (ok) {
        if (m_pool)
            m_pool->restart(m_server);
    } else {
        auto *box
            = new QMessageBox(QMessageBox::Warning, tr("Sign In"),
                              tr("The sign-in to %1 failed: %2").arg(m_server, why), QMessageBox::Close, m_parent);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setTextFormat(Qt::PlainText); // `why` quotes the servers' words: never markup (attack31 F7)
        if (m_flow)
            box->setDetailedText(m_flow->log().text());
        box->open();
    }
    deleteLater();
}
