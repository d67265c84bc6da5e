// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"

#include <QDialog>
#include <QPointer>

#include <vector>

class McpServerPool;
class QPlainTextEdit;

/// Review Changes… of the MCP Servers dock (docs/mcp.md "Tools that change"): what
/// changed in the tools of one server since a person accepted them — per tool the
/// parts that changed and a diff of the definitions (accepted → now), read-only — with
/// *Accept* (McpServerPool::acceptTools: their calls go through again) and *Keep
/// Refusing*. Script bindings are kept either way: a refused tool stays a project tool.
class McpToolChangesDialog : public QDialog
{
    Q_OBJECT
public:
    McpToolChangesDialog(McpServerPool *pool, const QString &server, QWidget *parent = nullptr);

    /// The text shown: per changed tool a heading line and its diff.
    QString reviewText() const;

private:
    void accept() override;

    QPointer<McpServerPool> m_pool;
    QString m_server;
    std::vector<McpToolChange> m_changes; ///< the changes shown, accepted together
    QPlainTextEdit *m_text = nullptr;
};
