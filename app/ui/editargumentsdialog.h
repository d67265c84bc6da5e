// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include <nlohmann/json.hpp>

class QPushButton;
class SchemaForm;
struct Tool;

/// The arguments of a call held for approval, edited before it runs (the Chat dock's
/// *Edit Arguments…*): a form generated from the tool's input_schema (SchemaForm, with
/// its raw JSON toggle), filled with the arguments the model sent. **Run** is enabled only
/// while the form's value is valid; the engine checks it again (StepEngine::continueStepWith).
class EditArgumentsDialog : public QDialog
{
    Q_OBJECT
public:
    EditArgumentsDialog(const Tool &tool, const nlohmann::json &args, QWidget *parent = nullptr);

    SchemaForm *form() const { return m_form; }
    QPushButton *runButton() const { return m_run; }
    nlohmann::json arguments() const;

private:
    SchemaForm *m_form = nullptr;
    QPushButton *m_run = nullptr;
};
