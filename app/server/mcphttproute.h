// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"
#include "project/project.h"

#include <QObject>

#include <map>
#include <memory>
#include <string>

class HttpServer;
struct HttpRequest;
class HttpResponder;
class HttpStream;
class McpServerSession;
class ServedStepMode;

/// MCP's Streamable HTTP transport, server side, at `/mcp` on the studio's server
/// (docs/server.md "MCP server"): `POST /mcp` carries one JSON-RPC message and gets its
/// response as `application/json` (202 without a body for a notification).
/// A request of the 2026 era (MCP-Protocol-Version 2026-07-28, or a `_meta` with the
/// protocol version) needs no session: its `_meta` is read (400: -32602 missing,
/// -32022 version not served), its routing headers MCP-Protocol-Version, Mcp-Method and
/// Mcp-Name must match the body (400: -32020), a method not served is 404, and no
/// Mcp-Session-Id is sent; the requests of one client name share one run.
/// In the 2025 era an `initialize` without `Mcp-Session-Id` opens an McpServerSession whose id comes back
/// in that header and must accompany every later request (missing: 400, unknown or
/// ended: 404); `DELETE /mcp` ends the session. `GET /mcp` with the session's id opens
/// its stream of server-sent events (one per session, 409 for a second; 406 without
/// `Accept: text/event-stream`; 503 past HttpServer::MaxStreams), which carries
/// `notifications/tools/list_changed` when setProject() changed the tools; the session's
/// end ends it. A GET naming no session (the 2026 era has no GET stream) is 405; a 2026
/// `subscriptions/listen` is answered with a stream of its own (subscribe()), under the
/// same cap.
/// The Host, Origin and token checks are HttpServer's, as for every route.
/// At most MaxSessions sessions live at once: a new one ends the longest idle session
/// without calls running or a stream open, or is refused (503). A tools/call holds one of the server's
/// HTTP threads until its reply (a manual tool: until a person answers); at most
/// MaxRunningCalls run at once over all sessions, so threads stay free for the other
/// routes (the answer to a waiting call among them): past it, -32000 and nothing runs.
class McpHttpRoute : public QObject
{
public:
    static constexpr int MaxSessions = 64;
    /// Half of cpp-httplib's smallest thread pool (max(8, cores - 1)).
    static constexpr std::size_t MaxRunningCalls = 4;

    explicit McpHttpRoute(const Project &project, QObject *parent = nullptr);
    ~McpHttpRoute() override;

    void install(HttpServer &server);
    std::size_t sessionCount() const { return m_sessions.size(); }
    /// Every session, and each one opened from now on, serves `project`'s tools
    /// (McpServerSession::setProject); each open stream of a session whose tools/list
    /// result changed gets `notifications/tools/list_changed`. True when one changed.
    bool setProject(const Project &project);

    /// Every session's subscriptions get their closing result (the server stops: before
    /// the HTTP server cuts the streams).
    void endSubscriptions();

    /// Each new session serves McpStudioTools too (`--studio-tools`).
    void setStudioTools(bool on) { m_studioTools = on; }
    /// Each new session's calls are held while `stepMode` is on (ServedStepMode).
    void setStepMode(ServedStepMode *stepMode) { m_stepMode = stepMode; }
    /// A 2026 client's run ends once the client sent nothing for `ms` with no call
    /// running (`--session-expiry`); its next request starts a new run. 0 = never.
    void setModernIdleMs(qint64 ms) { m_modernIdleMs = ms; }

private:
    struct Entry
    {
        McpServerSession *session = nullptr;
        qint64 lastUsed = 0;
        std::shared_ptr<HttpStream> stream; ///< its GET stream, while open
    };
    void post(const HttpRequest &request, const HttpResponder &responder);
    void remove(const HttpRequest &request, const HttpResponder &responder);
    /// GET: opens the session's stream.
    void listen(const HttpRequest &request, const HttpResponder &responder);
    /// Sends `message` on the open stream of `session`, if any.
    void sendOnStream(const McpServerSession *session, const JsonRpcMessage &message);
    /// The session the request names, or nullptr after answering the error.
    McpServerSession *sessionFor(const HttpRequest &request, const HttpResponder &responder);
    /// A request of the 2026 era (stateless).
    void postModern(const HttpRequest &request, const JsonRpcMessage &message, const HttpResponder &responder);
    /// A 2026 `subscriptions/listen`: answered with a stream of server-sent events, which
    /// carries the acknowledgment, the subscription's notifications and, when the server
    /// ends it, its closing result; the client closing it cancels the subscription.
    void subscribe(McpServerSession *session, const JsonRpcMessage &message, const HttpResponder &responder,
                   quint64 exchange);
    /// A new session, with the studio tools and step mode this route serves.
    McpServerSession *newSession();
    bool makeRoom();
    /// The 503 when makeRoom() found none.
    void refuseFull(const HttpResponder &responder) const;
    /// True (after answering) when `message` is a tools/call and MaxRunningCalls run.
    bool refusedAsBusy(const JsonRpcMessage &message, const HttpResponder &responder) const;

    Project m_project;
    bool m_studioTools = false;
    ServedStepMode *m_stepMode = nullptr;
    /// By Mcp-Session-Id; the 2026 era's by ":2026-07-28:" and the client's name.
    std::map<std::string, Entry> m_sessions;
    qint64 m_modernIdleMs = 0;
    quint64 m_nextExchange = 0; ///< numbers the 2026 era's POSTs (McpServerSession::receive)
};
