// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project.h"
#include "step.h"

#include <QWidget>

#include <optional>

class DirectToolCall;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class SchemaForm;

/// The Tool dock (DESIGN.md "The window"): the selected tool's derived schema
/// (read-only JSON), its handler settings, its valves, and *Try it* — a form generated
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

public Q_SLOTS:
    /// Calls the tool with the form's value (Ctrl+Enter in the form). Returns false
    /// when nothing was started (no tool, invalid form, a call in progress).
    bool callTool();

Q_SIGNALS:
    /// A Try it call ended and was journaled.
    void callFinished(const Step &step, const RunRecord &run);

private:
    void showStep(const Step &step);
    void answerManualCall(const Step &step);

    std::optional<Project> m_project;
    QString m_toolName;
    DirectToolCall *m_call = nullptr;
    QLabel *m_heading = nullptr;
    QTabWidget *m_tabs = nullptr;
    SchemaForm *m_form = nullptr;
    QPushButton *m_callButton = nullptr;
    QPlainTextEdit *m_resultView = nullptr;
    QPlainTextEdit *m_schemaView = nullptr;
    QWidget *m_handlerPage = nullptr;
    QFormLayout *m_handlerForm = nullptr;
    QLabel *m_valvesLabel = nullptr;
};
