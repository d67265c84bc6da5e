// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class SchemaForm;
class QPushButton;
class RunController;

/// Answers one pending call by hand (DESIGN.md "Pending calls"): shows the tool, its
/// arguments and the attempt, and sends either a result (any JSON value, validated
/// before it is sent) or an error with a message and a retryable flag through
/// RunController::answer. Non-modal: the window stays usable while it is open.
class AnswerDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AnswerDialog(RunController *run, QWidget *parent = nullptr);

    /// Shows `step`'s current attempt; clears the previous input.
    void setCall(const Step &step);
    /// The tool's output_schema: the result is entered in a form generated from it
    /// (SchemaForm); without one (nullopt) as raw JSON. Call before setCall.
    void setOutputSchema(const std::optional<nlohmann::json> &schema);
    /// The form for the result; hidden when the tool has no output_schema.
    SchemaForm *resultForm() const { return m_resultForm; }
    /// True when the result is entered in resultForm(), false for the raw JSON edit.
    bool usesForm() const { return m_usesForm; }
    QString callId() const { return m_callId; }
    int attempt() const { return m_attempt; }
    QString tool() const { return m_tool; }

    QPlainTextEdit *resultEdit() const { return m_resultEdit; }
    QLineEdit *errorMessageEdit() const { return m_errorMessageEdit; }
    QCheckBox *retryableCheck() const { return m_retryableCheck; }
    QPushButton *sendResultButton() const { return m_sendResultButton; }
    QPushButton *sendErrorButton() const { return m_sendErrorButton; }
    /// The message shown under the input: a JSON parse error or a refusal; empty when none.
    QString problem() const;

public Q_SLOTS:
    /// Parses the result field as JSON and sends it. Returns false (and shows why,
    /// nothing sent) on bad JSON or when the run refuses the answer.
    bool sendResult();
    /// Sends an error answer with the message and the retryable flag.
    bool sendError();

Q_SIGNALS:
    /// The run accepted the answer for `callId`.
    void answered(const QString &callId);

private:
    bool send(const ManualAnswer &answer);
    void showProblem(const QString &text);

    RunController *m_run = nullptr;
    QString m_callId;
    QString m_tool;
    int m_attempt = 0;

    QLabel *m_headingLabel = nullptr;
    QPlainTextEdit *m_argumentsView = nullptr;
    QPlainTextEdit *m_resultEdit = nullptr;
    SchemaForm *m_resultForm = nullptr;
    QLabel *m_resultLabel = nullptr;
    bool m_usesForm = false;
    QLineEdit *m_errorMessageEdit = nullptr;
    QCheckBox *m_retryableCheck = nullptr;
    QPushButton *m_sendResultButton = nullptr;
    QPushButton *m_sendErrorButton = nullptr;
    QLabel *m_problemLabel = nullptr;
};
