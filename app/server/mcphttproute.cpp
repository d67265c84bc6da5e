// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphttproute.h"

#include "httpserver.h"
#include "httpstream.h"
#include "mcpserversession.h"

#include "mcp/mcprevision.h"

#include <QDateTime>
#include <QPointer>
#include <QRandomGenerator>

using nlohmann::json;

namespace {

constexpr const char *SessionHeader = "Mcp-Session-Id";
/// JSON-RPC's implementation-defined server error: too many calls running, a stream
/// refused (as the TypeScript SDK's server answers 406 and 409).
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
/// -32700 / -32600), 200 otherwise; in the 2026 era 404 for a method not served
/// (streamable-http "Protocol Version Header").
int statusOf(const JsonRpcMessage &reply, bool modern = false)
{
    const bool unreadable = reply.kind == JsonRpcMessage::Kind::Error
        && (reply.error.code == JsonRpcError::ParseError || reply.error.code == JsonRpcError::InvalidRequest)
        && reply.id.is_null();
    if (modern && reply.kind == JsonRpcMessage::Kind::Error && reply.error.code == JsonRpcError::MethodNotFound)
        return 404;
    return unreadable ? 400 : 200;
}

/// The 503's message when HttpServer::MaxStreams are open (GET streams and
/// subscriptions/listen responses alike).
std::string streamsFull(const std::string &what)
{
    return std::to_string(HttpServer::MaxStreams)
        + " event streams (GET /mcp, subscriptions/listen) are open, the most this server holds at once (each "
          "holds one of its threads); "
        + what
        + " was not opened: retry later, or list the tools again instead of waiting for "
          "notifications/tools/list_changed";
}

std::string quoted(const std::string &value)
{
    return "'" + (value.size() > 128 ? value.substr(0, 128) + "…" : value) + "'";
}

/// The routing headers of a 2026-era request checked against its body (streamable-http
/// "Server Validation"): MCP-Protocol-Version, Mcp-Method, and Mcp-Name for the methods
/// that name something. An empty string when they match, else the HeaderMismatch message.
std::string headerMismatch(const HttpRequest &request, const JsonRpcMessage &message, const std::string &version)
{
    const auto check = [&request](const char *header, const std::string &body) -> std::string {
        const std::string raw = request.header(QByteArray(header).toLower().toStdString());
        if (raw.empty())
            return std::string("Header mismatch: the ") + header + " header is missing; it must be " + quoted(body)
                + " as in the request body";
        const std::optional<std::string> value = McpRevision::decodeHeaderValue(raw);
        if (!value)
            return std::string("Header mismatch: the ") + header + " header " + quoted(raw)
                + " is not valid =?base64?…?= encoding";
        if (*value != body)
            return std::string("Header mismatch: ") + header + " header value " + quoted(*value)
                + " does not match body value " + quoted(body);
        return {};
    };
    std::string problem = check("MCP-Protocol-Version", version);
    if (problem.empty())
        problem = check("Mcp-Method", message.method);
    const std::optional<std::string> name = McpRevision::mirroredName(message.method, message.params);
    if (problem.empty() && name)
        problem = check("Mcp-Name", *name);
    return problem;
}

} // namespace

McpHttpRoute::McpHttpRoute(const Project &project, QObject *parent)
    : QObject(parent)
    , m_project(project)
{}

McpHttpRoute::~McpHttpRoute()
{
    for (auto &[id, entry] : m_sessions) {
        if (entry.stream)
            entry.stream->close();
        delete entry.session;
    }
}

void McpHttpRoute::install(HttpServer &server)
{
    server.route("POST", "/mcp", "/mcp",
                 "MCP (Streamable HTTP, 2026-07-28 / 2025-11-25 / 2025-06-18): one JSON-RPC message; 2026-07-28 "
                 "requests carry _meta and the MCP-Protocol-Version, Mcp-Method (Mcp-Name) headers, no session; "
                 "in 2025 initialize opens a session (Mcp-Session-Id); server/discover, tools/list and tools/call "
                 "serve the project's tools.",
                 [this](const HttpRequest &request, const HttpResponder &responder) { post(request, responder); });
    server.route("DELETE", "/mcp", "/mcp", "Ends the MCP session named by Mcp-Session-Id.",
                 [this](const HttpRequest &request, const HttpResponder &responder) { remove(request, responder); });
    server.route("GET", "/mcp", "/mcp",
                 "The server-sent events of the 2025 MCP session named by Mcp-Session-Id (Accept: "
                 "text/event-stream): notifications/tools/list_changed when the served tools change.",
                 [this](const HttpRequest &request, const HttpResponder &responder) { listen(request, responder); });
}

void McpHttpRoute::listen(const HttpRequest &request, const HttpResponder &responder)
{
    // streamable-http "Listening for Messages from the Server": a GET either opens a
    // text/event-stream or is 405. The 2026 era has no session and no GET stream.
    const std::string version = request.header("mcp-protocol-version");
    if (McpRevision::isModern(version)
        || (request.header("mcp-session-id").empty() && !McpRevision::isLegacyServed(version))) {
        responder.send(405,
                       httpErrorBody("method_not_allowed",
                                     "GET /mcp opens the event stream of a 2025 session: send its Mcp-Session-Id "
                                     "(from initialize) and Accept: text/event-stream. 2026-07-28 has no GET stream: "
                                     "its change notifications come on the response to a POST of "
                                     "subscriptions/listen"),
                       {{"Allow", "GET, POST, DELETE"}});
        return;
    }
    const QByteArray accept = QByteArray::fromStdString(request.header("accept")).toLower();
    if (!accept.contains("text/event-stream")) {
        responder.send(406,
                       rpcError(ServerBusy,
                                "Not Acceptable: GET /mcp answers with server-sent events: send "
                                "the header 'Accept: text/event-stream'"));
        return;
    }
    if (!sessionFor(request, responder))
        return;
    const std::string id = request.header("mcp-session-id");
    Entry &entry = m_sessions.at(id);
    if (entry.stream && entry.stream->isOpen()) {
        responder.send(409,
                       rpcError(ServerBusy,
                                "Conflict: this session has its GET /mcp stream open already (one "
                                "per session); close it before opening another"));
        return;
    }
    const std::shared_ptr<HttpStream> stream
        = responder.openStream({{"Cache-Control", "no-cache"}, {SessionHeader, id}});
    if (!stream) {
        responder.send(503, rpcError(ServerBusy, streamsFull("GET /mcp")));
        return;
    }
    entry.stream = stream;
    stream->onEnded([route = QPointer<McpHttpRoute>(this), id, weak = std::weak_ptr<HttpStream>(stream)] {
        if (!route)
            return;
        const auto found = route->m_sessions.find(id);
        if (found != route->m_sessions.end() && found->second.stream && found->second.stream == weak.lock())
            found->second.stream.reset();
    });
}

void McpHttpRoute::sendOnStream(const McpServerSession *session, const JsonRpcMessage &message)
{
    for (auto &[id, entry] : m_sessions)
        if (entry.session == session && entry.stream)
            entry.stream->sendEvent("message", message.encode());
}

McpServerSession *McpHttpRoute::sessionFor(const HttpRequest &request, const HttpResponder &responder)
{
    const std::string id = request.header("mcp-session-id");
    if (id.empty()) {
        responder.send(400,
                       rpcError(JsonRpcError::InvalidRequest,
                                "no Mcp-Session-Id header: send initialize first and then its session id "
                                "with every request (2025-11-25, 2025-06-18), or send each request with _meta \""
                                    + std::string(McpRevision::ProtocolVersionKey) + "\": \""
                                    + std::string(McpRevision::Modern)
                                    + "\" and the MCP-Protocol-Version and Mcp-Method headers (2026-07-28)"));
        return nullptr;
    }
    const auto found = id.front() == ':' ? m_sessions.end() : m_sessions.find(id);
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
    // A session with its stream or a subscription open is in use: its client listens.
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it)
        if (it->second.session->inFlight() == 0 && it->second.session->subscriptionCount() == 0
            && !(it->second.stream && it->second.stream->isOpen())
            && (idlest == m_sessions.end() || it->second.lastUsed < idlest->second.lastUsed))
            idlest = it;
    if (idlest == m_sessions.end())
        return false;
    if (idlest->second.stream)
        idlest->second.stream->close();
    delete idlest->second.session;
    m_sessions.erase(idlest);
    return true;
}

bool McpHttpRoute::refusedAsBusy(const JsonRpcMessage &message, const HttpResponder &responder) const
{
    std::size_t running = 0;
    for (const auto &[id, entry] : m_sessions)
        running += entry.session->inFlight();
    if (running < MaxRunningCalls)
        return false;
    if (message.kind != JsonRpcMessage::Kind::Request || message.method != "tools/call")
        return false;
    JsonRpcError error;
    error.code = ServerBusy;
    error.message = std::to_string(running)
        + " tool calls over HTTP are running, the most this server holds at once (each holds one of its "
          "threads); nothing was run: retry when one has ended, or use stdio (toolstudio serve --mcp-stdio)";
    responder.send(200, JsonRpcMessage::errorFor(message.id, error).toJson());
    return true;
}

void McpHttpRoute::post(const HttpRequest &request, const HttpResponder &responder)
{
    const std::string version = request.header("mcp-protocol-version");
    if (!version.empty() && !McpRevision::isModern(version) && !McpRevision::isLegacyServed(version)
        && version != "2025-03-26") {
        responder.send(400, JsonRpcMessage::errorFor(nullptr, McpRevision::unsupportedVersion(version)).toJson());
        return;
    }
    const JsonRpcDecoded decoded = JsonRpc::decode(request.body);
    if (!decoded.message) {
        responder.send(400, JsonRpcMessage::errorFor(decoded.problemId, decoded.problem).toJson());
        return;
    }
    const JsonRpcMessage &message = *decoded.message;
    if (McpRevision::isModern(version)
        || (message.method != "initialize" && McpRevision::declaresVersion(message.params))) {
        postModern(request, message, responder);
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
        if (message.kind != JsonRpcMessage::Kind::Request || message.method != "initialize") {
            sessionFor(request, responder); // the 400 saying to initialize first
            return;
        }
        if (!makeRoom()) {
            refuseFull(responder);
            return;
        }
        const std::string id = newSessionId();
        McpServerSession *session = newSession();
        // Its GET stream carries the change notification (initialize says listChanged:
        // true). Only that: a call's progress belongs on the call's own response, which is
        // one JSON body here (streamable-http: the GET stream's messages SHOULD be
        // unrelated to any request running).
        session->setListChangedNotices(true);
        session->notify = [this, session](const JsonRpcMessage &notice) {
            if (notice.method == "notifications/tools/list_changed")
                sendOnStream(session, notice);
        };
        session->receive(message, [this, session, id, answer](std::optional<JsonRpcMessage> reply) {
            if (session->initialized())
                m_sessions[id] = Entry{session, QDateTime::currentMSecsSinceEpoch(), nullptr};
            else
                session->deleteLater();
            answer(session->initialized() ? id : std::string())(std::move(reply));
        });
        return;
    }
    McpServerSession *session = sessionFor(request, responder);
    if (!session || refusedAsBusy(message, responder))
        return;
    session->receive(message, answer(std::string()));
}

bool McpHttpRoute::setProject(const Project &project)
{
    m_project = project;
    bool changed = false;
    for (auto &[id, entry] : m_sessions)
        changed = entry.session->setProject(m_project) || changed;
    return changed;
}

McpServerSession *McpHttpRoute::newSession()
{
    auto *session = new McpServerSession(m_project, QStringLiteral("http"), this);
    if (m_studioTools)
        session->enableStudioTools();
    session->setStepMode(m_stepMode);
    return session;
}

void McpHttpRoute::refuseFull(const HttpResponder &responder) const
{
    responder.send(503,
                   rpcError(JsonRpcError::InternalError,
                            std::to_string(m_sessions.size())
                                + " MCP sessions have calls running or a stream open, the most this server keeps; "
                                  "end one (DELETE /mcp) or wait"));
}

void McpHttpRoute::postModern(const HttpRequest &request, const JsonRpcMessage &message, const HttpResponder &responder)
{
    // Stateless: any Mcp-Session-Id is ignored and none is sent back.
    if (message.kind == JsonRpcMessage::Kind::Notification) {
        responder.send(202, nullptr);
        return;
    }
    if (message.kind != JsonRpcMessage::Kind::Request) {
        responder.send(400,
                       rpcError(JsonRpcError::InvalidRequest,
                                "a client sends no JSON-RPC responses in " + std::string(McpRevision::Modern)));
        return;
    }
    JsonRpcError error;
    const std::optional<McpRevision::RequestMeta> meta = McpRevision::readRequestMeta(message.params, &error);
    if (!meta) {
        responder.send(400, JsonRpcMessage::errorFor(message.id, error).toJson());
        return;
    }
    const std::string mismatch = headerMismatch(request, message, meta->protocolVersion);
    if (!mismatch.empty()) {
        error = JsonRpcError();
        error.code = McpRevision::HeaderMismatch;
        error.message = mismatch;
        responder.send(400, JsonRpcMessage::errorFor(message.id, error).toJson());
        return;
    }
    // The requests of one client (clientInfo.name) share a session of the server's own:
    // one run records their calls. Its key cannot be an Mcp-Session-Id (those are Base64url).
    const std::string key = ":" + std::string(McpRevision::Modern) + ":" + meta->clientName();
    auto found = m_sessions.find(key);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (found != m_sessions.end() && m_modernIdleMs > 0 && found->second.session->inFlight() == 0
        && found->second.session->subscriptionCount() == 0 && now - found->second.lastUsed > m_modernIdleMs) {
        // Idle past --session-expiry: its run ends (completed) and this request starts the
        // client's next one, with its limits (max_calls) afresh.
        found->second.session->end(QStringLiteral("the client sent nothing for %1 s").arg(m_modernIdleMs / 1000));
        delete found->second.session;
        m_sessions.erase(found);
        found = m_sessions.end();
    }
    if (found == m_sessions.end()) {
        if (!makeRoom()) {
            refuseFull(responder);
            return;
        }
        McpServerSession *session = newSession();
        // Each POST is answered on its own response: two processes of one client (both
        // starting at id 0, as the TypeScript SDK does) must not refuse each other.
        session->setRequestIdsPerExchange();
        found = m_sessions.emplace(key, Entry{session, 0, nullptr}).first;
    }
    found->second.lastUsed = now;
    if (refusedAsBusy(message, responder))
        return;
    // Over HTTP in 2026-07-28, a client cancels a request by closing its stream: this
    // exchange's call, not another process's of the same name and request id.
    const quint64 exchange = ++m_nextExchange;
    if (message.method == "subscriptions/listen") {
        subscribe(found->second.session, message, responder, exchange);
        return;
    }
    if (message.method == "tools/call")
        responder.onClientGone(
            [session = QPointer<McpServerSession>(found->second.session), id = message.id, exchange] {
                if (session)
                    session->cancelRequest(id, QStringLiteral("the client closed the connection before the reply"),
                                           exchange);
            });
    // A reply counts as the client's last use too: a call that waited for a person past
    // --session-expiry must not make the client's next call start another run.
    found->second.session->receive(
        message,
        [responder, route = QPointer<McpHttpRoute>(this), key,
         session = found->second.session](std::optional<JsonRpcMessage> reply) {
            if (route)
                if (const auto entry = route->m_sessions.find(key);
                    entry != route->m_sessions.end() && entry->second.session == session)
                    entry->second.lastUsed = QDateTime::currentMSecsSinceEpoch();
            if (!reply)
                responder.send(202, nullptr);
            else
                responder.send(statusOf(*reply, true), reply->toJson());
        },
        exchange);
}

void McpHttpRoute::remove(const HttpRequest &request, const HttpResponder &responder)
{
    if (!sessionFor(request, responder))
        return;
    const auto found = m_sessions.find(request.header("mcp-session-id"));
    McpServerSession *session = found->second.session;
    if (found->second.stream)
        found->second.stream->close(); // the client sees the stream end
    m_sessions.erase(found);
    session->end(QStringLiteral("the client ended the session (DELETE /mcp)"));
    session->deleteLater();
    responder.send(204, nullptr);
}

void McpHttpRoute::subscribe(McpServerSession *session, const JsonRpcMessage &message, const HttpResponder &responder,
                             quint64 exchange)
{
    // streamable-http (2026-07-28) "Receiving Messages": the response to
    // subscriptions/listen is a stream of server-sent events that stays open. It opens
    // with the acknowledgment, the session's first message of the subscription; an
    // error before it (a bad filter) is a plain JSON response.
    struct Exchange
    {
        std::shared_ptr<HttpStream> stream;
        bool answered = false;
    };
    const auto state = std::make_shared<Exchange>();
    const QPointer<McpServerSession> alive(session);
    const json id = message.id;
    const auto cancel = [alive, id, exchange](const QString &why) {
        if (alive)
            alive->cancelRequest(id, why, exchange);
    };
    McpSubscriptions::Send send = [responder, state, cancel](const JsonRpcMessage &notice) {
        if (state->answered)
            return;
        if (!state->stream) {
            state->stream = responder.openStream({{"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}});
            if (!state->stream) {
                state->answered = true;
                responder.send(503, rpcError(ServerBusy, streamsFull("subscriptions/listen")));
                // Forgotten at once (McpSubscriptions::open sends the acknowledgment last):
                // kept until later, it counted against the session's 16 (attack29 F4).
                cancel(QStringLiteral("no stream for the subscription"));
                return;
            }
            state->stream->onEnded([cancel] { cancel(QStringLiteral("the client closed the subscription's stream")); });
        }
        state->stream->sendEvent("message", notice.encode());
    };
    McpServerSession::Reply reply = [responder, state](std::optional<JsonRpcMessage> last) {
        if (state->answered)
            return;
        state->answered = true;
        if (state->stream) {
            if (last)
                state->stream->sendEvent("message", last->encode()); // the graceful closure
            state->stream->close();
        } else if (last) {
            responder.send(statusOf(*last, true), last->toJson());
        } else {
            responder.send(202, nullptr);
        }
    };
    session->receive(message, std::move(reply), exchange, std::move(send));
}

void McpHttpRoute::endSubscriptions()
{
    for (auto &[id, entry] : m_sessions)
        entry.session->endSubscriptions();
}
