// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclientsession.h"
#include "project/mcpserverconfig.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

#include <functional>
#include <map>
#include <vector>

/// What the pool knows of one server of the project: how far it got and its tools.
struct McpServerStatus
{
    enum class State {
        Idle,        ///< not started yet, or stopped (a crash): started again by the next call
        Starting,    ///< launched, initialize and tools/list under way
        Ready,       ///< initialized; `tools` listed
        Failed,      ///< could not start, initialize or list; `error` says why
        Disabled,    ///< "disabled": true
        Unsupported, ///< a transport the studio does not speak yet (HTTP+SSE)
    };
    QString name;
    State state = State::Idle;
    QString error; ///< why it failed or stopped, with the server's stderr tail
    QString protocolVersion;
    nlohmann::json serverInfo = nlohmann::json::object();
    std::vector<nlohmann::json> tools; ///< each as the server sent it in tools/list
    QStringList duplicateTools;        ///< names tools/list had more than once (the first kept)

    static QString stateName(State state); ///< "idle", "starting", "ready", "failed", "disabled", "not supported"
};

/// How one tools/call ended: the server's reply (or why there is none) and what the
/// server wrote to its stderr while the call was open.
struct McpCallOutcome
{
    McpReply reply;
    QByteArray stderrOutput;
};

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
    using CallDone = std::function<void(const McpCallOutcome &)>;
    static constexpr qsizetype MaxCallStderrBytes = 64 * 1024;
    /// tools/call's own bound: the engine's attempt timeout is the one that counts
    /// (it cancels the call); this only ends a call that has no attempt timeout.
    static constexpr int CallTimeoutMs = 24 * 60 * 60 * 1000;

    /// The pool of the project in `projectDir` (absolute), made on first use; lives
    /// until the application ends. Main thread only.
    static McpServerPool *forProject(const QString &projectDir);

    explicit McpServerPool(const QString &projectDir, QObject *parent = nullptr);
    ~McpServerPool() override;

    /// Takes the project's `mcp_servers`. A server whose entry changed is stopped (and
    /// started again by connectAll() or its next call); one no longer named is removed.
    void setServers(const std::vector<McpServerConfig> &servers);
    /// Starts every enabled server that is not running or failed yet and lists its tools.
    void connectAll();
    /// True when no server is starting.
    bool settled() const;
    std::vector<McpServerStatus> servers() const;
    const McpServerStatus *server(const QString &name) const;

    /// tools/call of `tool` on `server` with `arguments` and `_meta` `meta`; `done` is
    /// called once, later (never from inside call()), unless the call is cancelled.
    /// Returns the call's id (> 0).
    qint64 call(const QString &server, const QString &tool, const nlohmann::json &arguments, const nlohmann::json &meta,
                CallDone done);
    /// Stops waiting for call `id`: `notifications/cancelled` with `reason` goes to the
    /// server when the request was sent. Its `done` is not called. Returns what became
    /// of it, in words ("notifications/cancelled sent to MCP server 'x' (request 7)").
    QString cancel(qint64 id, const QString &reason);
    /// Calls sent to servers (tools/call requests written) since the pool was made.
    qint64 callsSent() const { return m_callsSent; }

Q_SIGNALS:
    void serverChanged(const QString &name);

private:
    struct Server
    {
        McpServerConfig config;
        McpServerStatus status;
        QPointer<McpClientSession> session;
        std::vector<qint64> waiting; ///< calls waiting for the server to be ready
    };
    struct Call
    {
        QString server;
        QString tool;
        nlohmann::json arguments;
        nlohmann::json meta;
        CallDone done;
        qint64 requestId = 0; ///< the session's id once sent
        QByteArray stderrOutput;
    };

    void start(Server &server);
    void onReady(const QString &name);
    void onStopped(const QString &name, const QString &why, bool failedToStart);
    void send(qint64 id);
    void finish(qint64 id, const McpReply &reply);
    Server *find(const QString &name);

    QString m_projectDir;
    std::map<QString, Server> m_servers;
    std::vector<QString> m_order; ///< server names as toolstudio.json lists them
    std::map<qint64, Call> m_calls;
    qint64 m_nextCall = 1;
    qint64 m_callsSent = 0;
};
