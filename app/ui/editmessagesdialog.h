// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include <nlohmann/json.hpp>

class QLabel;
class QPushButton;
class ScriptEditor;

/// The messages of a model step held by step mode, edited before the request goes
/// (the Pending Calls dock's *Edit Messages…*; docs/models.md "Step semantics"): a JSON
/// editor filled with the script's messages in the neutral shape. **Send** (Ctrl+Return,
/// SubmitKeys)
/// checks them as the engine checks a script's request — a non-empty array of neutral
/// messages (ModelMessage::checkMessages) — and stays open with the reason under the
/// editor while they are not; the engine checks them again, with the request cap
/// (StepEngine::continueStepWith).
class EditMessagesDialog : public QDialog
{
    Q_OBJECT
public:
    /// `model`: the step's tool ("model:local"); `messages`: the request's messages.
    EditMessagesDialog(const QString &model, const nlohmann::json &messages, QWidget *parent = nullptr);

    ScriptEditor *editor() const { return m_editor; }
    QLabel *problemLabel() const { return m_problem; }
    QPushButton *sendButton() const { return m_send; }
    /// The edited messages; valid once the dialog was accepted.
    const nlohmann::json &messages() const { return m_messages; }

    /// Why `text` cannot be sent as the messages (empty when it can; `messages` then
    /// holds them).
    static QString problemWith(const QByteArray &text, nlohmann::json *messages);

    void accept() override;

private:
    ScriptEditor *m_editor = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_send = nullptr;
    nlohmann::json m_messages;
};
