// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/chatdock.h"

#include "engine/modelstep.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "run/chatturn.h"
#include "tracerowformat.h"
#include "ui/answerdialog.h"
#include "ui/editargumentsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <utility>

namespace {

/// Compact JSON for a line of the transcript, cut to `limit` characters.
QString shortJson(const nlohmann::json &value, int limit = 160)
{
    return clippedText(QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)),
                       limit);
}

} // namespace

ChatDock::ChatDock(std::function<const Project *()> project, QWidget *parent)
    : QWidget(parent)
    , m_project(std::move(project))
{
    m_transcript = new QTextBrowser(this);
    m_transcript->setObjectName(QStringLiteral("chatTranscript"));
    m_transcript->setOpenLinks(false);
    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("chatModel"));
    m_model->setToolTip(tr("The model to ask; a change applies from the next message on"));
    m_message = new QPlainTextEdit(this);
    m_message->setObjectName(QStringLiteral("chatMessage"));
    m_message->setPlaceholderText(tr("Message the model (Ctrl+Return sends)"));
    m_message->setMaximumHeight(m_message->fontMetrics().lineSpacing() * 5);
    m_send = new QPushButton(tr("&Send"), this);
    m_send->setObjectName(QStringLiteral("chatSend"));
    // Ctrl+Return in the message box only: as the button's shortcut it was window-wide, and
    // made Ctrl+Return ambiguous (so dead) in the answer forms and the model composer.
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, m_message);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, [this] { send(); });
    }
    m_new = new QPushButton(tr("&New Chat"), this);
    m_new->setObjectName(QStringLiteral("chatNew"));
    m_new->setToolTip(tr("Keep this chat for later (resume it from the Runs dock) and start a new one"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("chatStatus"));
    m_status->setWordWrap(true);
    m_approve = new QCheckBox(tr("A&pprove tool calls"), this);
    m_approve->setObjectName(QStringLiteral("chatApprove"));
    m_approve->setToolTip(tr("Hold each tool call the model asks for until you approve it, answer it instead or "
                             "reject it (the rejection goes back to the model)"));

    auto *decisionFrame = new QFrame(this);
    decisionFrame->setFrameShape(QFrame::StyledPanel);
    m_decision = decisionFrame;
    m_decision->setObjectName(QStringLiteral("chatDecision"));
    m_decisionLabel = new QLabel(m_decision);
    m_decisionLabel->setObjectName(QStringLiteral("chatDecisionCall"));
    m_decisionLabel->setWordWrap(true);
    m_decisionLabel->setTextFormat(Qt::PlainText);
    m_approveCall = new QPushButton(tr("&Approve"), m_decision);
    m_approveCall->setObjectName(QStringLiteral("chatApproveCall"));
    m_approveCall->setToolTip(tr("Run the call as the model asked"));
    m_edit = new QPushButton(tr("&Edit Arguments…"), m_decision);
    m_edit->setObjectName(QStringLiteral("chatEditCall"));
    m_edit->setToolTip(tr("Change the arguments, then run the call"));
    m_answer = new QPushButton(m_decision);
    m_answer->setObjectName(QStringLiteral("chatAnswerCall"));
    m_reject = new QPushButton(tr("&Reject"), m_decision);
    m_reject->setObjectName(QStringLiteral("chatRejectCall"));
    m_reject->setToolTip(tr("End the call with an error the model reads; the tool does not run"));
    // The call on a line of its own, the decisions below: the dock stays as narrow as it was.
    auto *decisions = new QHBoxLayout;
    decisions->addWidget(m_approveCall);
    decisions->addWidget(m_edit);
    decisions->addWidget(m_answer);
    decisions->addWidget(m_reject);
    decisions->addStretch(1);
    auto *decision = new QVBoxLayout(m_decision);
    decision->addWidget(m_decisionLabel);
    decision->addLayout(decisions);
    m_decision->hide();

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel(tr("Model:"), this));
    buttons->addWidget(m_model, 1);
    buttons->addWidget(m_new);
    buttons->addWidget(m_send);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_transcript, 1);
    layout->addWidget(m_decision);
    layout->addWidget(m_message);
    layout->addWidget(m_approve);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_send, &QPushButton::clicked, this, [this] { send(); });
    connect(m_new, &QPushButton::clicked, this, &ChatDock::newChat);
    connect(m_approve, &QCheckBox::toggled, this, [this](bool on) {
        if (m_turn)
            m_turn->controller().setApprovesToolCalls(on);
    });
    connect(m_approveCall, &QPushButton::clicked, this, &ChatDock::approve);
    connect(m_edit, &QPushButton::clicked, this, &ChatDock::editArguments);
    connect(m_reject, &QPushButton::clicked, this, &ChatDock::reject);
    connect(m_answer, &QPushButton::clicked, this, &ChatDock::answerInstead);
    refresh();
}

ChatDock::~ChatDock()
{
    if (m_turn)
        m_turn->keepForLater(); // the waiting chat is suspended: it can be resumed
}

void ChatDock::refresh()
{
    const Project *project = m_project();
    if (project && !m_projectDir.isEmpty() && project->dir != m_projectDir)
        newChat();
    const QString chosen = m_model->currentText();
    m_model->clear();
    if (project) {
        for (const ModelConfig &model : project->models)
            m_model->addItem(model.name);
    }
    if (const int index = m_model->findText(chosen); index >= 0)
        m_model->setCurrentIndex(index);
    const bool models = m_model->count() > 0;
    m_send->setEnabled(models && !m_busy);
    if (!m_busy && !m_waiting)
        m_status->setText(!project ? tr("Open a project to chat with its models.")
                              : models
                              ? tr("A chat is a run of its own: every model turn and tool call is a step.")
                              : tr("The project declares no models: add one under \"models\" in toolstudio.json."));
}

bool ChatDock::send(const QString &text)
{
    const QString message = text.isEmpty() ? m_message->toPlainText() : text;
    const Project *project = m_project();
    QString error;
    if (message.trimmed().isEmpty())
        error = tr("The message is empty.");
    else if (!project || m_model->currentText().isEmpty())
        error = tr("No model to ask.");
    else if (m_busy)
        error = tr("The model is still answering.");
    if (error.isEmpty() && m_waiting) {
        if (!m_turn->send(message, m_model->currentText(), &error))
            m_waiting = false;
    } else if (error.isEmpty()) {
        m_turn = std::make_unique<ChatTurn>();
        connect(m_turn.get(), &ChatTurn::stepEnded, this, &ChatDock::onStep);
        connect(m_turn.get(), &ChatTurn::replied, this, &ChatDock::onReplied);
        connect(m_turn.get(), &ChatTurn::ended, this, &ChatDock::onEnded);
        connect(m_turn.get(), &ChatTurn::refused, this, [this](const QString &reason) {
            m_waiting = true;
            setBusy(false, tr("The message was refused: %1").arg(reason));
        });
        connect(m_turn.get(), &ChatTurn::replyStreamed, this, &ChatDock::onStreamed);
        connect(m_turn.get(), &ChatTurn::waitsForPerson, this, &ChatDock::toDecide);
        connect(m_turn.get(), &ChatTurn::held, this, &ChatDock::toDecide);
        m_turn->controller().setApprovesToolCalls(m_approve->isChecked());
        if (m_turn->start(*project, m_model->currentText(), QString(), message, &error)) {
            m_projectDir = project->dir;
            m_runId = m_turn->runId();
            Q_EMIT runStarted(m_runId);
        } else {
            m_turn.reset();
        }
    }
    if (!error.isEmpty()) {
        m_status->setText(error);
        return false;
    }
    m_waiting = false;
    m_shownReply.reset();
    append(tr("You"), message);
    m_message->clear();
    setBusy(true, tr("%1 is answering…").arg(m_model->currentText()));
    Q_EMIT turnStarted(m_runId);
    return true;
}

RunController *ChatDock::controller() const
{
    return m_turn ? &m_turn->controller() : nullptr;
}

void ChatDock::newChat()
{
    if (m_turn)
        m_turn->keepForLater();
    m_turn.reset();
    m_waiting = false;
    m_busy = false;
    m_runId.clear();
    m_projectDir.clear();
    m_transcript->clear();
    m_partialBlock = -1;
    m_partialSequence = 0;
    m_partialText.clear();
    m_shownReply.reset();
    forgetCallsToDecide();
    refresh();
}

ChatDock::QuitChoice ChatDock::askBeforeQuit(QWidget *window)
{
    if (!m_turn || !m_turn->controller().isActive())
        return QuitChoice::Keep;
    // Waiting for the next message is where a chat rests: kept silently, as New Chat
    // keeps it. Anything else is a run the person is in the middle of.
    if (!m_busy && m_toDecide.isEmpty())
        return QuitChoice::Keep;
    QString question;
    if (m_toDecide.isEmpty())
        question = tr("The chat's turn is still running. Keep the chat for later (resume it from the Runs dock "
                      "or with toolstudio chat --continue; its recorded steps are memoized), or stop it?");
    else if (m_toDecide.constFirst().paused)
        question = tr("The chat waits for your approval of a tool call. Keep the chat for later (resume it "
                      "from the Runs dock or with toolstudio chat --continue), or stop it?");
    else
        question = tr("The chat waits for your answer to a tool call. Keep the chat for later (resume it from "
                      "the Runs dock or with toolstudio chat --continue), or stop it?");
    QMessageBox box(QMessageBox::Question, tr("Chat in Progress"), question, QMessageBox::Cancel, window);
    box.setObjectName(QStringLiteral("quitWithChatBox"));
    QPushButton *keep = box.addButton(tr("&Keep for Later"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepRun"));
    QPushButton *stop = box.addButton(tr("&Stop Chat"), QMessageBox::DestructiveRole);
    stop->setObjectName(QStringLiteral("stopRun"));
    box.setDefaultButton(keep);
    box.exec();
    if (box.clickedButton() == keep)
        return QuitChoice::Keep;
    if (box.clickedButton() == stop)
        return QuitChoice::Stop;
    return QuitChoice::Cancel;
}

void ChatDock::quit(QuitChoice choice)
{
    if (!m_turn)
        return;
    if (choice == QuitChoice::Keep)
        m_turn->keepForLater();
    else if (choice == QuitChoice::Stop)
        m_turn->controller().stop();
}

void ChatDock::append(const QString &who, const QString &text, const QString &colour)
{
    const QString body = text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    // A reply still streaming stays the last entry.
    const bool partial = m_partialBlock >= 0;
    if (partial)
        removePartial();
    appendHtml(colour.isEmpty()
                   ? QStringLiteral("<p><b>%1:</b> %2</p>").arg(who.toHtmlEscaped(), body)
                   : QStringLiteral("<p style=\"color:%3\"><b>%1:</b> %2</p>").arg(who.toHtmlEscaped(), body, colour));
    if (partial)
        showPartial();
}

void ChatDock::appendHtml(const QString &html)
{
    m_transcript->append(html);
}

void ChatDock::onStreamed(int sequence, const QString &text)
{
    if (text.isEmpty()) {
        if (sequence == m_partialSequence) {
            removePartial();
            m_partialSequence = 0;
            m_partialText.clear();
        }
        return;
    }
    removePartial();
    m_partialSequence = sequence;
    m_partialText = text;
    showPartial();
}

void ChatDock::showPartial()
{
    QTextDocument *document = m_transcript->document();
    m_partialBlock = document->isEmpty() ? 0 : document->blockCount();
    // "…" says the model is still writing; the step's final message replaces the entry.
    const QString body = (printableLines(m_partialText) + QStringLiteral(" …"))
                             .toHtmlEscaped()
                             .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    appendHtml(QStringLiteral("<p><b>%1:</b> %2</p>").arg(m_model->currentText().toHtmlEscaped(), body));
}

void ChatDock::removePartial()
{
    if (m_partialBlock < 0)
        return;
    QTextDocument *document = m_transcript->document();
    const QTextBlock block = document->findBlockByNumber(m_partialBlock);
    if (block.isValid()) {
        QTextCursor cursor(document);
        // From the end of the entry before it, so no empty paragraph is left behind.
        cursor.setPosition(m_partialBlock > 0 ? block.position() - 1 : block.position());
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
    m_partialBlock = -1;
}

void ChatDock::onStep(const Step &step)
{
    decided(step.callId);
    if (ModelSteps::isModelStep(step.tool)) {
        // Its answer is the reply, or the tool calls that follow. A streamed entry gives
        // way to the final message: its text, if it has some.
        if (step.sequence != m_partialSequence)
            return;
        removePartial();
        m_partialSequence = 0;
        m_partialText.clear();
        const nlohmann::json *message
            = step.result && step.result->contains("message") ? &(*step.result)["message"] : nullptr;
        if (!message || !message->is_object() || !message->contains("content") || !(*message)["content"].is_string())
            return;
        const QString text = QString::fromStdString((*message)["content"].get<std::string>());
        if (text.isEmpty())
            return;
        append(m_model->currentText(), printableLines(text));
        if (!message->contains("tool_calls"))
            m_shownReply = text; // the turn's reply: onReplied does not show it twice
        return;
    }
    QString line = QStringLiteral("%1 %2").arg(printableText(step.tool), shortJson(step.args));
    if (step.result)
        line += QStringLiteral(" → ") + shortJson(*step.result);
    if (step.error)
        line += QStringLiteral(" → %1: %2").arg(step.error->codeName(), QString::fromStdString(step.error->message));
    append(tr("Tool"), printableText(line), QStringLiteral("gray"));
}

void ChatDock::onReplied(const ChatRun::Input &next)
{
    m_waiting = true;
    if (next.reply && next.reply != m_shownReply)
        append(m_model->currentText(), printableLines(*next.reply));
    m_shownReply.reset();
    if (!next.error.isEmpty())
        append(tr("Error"), printableText(next.error), QStringLiteral("firebrick"));
    setBusy(false,
            next.error.isEmpty() ? tr("Chat run %1 waits for your next message.").arg(m_runId)
                                 : tr("The turn failed; send the message again."));
    Q_EMIT replied(next.reply.value_or(QString()), next.error);
}

void ChatDock::onEnded(const RunRecord &run)
{
    m_waiting = false;
    removePartial();
    m_partialSequence = 0;
    m_partialText.clear();
    forgetCallsToDecide();
    setBusy(false,
            tr("Chat run %1 %2%3")
                .arg(run.id, TraceRowFormat::runStatusText(run.status),
                     run.error.isEmpty() ? QString() : QStringLiteral(": ") + printableText(run.error)));
    m_turn.release()->deleteLater(); // it is emitting this signal
}

void ChatDock::setBusy(bool busy, const QString &status)
{
    m_busy = busy;
    m_send->setEnabled(!busy && m_model->count() > 0);
    m_status->setText(status);
}

void ChatDock::toDecide(const Step &step)
{
    decided(step.callId); // a call shown again (answered with a retryable error) is shown once
    m_toDecide.append(step);
    showCallToDecide();
}

void ChatDock::decided(const QString &callId)
{
    if (m_toDecide.removeIf([&](const Step &s) { return s.callId == callId; }) > 0)
        showCallToDecide();
}

void ChatDock::showCallToDecide()
{
    m_decision->setVisible(!m_toDecide.isEmpty());
    if (m_toDecide.isEmpty()) {
        if (m_busy)
            m_status->setText(tr("%1 is answering…").arg(m_model->currentText()));
        return;
    }
    m_status->setText(tr("The chat waits for you; the run clock is paused."));
    const Step &step = m_toDecide.constFirst();
    const QString call = printableText(QStringLiteral("%1 %2").arg(step.tool, shortJson(step.args)));
    const QString more
        = m_toDecide.size() > 1 ? tr(" (%n more after it)", nullptr, int(m_toDecide.size() - 1)) : QString();
    m_decisionLabel->setText(
        (step.paused ? tr("%1 waits for your approval%2") : tr("%1 waits for your answer%2")).arg(call, more));
    m_approveCall->setVisible(step.paused);
    m_edit->setVisible(step.paused && !ModelSteps::isModelStep(step.tool));
    m_reject->setVisible(step.paused);
    m_answer->setText(step.paused ? tr("Answer &Instead…") : tr("Ans&wer…"));
    m_answer->setToolTip(step.paused ? tr("End the call with a result or error you give; the tool does not run")
                                     : tr("Give the call's result or error"));
}

void ChatDock::forgetCallsToDecide()
{
    ++m_chat;
    for (const QPointer<QDialog> &dialog : std::exchange(m_dialogs, {})) {
        if (dialog)
            dialog->close(); // an AnswerDialog would answer through the run controller gone with the chat
    }
    m_decision->setEnabled(true); // an outcome still on its way may never come (its controller is gone)
    m_toDecide.clear();
    showCallToDecide();
}

std::function<void(bool, const QString &)> ChatDock::decision(const QString &callId, const QString &failure)
{
    m_decision->setEnabled(false); // one decision at a time: a second click would be refused
    return [this, callId, failure, chat = m_chat](bool accepted, const QString &reason) {
        if (chat != m_chat)
            return; // a call of an earlier chat: this one's may have the same id
        m_decision->setEnabled(true);
        if (accepted)
            decided(callId);
        else
            m_status->setText(failure.arg(reason));
    };
}

void ChatDock::approve()
{
    if (m_toDecide.isEmpty() || !m_turn)
        return;
    const QString callId = m_toDecide.constFirst().callId;
    m_turn->controller().continueStep(callId, this, decision(callId, tr("The call was not approved: %1")));
}

void ChatDock::editArguments()
{
    const Project *project = m_project();
    const Tool *tool = project && !m_toDecide.isEmpty() ? project->tool(m_toDecide.constFirst().tool) : nullptr;
    if (!tool || !m_turn)
        return;
    const QString callId = m_toDecide.constFirst().callId;
    auto *dialog = new EditArgumentsDialog(*tool, m_toDecide.constFirst().args, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialogs.append(dialog);
    connect(dialog, &QDialog::accepted, this, [this, dialog, callId, chat = m_chat] {
        if (m_turn && chat == m_chat)
            m_turn->controller().continueStepWith(callId, dialog->arguments(), this,
                                                  decision(callId, tr("The call was not run: %1")));
    });
    dialog->show();
}

void ChatDock::reject()
{
    if (m_toDecide.isEmpty() || !m_turn)
        return;
    const QString callId = m_toDecide.constFirst().callId;
    m_turn->controller().answerStep(callId, ChatRun::rejection(), this,
                                    decision(callId, tr("The call was not rejected: %1")));
}

void ChatDock::answerInstead()
{
    if (m_toDecide.isEmpty() || !m_turn)
        return;
    const Step step = m_toDecide.constFirst();
    auto *dialog = new AnswerDialog(&m_turn->controller(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const Project *project = m_project();
    const Tool *tool = project ? project->tool(step.tool) : nullptr;
    dialog->setOutputSchema(tool ? tool->outputSchema : std::nullopt);
    dialog->setCall(step);
    m_dialogs.append(dialog);
    connect(dialog, &AnswerDialog::answered, this, &ChatDock::decided);
    dialog->show();
}
