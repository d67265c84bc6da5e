// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <QElapsedTimer>

#include <set>
#include <string>

/// The JSON-RPC exchange of one tools/call (one attempt of an MCP step; docs/mcp.md
/// "The Protocol tab"), in order, for the inspector's Protocol tab and the journal.
///
/// take() keeps a message that names the call: the `tools/call` request(s) carrying its
/// `_meta.progressToken` (the first and every multi round-trip retry), the responses to
/// them, `notifications/progress` for the token, `notifications/cancelled` the studio
/// sends for it, and the answers to the server's requests given to the call
/// (addServerRequest) and the server's cancellation of them, and the server's
/// `notifications/elicitation/complete` for a page a -32042 answer to the call listed
/// (at most MaxElicitationIds remembered). add() keeps what the pool
/// ties to the call by other means (a log message, a server request).
///
/// Bounded, as the server's messages are untrusted input: at most MaxMessages messages
/// and MaxBytes bytes (compact JSON); a message over MaxMessageBytes is kept as its
/// first HeadBytes bytes and its size (its method and id bounded by MaxIdBytes). Past the bounds messages are counted, not kept —
/// but the call's final response always has its place (the bounds for the others are
/// one message and MaxMessageBytes less).
///
/// toJson(): {"startedAt": ms since the epoch, "messages": [{"direction": "sent" |
/// "received", "offsetMs": ms since startedAt, "message": {…}} or, clipped, {…,
/// "kind", "method", "id", "bytes": N, "head": "the first bytes"}], and when some were
/// left out "omittedMessages": N, "omittedBytes": M}.
class McpExchangeRecorder
{
public:
    enum class Direction { Sent, Received };

    static constexpr int MaxMessages = 200;
    static constexpr std::size_t MaxBytes = 512 * 1024;
    static constexpr std::size_t MaxMessageBytes = 64 * 1024;
    static constexpr std::size_t HeadBytes = 16 * 1024;
    /// A clipped message's method is cut to this, and its id left out when longer (as
    /// compact JSON); a server request's id is remembered only up to it.
    static constexpr std::size_t MaxIdBytes = 256;
    /// elicitationIds of -32042 answers remembered for their completion notifications.
    static constexpr std::size_t MaxElicitationIds = 64;
    /// URLElicitationRequiredError (McpElicitationRequired::Code).
    static constexpr int UrlRequiredCode = -32042;

    /// A message made ready to keep (dumped, clipped when over MaxMessageBytes) once, for
    /// several records: a log message goes to every call open on its server, and a
    /// 1 MB line dumped for each of 50 calls cost seconds (attack36).
    struct Prepared
    {
        nlohmann::json fields; ///< {"message": …} or the clipped form's members
        std::size_t bytes = 0; ///< its size as compact JSON
        std::size_t cost = 0;  ///< what it counts against MaxBytes when kept
    };
    static Prepared prepare(nlohmann::json message);

    /// For the call whose requests carry `progressToken` (McpServerPool's call id).
    explicit McpExchangeRecorder(qint64 progressToken = 0);

    /// Keeps `message` when it names this call (see above); false (nothing kept) otherwise.
    bool take(Direction direction, const JsonRpcMessage &message);
    /// Keeps a request the server sent during the call; its answer is taken later.
    void addServerRequest(const JsonRpcMessage &message);
    /// Keeps `message`, whatever it names; false when it was over the bounds (counted).
    bool add(Direction direction, const JsonRpcMessage &message, bool final = false);
    /// As add(), with the message's offset given (tests).
    bool addAt(Direction direction, nlohmann::json message, qint64 offsetMs, bool final = false);
    /// As add(), the message prepared already.
    bool addPrepared(Direction direction, const Prepared &prepared, bool final = false);

    int keptMessages() const { return int(m_messages.size()); }
    qint64 omittedMessages() const { return m_omittedMessages; }
    qint64 omittedBytes() const { return m_omittedBytes; }
    nlohmann::json toJson() const;
    /// toJson(), the messages moved out (the record is done with).
    nlohmann::json takeJson();
    /// Counts what was kept or left out: a record with the same revision is the same.
    quint64 revision() const { return m_revision; }

private:
    /// Whether `prepared` is kept within the bounds (counted as left out when not).
    bool admits(const Prepared &prepared, bool final);
    void store(Direction direction, nlohmann::json fields, std::size_t cost, qint64 offsetMs);
    void rememberElicitations(const nlohmann::json &data);

    qint64 m_progressToken = 0;
    qint64 m_startedAt = 0;
    QElapsedTimer m_clock;
    nlohmann::json m_messages = nlohmann::json::array();
    std::size_t m_bytes = 0;
    quint64 m_revision = 1;
    qint64 m_omittedMessages = 0;
    qint64 m_omittedBytes = 0;
    std::set<std::string> m_callIds;        ///< ids (compact JSON) of the tools/call requests sent
    std::set<std::string> m_serverIds;      ///< ids of the server's requests given to the call
    std::set<std::string> m_elicitationIds; ///< pages -32042 answers to the call listed
};
