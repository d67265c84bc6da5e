// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>

class McpOAuthFlow;
class McpServerPool;
class QMessageBox;

/// *Sign In…* of the MCP Servers dock (docs/mcp.md "Signing in"): asks, then runs the
/// sign-in of a remote server (McpOAuthFlow) — the browser opens at the authorization
/// URL (QDesktopServices), a box waits for the redirect (Cancel, or 300 s) — and
/// restarts the server once signed in. A failure shows the flow's steps as the box's
/// details. One sign-in at a time per dock; it deletes itself when done.
class McpSignIn : public QObject
{
    Q_OBJECT
public:
    static constexpr int TimeoutMs = 300000;

    /// Starts the sign-in of `server` of `pool`'s project, with `parent` for the boxes.
    static void run(McpServerPool *pool, const QString &server, QWidget *parent);

private:
    McpSignIn(McpServerPool *pool, const QString &server, QWidget *parent);
    void finish(bool ok, const QString &why);

    QPointer<McpServerPool> m_pool;
    QString m_server;
    QPointer<QWidget> m_parent;
    McpOAuthFlow *m_flow = nullptr;
    QPointer<QMessageBox> m_waiting;
};
