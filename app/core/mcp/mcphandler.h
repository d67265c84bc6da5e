// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"

#include "mcp/mcpacceptedtools.h"
#include "mcp/mcppersonquestion.h"
#include "mcp/mcpquestioncheck.h"

#include <QPointer>

#include <deque>
#include <memory>

class McpServerPool;
class QTimer;
struct McpCallOutcome;
struct McpReply;

/// One attempt of an MCP tool (handler kind `mcp`, docs/mcp.md "Calls as steps"): a
/// `tools/call` of the server's tool on the project's McpServerPool session, the step's
/// idempotency key and the attempt's number in the request's `_meta` (IdempotencyKeyMeta,
/// AttemptMeta). Lives on the main
/// thread (the engine wraps it in a MainThreadHandler on a run thread).
///
/// | the server | the attempt |
/// |---|---|
/// | returns a result | succeeds: `structuredContent` when the server sent it (checked against the tool's outputSchema by the engine), else the result's `content` blocks as `{"content": [...]}` |
/// | returns `isError: true` | tool_failed, not retryable; the message is its text content |
/// | answers a JSON-RPC error (unknown tool, invalid params) | tool_failed, not retryable |
/// | answers -32042 (URL elicitation required) | its pages are asked and the call sent again (McpElicitationRequired); when that ends in -32042 (a page declined, …): tool_failed, not retryable, "needs a person to open a page first" and why |
/// | ends (crashes) or cannot be started | tool_failed, retryable; the next call starts it again |
/// | the tool changed since a person accepted it (McpServerPool, McpAcceptedTools) | not sent: tool_failed, not retryable, details {"tool_changed": true} |
///
/// When the pool asks before changed tools (McpServerPool::asksBeforeChangedTools, the
/// window), such a call is not failed: a person is asked (personAsked, a "tool_change"
/// question of McpToolChangeQuestion). Accept records that tool's definition as shown
/// (McpServerPool::acceptTools) and sends the call; one that changed again meanwhile is
/// asked again. Reject (or an error answer) fails it as above. A question whose change
/// was accepted elsewhere meanwhile (another call's question, Review Changes) is taken
/// back (personWithdrawn) and the call sent; the pool reads the record again while
/// asked (McpServerPool::watchAcceptedRecord), so another process's acceptance counts too.
///
/// cancel() (attempt timeout, total timeout, Stop) sends `notifications/cancelled`. The
/// attempt's output is what the server wrote to its stderr and its log messages
/// (`notifications/message`) while the call was open, then one line summing up its
/// `notifications/progress` (count and the last). Progress is shown live through
/// progressed(), at most every ProgressIntervalMs (the last one always).
///
/// The server's `elicitation/create` and `sampling/createMessage` during the call are
/// asked of a person (personAsked, McpPersonQuestion), one at a time in the order they
/// came, at most MaxWaitingRequests waiting; the answer goes back to the server
/// (answerPerson). Each is checked when its turn comes, on a worker thread
/// (McpQuestionCheck), and asked once the check is done; one that cannot be asked (URL
/// mode, a schema that cannot be a form) is then answered with an error, and the next
/// checked. One past the bound is answered with an error at once. A request the
/// server cancels is dropped (personWithdrawn when it was asked; a check of it still
/// running is dropped and it is never asked); after
/// MaxWithdrawnQuestions questions taken back, or requests withdrawn while checked, the
/// call's further requests are refused (each asked one is journaled: a server asking
/// and cancelling in a loop would grow the journal without a person doing anything; each
/// check runs on to its end: one cancelling each request while checked would keep the
/// checks' pool busy).
class McpHandler : public ToolHandler
{
    Q_OBJECT
public:
    static constexpr auto IdempotencyKeyMeta = "dev.toolstudio/idempotency_key";
    static constexpr auto AttemptMeta = "dev.toolstudio/attempt"; ///< 1-based, as HandlerRequest::attempt

    static constexpr int ProgressIntervalMs = 100;
    /// Requests of the server waiting for a person in one call (the one asked included).
    static constexpr std::size_t MaxWaitingRequests = 16;
    /// Questions of one call its server may take back (notifications/cancelled) before
    /// its further requests are refused.
    static constexpr int MaxWithdrawnQuestions = 16;
    explicit McpHandler(QObject *parent = nullptr);
    ~McpHandler() override;

    /// Makes the engine create McpHandlers for `mcp` tools; McpProjectTools calls it.
    static void registerKind();
    /// "SERVER__TOOL" split at the first "__" (a server name never holds one); false
    /// when `name` has no "__".
    static bool splitName(const QString &name, QString *server, QString *tool);
    /// The step's outcome for a tools/call reply (the table above), without the output.
    static HandlerOutcome outcomeOf(const QString &server, const McpReply &reply);

    void start(const HandlerRequest &request) override;
    void cancel() override;
    QString cancelReport() const override { return m_cancelReport; }
    /// The pool's record of the cancelled call (McpServerPool::cancelledExchange).
    nlohmann::json cancelledProtocol() const override;
    void answerPerson(const nlohmann::json &question, const ManualAnswer &answer) override;

private:
    /// tools/call of m_tool on m_pool (again, once a person accepted the tool's change).
    void send();
    /// The pool refused the call (the tool changed): asks a person, or fails the step.
    void onRefused(const McpCallOutcome &outcome);
    /// Ends the attempt: tool_failed, not retried, details {"tool_changed": true}.
    void failChanged(const QString &message);
    /// The person's answer to the tool_change question asked (m_changeAsked).
    void answerChange(const ManualAnswer &answer);
    /// True while the server lists the tool as the change asked about, not accepted.
    bool changeStillOpen() const;
    /// After the server's status changed: the question is taken back and the call sent
    /// when the change asked about is no longer open (accepted elsewhere, changed again).
    void recheckChange();
    void onServerRequest(const McpServerRequest &request);
    /// Checks the first waiting request (McpQuestionCheck) unless one is asked or checked.
    void askNext();
    /// The first waiting request's check is done: asks it, or refuses it and checks the next.
    void onChecked(McpQuestionCheck::Result checked);

    QPointer<McpServerPool> m_pool;
    qint64 m_id = 0;
    bool m_done = false;
    QString m_progressLine; ///< the last progress line not yet emitted
    bool m_progressTimer = false;
    QString m_cancelReport;
    bool m_cancelKept = false; ///< cancel() left a record of the call in the pool
    QString m_server;
    QString m_tool; ///< the server's own name
    nlohmann::json m_args;
    nlohmann::json m_meta;
    std::optional<McpToolChange> m_change;       ///< the change a person is (or was last) asked about
    std::optional<nlohmann::json> m_changeAsked; ///< its question while it is asked
    nlohmann::json m_refusedExchange;            ///< the exchange of a send before the refusal, if any
    bool m_watchingChanges = false;
    /// The first is with the person while m_asked holds its question, or checked while m_check is busy.
    std::deque<std::shared_ptr<const McpServerRequest>> m_waiting;
    std::optional<nlohmann::json> m_asked;
    McpQuestionCheck m_check;
    /// Questions taken back while they were asked (by the server, or a change accepted
    /// elsewhere), and requests the server withdrew while they were checked.
    int m_withdrawn = 0;
};
