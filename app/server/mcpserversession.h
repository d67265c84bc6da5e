// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcpsubscriptions.h"

#include "jsonrpc/jsonrpcmessage.h"
#include "project/project.h"
#include "project/step.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

class Journal;
class McpStudioTools;
class ServedStepMode;
class StepEngine;
class QTimer;

/// One MCP session of the studio as an MCP server (docs/server.md "MCP server"), dual-era
/// (McpRevision): in the 2025 era (protocol revisions 2025-06-18 and 2025-11-25)
/// `initialize`, `notifications/initialized`, `ping`, `tools/list` (the project's active
/// tools with inputSchema and outputSchema) and `tools/call`; in the 2026 era (2026-07-28,
/// stateless) a request whose `_meta` carries the protocol version is served without
/// `initialize` — `server/discover`, `tools/list` (with the cache hints ttlMs/cacheScope),
/// `tools/call` and `subscriptions/listen` (McpSubscriptions) — each result with
/// `resultType` and the server's identity in `_meta`.
/// Before `initialize`, a request without any `_meta` is refused -32600 (neither era's);
/// a `_meta` without a usable version is -32602, a version not served -32022. The transport (stdio, Streamable HTTP)
/// hands it each received text and says where replies go.
///
/// Each `tools/call` is a durable step of one run per session (kind `served`, script
/// "(MCP CLIENT)"), made by a StepEngine as a script's call is: the same checks,
/// handlers, retries, caps and journal; a manual tool waits for a person (the window,
/// `toolstudio answer`). The run is recorded at the first call and ends with the session.
///
/// Input is outside input: every text goes through JsonRpc::decode (depth- and
/// size-bounded; batches, a missing `jsonrpc`, an id that is neither string nor integer
/// refused as -32600, text that is not JSON as -32700); a request id still in flight
/// cannot be reused; params are checked (-32602) before anything runs.
class McpServerSession : public QObject
{
public:
    /// Where the replies to one received text go: a response (a request's), or nothing
    /// (std::nullopt) when the text was a notification or a response.
    using Reply = std::function<void(std::optional<JsonRpcMessage>)>;

    static constexpr std::string_view LatestVersion = "2025-11-25";
    /// The freshness hint (ttlMs) of tools/list and server/discover in the 2026 era. The
    /// served tools change when the project's manifest does (setProject()); a 2026 client
    /// sees the change when it lists again after this.
    static constexpr int ListTtlMs = 300000;
    /// How often a call waiting for a person, or held by step mode, reports progress
    /// (when the client gave a progressToken).
    static constexpr int ProgressIntervalMs = 10000;
    /// True for the script path of a run this session serves ("(MCP stdio: CLIENT)"):
    /// its calls are the project's own tools, unlike a seed-API session's, whose tools
    /// the client declares.
    static bool isSessionScript(const QString &scriptPath);

    /// `transport` names the transport in the run's script ("stdio", "http").
    McpServerSession(const Project &project, const QString &transport, QObject *parent = nullptr);
    /// Ends the session (end()).
    ~McpServerSession() override;

    /// Handles one received message; `reply` is called exactly once, now or when a tool
    /// call ends (never after end()).
    void receive(std::string_view text, Reply reply);
    /// The same for a message decoded already (the Streamable HTTP route reads it first).
    /// `exchange` (non-zero) names the HTTP exchange it came in, for cancelRequest().
    /// `stream` carries the notifications of that exchange's request (a
    /// `subscriptions/listen` over HTTP: its response stream); unset, they go through
    /// `notify` (stdio), and a subscription cannot be opened where neither is.
    void receive(const JsonRpcMessage &message, Reply reply, quint64 exchange = 0, McpSubscriptions::Send stream = {});
    /// Serves McpStudioTools beside the project's tools (`--studio-tools`). Before the
    /// first message.
    void enableStudioTools();
    /// The 2026 era over Streamable HTTP: each POST is an exchange of its own (no session
    /// on the wire), so two clients of one name may both use request id 0 while a call of
    /// one runs. Their ids are then not checked against the calls running. Before the
    /// first message.
    void setRequestIdsPerExchange() { m_idsPerExchange = true; }
    /// Step mode for this session's calls follows `stepMode` (the server's, shared by its
    /// sessions; docs/server.md "Step mode for served calls"): its engine is added there
    /// when the run starts. Before the first message; nullptr = never held.
    void setStepMode(ServedStepMode *stepMode) { m_stepMode = stepMode; }

    /// The transport delivers messages sent unasked to an initialized 2025-era session
    /// (stdio; Streamable HTTP on the session's GET stream): initialize then says
    /// `"tools": {"listChanged": true}` and setProject() sends
    /// `notifications/tools/list_changed`. In 2026-07-28 the notification comes only on a
    /// `subscriptions/listen` stream (McpSubscriptions), which every transport carries:
    /// server/discover says listChanged true. Before the first message.
    void setListChangedNotices(bool on) { m_listChangedNotices = on; }
    /// Serves `project`'s tools from now on (its manifest was reloaded): tools/list lists
    /// them and a new tools/call runs them; a call running goes on with the tool it started
    /// with. When the tools/list result changed (not only other parts of the manifest),
    /// an initialized 2025-era session with setListChangedNotices() gets
    /// `notifications/tools/list_changed` through `notify`, and each subscription that
    /// asked for it gets it on its stream. Returns whether it changed.
    bool setProject(const Project &project);

    /// Messages the server sends unasked (notifications/progress); unset = none sent.
    std::function<void(const JsonRpcMessage &)> notify;

    /// The client gave up on request `requestId` (its `notifications/cancelled` on stdio
    /// and in a 2025 HTTP session; a closed response stream in 2026-07-28 over HTTP): a
    /// tool call still running is cancelled as a step (`why` in its cancellation event)
    /// and its reply is nothing (the spec: no response for a cancelled request); the
    /// session goes on. Nothing for an id not in flight (it may have ended already).
    /// With `exchange`, only the call that came in that exchange (receive()): two
    /// processes of one 2026 client may both use an id.
    void cancelRequest(const nlohmann::json &requestId, const QString &why, quint64 exchange = 0);

    /// Ends the session: its subscriptions get their closing result, calls still running
    /// are cancelled (`why`) and answered with an error; the run is recorded final.
    /// Idempotent.
    void end(const QString &why);
    /// The server ends every subscription (closing result) and goes on serving: before
    /// its HTTP streams are cut at a stop.
    void endSubscriptions();

    bool initialized() const { return !m_version.empty(); }
    std::string protocolVersion() const { return m_version; }
    /// The session's run id, empty before the first tools/call.
    QString runId() const { return m_record.id; }
    /// Requests waiting for their reply (tool calls running).
    std::size_t inFlight() const { return m_calls.size() + m_studioCalls.size(); }
    /// `subscriptions/listen` streams open.
    std::size_t subscriptionCount() const { return m_subscriptions.count(); }

private:
    struct Call
    {
        nlohmann::json requestId;
        QString tool;
        Reply reply;
        nlohmann::json progressToken;
        int progress = 0;
        bool modern = false;     ///< a 2026-era request: the result gets resultType
        bool structured = false; ///< its tool, when called, served structuredContent
        quint64 exchange = 0;    ///< receive()'s
    };
    void handle(const JsonRpcMessage &message, const Reply &reply);
    /// A request of the 2026 era (or one without initialize and without its _meta).
    void handleModern(const JsonRpcMessage &message, const Reply &reply);
    JsonRpcMessage initialize(const JsonRpcMessage &message);
    nlohmann::json serverInfo() const;
    /// initialize's capabilities, or server/discover's (`modern`).
    nlohmann::json capabilities(bool modern) const;
    std::string instructions() const;
    /// `result` as a 2026-era result: resultType "complete", the server's identity in _meta.
    nlohmann::json complete(nlohmann::json result) const;
    nlohmann::json toolList() const;
    void callTool(const JsonRpcMessage &message, const Reply &reply, bool modern);
    /// True (after answering) when request id `id` is a call's or subscription's still open.
    bool refusedAsInUse(const nlohmann::json &id, const Reply &reply) const;
    bool ensureRun(QString *error);
    void onReply(const std::string &callId, const std::string &line);
    void sendProgress();

    Project m_project;
    QString m_transport;
    std::string m_version; ///< negotiated; empty before initialize
    std::string m_clientName;
    bool m_ended = false;
    std::unique_ptr<Journal> m_journal;
    StepEngine *m_engine = nullptr;
    RunRecord m_record;
    int m_nextCall = 0;
    bool m_idsPerExchange = false;     ///< setRequestIdsPerExchange()
    bool m_listChangedNotices = false; ///< setListChangedNotices()
    quint64 m_exchange = 0;            ///< the exchange of the message being received
    McpSubscriptions::Send m_stream;   ///< the stream of the message being received
    McpSubscriptions m_subscriptions;
    std::map<std::string, Call> m_calls; ///< by bridge call id
    QTimer *m_progress = nullptr;
    McpStudioTools *m_studio = nullptr;   ///< with --studio-tools
    ServedStepMode *m_stepMode = nullptr; ///< outlives the session (the server owns both)
    /// Studio tool calls waiting for their reply (an answer the running process has not
    /// taken up yet), by a number of their own: request id and where the reply goes.
    std::map<int, std::tuple<nlohmann::json, Reply, bool>> m_studioCalls;
    int m_nextStudioCall = 0;
};
