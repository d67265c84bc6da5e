// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcpnpxinstall.h"
#include "mcp/mcppoolcalls.h"
#include "mcp/mcprelistpacing.h"
#include "mcp/mcpserverstatus.h"
#include "mcp/mcptoolacceptance.h"
#include "mcp/mcptoolreview.h"
#include "project/mcpserverconfig.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

#include <functional>
#include <map>
#include <optional>
#include <vector>

/// The running MCP servers of one project, one long-lived session per server for the
/// life of the process (the studio or one `toolstudio` command), shared by every run
/// and every Try it — as the project's Python tool worker is (ToolWorker::forProject).
/// Lives on the main thread.
///
/// connectAll() starts every enabled stdio server at once, asynchronously (never
/// waiting), and lists its tools; serverChanged() follows each change and settled()
/// is true when none is starting. A server that fails keeps why (its stderr tail) and
/// the others go on.
///
/// call() sends tools/call on the server's session, starting it first when it is not
/// running (a server that crashed, mid-call or between calls, is started again by the
/// next call). cancel() sends `notifications/cancelled`. The server's stderr written
/// while a call is open is kept for that call (shared by calls open at the same time),
/// bounded to MaxCallStderrBytes.
///
/// Starting a server runs the project's code: the caller checks trust first
/// (ProjectTrust::refusal); the engine checks it again before every MCP attempt.
class McpServerPool : public QObject
{
    Q_OBJECT
public:
    using CallDone = McpPoolCalls::Done;
    /// Called for each `notifications/progress` of the call (the coalesced state so far).
    using CallProgress = McpPoolCalls::Progress;
    /// Called for each request the server sends while the call is in flight
    /// (elicitation/create, sampling/createMessage); answer it with respond() or
    /// respondError() — or not: it is answered with an error when the call ends. Called
    /// again with `withdrawn` set when the server cancels one still open.
    using CallRequest = McpPoolCalls::Request;
    static constexpr qsizetype MaxCallStderrBytes = McpPoolCalls::MaxStderrBytes;
    /// tools/call's own bound: the engine's attempt timeout is the one that counts
    /// (it cancels the call); this only ends a call that has no attempt timeout.
    static constexpr int CallTimeoutMs = 24 * 60 * 60 * 1000;

    /// The pool of the project in `projectDir` (absolute), made on first use; lives
    /// until the application ends. Main thread only.
    static McpServerPool *forProject(const QString &projectDir);
    /// The pool of `projectDir` when one was made; nullptr otherwise (nothing is made).
    static McpServerPool *existing(const QString &projectDir);
    /// Before the process ends (a headless command returned): every pool's Streamable
    /// HTTP sessions are closed (a 2026 server's subscriptions/listen cancelled, its stream aborted)
    /// and the event loop runs briefly so that Qt's HTTP thread lets go of what it holds
    /// — deleted mid-request at exit, it leaks. Nothing when no pool was made.
    static void closeAll();

    explicit McpServerPool(const QString &projectDir, QObject *parent = nullptr);
    ~McpServerPool() override;

    /// Takes the project's `mcp_servers`. A server whose entry changed is stopped (and
    /// started again by connectAll() or its next call); one no longer named is removed.
    void setServers(const std::vector<McpServerConfig> &servers);
    /// The project's name, for the root `roots/list` answers with (McpServerLaunch::rootsFor);
    /// the folder's name when none is set.
    void setProjectName(const QString &name) { m_projectName = name; }
    /// Starts every enabled server that is not running or failed yet and lists its tools.
    void connectAll();
    /// Stops `name` (its open calls fail, retryable) and starts it again; a failed or
    /// idle server is started. False when the pool has no such enabled server.
    bool restart(const QString &name);
    /// True when no server is starting.
    bool settled() const;
    std::vector<McpServerStatus> servers() const;
    const McpServerStatus *server(const QString &name) const;
    /// The entry of server `name` in toolstudio.json, or nullptr.
    const McpServerConfig *config(const QString &name) const;
    QString projectDir() const { return m_projectDir; }

    /// tools/call of `tool` on `server` with `arguments` and `_meta` `meta`; `done` is
    /// called once, later (never from inside call()), unless the call is cancelled.
    /// Returns the call's id (> 0), which is also the request's `_meta.progressToken`:
    /// `progress` (may be empty) hears of each progress notification for it.
    qint64 call(const QString &server, const QString &tool, const nlohmann::json &arguments, const nlohmann::json &meta,
                CallDone done, CallProgress progress = {}, CallRequest request = {});
    /// Answers request `requestId` the server sent during call `id` (CallRequest) with
    /// `result`, or with a JSON-RPC error `code` and `message`. False when the call or
    /// the request is no longer open.
    bool respond(qint64 id, const nlohmann::json &requestId, nlohmann::json result)
    {
        return m_calls.respond(id, requestId, std::move(result));
    }
    bool respondError(qint64 id, const nlohmann::json &requestId, int code, const QString &message)
    {
        return m_calls.respondError(id, requestId, code, message);
    }
    /// Stops waiting for call `id`: `notifications/cancelled` with `reason` goes to the
    /// server when the request was sent. Its `done` is not called. Returns what became
    /// of it, in words ("notifications/cancelled sent to MCP server 'x' (request 7)");
    /// `kept`: its record was kept (cancelledExchange), i.e. it had been sent.
    QString cancel(qint64 id, const QString &reason, bool *kept = nullptr);
    /// The exchange so far (McpExchangeRecorder::toJson) of the call in flight for attempt
    /// `attempt` of the step with `idempotencyKey` (McpHandler's `_meta`), for the
    /// inspector's Protocol tab to follow a running attempt; null when there is none, or
    /// when its record's revision is `*revision` still (nothing copied). `*revision` gets
    /// the record's revision, 0 when there is none. Asked by the window for the one step
    /// it shows, a few times a second.
    nlohmann::json liveExchange(const QString &idempotencyKey, int attempt, quint64 *revision = nullptr) const
    {
        return m_calls.liveExchange(idempotencyKey, attempt, revision);
    }
    /// The record of that attempt when it was cancelled (its timeout, Stop) — among the
    /// last MaxEndedRecords, with the `notifications/cancelled` sent — which no outcome
    /// brings to the journal; null when there is none.
    nlohmann::json cancelledExchange(const QString &idempotencyKey, int attempt) const
    {
        return m_calls.cancelledExchange(idempotencyKey, attempt);
    }
    /// The session of `name` when it is ready, for requests of its own (resources and
    /// prompts, McpServerFeatures); nullptr when the server is not running — it is not
    /// started by this (Restart, or a tool call, starts it).
    McpClientSession *readySession(const QString &name) const;
    /// Records the definitions of `changes` (McpServerStatus::changedTools, as a person
    /// saw them) as accepted in the project's `.toolstudio/mcp-accepted.json`
    /// (McpAcceptedTools); their calls go through again. False with `error` when the
    /// server is not ready, a tool is no longer listed as it was shown (it changed again
    /// meanwhile), or the file cannot be written; `note` says when an unusable record was
    /// kept aside.
    bool acceptTools(const QString &server, const std::vector<McpToolChange> &changes, QString *error,
                     QString *note = nullptr)
    {
        return m_review.accept(server, changes, error, note);
    }
    /// Reads the record of accepted tools again when the file changed since it was read
    /// (another process accepted a tool), and updates each ready server's changedTools
    /// (serverChanged() for each whose changed). A call does it before it is sent.
    void refreshAccepted() { m_review.refresh(); }
    /// While `watcher` waits on a person's answer about a changed tool (McpHandler), the
    /// pool reads the record again every AcceptedRecordPollMs — one timer however many
    /// calls wait —, so another process's `toolstudio mcp accept` answers the question
    /// too. Until unwatchAcceptedRecord() or `watcher` is destroyed.
    void watchAcceptedRecord(QObject *watcher) { m_review.watch(watcher, AcceptedRecordPollMs); }
    void unwatchAcceptedRecord(QObject *watcher) { m_review.unwatch(watcher); }
    static constexpr int AcceptedRecordPollMs = 1000;
    /// A server whose tools were listed after it announced a change is listed again at
    /// the earliest this long after that listing ended, however many changes it announces
    /// (before, during or after each listing): twice a second, not at full speed (its
    /// dock, the run's tools and the server's pipe busy for nothing).
    static constexpr int RelistPauseMs = McpRelistPacing::PauseMs;
    /// Records of cancelled calls kept for cancelledExchange() (each at most
    /// McpExchangeRecorder::MaxBytes and a message).
    static constexpr std::size_t MaxEndedRecords = McpPoolCalls::MaxEndedRecords;
    /// Whether a call of a changed tool waits while a person is asked (McpHandler,
    /// McpToolChangeQuestion) rather than failing at once: the window sets it; a
    /// headless command leaves it off, so a CI run fails loud instead of waiting.
    void setAsksBeforeChangedTools(bool asks) { m_asksBeforeChangedTools = asks; }
    bool asksBeforeChangedTools() const { return m_asksBeforeChangedTools; }
    /// Calls sent to servers (tools/call requests written) since the pool was made.
    qint64 callsSent() const { return m_callsSent; }

Q_SIGNALS:
    void serverChanged(const QString &name);
    /// The server said its tools changed and they were listed again (its status has
    /// the new tools and toolsChangedNote); serverChanged() went out before.
    void toolsChanged(const QString &name);
    /// The server sent `notifications/resources/updated` for `uri` (a subscribed
    /// resource changed; uri as sent, at most McpServerFeatures::MaxUriChars).
    void resourceUpdated(const QString &name, const QString &uri);
    /// The server sent `notifications/resources/list_changed` (`what` "resources") or
    /// `notifications/prompts/list_changed` ("prompts").
    void featureListChanged(const QString &name, const QString &what);
    /// A 2026-era server ended the listen for its subscribed resources (`why` says how):
    /// their updates no longer come.
    void resourceSubscriptionsEnded(const QString &name, const QString &why);

private:
    struct Server
    {
        McpServerConfig config;
        McpServerStatus status;
        QPointer<McpClientSession> session;
        QPointer<McpNpxInstall> installing; ///< an npx entry's package being installed
        std::vector<qint64> waiting;        ///< calls waiting for the server to be ready
        std::vector<qint64>
            resendAfterList; ///< calls answered HeaderMismatch: sent again after the next tools/list to start
        /// The pace of its tools/list after `notifications/tools/list_changed`.
        McpRelistPacing relist;
        /// A `url` server without "type" that answered only over HTTP+SSE: started over
        /// HTTP+SSE from then on, until a start fails or its entry changes.
        bool overSse = false;
        /// Names its tools' listing as status.tools holds it (from m_listings): the
        /// accepted-tools answers are good for one listing.
        quint64 listing = 0;
    };
    using Call = McpPoolCalls::Call;

    void start(Server &server);
    void onReady(const QString &name);
    void onStopped(const QString &name, const QString &why, bool failedToStart);
    void onNotification(const QString &name, const QString &method, const nlohmann::json &params);
    void relist(const QString &name);
    void send(qint64 id);
    /// The server's answer to call `id`: finish() — but a first HeaderMismatch (-32020)
    /// lists the tools again (an x-mcp-header may have moved since they were listed) and
    /// sends the call once more, through the changed-tool check (2026-07-28
    /// streamable-http, a SHOULD).
    void onCallReply(qint64 id, const McpReply &reply);
    void finish(qint64 id, const McpReply &reply);
    Server *find(const QString &name);

    QString m_projectDir;
    McpToolAcceptance m_acceptance;
    /// Keeps each server's changedTools up to date with m_acceptance (after m_acceptance:
    /// it holds a reference to it).
    McpToolReview m_review;
    QString m_projectName;
    std::map<QString, Server> m_servers;
    std::vector<QString> m_order; ///< server names as toolstudio.json lists them
    /// True while call() sends a call at once: an end that would come from inside it is
    /// put off to the next turn of the event loop.
    bool m_sendingFromCall = false;
    /// The calls, and what of their servers' sessions belongs to each.
    McpPoolCalls m_calls;
    qint64 m_nextCall = 1;
    qint64 m_callsSent = 0;
    quint64 m_listings = 0; ///< tool listings taken, over all servers (Server::listing)
    bool m_asksBeforeChangedTools = false;
};
