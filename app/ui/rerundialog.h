// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QDialog>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class JournalReader;
class QLabel;
class QPushButton;
class QSpinBox;
class Project;
class SchemaValidator;
class ScriptEditor;

/// Run ▸ Rerun from Step… (issue 5 item 10, docs/steps.md "Rerun from a step"): picks a
/// step of a recorded run and the arguments it runs with. The step's original
/// arguments (what the script sent) are shown read-only beside an editor pre-filled
/// with them. The Rerun button stays disabled, with the reason under the editor, while
/// the text is not a JSON object (the parser's line and column are named) or the
/// tool's input_schema refuses it: the engine does not check edited arguments again,
/// so arguments the schema refuses would reach the handler unchecked. A model step's
/// edited request is checked as RunController::rerunFrom checks it
/// (ModelSteps::checkEditedRequest). Ctrl+Return reruns (SubmitKeys).
///
/// It loads only what it shows, so it opens as fast on a run of a million steps as on
/// one of three: the picker is a spin box over the run's sequences (JournalReader::
/// sequenceRange) with the chosen step's tool and status beside it, and only that step
/// is read from the journal (JournalReader::step), again each time the picker moves.
///
/// The dialog only chooses; whoever opened it starts the run with sequence() and
/// editedArgs() (RunController::rerunFrom).
class RerunDialog : public QDialog
{
    Q_OBJECT
public:
    /// `journal`: an open reader of the project's journal, in which run `runId` has at
    /// least one step. `project` gives each tool's input_schema. `sequence` is shown
    /// first (clamped to the run's sequences). `chooseStep` enables the step picker
    /// (opened from the Runs dock or the Run menu); otherwise the step is fixed (the
    /// trace's selected step).
    RerunDialog(const QString &runId, std::unique_ptr<JournalReader> journal, const Project &project, int sequence,
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

    /// The chosen step's sequence, from the run's first to its last.
    QSpinBox *stepPicker() const { return m_picker; }
    /// Beside the picker: "of 3 · echo (succeeded)".
    QLabel *stepLabel() const { return m_stepLabel; }
    ScriptEditor *originalView() const { return m_original; }
    ScriptEditor *argsEditor() const { return m_editor; }
    QPushButton *rerunButton() const { return m_rerun; }
    QLabel *problemLabel() const { return m_problem; }

private:
    void loadStep();
    void showStep();
    void validate();
    const Step *currentStep() const { return m_step ? &*m_step : nullptr; }
    const SchemaValidator *validator(const QString &tool);

    QString m_runId;
    std::unique_ptr<JournalReader> m_journal;
    int m_lastSequence = 0;
    std::optional<Step> m_step;               ///< the chosen step as journaled; none when the run has no such sequence
    std::unique_ptr<const Project> m_project; ///< a model step's request is checked against its models and limits
    std::map<QString, nlohmann::json> m_schemas; ///< input_schema by tool, from the project
    std::map<QString, std::unique_ptr<SchemaValidator>>
        m_validators;                       ///< compiled on first use; null: none or unknown tool
    std::optional<nlohmann::json> m_parsed; ///< the editor's JSON object when it is usable
    QSpinBox *m_picker = nullptr;
    QLabel *m_stepLabel = nullptr;
    ScriptEditor *m_original = nullptr;
    ScriptEditor *m_editor = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_hint = nullptr;
    QPushButton *m_rerun = nullptr;
    QPushButton *m_restore = nullptr;
};
