// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

class QLabel;
class QPushButton;
class QTreeWidget;
class SchemaForm;

/// The tools an MCP server's sampling request offers (MCP 2025-11-25, docs/mcp.md "Tools
/// in sampling"), in the answer pane under the transcript: each tool's name and
/// description (its inputSchema in the tooltip and under **View Schema…**), the
/// request's toolChoice, and a tool call to answer with: the tool chosen in the list, its
/// arguments in a form built from its inputSchema (SchemaForm), **Send Tool Call**. A
/// model's tool call (Ask Model, showModelAnswer()) fills the form; sent unedited it is
/// the model's answer, edited the person's. Hidden for a question without tools.
class SamplingToolsView : public QWidget
{
    Q_OBJECT
public:
    explicit SamplingToolsView(QWidget *parent = nullptr);

    /// Shows the tools of a sampling `question` (its "tools", "tool_choice"); hidden when
    /// it has none. Clears a model's answer shown before.
    void setQuestion(const nlohmann::json &question);
    /// A model's answer of tool calls ({"content": [tool_use blocks], "model",
    /// "stopReason"}): its first tool_use chosen and its input in the form.
    void showModelAnswer(const nlohmann::json &answer);
    /// What Send Tool Call sends for the form as it is: the model's answer while its first
    /// tool_use is still the tool and input shown, else the person's {"content":
    /// [{"type": "tool_use", "name", "input"}]} (the engine gives it a fresh id).
    nlohmann::json answer() const;

    QTreeWidget *toolList() const { return m_list; }
    SchemaForm *argumentsForm() const { return m_form; }
    QPushButton *sendButton() const { return m_send; }

Q_SIGNALS:
    /// Send Tool Call with a valid form: `answer` is answer().
    void toolCallChosen(const nlohmann::json &answer);

private:
    void choose(int index);
    /// The form as tall as the chosen tool's fields.
    void fitForm();
    void viewSchema();
    void send();

    nlohmann::json m_tools = nlohmann::json::array();
    nlohmann::json m_modelAnswer; ///< the model's last tool-call answer, null when none
    QLabel *m_heading = nullptr;
    QTreeWidget *m_list = nullptr;
    QPushButton *m_schemaButton = nullptr;
    QLabel *m_formLabel = nullptr;
    SchemaForm *m_form = nullptr;
    QPushButton *m_send = nullptr;
    QLabel *m_status = nullptr;
};
