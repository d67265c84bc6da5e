// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpclientsession.h"

#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QMetaMethod>
#include <QPointer>

using nlohmann::json;

namespace {

/// Server text quoted in a failure (the end of its stderr, an error's message): enough
/// lines to show a stack trace's last frames or an npm error, not a whole log. Quoted
/// printable (printabletext.h): a server must not drive the terminal or the label
/// showing it.
constexpr qsizetype QuotedServerChars = 2000;

QString withStderr(const QString &why, const QString &stderrTail)
{
    const QString tail = stderrTail.trimmed();
    if (tail.isEmpty())
        return why;
    return QStringLiteral("%1; its stderr ends with:\n%2")
        .arg(why,
             printableLines(tail.size() > QuotedServerChars ? QStringLiteral("…") + tail.right(QuotedServerChars)
                                                            : tail));
}

/// A member that must be an object: anything else reads as an empty object, so that
/// reading its members never throws.
json objectMember(const json &object, const char *name)
{
    const auto found = object.find(name);
    return found != object.end() && found->is_object() ? *found : json::object();
}

} // namespace

QString McpReply::errorText() const
{
    if (!failure.isEmpty())
        return failure;
    if (error.code != 0)
        return QStringLiteral("%1: %2")
            .arg(error.code)
            .arg(elidedText(QString::fromStdString(error.message), QuotedServerChars));
    return {};
}

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
    m_transport->start();
    const json params = {
        {"protocolVersion", supportedVersions().first().toStdString()},
        {"capabilities", clientCapabilities()},
        {"clientInfo", {{"name", "toolstudio"}, {"title", "Tool Studio"}, {"version", "1.0"}}},
    };
    const qint64 id = m_nextId++;
    QTimer *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id] {
        finish(id,
               McpReply{{},
                        {},
                        QStringLiteral("the server did not answer initialize within %1 s")
                            .arg(decimalSeconds(m_initializeTimeoutMs))});
    });
    m_pending[id] = Pending{[this](const McpReply &reply) { onInitialized(reply); }, timer};
    timer->start(m_initializeTimeoutMs);
    m_transport->send(JsonRpcMessage::request(json(id), "initialize", params));
}

void McpClientSession::onInitialized(const McpReply &reply)
{
    if (!reply.ok()) {
        fail(reply.failure.isEmpty() ? QStringLiteral("initialize failed: %1").arg(reply.errorText()) : reply.failure);
        return;
    }
    const json &result = reply.result;
    const auto version = result.is_object() ? result.find("protocolVersion") : result.end();
    if (version == result.end() || !version->is_string()) {
        fail(QStringLiteral("the server's initialize result has no protocolVersion"));
        return;
    }
    const QString chosen = QString::fromStdString(version->get<std::string>());
    if (!supportedVersions().contains(chosen)) {
        fail(QStringLiteral("the server speaks MCP revision \"%1\", which the studio does not (it speaks %2)")
                 .arg(elidedText(chosen, 40), supportedVersions().join(QStringLiteral(", "))));
        return;
    }
    m_protocolVersion = chosen;
    m_serverInfo = objectMember(result, "serverInfo");
    m_serverCapabilities = objectMember(result, "capabilities");
    if (const auto text = result.find("instructions"); text != result.end() && text->is_string())
        m_instructions = QString::fromStdString(text->get<std::string>());
    m_transport->send(JsonRpcMessage::notification("notifications/initialized"));
    m_state = State::Ready;
    Q_EMIT ready();
}

void McpClientSession::close()
{
    if (m_state == State::Closed)
        return;
    const bool wasReady = m_state == State::Ready;
    m_state = State::Closed;
    if (!failAll(QStringLiteral("the session was closed")))
        return;
    m_transport->stop();
    if (wasReady)
        Q_EMIT closed(QStringLiteral("the session was closed"));
}

qint64 McpClientSession::request(const QString &method, json params, ReplyHandler done, int timeoutMs)
{
    if (m_state != State::Ready) {
        done(McpReply{{}, {}, QStringLiteral("the server is not connected")});
        return 0;
    }
    const qint64 id = m_nextId++;
    QTimer *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
        cancel(id, QStringLiteral("%1 timed out after %2 s").arg(method).arg(decimalSeconds(timeoutMs)));
    });
    m_pending[id] = Pending{std::move(done), timer};
    timer->start(timeoutMs);
    if (!m_transport->send(JsonRpcMessage::request(json(id), method.toStdString(), std::move(params)))) {
        // Not sent: it fails now, not at its timeout; later, as a reply would (the caller
        // keeps the id this returns).
        const QString why = QStringLiteral("%1 could not be sent: %2").arg(method, m_transport->sendRefusal());
        QTimer::singleShot(0, this, [this, id, why] { finish(id, McpReply{{}, {}, why}); });
    }
    return id;
}

void McpClientSession::cancel(qint64 id, const QString &reason)
{
    if (!m_pending.count(id))
        return;
    m_transport->forget(json(id)); // e.g. an event stream that would go on without it
    m_transport->send(
        JsonRpcMessage::notification("notifications/cancelled", {{"requestId", id}, {"reason", reason.toStdString()}}));
    finish(id, McpReply{{}, {}, reason});
}

qint64 McpClientSession::callTool(const QString &name, const json &arguments, const json &meta, ReplyHandler done,
                                  int timeoutMs)
{
    json params = {{"name", name.toStdString()}, {"arguments", arguments}};
    if (meta.is_object() && !meta.empty())
        params["_meta"] = meta;
    return request(QStringLiteral("tools/call"), std::move(params), std::move(done), timeoutMs);
}

void McpClientSession::listTools(std::function<void(const std::vector<json> &, const McpReply &)> done)
{
    m_droppedListEntries = 0;
    m_duplicateToolNames.clear();
    listPage(nullptr, 1, std::make_shared<ListedTools>(), std::move(done));
}

void McpClientSession::listPage(const json &cursor, int page, std::shared_ptr<ListedTools> tools,
                                std::function<void(const std::vector<json> &, const McpReply &)> done)
{
    json params = json::object();
    if (!cursor.is_null())
        params["cursor"] = cursor;
    request(QStringLiteral("tools/list"), params, [this, page, tools, done](const McpReply &reply) {
        if (!reply.ok()) {
            done({}, reply);
            return;
        }
        const json &result = reply.result;
        const auto list = result.is_object() ? result.find("tools") : result.end();
        if (list == result.end() || !list->is_array()) {
            done({}, McpReply{{}, {}, QStringLiteral("the server's tools/list result has no \"tools\" array")});
            return;
        }
        // Each page is bounded by the transport; what the pages add up to is bounded here.
        tools->bytes += list->dump(-1, ' ', false, json::error_handler_t::replace).size();
        if (tools->bytes > MaxListedToolBytes) {
            done({},
                 McpReply{{},
                          {},
                          QStringLiteral("the server's tools/list pages add up to more than %1 MiB (at page %2); "
                                         "the studio stopped there")
                              .arg(MaxListedToolBytes >> 20)
                              .arg(page)});
            return;
        }
        // An entry that is not an object with a string name is no tool: consumers read
        // members of each (`mcp list --json` aborted on a number in the list).
        for (const json &tool : *list) {
            const auto name = tool.is_object() ? tool.find("name") : tool.end();
            if (!tool.is_object() || name == tool.end() || !name->is_string()) {
                ++m_droppedListEntries;
                continue;
            }
            // A name listed again (on any page) would be a second tool of the same name:
            // the first is kept, the others named (duplicateToolNames).
            if (!tools->names.insert(name->get<std::string>()).second) {
                const QString again = QString::fromStdString(name->get<std::string>());
                if (!m_duplicateToolNames.contains(again) && m_duplicateToolNames.size() < MaxNamedDuplicates)
                    m_duplicateToolNames << again;
                continue;
            }
            tools->tools.push_back(tool);
        }
        const auto next = result.find("nextCursor");
        if (next == result.end() || next->is_null()) {
            done(tools->tools, reply);
            return;
        }
        if (!next->is_string()) {
            done({}, McpReply{{}, {}, QStringLiteral("the server's tools/list nextCursor is not a string")});
            return;
        }
        if (page >= MaxListPages) {
            done({},
                 McpReply{{}, {}, QStringLiteral("the server's tools/list goes on past %1 pages").arg(MaxListPages)});
            return;
        }
        listPage(*next, page + 1, tools, done);
    });
}

void McpClientSession::onMessage(const JsonRpcMessage &message)
{
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
        if (alive && method == QLatin1String("notifications/cancelled") && message.params.is_object()) {
            // The server withdraws a request of its own that still waits for a person.
            const auto requestId = message.params.find("requestId");
            if (requestId != message.params.end() && JsonRpc::isValidId(*requestId)
                && m_serverRequests.erase(requestId->dump()) > 0)
                Q_EMIT serverRequestCancelled(*requestId);
        }
        return;
    }
    }
}

json McpClientSession::clientCapabilities()
{
    // 2025-06-18 spells elicitation as {}; 2025-11-25 adds modes, {} meaning form only.
    // "form" is named for 2025-11-25 servers; older ones ignore the member.
    return {
        {"roots", {{"listChanged", false}}}, {"sampling", json::object()}, {"elicitation", {{"form", json::object()}}}};
}

bool McpClientSession::respond(const json &id, json result)
{
    if (m_serverRequests.erase(id.dump()) == 0)
        return false;
    return m_transport->send(JsonRpcMessage::resultFor(id, std::move(result)));
}

bool McpClientSession::respondError(const json &id, JsonRpcError error)
{
    if (m_serverRequests.erase(id.dump()) == 0)
        return false;
    return m_transport->send(JsonRpcMessage::errorFor(id, std::move(error)));
}

void McpClientSession::answerServerRequest(const JsonRpcMessage &message)
{
    if (message.method == "ping") {
        m_transport->send(JsonRpcMessage::resultFor(message.id, json::object()));
        return;
    }
    if (message.method == "roots/list") {
        m_transport->send(JsonRpcMessage::resultFor(message.id, {{"roots", m_roots}}));
        return;
    }
    if (message.method == "elicitation/create" || message.method == "sampling/createMessage") {
        const std::string key = message.id.dump();
        const auto refuse = [&](const std::string &why) {
            m_transport->send(
                JsonRpcMessage::errorFor(message.id, JsonRpcError{JsonRpcError::InvalidRequest, why, nullptr}));
        };
        if (key.size() > MaxServerRequestIdBytes) { // answered without echoing it
            m_transport->send(
                JsonRpcMessage::errorFor(nullptr,
                                         JsonRpcError{JsonRpcError::InvalidRequest,
                                                      "a request id of " + std::to_string(key.size())
                                                          + " bytes; Tool Studio answers requests whose id has at most "
                                                          + std::to_string(MaxServerRequestIdBytes),
                                                      nullptr}));
            return;
        }
        if (m_state != State::Ready)
            return refuse("Tool Studio answers " + message.method + " only after initialization");
        if (!isSignalConnected(QMetaMethod::fromSignal(&McpClientSession::serverRequestReceived)))
            return refuse("Tool Studio asks a person for " + message.method
                          + " only while a tool of this server is called through it");
        if (m_serverRequests.count(key))
            return refuse("request id " + key.substr(0, 64) + " is already in use by an open request of this server");
        if (m_serverRequests.size() >= MaxOpenServerRequests)
            return refuse("too many open requests from this server (at most " + std::to_string(MaxOpenServerRequests)
                          + " wait for an answer at once)");
        m_serverRequests.insert(key);
        Q_EMIT serverRequestReceived(message.id, QString::fromStdString(message.method),
                                     message.params.is_object() ? message.params : json::object());
        return;
    }
    JsonRpcError error{JsonRpcError::MethodNotFound,
                       "Method not found: Tool Studio does not answer " + message.method.substr(0, 128) + " yet",
                       nullptr};
    m_transport->send(JsonRpcMessage::errorFor(message.id, std::move(error)));
}

void McpClientSession::onRefused(const QString &reason, const json &id)
{
    ++m_refusedMessages;
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

void McpClientSession::dropTimer(QTimer *timer)
{
    // Later, not now: finish() may run inside this timer's own timeout.
    timer->stop();
    timer->deleteLater();
}

bool McpClientSession::failAll(const QString &why)
{
    m_serverRequests.clear(); // nothing can answer them any more
    std::map<qint64, Pending> pending;
    pending.swap(m_pending);
    // The timers first: a callback may delete the session, and its timers with it.
    for (auto &[id, entry] : pending)
        dropTimer(entry.timer);
    const QPointer<McpClientSession> alive(this);
    for (auto &[id, entry] : pending)
        entry.done(McpReply{{}, {}, why}); // each callback once, even after one deleted the session
    return !alive.isNull();
}

void McpClientSession::fail(const QString &why)
{
    if (m_state == State::Failed)
        return;
    m_state = State::Failed;
    m_failure = why.contains(QLatin1String("its stderr ends with")) ? why : withStderr(why, m_transport->stderrTail());
    if (!failAll(m_failure))
        return;
    m_transport->stop();
    Q_EMIT failed(m_failure);
}
