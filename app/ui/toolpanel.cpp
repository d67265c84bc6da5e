// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolpanel.h"
#include "answerdialog.h"
#include "project/printabletext.h"

#include "engine/toolcall.h"
#include "handlersettingsform.h"
#include "schemaform.h"
#include "tryitanswerdialog.h"
#include "valvesform.h"

#include <QFontDatabase>
#include <QLabel>
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

} // namespace

ToolPanel::ToolPanel(QWidget *parent)
    : QWidget(parent)
    , m_call(new DirectToolCall(this))
{
    setObjectName(QStringLiteral("toolPanel"));
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
    handlerScroll->setFrameShape(QFrame::NoFrame);
    m_handlerForm = new HandlerSettingsForm(handlerScroll);
    m_handlerForm->setObjectName(QStringLiteral("handlerSettings"));
    handlerScroll->setWidget(m_handlerForm);
    m_tabs->addTab(handlerScroll, tr("Handler"));
    connect(m_handlerForm, &HandlerSettingsForm::editRequested, this, &ToolPanel::manifestEditRequested);

    auto *valvesScroll = new QScrollArea(m_tabs);
    valvesScroll->setWidgetResizable(true);
    valvesScroll->setFrameShape(QFrame::NoFrame);
    m_valvesForm = new ValvesForm(valvesScroll);
    m_valvesForm->setObjectName(QStringLiteral("valvesForm"));
    valvesScroll->setWidget(m_valvesForm);
    m_tabs->addTab(valvesScroll, tr("Valves"));

    connect(m_callButton, &QPushButton::clicked, this, &ToolPanel::callTool);
    connect(m_form, &SchemaForm::submitted, this, &ToolPanel::callTool);
    connect(m_call, &DirectToolCall::stepChanged, this, &ToolPanel::showStep);
    connect(m_call, &DirectToolCall::pendingCallOpened, this, &ToolPanel::answerManualCall);
    connect(m_call, &DirectToolCall::finished, this, [this](const Step &step, const RunRecord &run) {
        showStep(step);
        updateCallButton();
        Q_EMIT callFinished(step, run);
    });
    setTool(nullptr, QString());
}

ToolPanel::~ToolPanel()
{
    // Destroying the call cancels what is running and reports it: not to this panel,
    // whose children are gone by then.
    disconnect(m_call, nullptr, this, nullptr);
}

void ToolPanel::setTool(const Project *project, const QString &name)
{
    const bool sameTool = project && m_project && m_project->dir == project->dir && m_toolName == name;
    m_project.reset();
    if (project)
        m_project = *project;
    const Tool *tool = project ? project->tool(name) : nullptr;
    m_toolName = tool ? name : QString();

    m_handlerForm->setTool(project, m_toolName);
    m_valvesForm->setTool(project, m_toolName);
    if (!tool) {
        m_heading->setText(tr("Select a tool in the Project dock."));
        m_form->setSchema(nlohmann::json::object());
        m_form->hide(); // no tool, no arguments: not an empty "JSON value" field
        m_schemaView->clear();
        m_callButton->setEnabled(false);
        return;
    }
    QString heading = tool->title.isEmpty() ? tool->name : QStringLiteral("%1 (%2)").arg(tool->title, tool->name);
    if (!tool->description.isEmpty())
        heading += QStringLiteral(" — ") + tool->description;
    QStringList hints; // MCP's annotations, as declared
    for (const auto &[key, value] : tool->annotations.items())
        hints << QStringLiteral("%1: %2").arg(QString::fromStdString(key), QString::fromStdString(value.dump()));
    if (!hints.isEmpty())
        heading += QLatin1Char('\n')
            + tr("Hints (declared by the tool, not enforced): %1").arg(hints.join(QStringLiteral(", ")));
    m_heading->setText(heading);
    m_form->show();
    if (!sameTool) {
        m_form->setSchema(tool->inputSchema, tool->parameterOrder);
        m_resultView->clear();
    }
    nlohmann::json derived = nlohmann::json::object();
    derived["name"] = tool->name.toStdString();
    if (!tool->title.isEmpty())
        derived["title"] = tool->title.toStdString();
    derived["description"] = tool->description.toStdString();
    if (!tool->annotations.empty())
        derived["annotations"] = tool->annotations;
    derived["input_schema"] = tool->inputSchema;
    if (tool->outputSchema)
        derived["output_schema"] = *tool->outputSchema;
    m_schemaView->setPlainText(pretty(derived));

    updateCallButton();
}

void ToolPanel::updateCallButton()
{
    // Try it runs the tool's handler: none of an untrusted project's (ProjectTrust).
    const bool trusted = m_project && m_project->trusted;
    m_callButton->setEnabled(trusted && !m_toolName.isEmpty() && !m_call->isActive());
    m_callButton->setToolTip(trusted || !m_project ? QString()
                                                   : tr("The project is not trusted, so none of its tools run: "
                                                        "choose Trust Project in the bar above the editor."));
}

bool ToolPanel::callTool()
{
    if (!m_project || m_toolName.isEmpty() || m_call->isActive())
        return false;
    if (!m_form->isValid()) {
        m_form->revealErrors();
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
        text = tr("Calling %1…").arg(printableText(step.tool));
        if (const Attempt *attempt = step.currentAttempt(); attempt && !attempt->progress.isEmpty())
            text += QLatin1Char('\n') + tr("Progress: %1").arg(attempt->progress);
        break;
    }
    m_resultView->setPlainText(text);
}

TryItAnswerDialog *ToolPanel::answerDialog() const
{
    return findChild<TryItAnswerDialog *>(QString(), Qt::FindDirectChildrenOnly);
}

void ToolPanel::answerManualCall(const Step &step)
{
    if (step.currentAttempt() && step.currentAttempt()->question) {
        answerQuestion(step);
        return;
    }
    // A manual tool: the person trying it gives the answer in a form generated from
    // output_schema (window-modal, not blocking: the engine keeps running meanwhile).
    const Tool *tool = m_project ? m_project->tool(step.tool) : nullptr;
    auto *dialog = new TryItAnswerDialog(step, tool ? tool->outputSchema : std::nullopt, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    connect(dialog, &TryItAnswerDialog::answerChosen, this, [this](int attempt, const ManualAnswer &answer) {
        QString reason;
        if (!m_call->answer(attempt, answer, &reason))
            m_resultView->setPlainText(tr("The answer was refused: %1").arg(reason));
    });
    dialog->open();
}

void ToolPanel::answerQuestion(const Step &step)
{
    // The attempt asks a person (an MCP server's request, a changed MCP tool): answered
    // in the pane the Pending Calls dock uses, through this call instead of a run.
    auto *dialog = new AnswerDialog(nullptr, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->pane()->setAnswerer([this](const QString &, int attempt, const ManualAnswer &answer, QString *reason) {
        return m_call->answer(attempt, answer, reason);
    });
    dialog->setCall(step);
    // Gone with its question: answered elsewhere, taken back, or the call ended.
    const int serial = step.currentAttempt()->question->value("serial", 0);
    connect(m_call, &DirectToolCall::stepChanged, dialog, [dialog, serial](const Step &now) {
        const Attempt *attempt = now.currentAttempt();
        if (!attempt || !attempt->question || attempt->question->value("serial", 0) != serial)
            dialog->close();
    });
    connect(m_call, &DirectToolCall::finished, dialog, &QDialog::close);
    dialog->open();
}
