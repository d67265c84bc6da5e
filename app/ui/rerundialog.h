// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project.h"
#include "step.h"

#include <QDialog>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class SchemaValidator;
class ScriptEditor;

/// Run ▸ Rerun from Step… (issue 5 item 10, docs/steps.md "Rerun from a step"): picks a
/// step of a recorded run and the arguments it runs with. The step's original
/// arguments (what the script sent) are shown read-only beside an editor pre-filled
/// with them. The Rerun button stays disabled, with the reason under the editor, while
/// the text is not a JSON object (the parser's line and column are named) or the
/// tool's input_schema refuses it: the engine does not check edited arguments again,
/// so arguments the schema refuses would reach the handler unchecked.
///
/// The dialog only chooses; whoever opened it starts the run with sequence() and
/// editedArgs() (RunController::rerunFrom).
class RerunDialog : public QDialog
{
    Q_OBJECT
public:
    /// `steps`: run `runId`'s steps by sequence (loadReplaySource), at least one.
    /// `project` gives each tool's input_schema. `chooseStep` shows the step picker
    /// (opened from the Runs dock or the Run menu); otherwise the step is fixed (the
    /// trace's selected step).
    RerunDialog(const QString &runId, std::vector<Step> steps, const Project &project, int sequence,
                bool chooseStep, QWidget *parent = nullptr);
    ~RerunDialog() override;

    QString runId() const { return m_runId; }
    /// The chosen step's sequence (1-based).
    int sequence() const;
    /// The arguments for the chosen step, or nullopt when they equal the original
    /// ones (the step runs for real with what the script sends) or are not valid.
    std::optional<nlohmann::json> editedArgs() const;
    /// Why Rerun is disabled; empty when the arguments can be used.
    QString problem() const;

    QComboBox *stepPicker() const { return m_picker; }
    ScriptEditor *originalView() const { return m_original; }
    ScriptEditor *argsEditor() const { return m_editor; }
    QPushButton *rerunButton() const { return m_rerun; }
    QLabel *problemLabel() const { return m_problem; }

private:
    void showStep();
    void validate();
    const Step *currentStep() const;

    QString m_runId;
    std::vector<Step> m_steps;
    std::map<QString, std::unique_ptr<SchemaValidator>> m_validators; ///< by tool; null: none or unknown tool
    std::optional<nlohmann::json> m_parsed; ///< the editor's JSON object when it is usable
    QComboBox *m_picker = nullptr;
    ScriptEditor *m_original = nullptr;
    ScriptEditor *m_editor = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_hint = nullptr;
    QPushButton *m_rerun = nullptr;
    QPushButton *m_restore = nullptr;
};
