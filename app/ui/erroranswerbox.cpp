// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "erroranswerbox.h"

#include "project/steperror.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

ErrorAnswerBox::ErrorAnswerBox(QWidget *parent)
    : QGroupBox(parent)
{
    m_messageEdit = new QLineEdit(this);
    m_messageEdit->setObjectName(QStringLiteral("answerErrorMessage"));
    m_retryableCheck = new QCheckBox(this);
    m_sendButton = new QPushButton(this);
    m_sendButton->setObjectName(QStringLiteral("sendError"));
    // Step mode's Fail Call: the wire's error code (DESIGN.md "The tools bridge").
    m_codeCombo = new QComboBox(this);
    m_codeCombo->setObjectName(QStringLiteral("answerErrorCode"));
    m_codeCombo->addItem(errorCodeText(ErrorCode::ToolFailed), errorCodeText(ErrorCode::ToolFailed));
    m_codeCombo->setItemData(0, tr("The tool failed: the script gets the message below"), Qt::ToolTipRole);
    m_codeCombo->addItem(errorCodeText(ErrorCode::Timeout), errorCodeText(ErrorCode::Timeout));
    m_codeCombo->setItemData(1, tr("An injected timeout (bound \"injected\") with the engine's message"),
                             Qt::ToolTipRole);
    m_codeLabel = new QLabel(tr("C&ode:"), this);
    m_codeLabel->setBuddy(m_codeCombo);
    auto *layout = new QFormLayout(this);
    // The code (held calls only) before the message, on one row: room is short.
    auto *messageRow = new QHBoxLayout;
    messageRow->addWidget(m_codeLabel);
    messageRow->addWidget(m_codeCombo);
    messageRow->addWidget(m_messageEdit, 1);
    layout->addRow(tr("Message:"), messageRow);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_retryableCheck);
    buttons->addStretch();
    buttons->addWidget(m_sendButton);
    layout->addRow(buttons);
}

bool ErrorAnswerBox::timeoutChosen() const
{
    return m_codeCombo->currentData().toString() == errorCodeText(ErrorCode::Timeout);
}

void ErrorAnswerBox::applyMode(bool held, const QString &questionKind)
{
    const bool timeout = held && timeoutChosen();
    m_sendButton->setText(held ? tr("Fail Call") : tr("Send Error"));
    m_sendButton->setToolTip(
        held ? tr("Step mode: end the held call with this error; its handler does not run and the step is not "
                  "retried (Ctrl+Return in this box)")
             : tr("Send the message as the tool's error (Ctrl+Return in this box)"));
    setTitle(held ? tr("Or fail the call without running it") : tr("Or answer with an error"));
    m_codeLabel->setVisible(held);
    m_codeCombo->setVisible(held);
    m_messageEdit->setEnabled(!timeout);
    m_retryableCheck->setEnabled(!timeout);
    m_messageEdit->setPlaceholderText(timeout ? tr("The engine's message: timed out by hand in step mode")
                                              : tr("What went wrong, as the script will see it"));
    m_retryableCheck->setText(held ? tr("Retryable") : tr("Retryable (the step may try again)"));
    m_retryableCheck->setToolTip(held ? tr("The script sees the flag; step mode does not retry the call") : QString());
    if (!questionKind.isEmpty()) {
        m_sendButton->setToolTip(tr("Refuse the server's request: it gets an error with this message"));
        setTitle(tr("Or refuse the request with an error"));
        m_messageEdit->setPlaceholderText(tr("Why, as the server will see it"));
    }
    // A changed tool is the studio's own question: Reject is its refusal (no server
    // waits for an error message).
    setVisible(questionKind != QLatin1String("tool_change"));
    m_retryableCheck->setVisible(questionKind.isEmpty());
}
