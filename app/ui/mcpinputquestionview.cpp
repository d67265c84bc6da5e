// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpinputquestionview.h"

#include "answerpane.h"
#include "engine/personquestion.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcppersonquestion.h"
#include "project/printabletext.h"

#include <QCheckBox>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

using nlohmann::json;

McpInputQuestionView::McpInputQuestionView(const QString &server, QWidget *parent)
    : QWidget(parent)
    , m_server(server)
{
    setObjectName(QStringLiteral("mcpInputQuestion"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_pane = new AnswerPane(nullptr, this);
    // Answered here, not by a run: a read has no attempts to retry.
    m_pane->retryableCheck()->hide();
    m_pane->setAnswerer(
        [this](const QString &, int, const ManualAnswer &given, QString *reason) { return answer(given, reason); });
    connect(m_pane, &AnswerPane::answered, this, [this] { showNext(); });
    layout->addWidget(m_pane);
    hide();
}

McpInputQuestionView::~McpInputQuestionView()
{
    const json id = dropAll();
    if (!m_session || id.is_null())
        return;
    const QPointer<McpClientSession> session = m_session;
    const qint64 call = McpClientSession::callOfInputRequest(id);
    QTimer::singleShot(0, session.data(), [session, call] {
        if (session)
            session->cancel(call, tr("the window that asked was closed"));
    });
}

McpInputRequiredRounds::Asker McpInputQuestionView::askerFor(McpClientSession *session, const QString &subject,
                                                             int ticket)
{
    const QPointer<McpInputQuestionView> self(this);
    McpInputRequiredRounds::Asker asker;
    asker.ask = [self, ticket](const json &id, const QString &method, const json &params) {
        if (self)
            self->ask(ticket, id, method, params);
    };
    asker.withdraw = [self, ticket](const json &id) {
        if (self)
            self->withdraw(ticket, id);
    };
    asker.refusal
        = [self](const QString &, const json &) { return self ? QString() : tr("the window that asked was closed"); };
    // A request begun now takes over the view: what an earlier one asks is refused.
    if (ticket != m_ticket) {
        const json earlier = dropAll(); // all of one request
        m_ticket = ticket;
        m_subject = subject;
        const QPointer<McpClientSession> before = std::exchange(m_session, QPointer<McpClientSession>(session));
        if (before && !earlier.is_null())
            before->cancel(McpClientSession::callOfInputRequest(earlier),
                           tr("another request of the window took over its question"));
        showNext();
    }
    return asker;
}

void McpInputQuestionView::ask(int ticket, const json &id, const QString &method, const json &params)
{
    if (!m_session)
        return;
    if (ticket != m_ticket) { // a request the window no longer shows: it ends
        m_session->cancel(McpClientSession::callOfInputRequest(id),
                          tr("another request of the window took over its question"));
        return;
    }
    m_checking.push_back(std::make_shared<const McpServerRequest>(
        McpServerRequest{id, method, params, false, m_session->protocolVersion()}));
    checkNext();
}

void McpInputQuestionView::checkNext()
{
    if (m_check.busy() || m_checking.empty())
        return;
    m_check.start(this, m_server, m_checking.front(),
                  [this](McpQuestionCheck::Result checked) { onChecked(std::move(checked)); });
}

void McpInputQuestionView::onChecked(McpQuestionCheck::Result checked)
{
    if (m_checking.empty())
        return;
    const json id = m_checking.front()->id;
    m_checking.pop_front();
    if (!checked.question) {
        // Answered as a tool call's question that cannot be asked is (McpHandler).
        if (m_session)
            m_session->respondError(id,
                                    JsonRpcError{JsonRpcError::InvalidParams, checked.error.toStdString(), nullptr});
    } else {
        json &question = *checked.question;
        Waiting waiting;
        waiting.id = id;
        // The model's request is kept apart from what a person reads (Attempt::modelRequest).
        if (const auto request = question.find("model_request"); request != question.end()) {
            waiting.modelRequest = *request;
            question.erase(request);
        }
        question["serial"] = ++m_serial;
        waiting.question = std::move(question);
        m_waiting.push_back(std::move(waiting));
        if (m_waiting.size() == 1)
            showNext();
    }
    checkNext();
}

json McpInputQuestionView::dropAll()
{
    json id = !m_waiting.empty() ? m_waiting.front().id : !m_checking.empty() ? m_checking.front()->id : json();
    m_waiting.clear();
    m_checking.clear();
    m_check.cancel();
    return id;
}

void McpInputQuestionView::withdraw(int ticket, const json &id)
{
    if (ticket != m_ticket)
        return;
    if (!m_checking.empty() && m_checking.front()->id == id && m_check.busy())
        m_check.cancel(); // never shown: the next is checked instead
    std::erase_if(m_checking, [&id](const auto &request) { return request->id == id; });
    checkNext();
    const bool shown = !m_waiting.empty() && m_waiting.front().id == id;
    std::erase_if(m_waiting, [&id](const Waiting &waiting) { return waiting.id == id; });
    if (shown)
        showNext();
}

void McpInputQuestionView::finished(int ticket)
{
    if (ticket != m_ticket)
        return;
    dropAll();
    showNext();
}

bool McpInputQuestionView::answer(const ManualAnswer &given, QString *reason)
{
    if (m_waiting.empty() || !m_session) {
        *reason = tr("the server's question is no longer open");
        return false;
    }
    const Waiting waiting = m_waiting.front();
    if (given.question != 0 && given.question != waiting.question.value("serial", 0)) {
        *reason = tr("the server withdrew that question: read the new one and answer again");
        return false;
    }
    ManualAnswer answer = given;
    if (const QString why = PersonQuestion::check(waiting.question, answer); !why.isEmpty()) {
        *reason = why;
        return false;
    }
    const QPointer<McpClientSession> session = m_session;
    if (!answer.isError && PersonQuestion::kind(waiting.question) == QLatin1String("elicitation")
        && answer.result.value("action", json()) == "cancel") {
        // Cancel ends the request here: the server is not asked again.
        dropAll();
        session->cancel(McpClientSession::callOfInputRequest(waiting.id),
                        tr("you cancelled the server's question, so the request ended"));
        return true;
    }
    m_waiting.pop_front();
    const bool open = answer.isError
        ? session->respondError(waiting.id, JsonRpcError{-1, answer.message.toStdString(), nullptr})
        : session->respond(waiting.id, McpPersonQuestion::resultFor(waiting.question, answer));
    if (!open) {
        *reason = tr("the server's question is no longer open (its request ended)");
        return false;
    }
    return true;
}

void McpInputQuestionView::showNext()
{
    if (m_waiting.empty()) {
        m_pane->clearCall();
        hide();
        return;
    }
    const Waiting &waiting = m_waiting.front();
    Step step;
    step.callId = m_subject;
    step.tool = m_subject;
    step.sequence = 1;
    Attempt attempt;
    attempt.number = 1;
    attempt.question = waiting.question;
    attempt.modelRequest = waiting.modelRequest;
    step.attempts.push_back(std::move(attempt));
    m_pane->setCall(step);
    const bool elicitation = PersonQuestion::kind(waiting.question) == QLatin1String("elicitation");
    m_pane->headingLabel()->setText(
        (elicitation ? tr("MCP server <b>%1</b> asks a person for input to answer <b>%2</b>")
                     : tr("MCP server <b>%1</b> asks a person to write a model's reply to answer <b>%2</b>"))
            .arg(printableText(m_server).toHtmlEscaped(), printableText(m_subject).toHtmlEscaped()));
    m_pane->setClockText(m_waiting.size() > 1
                             ? tr("%n more question(s) after this one.", nullptr, int(m_waiting.size()) - 1)
                             : tr("The request waits for your answer; Cancel ends it."));
    show();
    m_pane->focusResult();
}
