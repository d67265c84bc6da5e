// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tryitanswerdialog.h"
#include "project/printabletext.h"

#include "schemaform.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

TryItAnswerDialog::TryItAnswerDialog(const Step &step, const std::optional<nlohmann::json> &outputSchema,
                                     QWidget *parent)
    : QDialog(parent)
    , m_attempt(step.currentAttempt() ? step.currentAttempt()->number : 1)
{
    setWindowTitle(tr("Answer %1").arg(printableText(step.tool)));
    auto *layout = new QVBoxLayout(this);
    auto *heading
        = new QLabel(tr("%1 is answered by a person. Arguments: %2")
                         .arg(printableText(step.tool), printableText(QString::fromStdString(step.args.dump()))),
                     this);
    heading->setWordWrap(true);
    heading->setTextFormat(Qt::PlainText);
    layout->addWidget(heading);
    auto *resultLabel
        = new QLabel(outputSchema ? tr("&Result (from the output schema):") : tr("&Result (JSON):"), this);
    layout->addWidget(resultLabel);
    m_form = new SchemaForm(this);
    m_form->setObjectName(QStringLiteral("answerForm"));
    if (outputSchema) {
        m_form->setSchema(*outputSchema);
    } else {
        m_form->setSchema(nlohmann::json::object());
        m_form->setRawMode(true);
        m_form->setRawToggleVisible(false);
    }
    resultLabel->setBuddy(m_form);
    layout->addWidget(m_form, 1);

    auto *errorRow = new QFormLayout;
    m_errorMessage = new QLineEdit(this);
    m_errorMessage->setObjectName(QStringLiteral("errorMessage"));
    m_errorMessage->setText(tr("no answer given in Try it"));
    errorRow->addRow(tr("Error &message:"), m_errorMessage);
    layout->addLayout(errorRow);

    auto *buttons = new QDialogButtonBox(this);
    m_sendResult = buttons->addButton(tr("Send &Result"), QDialogButtonBox::AcceptRole);
    m_sendResult->setObjectName(QStringLiteral("sendResult"));
    m_sendResult->setToolTip(tr("Send the result (Ctrl+Enter)"));
    m_sendError = buttons->addButton(tr("Send &Error"), QDialogButtonBox::RejectRole);
    m_sendError->setObjectName(QStringLiteral("sendError"));
    m_sendResult->setDefault(true);
    layout->addWidget(buttons);

    // Both buttons decide themselves whether the dialog closes.
    disconnect(buttons, nullptr, this, nullptr);
    connect(m_sendResult, &QPushButton::clicked, this, &TryItAnswerDialog::sendResult);
    connect(m_sendError, &QPushButton::clicked, this, &TryItAnswerDialog::sendError);
    connect(m_form, &SchemaForm::submitted, this, &TryItAnswerDialog::sendResult);
    resize(480, 420);
}

bool TryItAnswerDialog::sendResult()
{
    if (!m_form->isValid()) {
        m_form->revealErrors();
        return false;
    }
    ManualAnswer answer;
    answer.result = m_form->value();
    m_answered = true;
    Q_EMIT answerChosen(m_attempt, answer);
    accept();
    return true;
}

bool TryItAnswerDialog::sendError()
{
    ManualAnswer answer;
    answer.isError = true;
    answer.message = m_errorMessage->text().trimmed().isEmpty() ? tr("no answer given in Try it")
                                                                : m_errorMessage->text().trimmed();
    m_answered = true;
    Q_EMIT answerChosen(m_attempt, answer);
    QDialog::reject();
    return true;
}

void TryItAnswerDialog::reject()
{
    // Escape or closing the dialog must not leave the call waiting for ever.
    if (!m_answered)
        sendError();
    else
        QDialog::reject();
}
