// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcppoolcalls.h"

#include "mcp/mcphandler.h"

using nlohmann::json;

McpPoolCalls::McpPoolCalls(std::function<McpClientSession *(const QString &)> sessionOf)
    : m_sessionOf(std::move(sessionOf))
{}

McpPoolCalls::Call *McpPoolCalls::find(qint64 id)
{
    const auto it = m_calls.find(id);
    return it == m_calls.end() ? nullptr : &it->second;
}

McpPoolCalls::Call McpPoolCalls::take(qint64 id)
{
    const auto it = m_calls.find(id);
    Call call = std::move(it->second);
    m_calls.erase(it);
    return call;
}

void McpPoolCalls::silenceAll()
{
    for (auto &[id, call] : m_calls)
        call.done = nullptr; // nobody is told any more
}

bool McpPoolCalls::keepEnded(Call &call)
{
    if (!call.meta.is_object())
        return false;
    const auto key = call.meta.find(McpHandler::IdempotencyKeyMeta);
    const auto attempt = call.meta.find(McpHandler::AttemptMeta);
    if (key == call.meta.end() || !key->is_string() || attempt == call.meta.end() || !attempt->is_number_integer())
        return false;
    m_ended.push_back(Ended{key->get<std::string>(), attempt->get<int>(), call.exchange.takeJson()});
    while (m_ended.size() > MaxEndedRecords)
        m_ended.pop_front();
    return true;
}

json McpPoolCalls::liveExchange(const QString &idempotencyKey, int attempt, quint64 *revision) const
{
    const json key = idempotencyKey.toStdString();
    for (const auto &[id, call] : m_calls) {
        if (!call.meta.is_object())
            continue;
        const auto named = call.meta.find(McpHandler::IdempotencyKeyMeta);
        const auto number = call.meta.find(McpHandler::AttemptMeta);
        if (named == call.meta.end() || *named != key || number == call.meta.end() || *number != attempt)
            continue;
        if (revision && *revision == call.exchange.revision())
            return nullptr; // as the caller has it
        if (revision)
            *revision = call.exchange.revision();
        return call.exchange.toJson();
    }
    if (revision)
        *revision = 0;
    return nullptr;
}

json McpPoolCalls::cancelledExchange(const QString &idempotencyKey, int attempt) const
{
    const std::string key = idempotencyKey.toStdString();
    for (auto ended = m_ended.rbegin(); ended != m_ended.rend(); ++ended)
        if (ended->attempt == attempt && ended->idempotencyKey == key)
            return ended->exchange;
    return nullptr;
}

void McpPoolCalls::addOutput(const QString &server, const QByteArray &bytes)
{
    for (auto &[id, call] : m_calls) {
        if (call.server != server || call.requestId == 0 || call.stderrOutput.size() >= MaxStderrBytes)
            continue;
        call.stderrOutput += bytes.left(MaxStderrBytes - call.stderrOutput.size());
    }
}

void McpPoolCalls::addProgress(const QString &server, const json &params)
{
    const json token = params.is_object() ? params.value("progressToken", json()) : json();
    const auto it = token.is_number_integer() ? m_calls.find(token.get<qint64>()) : m_calls.end();
    // Only the server the call went to may report on it, and only while it is open.
    if (it == m_calls.end() || it->second.server != server || it->second.requestId == 0)
        return;
    if (it->second.progress.add(params) && it->second.onProgress)
        it->second.onProgress(it->second.progress);
}

void McpPoolCalls::record(const QString &server, bool sent, const JsonRpcMessage &message)
{
    using Direction = McpExchangeRecorder::Direction;
    const Direction direction = sent ? Direction::Sent : Direction::Received;
    if (m_cancelling && m_cancelling->server == server && m_cancelling->exchange.take(direction, message))
        return;
    Call *earliest = nullptr;
    for (auto &[id, call] : m_calls) {
        if (call.server != server)
            continue;
        if (call.exchange.take(direction, message))
            return;
        if (!earliest && call.requestId != 0)
            earliest = &call;
    }
    if (sent || !earliest)
        return;
    // A request of the server goes to its earliest call in flight, as route() sends it;
    // a log message to every call open on the server, as its output does.
    if (message.kind == JsonRpcMessage::Kind::Request && message.method != "ping") {
        earliest->exchange.addServerRequest(message);
    } else if (message.kind == JsonRpcMessage::Kind::Notification && message.method == "notifications/message") {
        const McpExchangeRecorder::Prepared prepared = McpExchangeRecorder::prepare(message.toJson());
        for (auto &[id, call] : m_calls)
            if (call.server == server && call.requestId != 0)
                call.exchange.addPrepared(direction, prepared);
    }
}

void McpPoolCalls::route(const QString &server, const McpServerRequest &request)
{
    McpClientSession *session = m_sessionOf(server);
    if (!session)
        return;
    // The earliest call of this server in flight: over stdio a request names no call
    // (docs/mcp.md "A server's requests").
    // A 2026-era input request, or a page of a -32042 answer, names its call.
    const qint64 inputOf = session->callOfServerRequest(request.id);
    for (auto &[id, call] : m_calls) {
        if (call.server != server || call.requestId == 0 || !call.done || !call.onRequest
            || (inputOf != 0 && call.requestId != inputOf))
            continue;
        call.openRequests.push_back(request.id);
        const Request ask = call.onRequest; // it may answer (and end the call) at once
        ask(request);
        return;
    }
    session->respondError(request.id,
                          JsonRpcError{JsonRpcError::InvalidRequest,
                                       "Tool Studio asks a person for " + request.method.toStdString()
                                           + " only while a tool of this server is called, and none is",
                                       nullptr});
}

void McpPoolCalls::withdraw(const QString &server, const json &requestId)
{
    for (auto &[id, call] : m_calls) {
        if (call.server != server || std::erase(call.openRequests, requestId) == 0)
            continue;
        if (call.onRequest) {
            const Request withdraw = call.onRequest;
            withdraw(McpServerRequest{requestId, {}, json::object(), true});
        }
        return;
    }
}

void McpPoolCalls::closeRequests(Call &call)
{
    McpClientSession *session = m_sessionOf(call.server);
    for (const json &requestId : std::exchange(call.openRequests, {}))
        if (session)
            session->respondError(
                requestId,
                JsonRpcError{JsonRpcError::InvalidRequest,
                             "the tools/call this request came with has ended before a person answered", nullptr});
}

bool McpPoolCalls::respond(qint64 id, const json &requestId, json result)
{
    Call *call = find(id);
    if (!call || std::erase(call->openRequests, requestId) == 0)
        return false;
    McpClientSession *session = m_sessionOf(call->server);
    return session && session->respond(requestId, std::move(result));
}

bool McpPoolCalls::respondError(qint64 id, const json &requestId, int code, const QString &message)
{
    Call *call = find(id);
    if (!call || std::erase(call->openRequests, requestId) == 0)
        return false;
    McpClientSession *session = m_sessionOf(call->server);
    return session && session->respondError(requestId, JsonRpcError{code, message.toStdString(), nullptr});
}
