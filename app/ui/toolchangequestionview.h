// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

class QLabel;
class QPlainTextEdit;
class QPushButton;

/// A changed MCP tool asked about while its call waits (a "tool_change" question,
/// docs/mcp.md "Tools that change"), as the answer pane shows it: what changed, the
/// unified diff of the accepted definition and the one listed now (read-only,
/// monospace, as Review Changes shows it), **Accept** and **Reject**.
class ToolChangeQuestionView : public QWidget
{
    Q_OBJECT
public:
    explicit ToolChangeQuestionView(QWidget *parent = nullptr);

    /// Shows `question` (McpToolChangeQuestion's shape).
    void setQuestion(const nlohmann::json &question);

    QPlainTextEdit *diffView() const { return m_diff; }

Q_SIGNALS:
    /// The person chose: {"action": "accept"} or {"action": "reject"}.
    void answered(const nlohmann::json &result);

private:
    /// Colours the diff's removed and added lines.
    void markChangedLines();

    QLabel *m_message = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QPushButton *m_accept = nullptr;
    QPushButton *m_reject = nullptr;
};
