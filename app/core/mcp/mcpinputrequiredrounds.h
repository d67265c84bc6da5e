// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

struct McpReply;

/// The requests of a 2026-era session that a server may answer `input_required`
/// (2026-07-28, multi round-trip requests, basic/patterns/mrtr): tools/call,
/// resources/read and prompts/get. Owned by McpClientSession, which sends them through
/// start() (docs/mcp.md "A server's requests").
///
/// A result other than `"resultType": "input_required"` goes to the request's `done` as
/// it is. An `input_required` result asks for its `inputRequests`: `roots/list` is
/// answered at once (Channel::roots), `elicitation/create` and `sampling/createMessage`
/// are handed to the request's Asker (for a tools/call the session's
/// serverRequestReceived; for a read or a prompt the window's callback) under an id of
/// the session's own, "mrtr:CALL:KEY", and answered through answer(). Once every one was
/// answered, the same request is sent again with `inputResponses` (and `requestState`
/// exactly as given), at most MaxRounds rounds of at most MaxRequests requests each.
///
/// The request ends with a failure that says why ("the server's input_required for
/// SUBJECT: …") when the result is malformed (inputRequests not an object, requestState
/// not a string or over MaxRequestStateBytes, neither of them), asks for another method,
/// asks more than MaxRequests things or past MaxRounds rounds, when nobody can be asked
/// (Asker::refusal's words), when too many of the server's requests would be open, and
/// when an input is answered with an error; its questions still open are then taken
/// back (Asker::withdraw).
///
/// A request's timeout bounds the server's time over all its rounds together (each round
/// is sent with what is left); the time a question waits for its answer does not count.
/// A server answering each round just inside the timeout is stopped once the rounds
/// together pass it ("… timed out: the server took 60 s in all over 3 rounds").
class McpInputRequiredRounds : public QObject
{
    Q_OBJECT
public:
    using ReplyHandler = std::function<void(const McpReply &)>;

    /// How the ids of the questions it asks begin ("mrtr:CALL:KEY"); a server may neither
    /// send a request under such an id nor cancel one (McpClientSession).
    static constexpr const char *IdPrefix = "mrtr:";
    /// Rounds of input per request, input requests per round, bytes of a requestState echoed.
    static constexpr int MaxRounds = 16;
    static constexpr std::size_t MaxRequests = 16;
    static constexpr std::size_t MaxRequestStateBytes = 256 * 1024;

    /// What it needs of its session.
    struct Channel
    {
        /// McpClientSession::request, taking an `input_required` result as a result.
        std::function<qint64(const QString &, nlohmann::json, ReplyHandler, int)> request;
        /// True while the request `id` waits for its reply.
        std::function<bool(qint64)> inFlight;
        /// McpClientSession::cancel of a request in flight.
        std::function<void(qint64, const QString &)> cancel;
        /// How many of the server's requests are open now.
        std::function<std::size_t()> openRequests;
        /// Takes `id` among the server's open requests (room was checked with openRequests).
        std::function<void(const nlohmann::json &)> open;
        /// True while `id` is among the server's open requests.
        std::function<bool(const nlohmann::json &)> isOpen;
        /// Lets go of `id`; false when it was not open (answered, or the session ended).
        std::function<bool(const nlohmann::json &)> close;
        /// What `roots/list` is answered with (McpClientSession::roots).
        std::function<nlohmann::json()> roots;
        /// A monotonic clock in ms (the server's time over the rounds is measured with it).
        std::function<qint64()> now;
    };

    /// Who is asked the `elicitation/create` and `sampling/createMessage` of one request.
    struct Asker
    {
        /// Hands on the input request `method` with `params` (an object) under the id
        /// `id`; answered with answer(). Null: nobody can be asked.
        std::function<void(const nlohmann::json &id, const QString &method, const nlohmann::json &params)> ask;
        /// Takes the ask `id` back (the request ended before it was answered).
        std::function<void(const nlohmann::json &id)> withdraw;
        /// Why nobody can answer `method` with `params` now ("" when ask() may be called);
        /// without one, or when it says "" and there is no ask: noPersonWhy().
        std::function<QString(const QString &method, const nlohmann::json &params)> refusal;
    };

    /// One request that may be answered input_required.
    struct Request
    {
        QString method;                                   ///< "tools/call", "resources/read", "prompts/get"
        nlohmann::json params = nlohmann::json::object(); ///< sent every round (inputResponses added)
        QString subject;                                  ///< names it in failures: a tool, "resources/read of URI"
        Asker asker;
    };

    explicit McpInputRequiredRounds(Channel channel, QObject *parent = nullptr);
    ~McpInputRequiredRounds() override;

    /// Sends `request` as the call `call`; `done` gets its last reply once.
    void start(qint64 call, Request request, ReplyHandler done, int timeoutMs);
    /// What the server asks with `method` and `params`, for a person reading a failure:
    /// `elicitation/create ("What is your name?")` (its message printable, cut at 200
    /// characters), or the method alone.
    static QString describe(const QString &method, const nlohmann::json &params);
    /// Why an input request is refused when its Asker has neither ask nor refusal:
    /// "it asks for DESCRIBE, and nobody can answer it here".
    static QString noPersonWhy(const QString &method, const nlohmann::json &params);
    /// The call (start's `call`) the input request `id` belongs to; 0 for any other id.
    static qint64 callOf(const nlohmann::json &id);
    /// True while `call` has not ended.
    bool hasCall(qint64 call) const { return m_calls.count(call) > 0; }
    /// The person's answer to the input request `id`: a result or an error (which ends the
    /// call). False when `id` is no open input request.
    bool answer(const nlohmann::json &id, const McpReply &answer);
    /// Ends call `call` with `reason` as failure (its round in flight cancelled, whose
    /// reply ends it); false when it is none of the calls here.
    bool cancel(qint64 call, const QString &reason);
    /// Lets go of every call (the session ended): their `done`, for the session to call;
    /// the reply of a round in flight then does nothing.
    std::vector<ReplyHandler> takeAll();

private:
    /// One call's rounds.
    struct Call
    {
        Request request;
        ReplyHandler done;
        int timeoutMs = 0;   ///< over all rounds: the server's time together
        qint64 serverMs = 0; ///< the server's time in the rounds answered so far
        qint64 sentAt = 0;   ///< Channel::now when the round in flight was sent
        int rounds = 0;
        qint64 inFlight = 0;         ///< the round's request in flight, 0 while input is asked
        nlohmann::json requestState; ///< null when the server gave none
        nlohmann::json responses;    ///< inputResponses gathered this round
        std::set<std::string> open;  ///< keys still waiting for an answer
    };

    void sendRound(qint64 call);
    void onRound(qint64 call, const McpReply &reply);
    /// The failure of a call whose `rounds` sent took its timeout together.
    static QString timedOut(const Call &entry, int rounds);
    /// Ends `call` with `reply` (its done once), its open questions taken back.
    void finish(qint64 call, const McpReply &reply);

    Channel m_channel;
    std::map<qint64, Call> m_calls;
};
