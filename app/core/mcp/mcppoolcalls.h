// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"
#include "mcp/mcpcallnotices.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcpexchangerecorder.h"
#include "mcp/mcppersonquestion.h"

#include <QByteArray>
#include <QString>

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <vector>

/// How one tools/call ended: the server's reply (or why there is none) and what the
/// server wrote to its stderr (and its `notifications/message` log lines) while the
/// call was open, and the call's progress notifications (coalesced).
struct McpCallOutcome
{
    McpReply reply;
    QByteArray stderrOutput;
    McpCallProgress progress;
    /// The call's JSON-RPC messages (McpExchangeRecorder::toJson), for the Protocol tab.
    nlohmann::json exchange;
    /// Set when the call was not sent: the tool changed since a person accepted it (or
    /// is new, or the record cannot be used); why and how to accept it.
    QString refused;
    /// With `refused`: the change a person may accept for the call to go on (the
    /// server's McpServerStatus::changedTools entry of the tool); none when the record
    /// cannot be used or the tool is not listed now.
    std::optional<McpToolChange> change;
};

/// The tools/calls of an McpServerPool, by the pool's call id, and what of their
/// server's session belongs to each: its stderr and log lines (addOutput, bounded to
/// MaxStderrBytes a call), its progress notifications (addProgress), its JSON-RPC
/// messages for the Protocol tab (record: McpExchangeRecorder; the records of the last
/// MaxEndedRecords cancelled calls kept for cancelledExchange), and the server's own
/// requests (route: to its earliest call in flight, which answers them with respond()
/// or respondError(), or refused; closeRequests when the call ends). A call counts as in
/// flight once its request was sent (Call::requestId). The pool starts the servers and
/// sends, finishes and cancels the calls.
class McpPoolCalls
{
public:
    using Done = std::function<void(const McpCallOutcome &)>;
    using Progress = std::function<void(const McpCallProgress &)>;
    using Request = std::function<void(const McpServerRequest &)>;
    static constexpr qsizetype MaxStderrBytes = 64 * 1024;
    static constexpr std::size_t MaxEndedRecords = 16;

    struct Call
    {
        QString server;
        QString tool;
        nlohmann::json arguments;
        nlohmann::json meta;
        Done done;
        qint64 requestId = 0; ///< the session's id once sent
        QByteArray stderrOutput;
        Progress onProgress;
        McpCallProgress progress;
        Request onRequest;
        std::vector<nlohmann::json> openRequests; ///< the server's requests routed to this call, unanswered
        McpExchangeRecorder exchange;
        bool listedAgain = false; ///< answered HeaderMismatch once: the tools were listed again
    };

    /// `sessionOf` gives the session of a server (null when it has none) to answer its
    /// requests on.
    explicit McpPoolCalls(std::function<McpClientSession *(const QString &)> sessionOf);

    void add(qint64 id, Call call) { m_calls.emplace(id, std::move(call)); }
    /// The call `id`, or null.
    Call *find(qint64 id);
    /// Call `id` out of the table (it must be there).
    Call take(qint64 id);
    /// No call's `done` is called any more (the pool is going).
    void silenceAll();

    /// Appends to the output of every call in flight on `server` (bounded by MaxStderrBytes).
    void addOutput(const QString &server, const QByteArray &bytes);
    /// A `notifications/progress` of `server`: to the call its token names, when that
    /// call went to `server` and is in flight.
    void addProgress(const QString &server, const nlohmann::json &params);
    /// Records a message of `server`'s session with the call it belongs to: the one it
    /// names, else a request of the server with its earliest call in flight and a log
    /// message with every call in flight on it.
    void record(const QString &server, bool sent, const JsonRpcMessage &message);
    /// While `call` (out of the table) is being cancelled: what is sent for it is
    /// recorded on it; null when done.
    void setCancelling(Call *call) { m_cancelling = call; }
    /// Keeps the record of cancelled `call` for cancelledExchange(); false when it has no
    /// idempotency key and attempt to be found by.
    bool keepEnded(Call &call);
    /// McpServerPool::liveExchange and cancelledExchange.
    nlohmann::json liveExchange(const QString &idempotencyKey, int attempt, quint64 *revision) const;
    nlohmann::json cancelledExchange(const QString &idempotencyKey, int attempt) const;

    /// A request of `server`: to its earliest call in flight that asks (a 2026-era input
    /// request, or a page of a -32042 answer, to the call it names), else refused.
    void route(const QString &server, const McpServerRequest &request);
    /// The server withdrew request `requestId`: the call it went to hears of it.
    void withdraw(const QString &server, const nlohmann::json &requestId);
    /// Answers every open request of `call` with an error: its call ended.
    void closeRequests(Call &call);
    /// McpServerPool::respond and respondError.
    bool respond(qint64 id, const nlohmann::json &requestId, nlohmann::json result);
    bool respondError(qint64 id, const nlohmann::json &requestId, int code, const QString &message);

private:
    struct Ended
    {
        std::string idempotencyKey;
        int attempt = 0;
        nlohmann::json exchange;
    };

    std::function<McpClientSession *(const QString &)> m_sessionOf;
    std::map<qint64, Call> m_calls;
    Call *m_cancelling = nullptr; ///< out of m_calls, being cancelled: what is sent for it is recorded
    std::deque<Ended> m_ended;    ///< the last MaxEndedRecords cancelled calls' records
};
