// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcphandler.h"

#include "mcp/mcpelicitationrequired.h"
#include "mcp/mcpserverpool.h"
#include "mcp/mcptoolchangequestion.h"
#include "project/mcpserverconfig.h"
#include "project/printabletext.h"

#include <QTimer>

#include <algorithm>
#include <functional>
#include <utility>

using nlohmann::json;

namespace {

/// An isError text is cut as the session cuts an error reply's message, and printable:
/// it is the server's to choose, and goes into step lines, the journal and the script.
constexpr qsizetype ErrorTextChars = 2000;

/// The text blocks of a result's `content`, one after the other.
QString textOf(const json &result)
{
    QStringList texts;
    const auto content = result.find("content");
    if (content != result.end() && content->is_array())
        for (const json &block : *content)
            if (block.is_object() && block.value("type", json()) == "text" && block.contains("text")
                && block["text"].is_string())
                texts << QString::fromStdString(block["text"].get<std::string>());
    return texts.join(u'\n');
}

} // namespace

McpHandler::McpHandler(QObject *parent)
    : ToolHandler(parent)
{}

McpHandler::~McpHandler()
{
    cancel();
}

void McpHandler::registerKind()
{
    ToolHandler::registerFactory(
        HandlerKind::Mcp, [] { return new McpHandler; }, true);
}

bool McpHandler::splitName(const QString &name, QString *server, QString *tool)
{
    const qsizetype at = name.indexOf(QLatin1String("__"));
    if (at <= 0)
        return false;
    *server = name.left(at);
    *tool = name.mid(at + 2);
    return !tool->isEmpty();
}

HandlerOutcome McpHandler::outcomeOf(const QString &server, const McpReply &reply)
{
    if (!reply.failure.isEmpty())
        return HandlerOutcome::failure(printableLines(reply.failure), true);
    if (reply.error.code == McpElicitationRequired::Code)
        return HandlerOutcome::failure(
            tr("MCP server '%1' needs a person to open a page first (URL elicitation, -32042): %2")
                .arg(server, printableLines(clippedText(QString::fromStdString(reply.error.message), ErrorTextChars))),
            false);
    if (!reply.ok())
        return HandlerOutcome::failure(tr("MCP server '%1' answered with an error: %2").arg(server, reply.errorText()),
                                       false);
    if (!reply.result.is_object())
        return HandlerOutcome::failure(
            tr("MCP server '%1' answered tools/call with a result that is not an object").arg(server), false);
    if (reply.result.value("isError", json(false)) == json(true)) {
        const QString text = textOf(reply.result);
        return HandlerOutcome::failure(text.isEmpty() ? tr("MCP server '%1' reported an error without text").arg(server)
                                                      : printableLines(clippedText(text, ErrorTextChars)),
                                       false);
    }
    if (const auto structured = reply.result.find("structuredContent"); structured != reply.result.end())
        return HandlerOutcome::success(*structured);
    return HandlerOutcome::success(json{{"content", reply.result.value("content", json::array())}});
}

void McpHandler::start(const HandlerRequest &request)
{
    QString server;
    QString tool;
    if (!splitName(request.tool, &server, &tool)) {
        const QString name = request.tool;
        QTimer::singleShot(0, this, [this, name] {
            m_done = true;
            Q_EMIT finished(HandlerOutcome::failure(
                tr("'%1' is not an MCP tool name (SERVER__TOOL)").arg(elidedText(name)), false));
        });
        return;
    }
    m_pool = McpServerPool::forProject(request.projectDir);
    m_server = server;
    m_tool = tool;
    m_args = request.args;
    m_meta = json{{IdempotencyKeyMeta, request.idempotencyKey.toStdString()}, {AttemptMeta, request.attempt}};
    send();
}

void McpHandler::send()
{
    if (m_done || !m_pool)
        return;
    QPointer<McpHandler> self(this);
    const auto progressed = [self](const McpCallProgress &progress) {
        if (!self || self->m_done)
            return;
        self->m_progressLine = progress.line();
        if (self->m_progressTimer)
            return; // coalesced: the timer emits the latest line
        self->m_progressTimer = true;
        QTimer::singleShot(ProgressIntervalMs, self, [self] {
            self->m_progressTimer = false;
            if (!self->m_done)
                Q_EMIT self->progressed(std::exchange(self->m_progressLine, QString()));
        });
    };
    const auto done = [self](const McpCallOutcome &outcome) {
        if (!self || self->m_done)
            return;
        if (!outcome.refused.isEmpty()) {
            self->onRefused(outcome);
            return;
        }
        self->m_done = true;
        self->m_check.cancel(); // the pool answers the call's open requests
        HandlerOutcome result = outcomeOf(self->m_server, outcome.reply);
        result.output = outcome.stderrOutput;
        result.protocol = outcome.exchange;
        if (const QString summary = outcome.progress.summary(); !summary.isEmpty()) {
            if (!result.output.isEmpty() && !result.output.endsWith('\n'))
                result.output += '\n';
            result.output += summary.toUtf8() + '\n';
        }
        Q_EMIT self->finished(result);
    };
    const auto asked = [self](const McpServerRequest &serverRequest) {
        if (self)
            self->onServerRequest(serverRequest);
    };
    m_id = m_pool->call(m_server, m_tool, m_args, m_meta, done, progressed, asked);
}

void McpHandler::onRefused(const McpCallOutcome &outcome)
{
    // Sent once already (answered HeaderMismatch, then the tools listed again): that
    // exchange goes with the step if it fails here.
    if (outcome.exchange.is_object() && !outcome.exchange.value("messages", json::array()).empty())
        m_refusedExchange = outcome.exchange;
    // Asked only in the window, about a change that can be accepted, and not after the
    // questions of this call were taken back MaxWithdrawnQuestions times (a server
    // changing the tool in a loop would grow the journal without a person doing anything).
    std::optional<json> question;
    if (outcome.change && m_pool && m_pool->asksBeforeChangedTools() && m_withdrawn < MaxWithdrawnQuestions)
        question = McpToolChangeQuestion::question(*outcome.change);
    if (!question) {
        failChanged(outcome.refused);
        return;
    }
    m_change = outcome.change;
    m_changeAsked = question;
    if (!m_watchingChanges) {
        m_watchingChanges = true;
        connect(m_pool, &McpServerPool::serverChanged, this, [this](const QString &name) {
            if (m_done || !m_changeAsked || name != m_server)
                return;
            // Not from inside the signal: it may come from another call's answer, the
            // engine still busy with that one.
            QPointer<McpHandler> self(this);
            QTimer::singleShot(0, this, [self] {
                if (self)
                    self->recheckChange();
            });
        });
    }
    m_pool->watchAcceptedRecord(this); // serverChanged() when the record changed
    Q_EMIT personAsked(*m_changeAsked);
}

void McpHandler::failChanged(const QString &message)
{
    m_done = true;
    if (m_pool)
        m_pool->unwatchAcceptedRecord(this);
    // tool_failed, not retried, with "tool_changed" in its details for a script to
    // tell it apart (a code of its own would change the bridge protocol).
    HandlerOutcome refused = HandlerOutcome::failure(message, false);
    refused.error.details = json{{"tool_changed", true}};
    refused.protocol = m_refusedExchange;
    Q_EMIT finished(refused);
}

bool McpHandler::changeStillOpen() const
{
    const McpServerStatus *status = m_pool && m_change ? m_pool->server(m_server) : nullptr;
    if (!status || status->state != McpServerStatus::State::Ready || !status->acceptedError.isEmpty())
        return false;
    return std::any_of(status->changedTools.begin(), status->changedTools.end(),
                       [this](const McpToolChange &open) { return open.tool == m_tool && open.now == m_change->now; });
}

void McpHandler::recheckChange()
{
    // Decided once the server lists its tools again (a restart passes through Starting).
    const McpServerStatus *status = m_pool ? m_pool->server(m_server) : nullptr;
    if (m_done || !m_changeAsked || !status || status->state != McpServerStatus::State::Ready || changeStillOpen())
        return;
    const json question = *std::exchange(m_changeAsked, std::nullopt);
    m_pool->unwatchAcceptedRecord(this);
    ++m_withdrawn;
    Q_EMIT personWithdrawn(question);
    // Sent again: it goes through when the change was accepted, and asks again when the
    // tool changed once more.
    QPointer<McpHandler> self(this);
    QTimer::singleShot(0, this, [self] {
        if (self)
            self->send();
    });
}

void McpHandler::answerChange(const ManualAnswer &answer)
{
    const json question = *std::exchange(m_changeAsked, std::nullopt);
    m_pool->unwatchAcceptedRecord(this);
    QPointer<McpHandler> self(this);
    // Never from inside answerPerson (the engine is still busy with this answer).
    const auto later = [this, self](std::function<void()> then) {
        QTimer::singleShot(0, this, [self, then = std::move(then)] {
            if (self && !self->m_done)
                then();
        });
    };
    if (answer.isError || answer.result != json{{"action", "accept"}}) {
        const QString message = McpToolChangeQuestion::rejection(question, answer.isError ? answer.message : QString());
        later([this, message] { failChanged(message); });
        return;
    }
    // Only the definition shown is recorded. One that changed again meanwhile is not
    // (acceptTools says so): the call is sent again and asks about the new one.
    QString error;
    if (!m_pool->acceptTools(m_server, {*m_change}, &error) && changeStillOpen()) {
        const QString message
            = tr("MCP tool '%1' was not accepted: %2")
                  .arg(elidedText(McpServerConfig::toolName(m_server, m_tool)), printableLines(error));
        later([this, message] { failChanged(message); });
        return;
    }
    later([this] { send(); });
}

void McpHandler::onServerRequest(const McpServerRequest &request)
{
    if (m_done || !m_pool)
        return; // the pool answers it when the call ends
    if (request.withdrawn) {
        const auto it = std::find_if(m_waiting.begin(), m_waiting.end(),
                                     [&request](const auto &open) { return open->id == request.id; });
        if (it == m_waiting.end())
            return;
        const bool first = it == m_waiting.begin();
        const bool asked = first && m_asked;
        m_waiting.erase(it);
        if (first && m_check.busy()) { // never asked: the next is checked instead
            m_check.cancel();
            // Counted as a question taken back: its check runs on, for nothing, and a
            // server cancelling each request while checked would keep the checks' pool
            // busy without end (attack46 F2).
            ++m_withdrawn;
            askNext();
            return;
        }
        if (!asked)
            return;
        const nlohmann::json question = *std::exchange(m_asked, std::nullopt);
        ++m_withdrawn;
        Q_EMIT personWithdrawn(question);
        // Never from inside the signal (the engine is still busy with it).
        QPointer<McpHandler> self(this);
        QTimer::singleShot(0, this, [self] {
            if (self)
                self->askNext();
        });
        return;
    }
    if (m_withdrawn >= MaxWithdrawnQuestions) {
        m_pool->respondError(m_id, request.id, JsonRpcError::InvalidRequest,
                             tr("this server withdrew %1 questions of this call; Tool Studio asks a person no more")
                                 .arg(MaxWithdrawnQuestions));
        return;
    }
    if (m_waiting.size() >= MaxWaitingRequests) {
        m_pool->respondError(
            m_id, request.id, JsonRpcError::InvalidRequest,
            tr("%1 requests of this call already wait for a person; Tool Studio refuses more").arg(MaxWaitingRequests));
        return;
    }
    m_waiting.push_back(std::make_shared<const McpServerRequest>(request));
    askNext();
}

void McpHandler::askNext()
{
    if (m_done || !m_pool || m_asked || m_check.busy() || m_waiting.empty())
        return;
    // Off the GUI thread: a request's tools may take the validator a fifth of a second
    // to compile, and a server may keep many open (docs/mcp.md "Tools in sampling").
    m_check.start(this, m_server, m_waiting.front(),
                  [this](McpQuestionCheck::Result checked) { onChecked(std::move(checked)); });
}

void McpHandler::onChecked(McpQuestionCheck::Result checked)
{
    // The check was of the first waiting request: one withdrawn meanwhile cancelled it.
    if (m_done || !m_pool || m_asked || m_waiting.empty())
        return;
    if (checked.question) {
        m_asked = std::move(checked.question);
        Q_EMIT personAsked(*m_asked);
        return;
    }
    m_pool->respondError(m_id, m_waiting.front()->id, JsonRpcError::InvalidParams, checked.error);
    m_waiting.pop_front();
    askNext();
}

void McpHandler::answerPerson(const nlohmann::json &asked, const ManualAnswer &answer)
{
    if (m_changeAsked) {
        if (!m_done && m_pool && *m_changeAsked == asked)
            answerChange(answer);
        return;
    }
    // An answer to a question withdrawn meanwhile is not one to the next question.
    if (m_done || !m_pool || !m_asked || *m_asked != asked || m_waiting.empty())
        return;
    const nlohmann::json requestId = m_waiting.front()->id;
    m_waiting.pop_front();
    const nlohmann::json question = *std::exchange(m_asked, std::nullopt);
    // A person's refusal: the code the spec's examples give a user's rejection.
    if (answer.isError)
        m_pool->respondError(m_id, requestId, -1, answer.message);
    else
        m_pool->respond(m_id, requestId, McpPersonQuestion::resultFor(question, answer));
    // Never from inside answerPerson (the engine is still busy with this answer).
    QPointer<McpHandler> self(this);
    QTimer::singleShot(0, this, [self] {
        if (self)
            self->askNext();
    });
}

nlohmann::json McpHandler::cancelledProtocol() const
{
    // Only a call that was sent has a record of its own; looked up by key and attempt, an
    // unsent one would find an older call's (a resumed run's same attempt; attack40 F4).
    if (!m_pool || !m_cancelKept || !m_meta.is_object())
        return nullptr;
    return m_pool->cancelledExchange(QString::fromStdString(m_meta.value(IdempotencyKeyMeta, std::string())),
                                     m_meta.value(AttemptMeta, 0));
}

void McpHandler::cancel()
{
    if (m_pool)
        m_pool->unwatchAcceptedRecord(this); // a question about a changed tool ends too
    m_check.cancel();                        // a request checked now is never asked
    if (m_done || m_id == 0)
        return;
    m_done = true;
    if (m_pool)
        m_cancelReport
            = m_pool->cancel(m_id, QStringLiteral("cancelled by the studio (timeout or Stop)"), &m_cancelKept);
}
