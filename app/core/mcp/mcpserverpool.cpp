// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpserverpool.h"

#include "mcp/mcphttpfallbacktransport.h"
#include "mcp/mcprevision.h"
#include "mcp/mcpserverlaunch.h"
#include "project/printabletext.h"
#include "python/secrets.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>

using nlohmann::json;

namespace {

bool sameEntry(const McpServerConfig &a, const McpServerConfig &b)
{
    return a.transport == b.transport && a.typeGiven == b.typeGiven && a.command == b.command && a.args == b.args
        && a.env == b.env && a.cwd == b.cwd && a.url == b.url && a.headers == b.headers && a.disabled == b.disabled
        && a.sandboxed == b.sandboxed && a.read == b.read && a.readWrite == b.readWrite && a.network == b.network
        && a.rootsGiven == b.rootsGiven && a.roots == b.roots;
}

} // namespace

namespace {

std::map<QString, QPointer<McpServerPool>> &allPools()
{
    static std::map<QString, QPointer<McpServerPool>> pools;
    return pools;
}

} // namespace

void McpServerPool::closeAll()
{
    bool closed = false;
    for (auto &[dir, pool] : allPools()) {
        if (!pool)
            continue;
        for (auto &[name, server] : pool->m_servers)
            if (server.session && server.session->state() == McpClientSession::State::Ready
                && !qobject_cast<McpStdioTransport *>(server.session->transport())) {
                server.session->close();
                closed = true;
            }
    }
    if (!closed)
        return;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 200) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
}

McpServerPool *McpServerPool::forProject(const QString &projectDir)
{
    // Parented to the application: the servers are stopped when it ends.
    std::map<QString, QPointer<McpServerPool>> &pools = allPools();
    const QString key = QDir::cleanPath(projectDir);
    QPointer<McpServerPool> &pool = pools[key];
    if (!pool)
        pool = new McpServerPool(key, QCoreApplication::instance());
    return pool;
}

McpServerPool *McpServerPool::existing(const QString &projectDir)
{
    const auto found = allPools().find(QDir::cleanPath(projectDir));
    return found == allPools().end() ? nullptr : found->second.data();
}

McpServerPool::McpServerPool(const QString &projectDir, QObject *parent)
    : QObject(parent)
    , m_projectDir(projectDir)
    , m_acceptance(projectDir)
    , m_review(m_acceptance,
               [this] {
                   std::vector<McpServerStatus *> statuses;
                   for (const QString &name : m_order)
                       if (Server *server = find(name))
                           statuses.push_back(&server->status);
                   return statuses;
               })
    , m_calls([this](const QString &name) {
        Server *server = find(name);
        return server ? server->session.data() : nullptr;
    })
{
    connect(&m_review, &McpToolReview::changed, this, &McpServerPool::serverChanged);
}

namespace {

/// Ends `session` without its signals reaching the pool (its open requests still get
/// their failure, once).
void dropSession(QPointer<McpClientSession> &session, QObject *pool)
{
    if (!session)
        return;
    McpClientSession *ending = session.data();
    session = nullptr;
    ending->disconnect(pool);
    delete ending;
}

} // namespace

McpServerPool::~McpServerPool()
{
    m_calls.silenceAll();
    for (auto &[name, server] : m_servers)
        dropSession(server.session, this);
}

void McpServerPool::setServers(const std::vector<McpServerConfig> &servers)
{
    std::map<QString, Server> kept;
    m_order.clear();
    for (const McpServerConfig &config : servers) {
        m_order.push_back(config.name);
        auto old = m_servers.find(config.name);
        if (old != m_servers.end() && sameEntry(old->second.config, config)) {
            kept.emplace(config.name, std::move(old->second));
            m_servers.erase(old);
            continue;
        }
        Server server;
        server.config = config;
        server.status.name = config.name;
        if (config.disabled)
            server.status.state = McpServerStatus::State::Disabled;
        kept.emplace(config.name, std::move(server));
    }
    // What is left was removed or changed: stop it; its calls fail.
    std::map<QString, Server> gone;
    gone.swap(m_servers);
    m_servers = std::move(kept);
    for (auto &[name, server] : gone) {
        dropSession(server.session, this);
        delete server.installing.data(); // npm is stopped, its half-made folder removed
        for (qint64 id : server.waiting)
            finish(id, McpReply{{}, {}, tr("MCP server '%1' was removed or changed in toolstudio.json").arg(name)});
    }
}

void McpServerPool::connectAll()
{
    for (const QString &name : m_order) {
        Server *server = find(name);
        if (server && server->status.state == McpServerStatus::State::Idle)
            start(*server);
    }
}

bool McpServerPool::restart(const QString &name)
{
    Server *server = find(name);
    if (!server || server->status.state == McpServerStatus::State::Disabled)
        return false;
    if (server->installing)
        return true;                    // its npm install goes on; the server starts when it is done
    dropSession(server->session, this); // its open requests fail: "the session was closed"
    server->status.state = McpServerStatus::State::Idle;
    server->status.toolsChangedNote.clear();
    start(*server);
    return true;
}

bool McpServerPool::settled() const
{
    for (const auto &[name, server] : m_servers)
        if (server.status.state == McpServerStatus::State::Starting)
            return false;
    return true;
}

std::vector<McpServerStatus> McpServerPool::servers() const
{
    std::vector<McpServerStatus> all;
    for (const QString &name : m_order)
        if (const McpServerStatus *status = server(name))
            all.push_back(*status);
    return all;
}

const McpServerStatus *McpServerPool::server(const QString &name) const
{
    const auto it = m_servers.find(name);
    return it == m_servers.end() ? nullptr : &it->second.status;
}

const McpServerConfig *McpServerPool::config(const QString &name) const
{
    const auto it = m_servers.find(name);
    return it == m_servers.end() ? nullptr : &it->second.config;
}

McpClientSession *McpServerPool::readySession(const QString &name) const
{
    const auto it = m_servers.find(name);
    if (it == m_servers.end() || it->second.status.state != McpServerStatus::State::Ready)
        return nullptr;
    return it->second.session.data();
}

McpServerPool::Server *McpServerPool::find(const QString &name)
{
    const auto it = m_servers.find(name);
    return it == m_servers.end() ? nullptr : &it->second;
}

void McpServerPool::start(Server &server)
{
    const QString name = server.config.name;
    QString why;
    // An npx entry's package is installed once, before its first start (McpNpxInstall);
    // the start goes on when npm is done. (A refused npx entry fails in transportFor.)
    if (const std::optional<McpNpxPackage> npx = McpNpxPackage::of(server.config, &why); npx && !npx->isInstalled()) {
        server.status.state = McpServerStatus::State::Starting;
        server.status.error.clear();
        server.status.activity = tr("installing %1 with npm (once)").arg(npx->spec());
        if (!server.installing) {
            auto *install = new McpNpxInstall(*npx, this);
            server.installing = install;
            connect(install, &McpNpxInstall::finished, this, [this, name, install](const QString &error) {
                install->deleteLater();
                Server *server = find(name);
                if (!server || server->installing != install)
                    return;
                server->installing = nullptr;
                server->status.activity.clear();
                if (!error.isEmpty())
                    onStopped(name, tr("cannot start: %1").arg(error), true);
                else
                    start(*server);
            });
            install->start();
        }
        QTimer::singleShot(0, this, [this, name] { Q_EMIT serverChanged(name); });
        return;
    }
    why.clear();
    // A url server without a type that answered only over HTTP+SSE is started so again.
    McpServerConfig launch = server.config;
    if (server.overSse)
        launch.transport = McpServerConfig::Transport::Sse;
    std::unique_ptr<McpTransport> transport
        = McpServerLaunch::transportFor(launch, m_projectDir, Secrets::load(m_projectDir), &why);
    if (!transport) {
        // Reported on the next turn: call() and connectAll() never call back from inside.
        server.status.state = McpServerStatus::State::Starting;
        QTimer::singleShot(0, this, [this, name, why] { onStopped(name, tr("cannot start: %1").arg(why), true); });
        return;
    }
    dropSession(server.session, this);
    auto *session = new McpClientSession(transport.release(), this);
    session->setRoots(McpServerLaunch::rootsFor(server.config, m_projectDir, m_projectName));
    session->setListenForChanges(true); // a 2026-era server's list_changed (relist)
    server.session = session;
    server.relist.reset();
    server.status.state = McpServerStatus::State::Starting;
    server.status.error.clear();
    connect(session, &McpClientSession::failed, this,
            [this, name](const QString &reason) { onStopped(name, reason, true); });
    connect(session, &McpClientSession::closed, this,
            [this, name](const QString &reason) { onStopped(name, reason, false); });
    connect(session, &McpClientSession::ready, this, [this, name, session] {
        session->listTools([this, name, session](const std::vector<json> &tools, const McpReply &reply) {
            Server *server = find(name);
            if (!server || server->session != session)
                return;
            if (!reply.ok()) {
                onStopped(name, tr("tools/list failed: %1").arg(reply.errorText()), true);
                return;
            }
            server->status.tools = tools;
            server->listing = ++m_listings;
            server->status.duplicateTools = session->duplicateToolNames();
            server->status.rejectedTools = session->rejectedTools();
            server->status.protocolVersion = session->protocolVersion();
            server->status.transport = session->transport()->transportName();
            if (const auto *fallback = qobject_cast<McpHttpFallbackTransport *>(session->transport()))
                server->overSse = fallback->usesSse();
            server->status.serverInfo = session->serverInfo();
            server->status.capabilities = session->serverCapabilities();
            m_review.observe(name);
            onReady(name);
        });
    });
    connect(session->transport(), &McpTransport::stderrReceived, this,
            [this, name](const QByteArray &bytes) { m_calls.addOutput(name, bytes); });
    connect(session, &McpClientSession::notificationReceived, this,
            [this, name](const QString &method, const json &params) { onNotification(name, method, params); });
    connect(session, &McpClientSession::messageExchanged, this,
            [this, name](bool sent, const JsonRpcMessage &message) { m_calls.record(name, sent, message); });
    connect(session, &McpClientSession::toolsChanged, this, [this, name] { relist(name); });
    connect(session, &McpClientSession::resourceSubscriptionsEnded, this,
            [this, name](const QString &why) { Q_EMIT resourceSubscriptionsEnded(name, why); });
    connect(session, &McpClientSession::serverRequestReceived, this,
            [this, name, session](const json &id, const QString &method, const json &params) {
                m_calls.route(name, McpServerRequest{id, method, params, false, session->protocolVersion()});
            });
    connect(session, &McpClientSession::serverRequestCancelled, this,
            [this, name](const json &id) { m_calls.withdraw(name, id); });
    Q_EMIT serverChanged(name);
    session->open();
}

void McpServerPool::onReady(const QString &name)
{
    Server *server = find(name);
    if (!server)
        return;
    server->status.state = McpServerStatus::State::Ready;
    const std::vector<qint64> waiting = std::exchange(server->waiting, {});
    Q_EMIT serverChanged(name);
    for (qint64 id : waiting)
        send(id);
}

void McpServerPool::onStopped(const QString &name, const QString &why, bool failedToStart)
{
    Server *server = find(name);
    if (!server)
        return;
    // A server that ends after it was ready is Idle: the next call starts it again.
    server->status.state = failedToStart ? McpServerStatus::State::Failed : McpServerStatus::State::Idle;
    server->status.error = why;
    if (failedToStart)
        server->overSse = false; // the next start tries Streamable HTTP first again
    if (server->session) {
        server->session->disconnect(this);
        server->session->deleteLater();
        server->session = nullptr;
    }
    const std::vector<qint64> waiting = std::exchange(server->waiting, {});
    const std::vector<qint64> listing = std::exchange(server->resendAfterList, {});
    Q_EMIT serverChanged(name);
    for (qint64 id : waiting)
        finish(id, McpReply{{}, {}, tr("MCP server '%1' did not start: %2").arg(name, why)});
    for (qint64 id : listing)
        finish(id, McpReply{{}, {}, tr("MCP server '%1' ended while its tools were listed again: %2").arg(name, why)});
}

qint64 McpServerPool::call(const QString &server, const QString &tool, const json &arguments, const json &meta,
                           CallDone done, CallProgress progress, CallRequest request)
{
    const qint64 id = m_nextCall++;
    m_calls.add(id,
                Call{server,
                     tool,
                     arguments,
                     meta,
                     std::move(done),
                     0,
                     {},
                     std::move(progress),
                     {},
                     std::move(request),
                     {},
                     McpExchangeRecorder(id)});
    Server *entry = find(server);
    if (!entry || entry->status.state == McpServerStatus::State::Disabled) {
        const QString why = !entry
            ? tr("the project has no MCP server '%1'").arg(server)
            : tr("MCP server '%1' is %2").arg(server, McpServerStatus::stateName(entry->status.state));
        QTimer::singleShot(0, this, [this, id, why] { finish(id, McpReply{{}, {}, why}); });
        return id;
    }
    if (entry->status.state == McpServerStatus::State::Ready) {
        // Sent at once (one turn of the event loop less a call); what would end it here
        // is put off, as `done` never comes from inside call().
        m_sendingFromCall = true;
        send(id);
        m_sendingFromCall = false;
        return id;
    }
    entry->waiting.push_back(id);
    if (entry->status.state != McpServerStatus::State::Starting)
        start(*entry); // idle (never started, or ended) or failed: try again
    return id;
}

void McpServerPool::send(qint64 id)
{
    Call *open = m_calls.find(id);
    if (!open)
        return;
    Server *server = find(open->server);
    if (!server || !server->session || server->status.state != McpServerStatus::State::Ready) {
        if (m_sendingFromCall)
            QTimer::singleShot(0, this, [this, id] { send(id); });
        else
            finish(id, McpReply{{}, {}, tr("MCP server '%1' is not running").arg(open->server)});
        return;
    }
    refreshAccepted();
    if (const QString refused = m_acceptance.refusal(open->server, server->status.tools, open->tool, server->listing);
        !refused.isEmpty()) {
        if (m_sendingFromCall) {
            QTimer::singleShot(0, this, [this, id] { send(id); }); // refused then
            return;
        }
        Call call = m_calls.take(id);
        m_calls.closeRequests(call);
        if (call.done) {
            McpCallOutcome outcome;
            outcome.refused = refused;
            outcome.reply.failure = refused; // not sent: never an ok reply to whoever reads only the reply
            // What was sent before (a first send answered HeaderMismatch) stays on record.
            outcome.stderrOutput = call.stderrOutput;
            outcome.exchange = call.exchange.toJson();
            if (server->status.acceptedError.isEmpty())
                for (const McpToolChange &change : server->status.changedTools)
                    if (change.tool == call.tool)
                        outcome.change = change;
            call.done(outcome);
        }
        return;
    }
    ++m_callsSent;
    QPointer<McpServerPool> self(this);
    json meta = open->meta.is_object() ? open->meta : json::object();
    meta["progressToken"] = id; // the pool's call id: unique in the pool, whatever the session
    const qint64 requestId = server->session->callTool(
        open->tool, open->arguments, meta,
        [self, id, fromCall = m_sendingFromCall](const McpReply &reply) {
            if (!self)
                return;
            if (fromCall && self->m_sendingFromCall) // failed at once, inside call()
                QTimer::singleShot(0, self, [self, id, reply] {
                    if (self)
                        self->onCallReply(id, reply);
                });
            else
                self->onCallReply(id, reply);
        },
        CallTimeoutMs);
    // Looked up again: a session that fails the request at once has finished the call.
    if (Call *sent = m_calls.find(id))
        sent->requestId = requestId;
}

void McpServerPool::onCallReply(qint64 id, const McpReply &reply)
{
    Call *call = m_calls.find(id);
    Server *server = call ? find(call->server) : nullptr;
    if (!server || reply.error.code != McpRevision::HeaderMismatch || call->listedAgain
        || server->status.state != McpServerStatus::State::Ready) {
        finish(id, reply);
        return;
    }
    call->listedAgain = true;
    call->requestId = 0;
    server->resendAfterList.push_back(id);
    relist(call->server);
}

void McpServerPool::finish(qint64 id, const McpReply &reply)
{
    if (!m_calls.find(id))
        return;
    Call call = m_calls.take(id);
    m_calls.closeRequests(call);
    if (call.done)
        call.done(McpCallOutcome{reply, call.stderrOutput, call.progress, call.exchange.toJson(), {}, {}});
}

QString McpServerPool::cancel(qint64 id, const QString &reason, bool *kept)
{
    if (kept)
        *kept = false;
    if (!m_calls.find(id))
        return {};
    // Out of m_calls before anything is answered: answering a 2026 call's open input
    // request ends that call in the session, whose callback finishes it here at once —
    // it used to erase the entry this still held (a use after free on Stop).
    Call call = m_calls.take(id);
    call.done = nullptr; // cancelled: nobody is told
    // What is sent now (the answers to its open requests, notifications/cancelled) goes
    // on its record, which the window may still show (liveExchange): no outcome carries
    // it to the journal.
    m_calls.setCancelling(&call);
    m_calls.closeRequests(call);
    const QString name = call.server;
    const qint64 requestId = call.requestId;
    Server *server = find(name);
    if (server)
        std::erase(server->waiting, id);
    if (requestId == 0 || !server || !server->session) {
        m_calls.setCancelling(nullptr);
        return tr("the call had not been sent to MCP server '%1'").arg(name);
    }
    server->session->cancel(requestId, reason); // its callback finds no call to finish
    m_calls.setCancelling(nullptr);
    const bool keptNow = m_calls.keepEnded(call);
    if (kept)
        *kept = keptNow;
    return tr("notifications/cancelled sent to MCP server '%1' (request %2)").arg(name).arg(requestId);
}

void McpServerPool::onNotification(const QString &name, const QString &method, const json &params)
{
    if (method == QLatin1String("notifications/progress")) {
        m_calls.addProgress(name, params);
    } else if (method == QLatin1String("notifications/message")) {
        m_calls.addOutput(name, McpCallNotices::logLine(params).toUtf8());
    } else if (method == QLatin1String("notifications/resources/updated")) {
        const auto uri = params.is_object() ? params.find("uri") : params.end();
        if (uri != params.end() && uri->is_string() && uri->get_ref<const std::string &>().size() <= 4 * 8192)
            Q_EMIT resourceUpdated(name, QString::fromStdString(uri->get<std::string>()).left(8192));
    } else if (method == QLatin1String("notifications/resources/list_changed")) {
        Q_EMIT featureListChanged(name, QStringLiteral("resources"));
    } else if (method == QLatin1String("notifications/prompts/list_changed")) {
        Q_EMIT featureListChanged(name, QStringLiteral("prompts"));
    }
}

void McpServerPool::relist(const QString &name)
{
    Server *server = find(name);
    if (!server || !server->session || server->status.state != McpServerStatus::State::Ready)
        return;
    // A flood of list_changed is one list at a time, and not one right after another.
    const auto schedule = [this, name](int ms) {
        QTimer::singleShot(ms, Qt::PreciseTimer, this, [this, name] {
            if (Server *due = find(name)) {
                due->relist.due();
                relist(name);
            }
        });
    };
    if (!server->relist.start(schedule))
        return;
    QPointer<McpClientSession> session = server->session;
    // Calls answered HeaderMismatch go again after this listing, the first to start after
    // their answer — whatever list_changed come meanwhile (attack35: a server announcing
    // a change before every listing kept them waiting for the next one for ever).
    std::vector<qint64> resend = std::exchange(server->resendAfterList, {});
    session->listTools([this, name, session, resend](const std::vector<json> &tools, const McpReply &reply) {
        Server *server = find(name);
        if (!server || server->session != session) {
            for (const qint64 id : resend)
                finish(id, McpReply{{}, {}, tr("MCP server '%1' ended while its tools were listed again").arg(name)});
            return;
        }
        if (server->relist.ended())
            relist(name); // after the pause
        for (const qint64 id : resend)
            QTimer::singleShot(0, this, [this, id] { send(id); });
        if (!reply.ok()) {
            server->status.toolsChangedNote
                = tr("the server said its tools changed, but tools/list failed: %1").arg(reply.errorText());
        } else {
            server->status.toolsChangedNote = McpToolAcceptance::changeNote(server->status.tools, tools);
            server->status.tools = tools;
            server->listing = ++m_listings;
            server->status.duplicateTools = session->duplicateToolNames();
            server->status.rejectedTools = session->rejectedTools();
            m_review.observe(name);
        }
        Q_EMIT serverChanged(name);
        Q_EMIT toolsChanged(name);
    });
}
