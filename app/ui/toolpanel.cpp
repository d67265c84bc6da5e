// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolpanel.h"

#include "schemaform.h"
#include "toolcall.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {

QString pretty(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump(2));
}

QPlainTextEdit *jsonView(QWidget *parent, const char *name)
{
    auto *view = new QPlainTextEdit(parent);
    view->setObjectName(QString::fromLatin1(name));
    view->setReadOnly(true);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setTabChangesFocus(true);
    return view;
}

QString ms(int value)
{
    return value <= 0 ? ToolPanel::tr("none") : ToolPanel::tr("%1 ms").arg(value);
}

} // namespace

ToolPanel::ToolPanel(QWidget *parent)
    : QWidget(parent)
    , m_call(new DirectToolCall(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("toolHeading"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::PlainText);
    layout->addWidget(m_heading);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("toolTabs"));
    layout->addWidget(m_tabs, 1);

    // Try it.
    auto *tryPage = new QSplitter(Qt::Vertical, m_tabs);
    auto *formBox = new QWidget(tryPage);
    auto *formLayout = new QVBoxLayout(formBox);
    formLayout->setContentsMargins(0, 0, 0, 0);
    m_form = new SchemaForm(formBox);
    m_form->setObjectName(QStringLiteral("tryItForm"));
    formLayout->addWidget(m_form, 1);
    m_callButton = new QPushButton(tr("&Call Tool"), formBox);
    m_callButton->setObjectName(QStringLiteral("callButton"));
    m_callButton->setToolTip(tr("Call the tool with these arguments, outside any script (Ctrl+Enter)"));
    formLayout->addWidget(m_callButton);
    m_resultView = jsonView(tryPage, "tryItResult");
    m_resultView->setPlaceholderText(tr("The result of the call appears here."));
    tryPage->addWidget(formBox);
    tryPage->addWidget(m_resultView);
    tryPage->setStretchFactor(0, 3);
    tryPage->setStretchFactor(1, 1);
    m_tabs->addTab(tryPage, tr("Try It"));

    m_schemaView = jsonView(m_tabs, "schemaView");
    m_tabs->addTab(m_schemaView, tr("Schema"));

    auto *handlerScroll = new QScrollArea(m_tabs);
    handlerScroll->setWidgetResizable(true);
    m_handlerPage = new QWidget(handlerScroll);
    m_handlerForm = new QFormLayout(m_handlerPage);
    handlerScroll->setWidget(m_handlerPage);
    m_tabs->addTab(handlerScroll, tr("Handler"));

    m_valvesLabel = new QLabel(m_tabs);
    m_valvesLabel->setWordWrap(true);
    m_valvesLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_valvesLabel->setMargin(8);
    m_tabs->addTab(m_valvesLabel, tr("Valves"));

    connect(m_callButton, &QPushButton::clicked, this, &ToolPanel::callTool);
    connect(m_form, &SchemaForm::submitted, this, &ToolPanel::callTool);
    connect(m_form, &SchemaForm::valueChanged, this, [this] {
        m_callButton->setEnabled(!m_toolName.isEmpty() && !m_call->isActive() && m_form->isValid());
    });
    connect(m_call, &DirectToolCall::stepChanged, this, &ToolPanel::showStep);
    connect(m_call, &DirectToolCall::pendingCallOpened, this, &ToolPanel::answerManualCall);
    connect(m_call, &DirectToolCall::finished, this, [this](const Step &step, const RunRecord &run) {
        showStep(step);
        m_callButton->setEnabled(!m_toolName.isEmpty() && m_form->isValid());
        Q_EMIT callFinished(step, run);
    });
    setTool(nullptr, QString());
}

ToolPanel::~ToolPanel() = default;

void ToolPanel::setTool(const Project *project, const QString &name)
{
    const bool sameTool = project && m_project && m_project->dir == project->dir && m_toolName == name;
    m_project.reset();
    if (project)
        m_project = *project;
    const Tool *tool = project ? project->tool(name) : nullptr;
    m_toolName = tool ? name : QString();

    while (m_handlerForm->rowCount() > 0)
        m_handlerForm->removeRow(0);
    if (!tool) {
        m_heading->setText(tr("Select a tool in the Project dock."));
        m_form->setSchema(nlohmann::json::object());
        m_schemaView->clear();
        m_valvesLabel->clear();
        m_callButton->setEnabled(false);
        return;
    }
    m_heading->setText(tool->description.isEmpty() ? tool->name
                                                   : QStringLiteral("%1 — %2").arg(tool->name, tool->description));
    if (!sameTool) {
        m_form->setSchema(tool->inputSchema, tool->parameterOrder);
        m_resultView->clear();
    }
    nlohmann::json derived = nlohmann::json::object();
    derived["name"] = tool->name.toStdString();
    derived["description"] = tool->description.toStdString();
    derived["input_schema"] = tool->inputSchema;
    if (tool->outputSchema)
        derived["output_schema"] = *tool->outputSchema;
    m_schemaView->setPlainText(pretty(derived));

    const auto row = [this](const QString &label, const QString &value) {
        auto *edit = new QLineEdit(value, m_handlerPage);
        edit->setReadOnly(true);
        m_handlerForm->addRow(label, edit);
    };
    row(tr("Kind:"), handlerKindName(tool->handler));
    if (tool->handler == HandlerKind::Mock) {
        nlohmann::json sequence = nlohmann::json::array();
        for (const MockResponse &r : tool->mockSequence) {
            nlohmann::json entry = r.isError ? nlohmann::json{{"error", r.errorMessage.toStdString()}, {"retryable", r.retryable}}
                                             : nlohmann::json{{"result", r.result}};
            if (r.delayMs > 0)
                entry["delay_seconds"] = r.delayMs / 1000.0;
            sequence.push_back(entry);
        }
        auto *view = jsonView(m_handlerPage, "mockSequence");
        view->setPlainText(pretty(sequence));
        view->setMaximumHeight(140);
        m_handlerForm->addRow(tr("Mock sequence:"), view);
    } else if (tool->handler == HandlerKind::Command) {
        row(tr("Command line:"), tool->command.join(QLatin1Char(' ')));
    }
    row(tr("Max attempts:"), QString::number(tool->retry.maxAttempts));
    row(tr("Initial backoff:"), ms(tool->retry.initialBackoffMs));
    row(tr("Backoff factor:"), QString::number(tool->retry.factor));
    row(tr("Max backoff:"), ms(tool->retry.maxBackoffMs));
    row(tr("Attempt timeout:"), ms(tool->retry.attemptTimeoutMs));
    row(tr("Total timeout:"), ms(tool->retry.totalTimeoutMs));
    row(tr("Active:"), tool->active ? tr("yes") : tr("no (refused on the bridge)"));
    auto *note = new QLabel(tr("Edit these in toolstudio.json; the window reloads it on save."), m_handlerPage);
    note->setWordWrap(true);
    m_handlerForm->addRow(note);

    m_valvesLabel->setText(tool->handler == HandlerKind::Python
                               ? tr("Valves come from the tool file's Valves class (Python tool worker).")
                               : tr("%1 has no valves: only Python tools have settings of their own.").arg(tool->name));
    m_callButton->setEnabled(!m_call->isActive() && m_form->isValid());
}

bool ToolPanel::callTool()
{
    if (!m_project || m_toolName.isEmpty() || m_call->isActive())
        return false;
    if (!m_form->isValid()) {
        m_resultView->setPlainText(tr("Fix the arguments first: %1").arg(m_form->problem()->toString()));
        return false;
    }
    QString error;
    if (!m_call->start(*m_project, m_toolName, m_form->value(), &error)) {
        m_resultView->setPlainText(tr("Cannot call %1: %2").arg(m_toolName, error));
        return false;
    }
    m_callButton->setEnabled(false);
    m_resultView->setPlainText(tr("Calling %1…").arg(m_toolName));
    return true;
}

void ToolPanel::showStep(const Step &step)
{
    QString text;
    switch (step.status) {
    case StepStatus::Succeeded:
    case StepStatus::Memoized:
        text = tr("Result (attempts %1, %2 ms):").arg(step.attemptsText()).arg(step.durationMs());
        text += QLatin1Char('\n') + pretty(step.result.value_or(nlohmann::json()));
        break;
    case StepStatus::Failed:
    case StepStatus::Cancelled:
        text = tr("Error (attempts %1, %2 ms):").arg(step.attemptsText()).arg(step.durationMs());
        text += QLatin1Char('\n') + (step.error ? pretty(step.error->toJson()) : QString());
        break;
    case StepStatus::Waiting:
        text = tr("Waiting for a person to answer (attempt %1)…").arg(step.attemptsText());
        break;
    case StepStatus::Retrying:
        text = tr("Retrying (attempts %1)…").arg(step.attemptsText());
        break;
    case StepStatus::Queued:
    case StepStatus::Running:
        text = tr("Calling %1…").arg(step.tool);
        break;
    }
    m_resultView->setPlainText(text);
}

void ToolPanel::answerManualCall(const Step &step)
{
    // A manual tool: the person trying it gives the answer here (window-modal, not
    // blocking: the engine keeps running while the dialog is open).
    auto *dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Answer %1").arg(step.tool));
    dialog->setLabelText(tr("%1 is answered by a person. Result (JSON) for %2:")
                             .arg(step.tool, QString::fromStdString(step.args.dump())));
    dialog->setOption(QInputDialog::UsePlainTextEditForTextInput);
    dialog->setTextValue(QStringLiteral("null"));
    const int attempt = step.currentAttempt() ? step.currentAttempt()->number : 1;
    connect(dialog, &QInputDialog::finished, this, [this, dialog, attempt](int result) {
        ManualAnswer answer;
        if (result != QDialog::Accepted) {
            answer.isError = true;
            answer.message = tr("no answer given in Try it");
        } else {
            const nlohmann::json value = nlohmann::json::parse(dialog->textValue().toStdString(), nullptr, false);
            if (value.is_discarded()) {
                answer.isError = true;
                answer.message = tr("the answer was not valid JSON");
            } else {
                answer.result = value;
            }
        }
        QString reason;
        if (!m_call->answer(attempt, answer, &reason))
            m_resultView->setPlainText(tr("The answer was refused: %1").arg(reason));
    });
    dialog->open();
}
