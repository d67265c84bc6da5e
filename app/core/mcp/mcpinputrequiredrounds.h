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

/// The tools/calls of a 2026-era session (2026-07-28, multi round-trip requests,
/// basic/patterns/mrtr): owned by McpClientSession, which sends its 2026 tools/calls
/// through callTool() (docs/mcp.md "A server's requests").
///
/// A result other than `"resultType": "input_required"` goes to the call's `done` as it
/// is. An `input_required` result asks for its `inputRequests`: `roots/list` is answered
/// at once (Channel::roots), `elicitation/create` and `sampling/createMessage` are handed
/// on (Channel::ask, the session's serverRequestReceived) under an id of the session's
/// own, "mrtr:CALL:KEY", and answered through answer(). Once every one was answered, the
/// call is sent again with `inputResponses` (and `requestState` exactly as given), at
/// most MaxRounds rounds of at most MaxRequests requests each.
///
/// The call ends with a failure that says why ("the server's input_required for NAME:
/// …") when the result is malformed (inputRequests not an object, requestState not a
/// string or over MaxRequestStateBytes, neither of them), asks for another method, asks
/// more than MaxRequests things or past MaxRounds rounds, when nobody can be asked, when
/// too many of the server's requests would be open, and when an input is answered with
/// an error; its questions still open are then taken back (Channel::withdraw).
class McpInputRequiredRounds : public QObject
{
    Q_OBJECT
public:
    using ReplyHandler = std::function<void(const McpReply &)>;

    /// How the ids of the questions it asks begin ("mrtr:CALL:KEY"); a server may neither
    /// send a request under such an id nor cancel one (McpClientSession).
    static constexpr const char *IdPrefix = "mrtr:";
    /// Rounds of input per tools/call, input requests per round, bytes of a requestState echoed.
    static constexpr int MaxRounds = 16;
    static constexpr std::size_t MaxRequests = 16;
    static constexpr std::size_t MaxRequestStateBytes = 256 * 1024;

    /// What it needs of its session.
    struct Channel
    {
        /// McpClientSession::request.
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
        /// True when somebody hears the asks (a call that can ask a person).
        std::function<bool()> canAsk;
        /// What `roots/list` is answered with (McpClientSession::roots).
        std::function<nlohmann::json()> roots;
        /// Hands on the input request `method` with `params` as the server's request `id`.
        std::function<void(const nlohmann::json &, const QString &, const nlohmann::json &)> ask;
        /// Takes the ask `id` back (the server's notifications/cancelled would).
        std::function<void(const nlohmann::json &)> withdraw;
    };

    explicit McpInputRequiredRounds(Channel channel, QObject *parent = nullptr);
    ~McpInputRequiredRounds() override;

    /// Sends tools/call of `name` with `arguments` (and `meta` as `_meta` when it is a
    /// non-empty object) as the call `call`; `done` gets its last reply once.
    void callTool(qint64 call, const QString &name, const nlohmann::json &arguments, const nlohmann::json &meta,
                  ReplyHandler done, int timeoutMs);
    /// The call (callTool's `call`) the input request `id` belongs to; 0 for any other id.
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
        QString name;
        nlohmann::json arguments;
        nlohmann::json meta;
        ReplyHandler done;
        int timeoutMs = 0;
        int rounds = 0;
        qint64 request = 0;          ///< the round's tools/call in flight, 0 while input is asked
        nlohmann::json requestState; ///< null when the server gave none
        nlohmann::json responses;    ///< inputResponses gathered this round
        std::set<std::string> open;  ///< keys still waiting for an answer
    };

    void sendRound(qint64 call);
    void onRound(qint64 call, const McpReply &reply);
    /// Ends `call` with `reply` (its done once), its open questions taken back.
    void finish(qint64 call, const McpReply &reply);

    Channel m_channel;
    std::map<qint64, Call> m_calls;
};
