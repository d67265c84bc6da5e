// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

struct McpReply;
class QTimer;

/// The tools/calls of a 2025-era session that a server answers with
/// URLElicitationRequiredError (JSON-RPC error -32042, MCP 2025-11-25 client/elicitation
/// "URL Elicitation Required Error"): owned by McpClientSession, which sends its 2025
/// tools/calls through callTool() (docs/mcp.md "A server's requests").
///
/// An answer other than -32042 goes to the call's `done` as it is. A -32042 whose
/// `data.elicitations` lists 1 to MaxElicitations URL-mode elicitations (`"mode":
/// "url"`), each one McpPersonQuestion asks (an http(s) url with a host and no user
/// info, an elicitationId of 1 to 256 bytes, …), does not end the call: each is handed
/// on as the server's `elicitation/create` (Channel::ask, the session's
/// serverRequestReceived) under an id of the session's own, "-32042:CALL:N", and asked
/// of a person one after another as URL-mode elicitation/create is; the answers come
/// back through answer(). Once every page was accepted, the call is sent again — the
/// same name, arguments and `_meta` (idempotency key, attempt, progress token) — when
/// the server's `notifications/elicitation/complete` came for each (complete()), or
/// CompletionWaitMs after the last answer when one did not come. A completion for a
/// page not answered yet takes its question back (Channel::withdraw): the page is done.
///
/// The call ends with a -32042 reply whose message is the studio's, saying why, when a
/// page was declined, cancelled or answered with an error, when the error lists no
/// elicitation, more than MaxElicitations or one that cannot be asked (the refusal of
/// McpPersonQuestion, "elicitation 2 of 3: the url is not an http or https URL …"),
/// when nobody can be asked, and when the server still answers -32042 after MaxRounds
/// rounds. A completion that names no page waiting (unknown, or already complete) or
/// is malformed is ignored, with a debug line in the category "toolstudio.mcp".
class McpElicitationRequired : public QObject
{
    Q_OBJECT
public:
    using ReplyHandler = std::function<void(const McpReply &)>;

    /// URL_ELICITATION_REQUIRED (schema/2025-11-25/schema.ts).
    static constexpr int Code = -32042;
    /// How the ids of the questions it asks begin ("-32042:CALL:N"); a server may neither
    /// send a request under such an id nor cancel one (McpClientSession).
    static constexpr const char *IdPrefix = "-32042:";
    /// Pages of one -32042 asked (as McpHandler::MaxWaitingRequests questions wait per call).
    static constexpr std::size_t MaxElicitations = 16;
    /// Rounds of pages asked for one call: the call is sent at most MaxRounds + 1 times,
    /// and a -32042 to the last one ends it.
    static constexpr int MaxRounds = 4;
    /// How long the completions are waited for after the last page was accepted.
    static constexpr int CompletionWaitMs = 15000;

    /// What it needs of its session.
    struct Channel
    {
        /// McpClientSession::request.
        std::function<qint64(const QString &, nlohmann::json, ReplyHandler, int)> request;
        /// McpClientSession::cancel of a request in flight.
        std::function<void(qint64, const QString &)> cancel;
        /// Takes `id` among the server's open requests; why not ("" when taken).
        std::function<QString(const nlohmann::json &)> open;
        /// Lets go of `id`; false when it was not open (answered, or the session ended).
        std::function<bool(const nlohmann::json &)> close;
        /// True when somebody hears the asks (a call that can ask a person).
        std::function<bool()> canAsk;
        /// Hands on the page `params` as the server's elicitation/create `id`.
        std::function<void(const nlohmann::json &, const nlohmann::json &)> ask;
        /// Takes the ask `id` back (the server's notifications/cancelled would).
        std::function<void(const nlohmann::json &)> withdraw;
    };

    explicit McpElicitationRequired(Channel channel, QObject *parent = nullptr);
    ~McpElicitationRequired() override;

    /// Sends tools/call with `params` (name, arguments, _meta); `done` gets the reply
    /// once. Returns the call's id, its first request's (0 when it could not be sent:
    /// `done` was called).
    qint64 callTool(nlohmann::json params, ReplyHandler done, int timeoutMs);
    /// The call that asks `id` (callTool's id), 0 when `id` is none of its asks.
    qint64 callOf(const nlohmann::json &id) const;
    /// The person's answer to the ask `id`: a result ({"action": …}) or an error. False
    /// when `id` is no open ask.
    bool answer(const nlohmann::json &id, const McpReply &answer);
    /// `notifications/elicitation/complete` with `params`.
    void complete(const nlohmann::json &params);
    /// Ends call `call` with `reason` as failure (its retry in flight cancelled); false
    /// when it is none of the calls that wait here.
    bool cancel(qint64 call, const QString &reason);
    /// Lets go of every call that waits here (the session ended): their `done`, for the
    /// session to call; the reply of a retry in flight then does nothing.
    std::vector<ReplyHandler> takeAll();

    void setCompletionWait(int ms) { m_completionWaitMs = ms; }
    /// Calls that got -32042 and have not ended.
    std::size_t openCalls() const { return m_calls.size(); }

private:
    enum class PageState { Asked, Accepted, Completed };
    struct Page
    {
        std::string elicitationId;
        nlohmann::json ask; ///< the id it is asked under
        QString host;
        PageState state = PageState::Asked;
    };
    struct Call
    {
        nlohmann::json params;
        ReplyHandler done;
        int timeoutMs = 0;
        qint64 request = 0; ///< the retry in flight, 0 while pages are asked or waited for
        int rounds = 0;
        std::vector<Page> pages;
        QString failure; ///< set by an answer that ends the call (settle() ends it)
        QTimer *wait = nullptr;
    };

    void begin(qint64 call, nlohmann::json params, ReplyHandler done, int timeoutMs, const McpReply &reply);
    /// The server's -32042 answer to `call`: its pages asked, or the call ended.
    void onRequired(qint64 call, const McpReply &reply);
    void onReply(qint64 call, const McpReply &reply);
    /// Later (never inside an answer): ends, retries or waits, as the pages stand.
    void settleLater(qint64 call);
    void settle(qint64 call);
    void retry(qint64 call);
    void fail(qint64 call, const QString &why);
    void finish(qint64 call, const McpReply &reply);

    Channel m_channel;
    std::map<qint64, Call> m_calls;
    std::map<std::string, qint64> m_asks; ///< open asks (id as compact JSON) → call
    qint64 m_nextAsk = 1;
    int m_completionWaitMs = CompletionWaitMs;
};
