// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/projectwriter.h"
#include "project/step.h"

#include <QWidget>

#include <optional>

class DirectToolCall;
class HandlerSettingsForm;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class SchemaForm;
class TryItAnswerDialog;
class ValvesForm;

/// The Tool dock (DESIGN.md "The window"): the selected tool's derived schema
/// (read-only JSON), its handler settings (HandlerSettingsForm), its valves
/// (ValvesForm), and *Try it* — a form generated
/// from input_schema whose call runs directly on the trusted side through a
/// DirectToolCall and is journaled as a one-step run.
class ToolPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ToolPanel(QWidget *parent = nullptr);
    ~ToolPanel() override;

    /// Shows `tool` of `project` (empty name or nullptr: nothing selected).
    void setTool(const Project *project, const QString &tool);
    QString tool() const { return m_toolName; }

    SchemaForm *form() const { return m_form; }
    QPushButton *callButton() const { return m_callButton; }
    QPlainTextEdit *resultView() const { return m_resultView; }
    QPlainTextEdit *schemaView() const { return m_schemaView; }
    QTabWidget *tabs() const { return m_tabs; }
    DirectToolCall *directCall() const { return m_call; }
    HandlerSettingsForm *handlerForm() const { return m_handlerForm; }
    ValvesForm *valvesForm() const { return m_valvesForm; }
    /// The answer dialog of a manual tool's Try it call while it is open.
    TryItAnswerDialog *answerDialog() const;

public Q_SLOTS:
    /// Calls the tool with the form's value (Ctrl+Enter in the form). Returns false
    /// when nothing was started (no tool, a call in progress, or an invalid form: then
    /// every error of the form is shown at its field).
    bool callTool();

Q_SIGNALS:
    /// A Try it call ended and was journaled.
    void callFinished(const Step &step, const RunRecord &run);
    /// The handler settings form asks for an edit of toolstudio.json (undoable).
    void manifestEditRequested(const QString &text, const ProjectWriter::Edit &edit);

private:
    void updateCallButton();
    void showStep(const Step &step);
    void answerManualCall(const Step &step);
    /// The call's attempt asks a person a question: an AnswerDialog answers it.
    void answerQuestion(const Step &step);

    std::optional<Project> m_project;
    QString m_toolName;
    DirectToolCall *m_call = nullptr;
    QLabel *m_heading = nullptr;
    QTabWidget *m_tabs = nullptr;
    SchemaForm *m_form = nullptr;
    QPushButton *m_callButton = nullptr;
    QPlainTextEdit *m_resultView = nullptr;
    QPlainTextEdit *m_schemaView = nullptr;
    HandlerSettingsForm *m_handlerForm = nullptr;
    ValvesForm *m_valvesForm = nullptr;
};
