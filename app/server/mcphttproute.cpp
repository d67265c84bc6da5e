// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphttproute.h"

#include "httpserver.h"
#include "mcpserversession.h"

#include <QDateTime>
#include <QRandomGenerator>

using nlohmann::json;

namespace {

constexpr const char *SessionHeader = "Mcp-Session-Id";
/// JSON-RPC's implementation-defined server error: too many calls running.
constexpr std::int64_t ServerBusy = -32000;

/// A JSON-RPC error body (id null) for an HTTP-level refusal.
json rpcError(std::int64_t code, const std::string &message)
{
    JsonRpcError error;
    error.code = code;
    error.message = message;
    return JsonRpcMessage::errorFor(nullptr, error).toJson();
}

std::string newSessionId()
{
    QByteArray bytes(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), 6);
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals).toStdString();
}

/// The HTTP status of a response: 400 for a message that could not be read (JSON-RPC
/// -32700 / -32600), 200 otherwise.
int statusOf(const JsonRpcMessage &reply)
{
    const bool unreadable = reply.kind == JsonRpcMessage::Kind::Error
        && (reply.error.code == JsonRpcError::ParseError || reply.error.code == JsonRpcError::InvalidRequest)
        && reply.id.is_null();
    return unreadable ? 400 : 200;
}

} // namespace

McpHttpRoute::McpHttpRoute(const Project &project, QObject *parent)
    : QObject(parent)
    , m_project(project)
{}

McpHttpRoute::~McpHttpRoute()
{
    for (auto &[id, entry] : m_sessions)
        delete entry.session;
}

void McpHttpRoute::install(HttpServer &server)
{
    server.route("POST", "/mcp", "/mcp",
                 "MCP (Streamable HTTP, 2025-06-18 / 2025-11-25): one JSON-RPC message; initialize opens a "
                 "session (Mcp-Session-Id), tools/list and tools/call serve the project's tools.",
                 [this](const HttpRequest &request, const HttpResponder &responder) { post(request, responder); });
    server.route("DELETE", "/mcp", "/mcp", "Ends the MCP session named by Mcp-Session-Id.",
                 [this](const HttpRequest &request, const HttpResponder &responder) { remove(request, responder); });
    server.route("GET", "/mcp", "/mcp", "405: this server opens no stream of its own; POST each message.",
                 [](const HttpRequest &, const HttpResponder &responder) {
                     responder.send(405,
                                    httpErrorBody("method_not_allowed",
                                                  "GET /mcp: this server sends nothing unasked; POST each message"),
                                    {{"Allow", "POST, DELETE"}});
                 });
}

McpServerSession *McpHttpRoute::sessionFor(const HttpRequest &request, const HttpResponder &responder)
{
    const std::string id = request.header("mcp-session-id");
    if (id.empty()) {
        responder.send(400,
                       rpcError(JsonRpcError::InvalidRequest,
                                "no Mcp-Session-Id header: send initialize first and then its session id "
                                "with every request"));
        return nullptr;
    }
    const auto found = m_sessions.find(id);
    if (found == m_sessions.end()) {
        responder.send(404,
                       rpcError(JsonRpcError::InvalidRequest,
                                "no MCP session '" + id.substr(0, 64)
                                    + "' on this server (ended, or never opened): initialize a new one"));
        return nullptr;
    }
    found->second.lastUsed = QDateTime::currentMSecsSinceEpoch();
    return found->second.session;
}

bool McpHttpRoute::makeRoom()
{
    if (m_sessions.size() < std::size_t(MaxSessions))
        return true;
    auto idlest = m_sessions.end();
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it)
        if (it->second.session->inFlight() == 0
            && (idlest == m_sessions.end() || it->second.lastUsed < idlest->second.lastUsed))
            idlest = it;
    if (idlest == m_sessions.end())
        return false;
    delete idlest->second.session;
    m_sessions.erase(idlest);
    return true;
}

bool McpHttpRoute::refusedAsBusy(const std::string &body, const HttpResponder &responder) const
{
    std::size_t running = 0;
    for (const auto &[id, entry] : m_sessions)
        running += entry.session->inFlight();
    if (running < MaxRunningCalls)
        return false;
    const JsonRpcDecoded decoded = JsonRpc::decode(body);
    if (!decoded.message || decoded.message->kind != JsonRpcMessage::Kind::Request
        || decoded.message->method != "tools/call")
        return false;
    JsonRpcError error;
    error.code = ServerBusy;
    error.message = std::to_string(running)
        + " tool calls over HTTP are running, the most this server holds at once (each holds one of its "
          "threads); nothing was run: retry when one has ended, or use stdio (toolstudio serve --mcp-stdio)";
    responder.send(200, JsonRpcMessage::errorFor(decoded.message->id, error).toJson());
    return true;
}

void McpHttpRoute::post(const HttpRequest &request, const HttpResponder &responder)
{
    const std::string version = request.header("mcp-protocol-version");
    if (!version.empty() && !McpServerSession::isSupportedVersion(version) && version != "2025-03-26") {
        responder.send(400,
                       rpcError(JsonRpcError::InvalidRequest,
                                "MCP-Protocol-Version '" + version.substr(0, 32)
                                    + "' is not served; this server speaks 2025-06-18 and 2025-11-25"));
        return;
    }
    auto answer = [responder](const std::string &sessionId) {
        return [responder, sessionId](std::optional<JsonRpcMessage> reply) {
            HttpResponder::Headers headers;
            if (!sessionId.empty())
                headers.emplace_back(SessionHeader, sessionId);
            if (!reply)
                responder.send(202, nullptr, std::move(headers));
            else
                responder.send(statusOf(*reply), reply->toJson(), std::move(headers));
        };
    };
    if (request.header("mcp-session-id").empty()) {
        // Without a session, only an initialize is taken: it opens one.
        const JsonRpcDecoded decoded = JsonRpc::decode(request.body);
        if (!decoded.message) {
            responder.send(400, JsonRpcMessage::errorFor(decoded.problemId, decoded.problem).toJson());
            return;
        }
        if (decoded.message->kind != JsonRpcMessage::Kind::Request || decoded.message->method != "initialize") {
            sessionFor(request, responder); // the 400 saying to initialize first
            return;
        }
        if (!makeRoom()) {
            responder.send(503,
                           rpcError(JsonRpcError::InternalError,
                                    std::to_string(m_sessions.size())
                                        + " MCP sessions have calls running, the most this server keeps; "
                                          "end one (DELETE /mcp) or wait"));
            return;
        }
        const std::string id = newSessionId();
        auto *session = new McpServerSession(m_project, QStringLiteral("http"), this);
        if (m_studioTools)
            session->enableStudioTools();
        session->receive(request.body, [this, session, id, answer](std::optional<JsonRpcMessage> reply) {
            if (session->initialized())
                m_sessions[id] = Entry{session, QDateTime::currentMSecsSinceEpoch()};
            else
                session->deleteLater();
            answer(session->initialized() ? id : std::string())(std::move(reply));
        });
        return;
    }
    McpServerSession *session = sessionFor(request, responder);
    if (!session || refusedAsBusy(request.body, responder))
        return;
    session->receive(request.body, answer(std::string()));
}

void McpHttpRoute::remove(const HttpRequest &request, const HttpResponder &responder)
{
    if (!sessionFor(request, responder))
        return;
    const auto found = m_sessions.find(request.header("mcp-session-id"));
    McpServerSession *session = found->second.session;
    m_sessions.erase(found);
    session->end(QStringLiteral("the client ended the session (DELETE /mcp)"));
    session->deleteLater();
    responder.send(204, nullptr);
}
