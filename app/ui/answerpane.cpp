// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerpane.h"
#include "project/printabletext.h"

#include "engine/modelstep.h"
#include "erroranswerbox.h"
#include "jsoninput.h"
#include "modelcomposer.h"
#include "pagequestion.h"
#include "project/jsonerror.h"
#include "run/runcontroller.h"
#include "samplingmediaview.h"
#include "samplingmodelpanel.h"
#include "samplingtoolsview.h"
#include "schemaform.h"
#include "toolchangequestionview.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace {

/// The kind of an attempt's question ("elicitation", "sampling"); "" for none.
std::string questionKind(const nlohmann::json &question)
{
    const auto kind = question.is_object() ? question.find("kind") : question.end();
    return kind != question.end() && kind->is_string() ? kind->get<std::string>() : std::string();
}

// Ctrl+Enter (both Return keys) on `widget` and its children.
void addSendShortcut(QWidget *widget, AnswerPane *receiver, bool (AnswerPane::*slot)())
{
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, widget);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        QObject::connect(shortcut, &QShortcut::activated, receiver, slot);
    }
}

} // namespace

AnswerPane::AnswerPane(RunController *run, QWidget *parent)
    : QWidget(parent)
    , m_route(run)
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    m_headingLabel = new QLabel(this);
    m_headingLabel->setObjectName(QStringLiteral("answerHeading"));
    m_headingLabel->setTextFormat(Qt::RichText);
    m_headingLabel->setWordWrap(true);
    m_clockLabel = new QLabel(this);
    m_clockLabel->setObjectName(QStringLiteral("answerClock"));
    // What was sent (a result's JSON has no spaces to wrap at) must not widen the dock
    // past its width: wrapped where it can be, cut where it cannot.
    m_clockLabel->setWordWrap(true);
    m_clockLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_body = new QWidget(this);
    m_argumentsView = new QPlainTextEdit(m_body);
    m_argumentsView->setObjectName(QStringLiteral("answerArguments"));
    m_argumentsView->setReadOnly(true);
    m_argumentsView->setFont(mono);

    m_resultEdit = new QPlainTextEdit(m_body);
    m_resultEdit->setObjectName(QStringLiteral("answerRawResult"));
    m_resultEdit->setFont(mono);
    m_resultEdit->setTabChangesFocus(true);
    m_resultEdit->setPlaceholderText(tr("Any JSON value, e.g. \"https://example.org/report.pdf\" or {\"url\": \"…\"}"));

    m_problemLabel = new QLabel(m_body);
    m_problemLabel->setObjectName(QStringLiteral("answerProblem"));
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problemLabel->hide();

    m_resultForm = new SchemaForm(m_body);
    m_resultForm->setObjectName(QStringLiteral("answerForm"));
    m_resultForm->hide();
    connect(m_resultForm, &SchemaForm::valueChanged, this, [this] {
        showProblem(QString());
        updateReplyState();
    });
    connect(m_resultForm, &SchemaForm::submitted, this, &AnswerPane::sendResult);
    m_composer = new ModelComposer(m_body);
    m_composer->setObjectName(QStringLiteral("answerComposer"));
    m_composer->hide();
    connect(m_composer, &ModelComposer::changed, this, [this] { showProblem(QString()); });
    connect(m_composer, &ModelComposer::submitted, this, &AnswerPane::sendResult);
    m_samplingMedia = new SamplingMediaView(m_body);
    m_samplingModel = new SamplingModelPanel(m_body);
    connect(m_samplingModel, &SamplingModelPanel::replied, this, [this](const QString &text) {
        m_resultForm->setValue({{"text", text.toStdString()}});
    });
    m_samplingTools = new SamplingToolsView(m_body);
    connect(m_samplingModel, &SamplingModelPanel::repliedWithToolCalls, m_samplingTools,
            &SamplingToolsView::showModelAnswer);
    connect(m_samplingTools, &SamplingToolsView::toolCallChosen, this, [this](const nlohmann::json &result) {
        ManualAnswer answer;
        answer.result = result;
        send(answer);
    });
    m_resultLabel = new QLabel(tr("&Result (JSON):"), m_body);
    m_resultLabel->setBuddy(m_resultEdit);

    m_sendResultButton = new QPushButton(m_body);
    m_sendResultButton->setObjectName(QStringLiteral("sendResult"));
    m_declineButton = new QPushButton(tr("&Decline"), m_body);
    m_declineButton->setObjectName(QStringLiteral("declineQuestion"));
    m_declineButton->setToolTip(tr("Tell the server the person declines to give what it asks"));
    m_cancelButton = new QPushButton(tr("Ca&ncel"), m_body);
    m_cancelButton->setObjectName(QStringLiteral("cancelQuestion"));
    m_cancelButton->setToolTip(tr("Tell the server the person dismissed the question without a choice"));
    // A sampling reply left empty: what is missing, beside the disabled Send Reply.
    m_replyHint = new QLabel(tr("Write the reply (required)"), m_body);
    m_replyHint->setObjectName(QStringLiteral("replyHint"));
    m_replyHint->hide();
    auto *resultButtons = new QHBoxLayout;
    resultButtons->addWidget(m_replyHint);
    resultButtons->addStretch();
    resultButtons->addWidget(m_cancelButton);
    resultButtons->addWidget(m_declineButton);
    resultButtons->addWidget(m_sendResultButton);

    m_errorBox = new ErrorAnswerBox(m_body);

    auto *bodyLayout = new QVBoxLayout(m_body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    m_argumentsLabel = new QLabel(tr("Arguments:"), m_body);
    bodyLayout->addWidget(m_argumentsLabel);
    bodyLayout->addWidget(m_argumentsView);
    bodyLayout->addWidget(m_samplingMedia);
    bodyLayout->addWidget(m_samplingTools);
    m_toolChange = new ToolChangeQuestionView(m_body); // a changed MCP tool: its diff, Accept and Reject
    connect(m_toolChange, &ToolChangeQuestionView::answered, this, [this](const nlohmann::json &result) {
        ManualAnswer answer;
        answer.result = result;
        send(answer);
    });
    bodyLayout->addWidget(m_toolChange, 1);
    bodyLayout->addWidget(m_resultLabel);
    bodyLayout->addWidget(m_resultEdit, 1);
    bodyLayout->addWidget(m_resultForm, 1);
    bodyLayout->addWidget(m_samplingModel);
    bodyLayout->addWidget(m_composer, 1);
    bodyLayout->addLayout(resultButtons);
    bodyLayout->addWidget(m_problemLabel);
    bodyLayout->addWidget(m_errorBox);
    // A form (an elicitation's, say) stops at its own height: what is left of a tall dock
    // goes below the pane, not between its labels. The raw editor and the composer
    // (stretch 1) still take it all when they are shown.
    bodyLayout->addStretch();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headingLabel);
    layout->addWidget(m_clockLabel);
    layout->addWidget(m_body, 1);

    connect(m_sendResultButton, &QPushButton::clicked, this, &AnswerPane::sendResult);
    connect(m_errorBox->sendButton(), &QPushButton::clicked, this, &AnswerPane::sendError);
    connect(m_declineButton, &QPushButton::clicked, this, &AnswerPane::sendDecline);
    connect(m_cancelButton, &QPushButton::clicked, this, &AnswerPane::sendCancel);
    connect(m_errorBox->messageEdit(), &QLineEdit::returnPressed, this, &AnswerPane::sendError);
    // The form sends on its own Ctrl+Enter (SchemaForm::submitted); one shortcut per
    // input, so they never overlap and turn ambiguous.
    addSendShortcut(m_resultEdit, this, &AnswerPane::sendResult);
    addSendShortcut(m_errorBox, this, &AnswerPane::sendError);
    connect(m_resultEdit, &QPlainTextEdit::textChanged, this, [this] { showProblem(QString()); });
    connect(m_errorBox->messageEdit(), &QLineEdit::textChanged, this, [this] { showProblem(QString()); });
    connect(m_errorBox->codeCombo(), &QComboBox::currentIndexChanged, this, [this] {
        showProblem(QString());
        applyMode();
    });
    clearCall();
}

void AnswerPane::applyMode()
{
    const QString kind = QString::fromStdString(questionKind(m_question));
    const bool elicitation = kind == QLatin1String("elicitation");
    m_declineButton->setVisible(elicitation);
    m_sendResultButton->setVisible(kind != QLatin1String("tool_change")); // it has Accept and Reject of its own
    m_cancelButton->setVisible(elicitation);
    m_sendResultButton->setText(m_held                                                    ? tr("Answer Instead")
                                    : PageQuestion::is(m_question)                        ? tr("&Open in Browser…")
                                    : elicitation                                         ? tr("&Accept")
                                    : m_usesComposer || kind == QLatin1String("sampling") ? tr("Send Reply")
                                                                                          : tr("Send Result"));
    m_sendResultButton->setToolTip(
        m_held && m_usesComposer
            ? tr("Step mode: send the text and tool calls above as the model's reply instead of asking the model "
                 "(Ctrl+Return)")
            : m_held ? tr("Step mode: end the held call with the value above as its result; its handler does not run "
                          "(Ctrl+Return)")
            : m_usesComposer ? tr("Send the text and tool calls above as the model's reply; the script's loop goes on")
                             : tr("Send the value above as the tool's result (Ctrl+Return)"));
    m_errorBox->applyMode(m_held, kind);
    if (!kind.isEmpty()) {
        m_sendResultButton->setToolTip(
            PageQuestion::is(m_question)
                ? tr("Asks first, then opens the page in your browser and tells the server you accepted; what you "
                     "enter there goes to the page, not through the studio")
                : elicitation ? tr("Send the form's values to the server (Ctrl+Return)")
                              : tr("Send the text as the model's reply to the server"));
    }
    updateReplyState();
}

bool AnswerPane::replyMissing() const
{
    if (m_held || questionKind(m_question) != "sampling" || !m_usesForm)
        return false;
    const nlohmann::json value = m_resultForm->value();
    const auto text = value.is_object() ? value.find("text") : value.end();
    return !value.is_object() || text == value.end()
        || (text->is_string() && text->get_ref<const std::string &>().empty());
}

void AnswerPane::updateReplyState()
{
    // A sampling request with tools may be answered with a tool call (SamplingToolsView);
    // one whose toolChoice is "required" only with one.
    const bool sampling = !m_held && questionKind(m_question) == "sampling";
    const bool tools = sampling && m_question.contains("tools") && m_question.value("tool_choice", "") != "none";
    const bool callRequired = tools && m_question.value("tool_choice", "") == "required";
    const bool missing = replyMissing();
    m_sendResultButton->setEnabled(!missing && !callRequired);
    m_replyHint->setText(callRequired ? tr("The server requires a tool call: Send Tool Call above")
                             : tools  ? tr("Write the reply, or send a tool call above")
                                      : tr("Write the reply (required)"));
    m_replyHint->setVisible(missing || callRequired);
}

void AnswerPane::setCall(const Step &step)
{
    m_callId = step.callId;
    m_tool = step.tool;
    m_attempt = step.currentAttempt() ? step.currentAttempt()->number : 1;
    m_maxAttempts = qMax(step.maxAttempts, m_attempt);
    m_sequence = step.sequence;
    m_sentText.clear();
    m_held = false;
    m_question = step.currentAttempt() && step.currentAttempt()->question ? *step.currentAttempt()->question
                                                                          : nlohmann::json();
    m_usesComposer = m_question.is_null() && ModelSteps::isModelStep(step.tool); // a manual model's turn
    const std::optional<nlohmann::json> modelRequest
        = step.currentAttempt() ? step.currentAttempt()->modelRequest : std::nullopt;
    m_samplingModel->setQuestion(m_question, modelRequest);
    m_samplingMedia->setQuestion(m_question, modelRequest);
    m_samplingTools->setQuestion(m_question);
    if (m_usesComposer)
        m_composer->setRequest(step.args);
    if (questionKind(m_question) == "tool_change")
        m_toolChange->setQuestion(m_question);
    else if (m_question.is_object()) {
        // The form comes from the server's requestedSchema (checked when it was asked);
        // a sampling request's reply is one text.
        const bool elicitation = questionKind(m_question) == "elicitation";
        setOutputSchema(elicitation
                            ? m_question.value("schema", nlohmann::json::object())
                            : nlohmann::json{{"type", "object"},
                                             {"properties", {{"text", {{"type", "string"}, {"title", "Reply"}}}}},
                                             {"required", {"text"}}});
    }
    applyInput();
    m_errorBox->codeCombo()->setCurrentIndex(0);
    applyMode();
    setHeading(true);
    if (PageQuestion::is(m_question)) {
        m_argumentsView->setPlainText(PageQuestion::prompt(m_question));
    } else if (m_question.is_object()) {
        QString text = QString::fromStdString(m_question.value("message", std::string()));
        if (m_question.contains("system_prompt"))
            text = tr("System prompt: %1").arg(QString::fromStdString(m_question.value("system_prompt", std::string())))
                + u'\n' + text;
        m_argumentsView->setPlainText(printableLines(text));
    } else {
        m_argumentsView->setPlainText(
            QString::fromStdString(step.args.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)));
    }
    m_resultEdit->clear();
    m_errorBox->messageEdit()->clear();
    m_errorBox->retryableCheck()->setChecked(false);
    showProblem(QString());
    if (m_usesForm) {
        const nlohmann::json schema = m_resultForm->schema(); // fresh, empty fields
        m_resultForm->setSchema(schema);
    }
    updateReplyState();
    m_body->setEnabled(true);
    m_clockLabel->setVisible(true);
}

void AnswerPane::setHeldCall(const Step &step)
{
    setCall(step);
    m_held = true;
    // A held model step is answered instead in the composer a `manual` model's turn
    // uses (setCall showed it): the engine checks the reply as it checks that turn's.
    applyInput();
    applyMode();
    setHeading(true);
}

void AnswerPane::setHeading(bool waiting)
{
    if (waiting && m_held) {
        m_headingLabel->setText(
            tr("<b>%1</b> is held before it runs (step mode or tool approval) — its handler has not run<br>"
               "<small>Call %2, step #%3</small>")
                .arg(printableText(m_tool).toHtmlEscaped(), printableText(m_callId).toHtmlEscaped())
                .arg(m_sequence));
        return;
    }
    if (m_question.is_object()) {
        const QString server = QString::fromStdString(m_question.value("server", std::string()));
        const QString what = questionKind(m_question) == "elicitation" ? tr("asks a person for input")
            : questionKind(m_question) == "tool_change"                ? tr("has a changed tool to accept or reject")
                                                                       : tr("asks a person to write a model's reply");
        if (waiting)
            m_headingLabel->setText(tr("MCP server <b>%1</b> %2 during <b>%3</b><br><small>Call %4, step #%5</small>")
                                        .arg(printableText(server).toHtmlEscaped(), what,
                                             printableText(m_tool).toHtmlEscaped(),
                                             printableText(m_callId).toHtmlEscaped())
                                        .arg(m_sequence));
        else
            m_headingLabel->setText(tr("The question of MCP server <b>%1</b> during <b>%2</b> is closed: answered, "
                                       "or taken back by the server<br><small>Call %3, step #%4</small>")
                                        .arg(printableText(server).toHtmlEscaped(),
                                             printableText(m_tool).toHtmlEscaped(),
                                             printableText(m_callId).toHtmlEscaped())
                                        .arg(m_sequence));
        return;
    }
    const QString text = waiting ? tr("<b>%1</b> is waiting for an answer — attempt %2 of %3<br>"
                                      "<small>Call %4, step #%5</small>")
                                 : tr("<b>%1</b> is closed, no longer waiting — attempt %2 of %3<br>"
                                      "<small>Call %4, step #%5</small>");
    m_headingLabel->setText(text.arg(printableText(m_tool).toHtmlEscaped())
                                .arg(m_attempt)
                                .arg(m_maxAttempts)
                                .arg(printableText(m_callId).toHtmlEscaped())
                                .arg(m_sequence));
}

void AnswerPane::showClosed(const QString &how)
{
    if (m_tool.isEmpty())
        return;
    setHeading(false);
    m_clockLabel->setText(how);
    m_clockLabel->setVisible(true);
    m_body->setEnabled(false);
}

void AnswerPane::showAnswered()
{
    if (m_tool.isEmpty())
        return;
    if (!m_callId.isEmpty())
        setHeading(false);
    m_callId.clear(); // nothing more to send for it
    m_clockLabel->setText(m_sentText);
    m_clockLabel->setVisible(true);
    showProblem(QString());
    m_body->setEnabled(false);
}

void AnswerPane::clearCall()
{
    m_callId.clear();
    m_tool.clear();
    m_attempt = 0;
    m_maxAttempts = 0;
    m_sequence = 0;
    m_sentText.clear();
    m_held = false;
    m_question = nullptr;
    m_usesComposer = false;
    m_samplingModel->setQuestion(nullptr, std::nullopt);
    m_samplingMedia->setQuestion(nullptr, std::nullopt);
    m_samplingTools->setQuestion(nullptr);
    applyInput();
    m_errorBox->codeCombo()->setCurrentIndex(0);
    applyMode();
    if (m_usesForm) {
        const nlohmann::json schema = m_resultForm->schema(); // empty fields
        m_resultForm->setSchema(schema);
    }
    m_headingLabel->setText(tr("Select a waiting call to answer it."));
    m_argumentsView->clear();
    m_resultEdit->clear();
    m_errorBox->messageEdit()->clear();
    m_errorBox->retryableCheck()->setChecked(false);
    m_clockLabel->clear();
    m_clockLabel->setVisible(false);
    showProblem(QString());
    m_body->setEnabled(false);
}

void AnswerPane::focusResult()
{
    if (m_usesComposer) {
        m_composer->textEdit()->setFocus();
        return;
    }
    if (QWidget *first = m_usesForm ? m_resultForm->control(QString()) : nullptr)
        first->setFocus();
    else
        (m_usesForm ? static_cast<QWidget *>(m_resultForm) : m_resultEdit)->setFocus();
}

void AnswerPane::setOutputSchema(const std::optional<nlohmann::json> &schema)
{
    m_usesForm = schema.has_value() && schema->is_object();
    if (m_usesForm) {
        m_resultForm->setSchema(*schema);
    }
    applyInput();
}

void AnswerPane::setClockText(const QString &text)
{
    m_clockLabel->setText(text);
}

QString AnswerPane::problem() const
{
    return m_problemLabel->text();
}

bool AnswerPane::sendResult()
{
    if (m_callId.isEmpty())
        return false;
    if (PageQuestion::is(m_question))
        return openPage();
    if (m_usesComposer) {
        QString problem;
        const auto reply = m_composer->reply(&problem);
        if (!reply) {
            showProblem(problem);
            return false;
        }
        ManualAnswer answer;
        answer.result = *reply;
        return send(answer);
    }
    if (m_usesForm) {
        if (replyMissing()) // the hint beside Send Reply says what is missing
            return false;
        if (!m_resultForm->isValid()) {
            // The form shows it at the field (revealErrors): said once, not twice.
            m_resultForm->revealErrors();
            showProblem(m_resultForm->problem()->toString(), false);
            return false;
        }
        ManualAnswer answer;
        answer.result = m_resultForm->value();
        if (m_question.is_object())
            answer.result = questionKind(m_question) == "elicitation"
                ? nlohmann::json{{"action", "accept"}, {"content", answer.result}}
                : m_samplingModel->answerFor(QString::fromStdString(answer.result.value("text", std::string())));
        return send(answer);
    }
    return sendRawResult();
}

bool AnswerPane::openPage()
{
    const QString callId = m_callId;
    const int serial = m_question.value("serial", 0);
    QString problem;
    // The server may have withdrawn the page and asked another while the person decided.
    const bool opened = m_pageQuestion.open(
        this, m_question,
        [&] {
            return !(m_callId != callId || m_question.value("serial", 0) != serial || !PageQuestion::is(m_question));
        },
        &problem);
    if (!opened) {
        if (!problem.isEmpty())
            showProblem(problem);
        return false;
    }
    ManualAnswer answer;
    answer.result = {{"action", "accept"}};
    answer.question = serial;
    return send(answer);
}

bool AnswerPane::sendError()
{
    if (m_callId.isEmpty())
        return false;
    const QString message = m_errorBox->messageEdit()->text().trimmed();
    const bool timeout = m_held && m_errorBox->timeoutChosen();
    if (message.isEmpty() && !timeout) {
        showProblem(tr("Enter the error message the script should see."));
        m_errorBox->messageEdit()->setFocus();
        return false;
    }
    ManualAnswer answer;
    answer.isError = true;
    answer.message = message;
    answer.retryable = m_errorBox->retryableCheck()->isChecked();
    return send(answer);
}

bool AnswerPane::sendDecline()
{
    if (m_callId.isEmpty() || questionKind(m_question) != "elicitation")
        return false;
    ManualAnswer answer;
    answer.result = {{"action", "decline"}};
    return send(answer);
}

bool AnswerPane::sendCancel()
{
    if (m_callId.isEmpty() || questionKind(m_question) != "elicitation")
        return false;
    ManualAnswer answer;
    answer.result = {{"action", "cancel"}};
    return send(answer);
}

bool AnswerPane::send(const ManualAnswer &given)
{
    // An answer to a server's question names it: one read for a question the server has
    // withdrawn and replaced meanwhile is refused, not given to the new one.
    ManualAnswer answer = given;
    if (!m_held && answer.question == 0 && m_question.is_object())
        answer.question = m_question.value("serial", 0);
    if (!m_route.available(m_held)) {
        showProblem(tr("There is no run to answer."));
        return false;
    }
    // The call closes (pendingCallClosed) before the run's outcome comes back, and the
    // pane may move on to the next call meanwhile: report the call that was answered,
    // not the one shown then. Its answer counts as on its way until the outcome.
    const QString callId = m_callId;
    if (callId == m_sendingCallId)
        return false; // its outcome is on the way
    const bool timeout = m_held && answer.isError && m_errorBox->timeoutChosen();
    m_sentText = AnswerRoute::summary(answer, m_held, timeout);
    m_sendingCallId = callId;
    return m_route.send(callId, m_attempt, m_held, timeout, answer, this,
                        [this, callId](bool accepted, const QString &reason) { sent(callId, accepted, reason); });
}

void AnswerPane::sent(const QString &callId, bool accepted, const QString &reason)
{
    if (m_sendingCallId == callId)
        m_sendingCallId.clear();
    if (!accepted) {
        m_sentText.clear();
        showProblem(tr("The run refused the answer: %1").arg(reason));
        Q_EMIT answerRefused(callId);
        return;
    }
    Q_EMIT answered(callId);
}

void AnswerPane::showProblem(const QString &text, bool shown)
{
    m_problemLabel->setText(text);
    m_problemLabel->setVisible(shown && !text.isEmpty());
}
