// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpserversession.h"

#include "mcpstudiotools.h"
#include "servedstepmode.h"

#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "engine/toolcall.h"
#include "journal/journal.h"
#include "mcp/mcprevision.h"
#include "project/printabletext.h"

#include <QDateTime>
#include <QPointer>
#include <QTimer>

using nlohmann::json;

namespace {

constexpr const char *ServerName = "toolstudio";

JsonRpcMessage failure(const json &id, std::int64_t code, const std::string &message)
{
    JsonRpcError error;
    error.code = code;
    error.message = message;
    return JsonRpcMessage::errorFor(id, error);
}

/// A tool's schema as MCP wants it: an object schema ("type": "object" added when the
/// declaration leaves it out).
json objectSchema(const json &schema)
{
    json served = schema.is_object() ? schema : json::object();
    if (!served.contains("type"))
        served["type"] = "object";
    return served;
}

/// True when MCP can carry the tool's results as structuredContent: its output schema
/// describes an object.
bool servesStructured(const Tool &tool)
{
    return tool.outputSchema && tool.outputSchema->is_object() && tool.outputSchema->value("type", json()) == "object";
}

/// A value as the text of a content block: a string as it is, anything else as JSON.
std::string asText(const json &value)
{
    return value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

bool McpServerSession::isSessionScript(const QString &scriptPath)
{
    return scriptPath.startsWith(QLatin1String("(MCP ")) && scriptPath.endsWith(QLatin1Char(')'));
}

McpServerSession::McpServerSession(const Project &project, const QString &transport, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_transport(transport)
    , m_progress(new QTimer(this))
{
    m_progress->setInterval(ProgressIntervalMs);
    connect(m_progress, &QTimer::timeout, this, [this] { sendProgress(); });
}

void McpServerSession::enableStudioTools()
{
    if (!m_studio)
        m_studio = new McpStudioTools(m_project, this);
}

McpServerSession::~McpServerSession()
{
    end(QStringLiteral("the server stopped"));
}

void McpServerSession::receive(std::string_view text, Reply reply)
{
    if (m_ended) {
        reply(failure(nullptr, JsonRpcError::InvalidRequest, "the session has ended; start a new one"));
        return;
    }
    const JsonRpcDecoded decoded = JsonRpc::decode(text);
    if (!decoded.message) {
        reply(JsonRpcMessage::errorFor(decoded.problemId, decoded.problem));
        return;
    }
    handle(*decoded.message, reply);
}

void McpServerSession::receive(const JsonRpcMessage &message, Reply reply, quint64 exchange,
                               McpSubscriptions::Send stream)
{
    if (m_ended) {
        reply(failure(message.id, JsonRpcError::InvalidRequest, "the session has ended; start a new one"));
        return;
    }
    m_exchange = exchange; // handle() takes a call in synchronously
    m_stream = std::move(stream);
    handle(message, reply);
    m_exchange = 0;
    m_stream = nullptr;
}

void McpServerSession::handle(const JsonRpcMessage &message, const Reply &reply)
{
    using Kind = JsonRpcMessage::Kind;
    if (message.kind == Kind::Result || message.kind == Kind::Error || message.kind == Kind::Notification) {
        // notifications/initialized, …: nothing to answer.
        if (message.method == "notifications/cancelled" && message.params.is_object()) {
            const json reason = message.params.value("reason", json());
            cancelRequest(message.params.value("requestId", json()),
                          reason.is_string() ? QStringLiteral("the client cancelled the request: %1")
                                                   .arg(QString::fromStdString(reason.get<std::string>()).left(200))
                                             : QStringLiteral("the client cancelled the request"));
        }
        reply(std::nullopt);
        return;
    }
    const json &id = message.id;
    // A request's id must not be one still open (a call running, a subscription): its
    // reply would be the second with that id (attack29 F3: tools/list was answered).
    if (refusedAsInUse(id, reply))
        return;
    if (message.method != "initialize" && (McpRevision::declaresVersion(message.params) || !initialized())) {
        const bool withMeta = message.params.is_object() && message.params.contains("_meta");
        if (!initialized() && !withMeta && message.method != "server/discover") {
            // Neither era's request: a 2025 client that skipped initialize, or a 2026 one
            // that forgot _meta.
            reply(failure(id, JsonRpcError::InvalidRequest,
                          "the session is not initialized: send initialize first (2025-11-25, 2025-06-18), or "
                          "send _meta with \""
                              + std::string(McpRevision::ProtocolVersionKey) + "\": \""
                              + std::string(McpRevision::Modern) + "\" with every request (2026-07-28)"));
            return;
        }
        // The 2026 era: the request says its version itself (a missing or malformed one
        // is answered by readRequestMeta's error).
        handleModern(message, reply);
        return;
    }
    if (message.method == "ping") {
        reply(JsonRpcMessage::resultFor(id, json::object()));
        return;
    }
    if (message.method == "initialize") {
        if (initialized())
            reply(failure(id, JsonRpcError::InvalidRequest, "the session is initialized already"));
        else
            reply(initialize(message));
        return;
    }
    if (message.method != "tools/list" && message.method != "tools/call") {
        reply(failure(id, JsonRpcError::MethodNotFound,
                      "method '" + message.method.substr(0, 64)
                          + "' is not served; this server has initialize, ping, tools/list and tools/call"));
        return;
    }
    if (message.method == "tools/list") {
        if (!message.params.is_null() && !message.params.is_object()) {
            reply(failure(id, JsonRpcError::InvalidParams, "tools/list takes an object of params"));
            return;
        }
        reply(JsonRpcMessage::resultFor(id, {{"tools", toolList()}}));
        return;
    }
    callTool(message, reply, false);
}

void McpServerSession::handleModern(const JsonRpcMessage &message, const Reply &reply)
{
    const json &id = message.id;
    JsonRpcError error;
    const std::optional<McpRevision::RequestMeta> meta = McpRevision::readRequestMeta(message.params, &error);
    if (!meta) {
        reply(JsonRpcMessage::errorFor(id, error));
        return;
    }
    if (m_clientName.empty() && !m_engine)
        m_clientName = meta->clientName(); // names the run, as initialize's clientInfo does
    if (message.method == "server/discover") {
        reply(JsonRpcMessage::resultFor(id,
                                        complete({{"supportedVersions", McpRevision::serverVersions()},
                                                  {"capabilities", capabilities(true)},
                                                  {"serverInfo", serverInfo()},
                                                  {"instructions", instructions()},
                                                  {"ttlMs", ListTtlMs},
                                                  {"cacheScope", "public"}})));
        return;
    }
    if (message.method == "tools/list") {
        reply(JsonRpcMessage::resultFor(
            id, complete({{"tools", toolList()}, {"ttlMs", ListTtlMs}, {"cacheScope", "public"}})));
        return;
    }
    if (message.method == "tools/call") {
        callTool(message, reply, true);
        return;
    }
    if (message.method == "subscriptions/listen") {
        McpSubscriptions::Send stream = m_stream;
        if (!stream && notify)
            // stdio: one channel for all; `notify` is read when a message goes out (the
            // transport may have let go of the session by then).
            stream = [self = QPointer<McpServerSession>(this)](const JsonRpcMessage &notice) {
                if (self && self->notify)
                    self->notify(notice);
            };
        if (!stream) {
            reply(
                failure(id, JsonRpcError::InternalError, "this transport cannot carry a subscription's notifications"));
            return;
        }
        m_subscriptions.open(message, std::move(stream), reply, m_idsPerExchange ? m_exchange : 0);
        return;
    }
    reply(failure(id, JsonRpcError::MethodNotFound,
                  "method '" + message.method.substr(0, 64) + "' is not served in " + std::string(McpRevision::Modern)
                      + "; this server has server/discover, tools/list, tools/call and subscriptions/listen"));
}

bool McpServerSession::refusedAsInUse(const json &id, const Reply &reply) const
{
    if (m_idsPerExchange)
        return false;
    const char *user = m_subscriptions.contains(id) ? "a subscription still open" : nullptr;
    for (const auto &[callId, call] : m_calls)
        if (call.requestId == id)
            user = "a call still running";
    if (user)
        reply(failure(id, JsonRpcError::InvalidRequest,
                      "request id " + id.dump().substr(0, 64) + " is in use by " + user));
    return user != nullptr;
}

json McpServerSession::capabilities(bool modern) const
{
    // In 2026-07-28 nothing arrives unasked: a change notification comes on a
    // subscriptions/listen stream, which every transport carries.
    return {{"tools", {{"listChanged", modern || m_listChangedNotices}}}};
}

bool McpServerSession::setProject(const Project &project)
{
    const json before = toolList();
    m_project = project;
    if (m_engine)
        m_engine->setProject(m_project);
    if (toolList() == before)
        return false;
    if (m_listChangedNotices && initialized() && !m_ended && notify)
        notify(JsonRpcMessage::notification("notifications/tools/list_changed", json()));
    // A 2026-era client hears of it on its subscription; without one it lists again
    // when its ttlMs has passed.
    m_subscriptions.toolsChanged();
    return true;
}

json McpServerSession::serverInfo() const
{
    return {{"name", ServerName}, {"title", "Tool Studio: " + m_project.name.toStdString()}, {"version", "1.0"}};
}

std::string McpServerSession::instructions() const
{
    return "The tools of the Tool Studio project '" + m_project.name.toStdString()
        + "'. Each call is recorded as a step of a run; a manual tool waits for a person.";
}

json McpServerSession::complete(json result) const
{
    result["resultType"] = McpRevision::Complete;
    result["_meta"][McpRevision::ServerInfoKey] = serverInfo();
    return result;
}

JsonRpcMessage McpServerSession::initialize(const JsonRpcMessage &message)
{
    const json &params = message.params;
    if (!params.is_object() || !params.contains("protocolVersion") || !params["protocolVersion"].is_string())
        return failure(message.id, JsonRpcError::InvalidParams,
                       "initialize needs params with a string protocolVersion (e.g. \"2025-11-25\")");
    // The client's revision when this server speaks it, else the latest this server
    // speaks (the client then decides whether it can go on).
    const std::string asked = params["protocolVersion"].get<std::string>();
    m_version = McpRevision::isLegacyServed(asked) ? asked : std::string(LatestVersion);
    if (params.contains("clientInfo") && params["clientInfo"].is_object()) {
        // Read as a 2026 request's _meta.clientInfo is: 64 bytes, cut on a UTF-8 boundary.
        McpRevision::RequestMeta meta;
        meta.clientInfo = params["clientInfo"];
        m_clientName = meta.clientName();
    }
    return JsonRpcMessage::resultFor(message.id,
                                     {{"protocolVersion", m_version},
                                      {"capabilities", capabilities(false)},
                                      {"serverInfo", serverInfo()},
                                      {"instructions", instructions()}});
}

json McpServerSession::toolList() const
{
    json tools = json::array();
    for (const Tool &tool : m_project.tools) {
        if (!tool.active)
            continue;
        json entry = {{"name", tool.name.toStdString()},
                      {"description", tool.description.toStdString()},
                      {"inputSchema", objectSchema(tool.inputSchema)}};
        if (!tool.title.isEmpty())
            entry["title"] = tool.title.toStdString();
        if (servesStructured(tool))
            entry["outputSchema"] = *tool.outputSchema;
        if (tool.annotations.is_object() && !tool.annotations.empty())
            entry["annotations"] = tool.annotations;
        tools.push_back(std::move(entry));
    }
    if (m_studio)
        for (json &entry : McpStudioTools::toolList())
            tools.push_back(std::move(entry));
    return tools;
}

void McpServerSession::callTool(const JsonRpcMessage &message, const Reply &reply, bool modern)
{
    const json &id = message.id;
    const json &params = message.params;
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
        reply(failure(id, JsonRpcError::InvalidParams, "tools/call needs params with a string name"));
        return;
    }
    const json arguments = params.value("arguments", json::object());
    if (!arguments.is_object()) {
        reply(failure(id, JsonRpcError::InvalidParams, "tools/call's arguments must be an object"));
        return;
    }
    const QString name = QString::fromStdString(params["name"].get<std::string>());
    if (m_studio && McpStudioTools::isStudioTool(name)) {
        // Answered from the journal, not a step of this session's run.
        const int key = ++m_nextStudioCall;
        m_studioCalls.emplace(key, std::make_tuple(id, reply, modern));
        QPointer<McpServerSession> self(this);
        m_studio->call(name, arguments, [self, key](json result) {
            if (!self)
                return;
            const auto waiting = self->m_studioCalls.find(key);
            if (waiting == self->m_studioCalls.end())
                return; // the session ended and answered it
            const auto [requestId, replyTo, isModern] = std::move(waiting->second);
            self->m_studioCalls.erase(waiting);
            replyTo(
                JsonRpcMessage::resultFor(requestId, isModern ? self->complete(std::move(result)) : std::move(result)));
        });
        return;
    }
    const Tool *tool = m_project.tool(name);
    if (!tool || !tool->active) {
        reply(failure(id, JsonRpcError::InvalidParams,
                      "unknown tool '" + name.left(128).toStdString() + "'; tools/list lists the tools served"));
        return;
    }
    QString error;
    if (!ensureRun(&error)) {
        reply(failure(id, JsonRpcError::InternalError, error.toStdString()));
        return;
    }
    Call call;
    call.requestId = id;
    call.tool = name;
    call.reply = reply;
    call.modern = modern;
    call.structured = servesStructured(*tool);
    call.exchange = m_exchange;
    if (params.contains("_meta") && params["_meta"].is_object()) {
        const json token = params["_meta"].value("progressToken", json());
        if (JsonRpc::isValidId(token))
            call.progressToken = token;
    }
    BridgeCall bridge;
    bridge.id = "mcp-" + std::to_string(++m_nextCall);
    bridge.tool = name.toStdString();
    bridge.args = arguments;
    bridge.argsBytes = arguments.dump(-1, ' ', false, json::error_handler_t::replace).size();
    m_calls.emplace(bridge.id, std::move(call));
    m_engine->submitCall(bridge);
}

bool McpServerSession::ensureRun(QString *error)
{
    if (m_engine)
        return true;
    auto journal = std::make_unique<Journal>();
    if (!journal->open(m_project.journalPath(), error))
        return false;
    m_journal = std::move(journal);
    m_record.id = DirectToolCall::newRunId();
    m_record.projectDir = m_project.dir;
    m_record.scriptPath
        = QStringLiteral("(MCP %1%2)")
              .arg(m_transport,
                   m_clientName.empty() ? QString()
                                        : QStringLiteral(": ") + printableText(QString::fromStdString(m_clientName)));
    m_record.kind = RunKind::Served;
    m_record.status = RunStatus::Running;
    m_record.startedAt = QDateTime::currentMSecsSinceEpoch();
    m_journal->recordRun(m_record);
    m_engine = new StepEngine(m_project, m_record.id, m_journal.get(), {}, this);
    m_engine->setWorkDir(m_project.dir);
    connect(m_engine, &StepEngine::replyReady, this, &McpServerSession::onReply);
    const auto reportProgress = [this] {
        sendProgress();
        m_progress->start();
    };
    connect(m_engine, &StepEngine::pendingCallOpened, this, reportProgress);
    connect(m_engine, &StepEngine::stepPaused, this, reportProgress);
    if (m_stepMode)
        m_stepMode->add(m_engine, m_record.id);
    return true;
}

void McpServerSession::onReply(const std::string &callId, const std::string &line)
{
    const auto found = m_calls.find(callId);
    if (found == m_calls.end())
        return;
    Call call = std::move(found->second);
    m_calls.erase(found);
    const json reply = json::parse(line, nullptr, false);
    json result;
    if (reply.value("type", json()) == "result") {
        const json value = reply.value("value", json());
        result = {{"content", json::array({{{"type", "text"}, {"text", asText(value)}}})}, {"isError", false}};
        if (call.structured && value.is_object())
            result["structuredContent"] = value;
    } else {
        const json error = reply.value("error", json::object());
        const std::string text = error.value("code", std::string("tool_failed")) + ": "
            + error.value("message", std::string("the call failed"));
        result = {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", true}};
    }
    call.reply(
        JsonRpcMessage::resultFor(call.requestId, call.modern ? complete(std::move(result)) : std::move(result)));
}

void McpServerSession::sendProgress()
{
    if (!m_engine || (m_engine->pendingCount() == 0 && m_engine->pausedCount() == 0)) {
        m_progress->stop();
        return;
    }
    if (!notify)
        return;
    for (auto &[callId, call] : m_calls) {
        const Step *step = m_engine->step(QString::fromStdString(callId));
        if (call.progressToken.is_null() || !step || (step->status != StepStatus::Waiting && !step->paused))
            continue;
        const std::string what
            = step->paused ? "held by step mode until a person decides " : "waiting for a person to answer ";
        notify(JsonRpcMessage::notification(
            "notifications/progress",
            {{"progressToken", call.progressToken},
             {"progress", ++call.progress},
             {"message",
              what + call.tool.toStdString() + " (call " + m_record.id.toStdString() + "/" + callId + ")"}}));
    }
}

void McpServerSession::cancelRequest(const json &requestId, const QString &why, quint64 exchange)
{
    if (!JsonRpc::isValidId(requestId) || m_subscriptions.cancel(requestId, exchange))
        return;
    for (auto it = m_calls.begin(); it != m_calls.end(); ++it) {
        if (it->second.requestId != requestId || (exchange != 0 && it->second.exchange != exchange))
            continue;
        const std::string callId = it->first;
        const Reply reply = std::move(it->second.reply);
        m_calls.erase(it);
        // A cancelled step sends no reply (StepEngine::cancelStep); the request gets none either.
        m_engine->cancelStep(QString::fromStdString(callId), why);
        reply(std::nullopt);
        return;
    }
    // A studio tool's call answers from the journal at once: nothing to stop; its reply is
    // dropped (over HTTP, a closed exchange's reply goes nowhere anyway).
    if (exchange != 0)
        return;
    for (auto it = m_studioCalls.begin(); it != m_studioCalls.end(); ++it)
        if (std::get<0>(it->second) == requestId) {
            const Reply reply = std::move(std::get<1>(it->second));
            m_studioCalls.erase(it);
            reply(std::nullopt);
            return;
        }
}

void McpServerSession::end(const QString &why)
{
    if (m_ended)
        return;
    m_ended = true;
    endSubscriptions();
    m_progress->stop();
    std::map<int, std::tuple<nlohmann::json, Reply, bool>> studioCalls;
    studioCalls.swap(m_studioCalls);
    for (auto &[key, waiting] : studioCalls)
        std::get<1>(waiting)(
            failure(std::get<0>(waiting), JsonRpcError::InternalError, "the session ended: " + why.toStdString()));
    if (!m_engine)
        return;
    const bool cancelled = !m_calls.empty();
    m_engine->cancelAll(why);
    m_engine->flush();
    std::map<std::string, Call> calls;
    calls.swap(m_calls);
    for (auto &[callId, call] : calls)
        call.reply(
            failure(call.requestId, JsonRpcError::InternalError, "the call was cancelled: " + why.toStdString()));
    m_record.status = cancelled ? RunStatus::Cancelled : RunStatus::Completed;
    m_record.exitCode = 0;
    m_record.endedAt = QDateTime::currentMSecsSinceEpoch();
    if (cancelled)
        m_record.error = QStringLiteral("the MCP session ended with calls running: %1").arg(why);
    m_journal->recordRun(m_record);
}

void McpServerSession::endSubscriptions()
{
    m_subscriptions.closeAll(serverInfo());
}
