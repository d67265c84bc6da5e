// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "answerpane.h"

#include <QDialog>

class RunController;

/// An AnswerPane in a window of its own, for answering a pending call away from the
/// Pending Calls dock: **Later** closes it and the call keeps waiting. Closes itself
/// when its call was answered. Non-modal.
class AnswerDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AnswerDialog(RunController *run, QWidget *parent = nullptr);

    /// Shows `step`'s current attempt (a held step as AnswerPane::setHeldCall does);
    /// clears the previous input.
    void setCall(const Step &step);
    /// See AnswerPane::setOutputSchema. Call before setCall.
    void setOutputSchema(const std::optional<nlohmann::json> &schema) { m_pane->setOutputSchema(schema); }
    AnswerPane *pane() const { return m_pane; }

    SchemaForm *resultForm() const { return m_pane->resultForm(); }
    bool usesForm() const { return m_pane->usesForm(); }
    QString callId() const { return m_pane->callId(); }
    int attempt() const { return m_pane->attempt(); }
    QString tool() const { return m_pane->tool(); }
    QPlainTextEdit *resultEdit() const { return m_pane->resultEdit(); }
    QLineEdit *errorMessageEdit() const { return m_pane->errorMessageEdit(); }
    QCheckBox *retryableCheck() const { return m_pane->retryableCheck(); }
    QPushButton *sendResultButton() const { return m_pane->sendResultButton(); }
    QPushButton *sendErrorButton() const { return m_pane->sendErrorButton(); }
    QString problem() const { return m_pane->problem(); }

public Q_SLOTS:
    bool sendResult() { return m_pane->sendResult(); }
    bool sendError() { return m_pane->sendError(); }

Q_SIGNALS:
    /// The run accepted the answer for `callId`.
    void answered(const QString &callId);

private:
    AnswerPane *m_pane = nullptr;
};
