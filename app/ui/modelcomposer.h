// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

#include <optional>

class QComboBox;
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;
class SchemaForm;

/// A person plays the model (docs/models.md "A person plays the model"): the pending
/// turn of a `manual` model as a composer in AnswerPane. It shows the conversation the
/// model was sent (every message, the tool calls and results in it) and writes the
/// assistant's reply: text, and/or tool calls picked from the offered tools, each with
/// its arguments in a SchemaForm generated from the tool's input_schema. reply() is the
/// answer in the turn shape the engine checks (ManualModelHandler):
/// {"content": "…", "tool_calls": [{"name", "arguments": {…}}]}.
class ModelComposer : public QWidget
{
    Q_OBJECT
public:
    explicit ModelComposer(QWidget *parent = nullptr);

    /// Shows the model step's request ({"model", "messages", "tools": [{"name",
    /// "description", "input_schema"}]}); clears the reply.
    void setRequest(const nlohmann::json &request);
    /// The reply, or nullopt with `problem` (nothing written, a call's arguments not
    /// valid for its tool's schema: the form then shows its errors).
    std::optional<nlohmann::json> reply(QString *problem) const;

    /// Adds a call of offered tool `name` with an empty form; nullptr when not offered.
    SchemaForm *addCall(const QString &name);

    QPlainTextEdit *conversationView() const { return m_conversation; }
    QPlainTextEdit *textEdit() const { return m_text; }
    QComboBox *toolCombo() const { return m_toolCombo; }
    QPushButton *addCallButton() const { return m_addCall; }
    /// The forms of the calls, in order.
    QList<SchemaForm *> callForms() const;

Q_SIGNALS:
    void changed();
    /// Ctrl+Enter in a call's form or in the reply text.
    void submitted();

private:
    void removeCall(QWidget *box);

    nlohmann::json m_tools = nlohmann::json::array();
    QPlainTextEdit *m_conversation = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QComboBox *m_toolCombo = nullptr;
    QPushButton *m_addCall = nullptr;
    QVBoxLayout *m_callsLayout = nullptr;
    QList<QWidget *> m_calls; ///< one box per call: its form and a Remove button
};
