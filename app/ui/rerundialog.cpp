// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "rerundialog.h"

#include "engine/modelstep.h"
#include "journal/journalreader.h"
#include "project/jsonerror.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "project/schemavalidator.h"
#include "scripteditor.h"
#include "submitkeys.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace {

QString prettyJson(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

ScriptEditor *jsonEditor(QWidget *parent, const char *name, bool readOnly)
{
    auto *editor = new ScriptEditor(parent);
    editor->setObjectName(QString::fromLatin1(name));
    editor->setLanguage(QStringLiteral("JSON"));
    editor->setTabSize(2);
    editor->setReadOnly(readOnly);
    editor->setMinimumSize(260, 180);
    if (readOnly) {
        // Looks read-only: the window's background instead of the editor's, no caret line.
        QPalette palette = editor->palette();
        palette.setColor(QPalette::Base, palette.color(QPalette::Window));
        editor->setPalette(palette);
        editor->setCaretLineVisible(false);
    }
    return editor;
}

} // namespace

RerunDialog::RerunDialog(const QString &runId, std::unique_ptr<JournalReader> journal, const Project &project,
                         int sequence, bool chooseStep, QWidget *parent)
    : QDialog(parent)
    , m_runId(runId)
    , m_journal(std::move(journal))
    , m_project(std::make_unique<Project>(project))
{
    setWindowTitle(tr("Rerun %1 from a Step").arg(runId));
    for (const Tool &tool : project.tools)
        m_schemas.emplace(tool.name, tool.inputSchema);

    // A spin box over the run's sequences, not a list of every step: a million-step
    // run costs two index look-ups here and one step read per choice.
    const auto [first, last] = m_journal->sequenceRange(runId);
    m_lastSequence = last;
    m_picker = new QSpinBox(this);
    m_picker->setObjectName(QStringLiteral("rerunStep"));
    m_picker->setRange(std::max(1, first), std::max(1, last));
    m_picker->setValue(sequence);
    m_picker->setKeyboardTracking(false); // typing 1000 reads step 1000, not 1, 10 and 100 first
    m_picker->setEnabled(chooseStep);
    m_stepLabel = new QLabel(this);
    m_stepLabel->setObjectName(QStringLiteral("rerunStepLabel"));
    m_picker->setToolTip(chooseStep ? tr("The step to run for real again; the steps before it are memoized")
                                    : tr("The step selected in the trace"));

    m_original = jsonEditor(this, "rerunOriginalArgs", true);
    m_original->setToolTip(tr("The arguments of this step in run %1 (read-only)").arg(runId));
    m_editor = jsonEditor(this, "rerunArgs", false);
    m_editor->setToolTip(tr("The arguments the step runs with in the new run (a JSON object)"));
    auto *originalLabel = new QLabel(tr("Original arguments (read-only):"), this);
    auto *editLabel = new QLabel(tr("&Arguments for the rerun:"), this);
    editLabel->setBuddy(m_editor);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("rerunProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problem->hide();
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("rerunHint"));
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_rerun = buttons->addButton(tr("&Rerun"), QDialogButtonBox::AcceptRole);
    m_rerun->setObjectName(QStringLiteral("rerunButton"));
    m_rerun->setDefault(true);
    m_rerun->setToolTip(tr("Start the new run (Ctrl+Return)"));
    m_restore = buttons->addButton(tr("Restore &Original"), QDialogButtonBox::ResetRole);
    m_restore->setObjectName(QStringLiteral("rerunRestore"));
    m_restore->setToolTip(tr("Put the original arguments back into the editor"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_restore, &QPushButton::clicked, this, &RerunDialog::showStep);
    // Return inserts a line in the editor: Ctrl+Return starts the rerun from anywhere.

    auto *pickerRow = new QHBoxLayout;
    pickerRow->addWidget(m_picker);
    pickerRow->addWidget(m_stepLabel, 1);
    auto *stepLabel = new QLabel(tr("&Step:"), this);
    stepLabel->setBuddy(m_picker);
    auto *form = new QFormLayout;
    form->addRow(stepLabel, pickerRow);
    auto *grid = new QGridLayout;
    grid->addWidget(originalLabel, 0, 0);
    grid->addWidget(editLabel, 0, 1);
    grid->addWidget(m_original, 1, 0);
    grid->addWidget(m_editor, 1, 1);
    grid->setRowStretch(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(grid, 1);
    layout->addWidget(m_problem);
    layout->addWidget(m_hint);
    layout->addWidget(buttons);

    SubmitKeys::install(this, {m_editor}, [this] {
        if (m_rerun->isEnabled())
            QDialog::accept();
    });
    connect(m_picker, &QSpinBox::valueChanged, this, &RerunDialog::loadStep);
    connect(m_editor, &QsciScintilla::textChanged, this, &RerunDialog::validate);
    loadStep();
    m_editor->setFocus();
    resize(760, 460);
}

RerunDialog::~RerunDialog() = default;

const SchemaValidator *RerunDialog::validator(const QString &tool)
{
    auto found = m_validators.find(tool);
    if (found == m_validators.end()) {
        const auto schema = m_schemas.find(tool);
        // A schema that does not compile is the engine's to report when the call comes.
        found
            = m_validators.emplace(tool, schema == m_schemas.end() ? nullptr : SchemaValidator::compile(schema->second))
                  .first;
    }
    return found->second.get();
}

int RerunDialog::sequence() const
{
    const Step *step = currentStep();
    return step ? step->sequence : 0;
}

void RerunDialog::loadStep()
{
    m_step = m_journal->step(m_runId, m_picker->value());
    m_stepLabel->setText(
        m_step ? tr("of %1 · %2 (%3)").arg(m_lastSequence).arg(m_step->tool, stepStatusName(m_step->status))
               : tr("of %1 · run %2 has no step %3").arg(m_lastSequence).arg(m_runId).arg(m_picker->value()));
    if (m_step) {
        showStep();
        return;
    }
    m_original->clear();
    m_editor->clear();
    validate();
}

void RerunDialog::showStep()
{
    const Step *step = currentStep();
    if (!step)
        return;
    // The arguments the step ran with in the recorded run (for a step edited by an
    // earlier rerun: the edited ones, which is what that run used).
    const QString text = prettyJson(step->args);
    m_original->setText(text);
    m_editor->setText(text);
    validate();
}

void RerunDialog::validate()
{
    m_parsed.reset();
    const Step *step = currentStep();
    const QByteArray bytes = m_editor->text().toUtf8();
    QString problem;
    if (!step) {
        problem = tr("Run %1 has no step %2: choose another.").arg(m_runId).arg(m_picker->value());
    } else if (bytes.trimmed().isEmpty()) {
        problem = tr("Enter the arguments as a JSON object, e.g. {} for none.");
    } else {
        JsonInput::Problem refused;
        nlohmann::json value
            = JsonInput::read<nlohmann::json>(std::string_view(bytes.constData(), std::size_t(bytes.size())), &refused);
        const SchemaValidator *validator = this->validator(step->tool);
        if (value.is_discarded()) {
            problem = tr("Not valid JSON at %1").arg(describeJsonProblem(bytes, refused));
        } else if (ModelSteps::isModelStep(step->tool)) {
            // The whole request: checked as the engine checks it before the rerun starts.
            if (const QString refused = ModelSteps::checkEditedRequest(*m_project, step->tool, value);
                !refused.isEmpty() && value != step->args)
                problem = tr("This request cannot be sent: %1").arg(refused);
            else
                m_parsed = std::move(value);
        } else if (!value.is_object()) {
            problem = tr("The arguments must be a JSON object ({…}), not %1.")
                          .arg(clippedText(QString::fromStdString(value.dump()), 60));
        } else if (const auto failure = validator ? validator->validate(value) : std::nullopt) {
            problem = tr("The input_schema of %1 refuses these arguments: %2").arg(step->tool, failure->toString());
        } else {
            m_parsed = std::move(value);
        }
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_rerun->setEnabled(problem.isEmpty());
    m_restore->setEnabled(step && m_editor->text() != m_original->text());
    if (!step) {
        m_hint->clear();
        return;
    }
    const QString memo = step->sequence > 1
        ? tr("Steps 1 to %1 are answered from run %2's journal (memoized).").arg(step->sequence - 1).arg(m_runId)
        : tr("No step before it is memoized.");
    const QString real = !editedArgs() ? tr("Step %1 and every step after it run for real.").arg(step->sequence)
        : ModelSteps::isModelStep(step->tool)
        ? tr("Step %1 sends the edited request (the script's stays on record as its original request), and every "
             "step after it runs for real too.")
              .arg(step->sequence)
        : tr("Step %1 runs for real with the edited arguments (the script's stay on record as its original "
             "arguments), and every step after it too.")
              .arg(step->sequence);
    m_hint->setText(memo + QLatin1Char(' ') + real);
}

std::optional<nlohmann::json> RerunDialog::editedArgs() const
{
    const Step *step = currentStep();
    if (!m_parsed || !step || *m_parsed == step->args)
        return std::nullopt;
    return m_parsed;
}

QString RerunDialog::problem() const
{
    return m_problem->text();
}
