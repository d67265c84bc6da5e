// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QDialog>

#include <optional>

class QLineEdit;
class QPushButton;
class SchemaForm;

/// The answer to a *manual* tool called from Try it: the result is entered in a form
/// generated from the tool's output_schema (SchemaForm; raw JSON when the tool has
/// none), or an error is sent with a message. Ctrl+Enter sends the result. Bad input
/// keeps the dialog open with the message at the field.
class TryItAnswerDialog : public QDialog
{
    Q_OBJECT
public:
    TryItAnswerDialog(const Step &step, const std::optional<nlohmann::json> &outputSchema, QWidget *parent = nullptr);

    SchemaForm *form() const { return m_form; }
    QPushButton *sendResultButton() const { return m_sendResult; }
    QPushButton *sendErrorButton() const { return m_sendError; }
    QLineEdit *errorMessageEdit() const { return m_errorMessage; }
    int attempt() const { return m_attempt; }

public Q_SLOTS:
    /// Sends the form's value; false (dialog stays open, errors shown) when invalid.
    bool sendResult();
    /// Sends an error with the message (Escape and closing the dialog do too).
    bool sendError();
    void reject() override;

Q_SIGNALS:
    void answerChosen(int attempt, const ManualAnswer &answer);

private:
    SchemaForm *m_form = nullptr;
    QPushButton *m_sendResult = nullptr;
    QPushButton *m_sendError = nullptr;
    QLineEdit *m_errorMessage = nullptr;
    int m_attempt = 1;
    bool m_answered = false;
};
