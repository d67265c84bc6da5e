// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcpanswerbudget.h"
#include "mcpclientsubscriptions.h"
#include "mcphandshake.h"
#include "mcpinputrequiredrounds.h"
#include "mcpreply.h"
#include "mcpstdiotransport.h"
#include "mcptoollistpages.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

class McpElicitationRequired;

/// A client session with one MCP server, dual-era (McpRevision): the 2026 era
/// (2026-07-28, stateless) or the 2025 era (protocol revisions 2025-11-25, 2025-06-18,
/// 2025-03-26 and 2024-11-05), over any McpTransport (stdio or Streamable HTTP).
/// open() starts the transport and probes the server's era as the spec's backward
/// compatibility says (basic/versioning): `server/discover` with the 2026 `_meta` first;
/// a DiscoverResult listing 2026-07-28 makes the session stateless() and ready() at
/// once; any other answer (an error that is not a 2026 one, no answer within
/// ProbeTimeoutMs, an HTTP 4xx without a 2026 error) falls back to `initialize` (the
/// latest 2025 revision), whose chosen revision must be one the studio speaks, then
/// `notifications/initialized`. An UnsupportedProtocolVersion error or a DiscoverResult
/// without 2026-07-28 falls back only when it lists a 2025 revision the studio speaks.
/// After the probe's timeout its answer is still heard: a DiscoverResult that comes
/// before initialize's answer (a 2026 server slow to start) makes the session 2026.
///
/// In the 2026 era every request carries the `_meta` of McpRevision (version,
/// clientInfo, clientCapabilities), every result's `resultType` is read (absent:
/// "complete"; another than "complete" fails the request, but "input_required" of a
/// tools/call or of a requestWithInput()), and a tools/call answered `input_required`
/// (multi round-trip requests) asks for the input the way a 2025 server's requests are
/// asked (serverRequestReceived, answered with respond(); `roots/list` answered here)
/// and is retried with `inputResponses` (and `requestState` echoed), at most
/// MaxInputRounds rounds of at most MaxInputRequests requests each
/// (McpInputRequiredRounds). requestWithInput() does the same for another request
/// (resources/read, prompts/get), its questions going to an asker of the caller's.
///
/// Requests (request(), listTools(), callTool()) carry integer ids from 1; each reply is
/// handed to its callback exactly once — by the server's response, or with a failure
/// when the server ends, the session is closed, or its timeout passes (a timed-out
/// request is cancelled with `notifications/cancelled`, as the spec asks). A response
/// whose id the session did not send is counted (unmatchedResponses) and dropped. A
/// response the session cannot read (nested deeper than the JSON depth limit, …) fails
/// its request at once, naming why, when its id can be read from its text (McpReplyId).
///
/// Server text in failures (its stderr tail, a revision) is quoted printable and
/// bounded; serverInfo and capabilities that are not objects read as empty objects.
/// A callback or a slot may close or delete the session (the other open requests
/// still get their reply, once).
///
/// Requests from the server (docs/mcp.md "A server's requests"): `ping` and `roots/list`
/// (setRoots) are answered here, as fast as McpAnswerBudget lets (past it, not at all); `elicitation/create` and `sampling/createMessage` are
/// handed on (serverRequestReceived) and answered with respond() / respondError();
/// anything else is answered "Method not found". At most MaxOpenServerRequests are open
/// at once; a request past that, or reusing the id of an open one, is answered with an
/// error at once. A 2025-era tools/call answered with URLElicitationRequiredError
/// (-32042) asks its pages the same way and is retried (McpElicitationRequired); its
/// `notifications/elicitation/complete` are taken here.
/// Notifications are handed on (notificationReceived); `notifications/tools/list_changed`
/// also emits toolsChanged().
///
/// List changes in the 2026 era (setListenForChanges): a session that becomes ready
/// with a 2026-07-28 server whose capabilities say `listChanged: true` for tools,
/// prompts or resources opens one `subscriptions/listen` for them (McpClientSubscriptions)
/// before ready() goes out; its `notifications/tools/list_changed` emit toolsChanged(),
/// its prompts and resources list_changed are handed on (notificationReceived), as are
/// the `notifications/resources/updated` of setResourceSubscriptions()'s listen. What
/// else belongs to a subscription (its acknowledgement, the listen's response) is not
/// handed on as the messages of requests are; close() cancels them.
class McpClientSession : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Initializing, Ready, Failed, Closed };
    using ReplyHandler = std::function<void(const McpReply &)>;

    /// The revisions this session speaks, newest first; initialize asks for the first.
    static const QStringList &supportedVersions();
    static constexpr int DefaultTimeoutMs = 60000;
    static constexpr int InitializeTimeoutMs = McpHandshake::InitializeTimeoutMs;
    /// How long the era probe (server/discover) waits before falling back to initialize.
    static constexpr int ProbeTimeoutMs = McpHandshake::ProbeTimeoutMs;
    /// Multi round-trip requests: rounds of input per tools/call, input requests per
    /// round, bytes of a requestState echoed.
    static constexpr int MaxInputRounds = McpInputRequiredRounds::MaxRounds;
    static constexpr std::size_t MaxInputRequests = McpInputRequiredRounds::MaxRequests;
    static constexpr std::size_t MaxRequestStateBytes = McpInputRequiredRounds::MaxRequestStateBytes;
    /// tools/list pages followed at most, bytes of tools they may add up to, names kept
    /// of duplicate and rejected tools (McpToolListPages).
    static constexpr int MaxListPages = McpToolListPages::MaxPages;
    static constexpr std::size_t MaxListedToolBytes = McpToolListPages::MaxToolBytes;
    static constexpr qsizetype MaxNamedDuplicates = McpToolListPages::MaxNamed;

    /// Requests from the server open at once (waiting for respond()); past it, refused.
    static constexpr std::size_t MaxOpenServerRequests = 64;
    /// Bytes of a server request's id (compact JSON); a longer one is refused with id null.
    static constexpr std::size_t MaxServerRequestIdBytes = 256;

    /// A session over stdio (open(launch) starts the server).
    explicit McpClientSession(QObject *parent = nullptr);
    /// A session over `transport` (taken over, any McpTransport).
    explicit McpClientSession(McpTransport *transport, QObject *parent = nullptr);
    ~McpClientSession() override;

    /// Starts the transport and opens the session (McpHandshake: the era probe, then
    /// initialize for a 2025 server).
    void open();
    /// open() of a stdio session with `launch`.
    void open(const McpStdioTransport::Launch &launch);
    /// How long open() waits for the initialize result (InitializeTimeoutMs by default).
    void setInitializeTimeout(int ms) { m_handshake->setInitializeTimeout(ms); }
    /// Ends the session: every open request fails with "the session was closed", the
    /// server is stopped.
    void close();

    State state() const { return m_state; }
    /// Why the session failed (state Failed), with the server's stderr tail when it has one.
    QString failure() const { return m_failure; }
    QString protocolVersion() const { return m_protocolVersion; }
    /// True in the 2026 era (per-request _meta, no initialize).
    bool stateless() const { return m_stateless; }
    /// "modern" (2026 era) or "legacy" (2025 era), the spec's words; empty until a
    /// revision was agreed.
    QString era() const;
    /// The call (callTool's or requestWithInput's id) an input request of an
    /// `input_required` belongs to, from the id it was asked under; 0 for any other id.
    static qint64 callOfInputRequest(const nlohmann::json &id);
    /// The call (callTool's id) a request serverRequestReceived handed on belongs to,
    /// when the session made it up for that call (an input request of the 2026 era, a
    /// page of a -32042 answer); 0 for the server's own requests.
    qint64 callOfServerRequest(const nlohmann::json &id) const;
    /// The tools/calls answered -32042 (its completion wait may be set before open()).
    McpElicitationRequired *elicitationsRequired() const { return m_elicitations; }
    const nlohmann::json &serverInfo() const { return m_serverInfo; }
    const nlohmann::json &serverCapabilities() const { return m_serverCapabilities; }
    QString instructions() const { return m_instructions; }
    /// Lines of stdout that were not messages, and responses to ids never sent.
    qint64 refusedMessages() const { return m_refusedMessages; }
    qint64 unmatchedResponses() const { return m_unmatchedResponses; }
    /// Requests of the server left unanswered: past McpAnswerBudget's pace.
    qint64 unansweredServerRequests() const { return m_answers.refused(); }
    /// Remembers that the server answered `method` with -32601 (method not found), in
    /// `why`'s words, for the rest of this server session (open() forgets it: a restart
    /// is asked anew) — for a feature it declares but does not have (completions).
    void noteMethodNotFound(const QString &method, const QString &why) { m_methodsNotFound.insert(method, why); }
    /// What noteMethodNotFound() said of `method`; "" when nothing.
    QString methodNotFound(const QString &method) const { return m_methodsNotFound.value(method); }
    /// Entries of the last listTools() that were not tools (not an object with a string name).
    qint64 droppedListEntries() const { return m_toolList->droppedEntries(); }
    /// Names the last listTools() got more than once (as the server sent them, at most
    /// MaxNamedDuplicates): only the first tool of each name is kept.
    const QStringList &duplicateToolNames() const { return m_toolList->duplicateNames(); }
    /// Tools the last listTools() left out because their `x-mcp-header` parameters break
    /// the spec's rules (only where the transport mirrors them: Streamable HTTP in the
    /// 2026 era; the spec says to leave such a tool out): "NAME: why", at most
    /// MaxNamedDuplicates.
    const QStringList &rejectedTools() const { return m_toolList->rejectedTools(); }
    McpTransport *transport() const { return m_transport; }
    /// What `roots/list` is answered with: an array of {"uri", "name"} (McpServerLaunch::
    /// rootsFor); empty by default.
    void setRoots(nlohmann::json roots) { m_roots = std::move(roots); }
    const nlohmann::json &roots() const { return m_roots; }
    /// Opens `subscriptions/listen` for list changes when the session becomes ready in
    /// the 2026 era and the server advertises `listChanged` for tools, prompts or
    /// resources (off by default: a command that lists once needs no stream). Set before open().
    void setListenForChanges(bool listen) { m_listenForChanges = listen; }
    /// The session's subscription for list changes (state Idle while none was opened);
    /// its timeouts may be set before open().
    McpListenSubscription *listenSubscription() const { return m_subscriptions->lists(); }
    /// 2026 era: asks for `notifications/resources/updated` of `uris` on a listen of
    /// their own (McpClientSubscriptions::setResourceUris); `settled` hears whether the server
    /// agreed. resourceSubscriptions() are the URIs asked for now.
    void setResourceSubscriptions(const QStringList &uris, McpClientSubscriptions::Settled settled)
    {
        m_subscriptions->setResourceUris(uris, std::move(settled));
    }
    QStringList resourceSubscriptions() const { return m_subscriptions->resourceUris(); }
    /// The capabilities initialize sends: roots, sampling and elicitation (form mode).
    static nlohmann::json clientCapabilities();
    /// The clientInfo initialize (and a 2026 request's `_meta`) sends.
    static nlohmann::json clientInfo();
    /// Answers the server's open request `id` (from serverRequestReceived) with `result`;
    /// false when it is not open (answered already, or the session ended).
    bool respond(const nlohmann::json &id, nlohmann::json result);
    bool respondError(const nlohmann::json &id, JsonRpcError error);
    /// Requests from the server waiting for respond().
    std::size_t openServerRequests() const { return m_serverRequests.size(); }

    /// Sends `method` with `params` (an object, or null for none); `done` gets the reply.
    /// Returns the request's id (0 when the session is not ready: `done` is called at
    /// once with the failure).
    qint64 request(const QString &method, nlohmann::json params, ReplyHandler done, int timeoutMs = DefaultTimeoutMs);
    /// 2026 era: `method` with `params` as one request that the server may answer
    /// `input_required` (basic/patterns/mrtr; resources/read, prompts/get): its
    /// elicitation and sampling requests go to `asker` under ids "mrtr:CALL:KEY" (answered
    /// with respond() / respondError(); a withdrawn one to asker.withdraw), the request is
    /// sent again with the answers, and `done` gets its last reply. `subject` names it in
    /// failures ("resources/read of \"note://a\""). An asker without `ask` refuses the
    /// input at once (McpInputRequiredRounds::Asker). The 2025 era: request(). Returns the
    /// call's id, for cancel().
    qint64 requestWithInput(const QString &method, nlohmann::json params, const QString &subject,
                            McpInputRequiredRounds::Asker asker, ReplyHandler done, int timeoutMs = DefaultTimeoutMs);
    /// `notifications/cancelled` for an open request; its callback gets `reason` as failure.
    void cancel(qint64 id, const QString &reason);
    /// tools/list, every page: `done` gets all tools (each as the server sent it), or the
    /// reply of the page that failed. An entry that is not an object with a string
    /// `name` is left out and counted (droppedListEntries); a tool whose name came
    /// before is left out and named (duplicateToolNames).
    void listTools(std::function<void(const std::vector<nlohmann::json> &, const McpReply &)> done);
    /// tools/call of `name` with `arguments` (an object); `meta` (object or null) is sent
    /// as `_meta`.
    qint64 callTool(const QString &name, const nlohmann::json &arguments, const nlohmann::json &meta, ReplyHandler done,
                    int timeoutMs = DefaultTimeoutMs);

Q_SIGNALS:
    void ready();
    void failed(const QString &why);
    /// The server ended or the session was closed after it was ready.
    void closed(const QString &why);
    void notificationReceived(const QString &method, const nlohmann::json &params);
    void toolsChanged();
    /// 2026 era: the server ended the listen for the resources of
    /// setResourceSubscriptions(); none is subscribed to any more (`why` says how).
    void resourceSubscriptionsEnded(const QString &why);
    /// The server asks something of the client (`elicitation/create`,
    /// `sampling/createMessage`): answer with respond() or respondError(). `params` is an
    /// object (anything else reads as {}).
    void serverRequestReceived(const nlohmann::json &id, const QString &method, const nlohmann::json &params);
    /// The server withdrew its open request `id` (`notifications/cancelled`): it is no
    /// longer open and gets no reply (the spec: the receiver does not respond).
    void serverRequestCancelled(const nlohmann::json &id);
    /// Every message the session sends (`sent`) or receives, before it is sent or acted
    /// on: for the Protocol tab's record of a call (McpExchangeRecorder).
    void messageExchanged(bool sent, const JsonRpcMessage &message);

private:
    struct Pending
    {
        ReplyHandler done;
        QTimer *timer = nullptr;
    };

    /// request(); an `input_required` result is a result when `inputRequired`, else a failure.
    qint64 sendRequest(const QString &method, nlohmann::json params, ReplyHandler done, int timeoutMs,
                       bool inputRequired);
    /// Sends `message` on the transport after messageExchanged; as McpTransport::send.
    bool sendMessage(const JsonRpcMessage &message);
    void onMessage(const JsonRpcMessage &message);
    void onRefused(const QString &reason, const nlohmann::json &id);
    void onFinished(const QString &why);
    /// The handshake's channel to the session (McpHandshake::Channel).
    McpHandshake::Channel handshakeChannel();
    /// What the server said of itself when the session opened.
    void onHello(const McpHandshake::Hello &hello);
    /// The session opened: ready() (a 2026 server's list changes subscribed first).
    void onOpened();
    /// A server's request: ping and roots/list answered (paced), elicitation and
    /// sampling handed on (serverRequestReceived), anything else refused.
    void answerServerRequest(const JsonRpcMessage &message);
    /// An id the session gives questions of its own making (a 2026 call's input
    /// requests, McpElicitationRequired's pages): a server may neither send a request
    /// under one nor cancel one (attack33 F4: a predictable id withdrew the question and
    /// stalled the call).
    static bool studioMintedId(const nlohmann::json &id);
    /// Opens the server request `id` (a server's, or one the session asks of its own):
    /// "" when it is open now, else why not (its id in use, too many open).
    std::string claimServerRequest(const nlohmann::json &id);
    void finish(qint64 id, const McpReply &reply);
    /// A stopped single-shot timer for a request: a spare one (dropTimer) or a new one.
    QTimer *requestTimer();
    /// Stops a request's timer and keeps it as a spare (up to MaxSpareTimers): deleting
    /// it later woke the event loop once more per request.
    void dropTimer(QTimer *timer);
    /// Fails every open request; false when a callback deleted the session.
    bool failAll(const QString &why);
    void fail(const QString &why);
    /// Asks for the page of `pages` at `cursor` (null: the first) and the pages after it.
    void listPage(const nlohmann::json &cursor, std::shared_ptr<McpToolListPages> pages,
                  std::function<void(const std::vector<nlohmann::json> &, const McpReply &)> done);

    McpTransport *m_transport = nullptr;
    McpClientSubscriptions *m_subscriptions = nullptr;
    McpElicitationRequired *m_elicitations = nullptr;
    McpInputRequiredRounds *m_inputRounds = nullptr;
    McpHandshake *m_handshake = nullptr;
    bool m_listenForChanges = false;
    State m_state = State::Idle;
    QString m_failure;
    QString m_protocolVersion;
    bool m_stateless = false;
    nlohmann::json m_serverInfo;
    nlohmann::json m_serverCapabilities;
    QString m_instructions;
    qint64 m_nextId = 1;
    std::map<qint64, Pending> m_pending;
    static constexpr std::size_t MaxSpareTimers = 8;
    std::vector<QTimer *> m_spareTimers; ///< stopped, connected to nothing; children of the session
    qint64 m_refusedMessages = 0;
    qint64 m_unmatchedResponses = 0;
    McpAnswerBudget m_answers;                 ///< answers sent of the session's own accord
    QHash<QString, QString> m_methodsNotFound; ///< noteMethodNotFound()
    /// The pages of the last listTools() (its counts and names so far).
    std::shared_ptr<McpToolListPages> m_toolList = std::make_shared<McpToolListPages>();
    nlohmann::json m_roots = nlohmann::json::array();
    std::set<std::string> m_serverRequests; ///< ids (compact JSON) of the server's open requests
};
