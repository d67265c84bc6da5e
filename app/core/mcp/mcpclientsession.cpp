// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpclientsession.h"

#include "mcpelicitationrequired.h"
#include "mcpinputrequiredrounds.h"
#include "mcprevision.h"

#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QDeadlineTimer>
#include <QMetaMethod>
#include <QPointer>

using nlohmann::json;

namespace {

QString withStderr(const QString &why, const QString &stderrTail)
{
    const QString tail = stderrTail.trimmed();
    if (tail.isEmpty())
        return why;
    return QStringLiteral("%1; its stderr ends with:\n%2")
        .arg(why,
             printableLines(tail.size() > McpReply::QuotedServerChars
                                ? QStringLiteral("…") + tail.right(McpReply::QuotedServerChars)
                                : tail));
}

} // namespace

const QStringList &McpClientSession::supportedVersions()
{
    static const QStringList versions = {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18"),
                                         QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
    return versions;
}

McpClientSession::McpClientSession(QObject *parent)
    : McpClientSession(new McpStdioTransport, parent)
{}

McpClientSession::McpClientSession(McpTransport *transport, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
{
    m_transport->setParent(this);
    McpListenSubscription::Channel channel;
    channel.nextId = [this] { return m_nextId++; };
    channel.send = [this](const JsonRpcMessage &message) { return sendMessage(message); };
    channel.withMeta = [](json params) {
        return McpRevision::withRequestMeta(std::move(params), clientInfo(), clientCapabilities());
    };
    channel.transport = m_transport;
    m_subscriptions = new McpClientSubscriptions(channel, this);
    connect(m_subscriptions, &McpClientSubscriptions::toolsChanged, this, &McpClientSession::toolsChanged);
    connect(m_subscriptions, &McpClientSubscriptions::notified, this, &McpClientSession::notificationReceived);
    connect(m_subscriptions, &McpClientSubscriptions::resourceSubscriptionsEnded, this,
            &McpClientSession::resourceSubscriptionsEnded);
    McpElicitationRequired::Channel asks;
    asks.request = [this](const QString &method, json params, ReplyHandler done, int timeoutMs) {
        return request(method, std::move(params), std::move(done), timeoutMs);
    };
    asks.cancel = [this](qint64 id, const QString &reason) { cancel(id, reason); };
    asks.open = [this](const json &id) { return QString::fromStdString(claimServerRequest(id)); };
    asks.close = [this](const json &id) { return m_serverRequests.erase(id.dump()) > 0; };
    asks.canAsk
        = [this] { return isSignalConnected(QMetaMethod::fromSignal(&McpClientSession::serverRequestReceived)); };
    asks.ask = [this](const json &id, const json &params) {
        Q_EMIT serverRequestReceived(id, QStringLiteral("elicitation/create"), params);
    };
    asks.withdraw = [this](const json &id) { Q_EMIT serverRequestCancelled(id); };
    McpInputRequiredRounds::Channel inputs;
    inputs.request = [this](const QString &method, json params, ReplyHandler done, int timeoutMs) {
        return sendRequest(method, std::move(params), std::move(done), timeoutMs, true);
    };
    inputs.inFlight = [this](qint64 id) { return m_pending.count(id) > 0; };
    inputs.cancel = asks.cancel;
    inputs.openRequests = [this] { return m_serverRequests.size(); };
    inputs.open = [this](const json &id) { m_serverRequests.insert(id.dump()); };
    inputs.isOpen = [this](const json &id) { return m_serverRequests.count(id.dump()) > 0; };
    inputs.close = asks.close;
    inputs.roots = [this] { return m_roots; };
    inputs.now = [] { return QDeadlineTimer::current().deadline(); };
    m_inputRounds = new McpInputRequiredRounds(std::move(inputs), this);
    m_elicitations = new McpElicitationRequired(std::move(asks), this);
    m_handshake = new McpHandshake(handshakeChannel(), this);
    connect(m_transport, &McpTransport::messageReceived, this, &McpClientSession::onMessage);
    connect(m_transport, &McpTransport::messageRefused, this, &McpClientSession::onRefused);
    connect(m_transport, &McpTransport::finished, this, &McpClientSession::onFinished);
}

McpClientSession::~McpClientSession()
{
    m_transport->disconnect(this);
    std::map<qint64, Pending> pending;
    pending.swap(m_pending);
    for (auto &[id, entry] : pending)
        delete entry.timer; // callbacks are not called from a destructor
}

void McpClientSession::open(const McpStdioTransport::Launch &launch)
{
    if (auto *stdio = qobject_cast<McpStdioTransport *>(m_transport))
        stdio->setLaunch(launch);
    open();
}

void McpClientSession::open()
{
    m_state = State::Initializing;
    m_failure.clear();
    m_stateless = false;
    m_protocolVersion.clear();
    m_methodsNotFound.clear();
    m_subscriptions->reset();
    m_transport->start();
    m_handshake->start();
}

McpHandshake::Channel McpClientSession::handshakeChannel()
{
    McpHandshake::Channel channel;
    channel.nextId = [this] { return m_nextId++; };
    channel.giveBackId = [this](qint64 id) {
        if (m_nextId == id + 1)
            m_nextId = id;
    };
    channel.expect = [this](qint64 id, ReplyHandler done, QTimer *timer) {
        m_pending[id] = Pending{std::move(done), timer};
    };
    channel.forget = [this](qint64 id) {
        const auto found = m_pending.find(id);
        if (found == m_pending.end())
            return false;
        dropTimer(found->second.timer);
        m_pending.erase(found);
        return true;
    };
    channel.finish = [this](qint64 id, const McpReply &reply) { finish(id, reply); };
    channel.send = [this](const JsonRpcMessage &message) { return sendMessage(message); };
    channel.opening = [this] { return m_state == State::Initializing; };
    channel.fail = [this](const QString &why) { fail(why); };
    channel.learned = [this](const McpHandshake::Hello &hello) { onHello(hello); };
    channel.ready = [this] { onOpened(); };
    return channel;
}

void McpClientSession::onHello(const McpHandshake::Hello &hello)
{
    m_stateless = hello.stateless;
    m_protocolVersion = hello.protocolVersion;
    m_serverInfo = hello.serverInfo;
    m_serverCapabilities = hello.capabilities;
    if (hello.instructions)
        m_instructions = *hello.instructions;
}

void McpClientSession::onOpened()
{
    m_state = State::Ready;
    // List changes of a modern server come on a subscription, opened before ready() so
    // that a tools/list sent on ready() is answered after it.
    const McpListenSubscription::Filter changes = McpClientSubscriptions::listFilter(m_serverCapabilities);
    if (m_stateless && m_listenForChanges && !changes.empty()) {
        const QPointer<McpClientSession> alive(this);
        m_subscriptions->lists()->setFilter(changes);
        m_subscriptions->lists()->open();
        if (!alive || m_state != State::Ready)
            return;
    }
    Q_EMIT ready();
}

QString McpClientSession::era() const
{
    if (m_protocolVersion.isEmpty())
        return {};
    return m_stateless ? QStringLiteral("modern") : QStringLiteral("legacy");
}

qint64 McpClientSession::callOfServerRequest(const json &id) const
{
    return m_stateless ? callOfInputRequest(id) : m_elicitations->callOf(id);
}

qint64 McpClientSession::callOfInputRequest(const json &id)
{
    return McpInputRequiredRounds::callOf(id);
}

void McpClientSession::close()
{
    if (m_state == State::Closed)
        return;
    const bool wasReady = m_state == State::Ready;
    m_state = State::Closed;
    {
        const QPointer<McpClientSession> alive(this);
        m_subscriptions->end(true); // on stdio notifications/cancelled; over HTTP its stream closes
        if (!alive)
            return;
    }
    if (!failAll(QStringLiteral("the session was closed")))
        return;
    m_transport->stop();
    if (wasReady)
        Q_EMIT closed(QStringLiteral("the session was closed"));
}

qint64 McpClientSession::request(const QString &method, json params, ReplyHandler done, int timeoutMs)
{
    return sendRequest(method, std::move(params), std::move(done), timeoutMs, method == QLatin1String("tools/call"));
}

qint64 McpClientSession::requestWithInput(const QString &method, json params, const QString &subject,
                                          McpInputRequiredRounds::Asker asker, ReplyHandler done, int timeoutMs)
{
    if (!m_stateless || m_state != State::Ready)
        return request(method, std::move(params), std::move(done), timeoutMs);
    // Rounds of multi round-trip requests under one id of its own.
    const qint64 call = m_nextId++;
    m_inputRounds->start(call, {method, std::move(params), subject, std::move(asker)}, std::move(done), timeoutMs);
    return call;
}

qint64 McpClientSession::sendRequest(const QString &method, json params, ReplyHandler done, int timeoutMs,
                                     bool inputRequired)
{
    if (m_state != State::Ready) {
        done(McpReply{{}, {}, QStringLiteral("the server is not connected")});
        return 0;
    }
    if (m_stateless) {
        // The 2026 era: _meta on every request; resultType read on every result.
        params = McpRevision::withRequestMeta(std::move(params), clientInfo(), clientCapabilities());
        done = [method, inputRequired, done = std::move(done)](const McpReply &reply) {
            const std::string type = reply.ok() ? McpRevision::resultType(reply.result) : std::string();
            if (!reply.ok() || type == McpRevision::Complete || (type == McpRevision::InputRequired && inputRequired)) {
                done(reply);
                return;
            }
            done(McpReply{{},
                          {},
                          QStringLiteral("the server answered %1 with resultType \"%2\", which MCP %3 does not "
                                         "define there")
                              .arg(method, elidedText(printableText(QString::fromStdString(type)), 40),
                                   QString::fromLatin1(McpRevision::Modern.data()))});
        };
    }
    const qint64 id = m_nextId++;
    QTimer *timer = requestTimer();
    connect(timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
        cancel(id, QStringLiteral("%1 timed out after %2 s").arg(method).arg(decimalSeconds(timeoutMs)));
    });
    m_pending[id] = Pending{std::move(done), timer};
    timer->start(timeoutMs);
    if (!sendMessage(JsonRpcMessage::request(json(id), method.toStdString(), std::move(params)))) {
        // Not sent: it fails now, not at its timeout; later, as a reply would (the caller
        // keeps the id this returns).
        const QString why = QStringLiteral("%1 could not be sent: %2").arg(method, m_transport->sendRefusal());
        QTimer::singleShot(0, this, [this, id, why] { finish(id, McpReply{{}, {}, why}); });
    }
    return id;
}

void McpClientSession::cancel(qint64 id, const QString &reason)
{
    if (m_elicitations->cancel(id, reason))
        return; // a call answered -32042: its retry in flight is cancelled, or it ends
    if (m_inputRounds->cancel(id, reason))
        return; // a 2026 call: its round in flight is cancelled, or it ends
    if (!m_pending.count(id))
        return;
    m_transport->forget(json(id)); // e.g. an event stream that would go on without it
    sendMessage(
        JsonRpcMessage::notification("notifications/cancelled", {{"requestId", id}, {"reason", reason.toStdString()}}));
    finish(id, McpReply{{}, {}, reason});
}

qint64 McpClientSession::callTool(const QString &name, const json &arguments, const json &meta, ReplyHandler done,
                                  int timeoutMs)
{
    json params = {{"name", name.toStdString()}, {"arguments", arguments}};
    if (meta.is_object() && !meta.empty())
        params["_meta"] = meta;
    if (m_stateless && m_state == State::Ready) {
        // Its input requests go to whoever hears the session's requests (the pool: the
        // call's run).
        McpInputRequiredRounds::Asker asker;
        asker.ask = [this](const json &id, const QString &method, const json &asked) {
            Q_EMIT serverRequestReceived(id, method, asked);
        };
        asker.withdraw = [this](const json &id) { Q_EMIT serverRequestCancelled(id); };
        asker.refusal = [this](const QString &method, const json &) {
            return isSignalConnected(QMetaMethod::fromSignal(&McpClientSession::serverRequestReceived))
                ? QString()
                : QStringLiteral("Tool Studio asks a person for %1 only while a tool of this server is called "
                                 "through it")
                      .arg(method);
        };
        return requestWithInput(QStringLiteral("tools/call"), std::move(params), name, std::move(asker),
                                std::move(done), timeoutMs);
    }
    // A -32042 answer (URLElicitationRequiredError) asks its pages and sends it again.
    return m_elicitations->callTool(std::move(params), std::move(done), timeoutMs);
}

void McpClientSession::listTools(std::function<void(const std::vector<json> &, const McpReply &)> done)
{
    m_toolList = std::make_shared<McpToolListPages>(m_stateless && m_transport->mirrorsToolParameters());
    listPage(nullptr, m_toolList, std::move(done));
}

void McpClientSession::listPage(const json &cursor, std::shared_ptr<McpToolListPages> pages,
                                std::function<void(const std::vector<json> &, const McpReply &)> done)
{
    json params = json::object();
    if (!cursor.is_null())
        params["cursor"] = cursor;
    request(QStringLiteral("tools/list"), params, [this, pages, done](const McpReply &reply) {
        if (!reply.ok()) {
            done({}, reply);
            return;
        }
        const McpToolListPages::Step step = pages->take(reply.result);
        switch (step.kind) {
        case McpToolListPages::Step::Kind::Failed:
            done({}, McpReply{{}, {}, step.failure});
            return;
        case McpToolListPages::Step::Kind::Next:
            listPage(step.cursor, pages, done);
            return;
        case McpToolListPages::Step::Kind::Done:
            if (pages->checksParameterHeaders())
                m_transport->setToolParameters(pages->takeParameters());
            done(pages->tools(), reply);
            return;
        }
    });
}

bool McpClientSession::sendMessage(const JsonRpcMessage &message)
{
    const QPointer<McpClientSession> alive(this);
    Q_EMIT messageExchanged(true, message);
    return alive && m_transport->send(message);
}

void McpClientSession::onMessage(const JsonRpcMessage &message)
{
    {
        const QPointer<McpClientSession> alive(this); // a slot may delete the session
        Q_EMIT messageExchanged(false, message);
        if (!alive)
            return;
    }
    if (m_subscriptions->take(message))
        return; // a subscription's: its slot may have deleted the session
    switch (message.kind) {
    case JsonRpcMessage::Kind::Result:
    case JsonRpcMessage::Kind::Error: {
        const qint64 id = message.id.is_number_integer() ? message.id.get<qint64>() : 0;
        if (id <= 0 || !m_pending.count(id)) {
            ++m_unmatchedResponses; // late (timed out, cancelled) or never sent
            return;
        }
        McpReply reply;
        if (message.kind == JsonRpcMessage::Kind::Result)
            reply.result = message.result;
        else
            reply.error = message.error.code != 0
                ? message.error
                : JsonRpcError{JsonRpcError::InternalError, message.error.message, message.error.data};
        finish(id, reply);
        return;
    }
    case JsonRpcMessage::Kind::Request:
        answerServerRequest(message);
        return;
    case JsonRpcMessage::Kind::Notification: {
        const QString method = QString::fromStdString(message.method);
        const QPointer<McpClientSession> alive(this); // a slot may delete the session
        Q_EMIT notificationReceived(method, message.params);
        if (alive && method == QLatin1String("notifications/tools/list_changed"))
            Q_EMIT toolsChanged();
        if (alive && method == QLatin1String("notifications/elicitation/complete"))
            m_elicitations->complete(message.params);
        if (alive && method == QLatin1String("notifications/cancelled") && message.params.is_object()) {
            // The server withdraws a request of its own that still waits for a person.
            const auto requestId = message.params.find("requestId");
            if (requestId != message.params.end() && JsonRpc::isValidId(*requestId) && !studioMintedId(*requestId)
                && m_serverRequests.erase(requestId->dump()) > 0)
                Q_EMIT serverRequestCancelled(*requestId);
        }
        return;
    }
    }
}

json McpClientSession::clientInfo()
{
    return {{"name", "toolstudio"}, {"title", "Tool Studio"}, {"version", "1.0"}};
}

json McpClientSession::clientCapabilities()
{
    // 2025-06-18 spells elicitation as {}; 2025-11-25 adds modes, {} meaning form only.
    // "form" is named for 2025-11-25 servers; older ones ignore the member. Sampling
    // takes tools (2025-11-25, SamplingTools); a 2025-06-18 server ignores "tools".
    return {{"roots", {{"listChanged", false}}},
            {"sampling", {{"tools", json::object()}}},
            {"elicitation", {{"form", json::object()}, {"url", json::object()}}}};
}

void McpClientSession::onRefused(const QString &reason, const json &id)
{
    ++m_refusedMessages;
    if (m_subscriptions->takeRefusal(id, reason))
        return;
    // A reply the session cannot read (nested too deep, too many values, …) still ends
    // its request now, rather than at its timeout.
    if (!id.is_number_integer() || !m_pending.count(id.get<qint64>()))
        return;
    const qint64 request = id.get<qint64>();
    finish(request,
           McpReply{{},
                    {},
                    QStringLiteral("the server's reply to request %1 could not be read: %2").arg(request).arg(reason)});
}

void McpClientSession::onFinished(const QString &why)
{
    const QString text = withStderr(QStringLiteral("the server %1").arg(why), m_transport->stderrTail());
    switch (m_state) {
    case State::Initializing:
        fail(text);
        return;
    case State::Ready:
        m_state = State::Closed;
        m_subscriptions->end(false);
        if (failAll(text))
            Q_EMIT closed(text);
        return;
    default:
        return;
    }
}

void McpClientSession::finish(qint64 id, const McpReply &reply)
{
    const auto found = m_pending.find(id);
    if (found == m_pending.end())
        return;
    Pending entry = std::move(found->second);
    m_pending.erase(found);
    dropTimer(entry.timer);
    entry.done(reply);
}

QTimer *McpClientSession::requestTimer()
{
    if (!m_spareTimers.empty()) {
        QTimer *timer = m_spareTimers.back();
        m_spareTimers.pop_back();
        return timer;
    }
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    return timer;
}

void McpClientSession::dropTimer(QTimer *timer)
{
    // Not deleted now: finish() may run inside this timer's own timeout (a single-shot
    // QTimer touches nothing of itself after emitting timeout()).
    timer->stop();
    timer->disconnect(); // its timeout's handler, whichever object it was connected to
    if (timer->parent() == this && m_spareTimers.size() < MaxSpareTimers) // not McpHandshake's
        m_spareTimers.push_back(timer);
    else
        timer->deleteLater();
}

bool McpClientSession::failAll(const QString &why)
{
    m_serverRequests.clear(); // nothing can answer them any more
    // 2026 calls: a round in flight fails with its call below.
    const std::vector<ReplyHandler> inputCalls = m_inputRounds->takeAll();
    std::map<qint64, Pending> pending;
    pending.swap(m_pending);
    // Calls answered -32042: their retry in flight, if any, is among `pending`.
    const std::vector<ReplyHandler> elicitationCalls = m_elicitations->takeAll();
    // The timers first: a callback may delete the session, and its timers with it.
    for (auto &[id, entry] : pending)
        dropTimer(entry.timer);
    const QPointer<McpClientSession> alive(this);
    for (auto &[id, entry] : pending)
        entry.done(McpReply{{}, {}, why}); // each callback once, even after one deleted the session
    for (const ReplyHandler &done : inputCalls)
        done(McpReply{{}, {}, why});
    for (const ReplyHandler &done : elicitationCalls)
        done(McpReply{{}, {}, why});
    return !alive.isNull();
}

void McpClientSession::fail(const QString &why)
{
    if (m_state == State::Failed)
        return;
    m_state = State::Failed;
    m_subscriptions->end(false);
    m_failure = why.contains(QLatin1String("its stderr ends with")) ? why : withStderr(why, m_transport->stderrTail());
    if (!failAll(m_failure))
        return;
    m_transport->stop();
    Q_EMIT failed(m_failure);
}
