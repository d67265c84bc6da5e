// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// McpClientSession: a server's requests (docs/mcp.md "A server's requests") — paced
// answers to ping and roots/list, elicitation and sampling handed to a person, their
// answers (respond, respondError) sent back or given to the call's own question rounds.
#include "mcpclientsession.h"

#include "mcpelicitationrequired.h"
#include "mcpinputrequiredrounds.h"

#include <QMetaMethod>

using nlohmann::json;

bool McpClientSession::studioMintedId(const json &id)
{
    if (!id.is_string())
        return false;
    const std::string &text = id.get_ref<const std::string &>();
    return text.rfind(McpInputRequiredRounds::IdPrefix, 0) == 0 || text.rfind(McpElicitationRequired::IdPrefix, 0) == 0;
}

bool McpClientSession::respond(const json &id, json result)
{
    if (m_elicitations->callOf(id))
        return m_elicitations->answer(id, McpReply{std::move(result), {}, {}});
    if (m_inputRounds->hasCall(callOfInputRequest(id)))
        return m_inputRounds->answer(id, McpReply{std::move(result), {}, {}});
    if (m_serverRequests.erase(id.dump()) == 0)
        return false;
    return sendMessage(JsonRpcMessage::resultFor(id, std::move(result)));
}

bool McpClientSession::respondError(const json &id, JsonRpcError error)
{
    if (m_elicitations->callOf(id))
        return m_elicitations->answer(
            id, McpReply{{}, error.code != 0 ? error : JsonRpcError{-1, error.message, nullptr}, {}});
    if (m_inputRounds->hasCall(callOfInputRequest(id)))
        return m_inputRounds->answer(
            id, McpReply{{}, error.code != 0 ? error : JsonRpcError{-1, error.message, nullptr}, {}});
    if (m_serverRequests.erase(id.dump()) == 0)
        return false;
    return sendMessage(JsonRpcMessage::errorFor(id, std::move(error)));
}

std::string McpClientSession::claimServerRequest(const json &id)
{
    const std::string key = id.dump();
    if (m_serverRequests.count(key))
        return "request id " + key.substr(0, 64) + " is already in use by an open request of this server";
    if (m_serverRequests.size() >= MaxOpenServerRequests)
        return "too many open requests from this server (at most " + std::to_string(MaxOpenServerRequests)
            + " wait for an answer at once)";
    m_serverRequests.insert(key);
    return {};
}

void McpClientSession::answerServerRequest(const JsonRpcMessage &message)
{
    // Answers no person gives and no server needs often are paced (attack39 F4).
    if (message.method == "ping") {
        if (m_answers.take())
            sendMessage(JsonRpcMessage::resultFor(message.id, json::object()));
        return;
    }
    if (message.method == "roots/list") {
        if (m_answers.take())
            sendMessage(JsonRpcMessage::resultFor(message.id, {{"roots", m_roots}}));
        return;
    }
    // A refusal over HTTP is a POST too: a flood of requests of other methods would have
    // each answered (attack42 F3: ~300 POSTs a second). Over stdio all are answered.
    const auto mayRefuse = [this] { return !m_transport->answersArePosts() || m_answers.take(); };
    if (message.method == "elicitation/create" || message.method == "sampling/createMessage") {
        const std::string key = message.id.dump();
        const auto refuse = [&](const std::string &why) {
            if (mayRefuse())
                sendMessage(
                    JsonRpcMessage::errorFor(message.id, JsonRpcError{JsonRpcError::InvalidRequest, why, nullptr}));
        };
        if (key.size() > MaxServerRequestIdBytes) { // answered without echoing it
            if (!mayRefuse())
                return;
            sendMessage(
                JsonRpcMessage::errorFor(nullptr,
                                         JsonRpcError{JsonRpcError::InvalidRequest,
                                                      "a request id of " + std::to_string(key.size())
                                                          + " bytes; Tool Studio answers requests whose id has at most "
                                                          + std::to_string(MaxServerRequestIdBytes),
                                                      nullptr}));
            return;
        }
        if (m_state != State::Ready)
            return refuse("Tool Studio answers " + message.method + " only after initialization");
        if (!isSignalConnected(QMetaMethod::fromSignal(&McpClientSession::serverRequestReceived)))
            return refuse("Tool Studio asks a person for " + message.method
                          + " only while a tool of this server is called through it");
        if (studioMintedId(message.id))
            return refuse("request id " + key.substr(0, 64)
                          + " is of the form Tool Studio gives its own questions (\"mrtr:…\", \"-32042:…\"); "
                            "send the request under another id");
        if (const std::string why = claimServerRequest(message.id); !why.empty())
            return refuse(why);
        Q_EMIT serverRequestReceived(message.id, QString::fromStdString(message.method),
                                     message.params.is_object() ? message.params : json::object());
        return;
    }
    if (!mayRefuse())
        return;
    JsonRpcError error{JsonRpcError::MethodNotFound,
                       "Method not found: Tool Studio does not answer " + message.method.substr(0, 128) + " yet",
                       nullptr};
    sendMessage(JsonRpcMessage::errorFor(message.id, std::move(error)));
}
