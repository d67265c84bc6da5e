// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpinputrequiredrounds.h"
#include "mcp/mcpquestioncheck.h"

#include <QPointer>
#include <QWidget>

#include <deque>
#include <memory>

class AnswerPane;
class McpClientSession;
struct ManualAnswer;

/// The questions a 2026-era server asks while the Resources and Prompts window reads a
/// resource or gets a prompt (its `input_required`, docs/mcp.md "A server's requests"),
/// shown in place, one at a time, in the AnswerPane the Pending Calls dock answers
/// them with: an elicitation's form (SchemaForm) with **Accept**, **Decline** and
/// **Cancel**, a sampling request's reply with **Send Reply** (and Ask Model); Send
/// Error refuses it. Hidden while nothing is asked.
///
/// An answer goes to the server as a run's does (McpPersonQuestion::resultFor; an error
/// as code -1). Each request is checked as McpHandler checks a call's, on a worker
/// thread, one after the other in the order they came (McpQuestionCheck); one that
/// cannot be asked gets the error McpHandler gives (-32602 with why). **Cancel** ends the read or the get in the studio at once (it is
/// not sent again): "you cancelled the server's question, so the request ended".
class McpInputQuestionView : public QWidget
{
    Q_OBJECT
public:
    /// `server`: the project's name of the server, shown in the question's heading.
    explicit McpInputQuestionView(const QString &server, QWidget *parent = nullptr);
    /// A request whose question still waits ends (on the next turn of the event loop:
    /// the page that began it is going too): "the window that asked was closed".
    ~McpInputQuestionView() override;

    /// The asker of the request `ticket` of `session` (McpServerFeatures::readResource,
    /// getPrompt); `subject` names it ("resources/read of \"note://a\""). A request
    /// begun later takes over the view: the questions of an earlier one are refused
    /// (its request ends).
    McpInputRequiredRounds::Asker askerFor(McpClientSession *session, const QString &subject, int ticket);
    /// The request `ticket` ended: its questions still shown are dropped and the view hides.
    void finished(int ticket);
    /// True while a question waits for an answer here.
    bool isAsking() const { return !m_waiting.empty(); }
    /// What waits: "resources/read of \"note://a\"" (empty while nothing is asked).
    QString subject() const { return isAsking() ? m_subject : QString(); }
    AnswerPane *pane() const { return m_pane; }

private:
    struct Waiting
    {
        nlohmann::json id;
        nlohmann::json question;
        std::optional<nlohmann::json> modelRequest;
    };

    void ask(int ticket, const nlohmann::json &id, const QString &method, const nlohmann::json &params);
    void withdraw(int ticket, const nlohmann::json &id);
    /// The pane's answer to the question shown: false with `reason` when it is refused.
    bool answer(const ManualAnswer &given, QString *reason);
    /// Shows the first waiting question, or hides the view.
    void showNext();
    /// Checks the first request of m_checking unless one is checked.
    void checkNext();
    /// The first request of m_checking was checked: a question waits, or it is refused.
    void onChecked(McpQuestionCheck::Result checked);
    /// Drops every request and question of the request shown; the id of one of them
    /// (all are of one call), null when none.
    nlohmann::json dropAll();

    QString m_server;
    QString m_subject;
    QPointer<McpClientSession> m_session;
    int m_ticket = 0;
    int m_serial = 0;
    std::deque<Waiting> m_waiting;
    /// The requests not yet made questions, in the order they came; the first is checked.
    std::deque<std::shared_ptr<const McpServerRequest>> m_checking;
    McpQuestionCheck m_check;
    AnswerPane *m_pane = nullptr;
};
