// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

/// AnswerPane's error answer: a message and *retryable* with **Send Error**; for a call
/// held by step mode **Fail Call** with the wire's error code (`tool_failed` with the
/// message, or `timeout`: the engine's injected timeout and its own message); for a
/// server's question, the refusal of its request. Widgets and their labels only: the
/// pane connects them and sends.
class ErrorAnswerBox : public QGroupBox
{
    // The pane's texts: tr() in its context, where their translations are.
    Q_DECLARE_TR_FUNCTIONS(AnswerPane)

public:
    explicit ErrorAnswerBox(QWidget *parent = nullptr);

    /// Labels the box for a waiting call or a held one (`held`), and for a server's
    /// question (`questionKind` not empty: a refusal; "tool_change": hidden, its Reject
    /// is the refusal). The code shows for held calls only; a held call failed with
    /// `timeout` takes no message.
    void applyMode(bool held, const QString &questionKind);
    /// True when the code chosen is `timeout` (it counts for held calls only).
    bool timeoutChosen() const;

    QLineEdit *messageEdit() const { return m_messageEdit; }
    QCheckBox *retryableCheck() const { return m_retryableCheck; }
    /// The error code of Fail Call ("tool_failed" or "timeout").
    QComboBox *codeCombo() const { return m_codeCombo; }
    QPushButton *sendButton() const { return m_sendButton; }

private:
    QLineEdit *m_messageEdit = nullptr;
    QCheckBox *m_retryableCheck = nullptr;
    QLabel *m_codeLabel = nullptr;
    QComboBox *m_codeCombo = nullptr;
    QPushButton *m_sendButton = nullptr;
};
