// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpexchangerecorder.h"

#include "mcp/mcprevision.h"

#include <QDateTime>

using nlohmann::json;

namespace {

std::string compact(const json &value)
{
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

const char *kindName(const json &message)
{
    if (message.contains("method"))
        return message.contains("id") ? "request" : "notification";
    return message.contains("error") ? "error" : "result";
}

/// The first `bytes` bytes of `text`, not cutting a UTF-8 sequence.
std::string head(const std::string &text, std::size_t bytes)
{
    if (text.size() <= bytes)
        return text;
    std::size_t end = bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end);
}

/// `params[name]` as the compact JSON of an id, "" when absent.
std::string idMember(const json &params, const char *name)
{
    if (!params.is_object())
        return {};
    const auto found = params.find(name);
    return found != params.end() && JsonRpc::isValidId(*found) ? found->dump() : std::string();
}

} // namespace

McpExchangeRecorder::McpExchangeRecorder(qint64 progressToken)
    : m_progressToken(progressToken)
    , m_startedAt(QDateTime::currentMSecsSinceEpoch())
{
    m_clock.start();
}

bool McpExchangeRecorder::take(Direction direction, const JsonRpcMessage &message)
{
    const bool sent = direction == Direction::Sent;
    switch (message.kind) {
    case JsonRpcMessage::Kind::Request: {
        if (!sent || message.method != "tools/call" || !message.params.is_object())
            return false;
        const auto meta = message.params.find("_meta");
        if (meta == message.params.end() || !meta->is_object())
            return false;
        const auto token = meta->find("progressToken");
        if (token == meta->end() || *token != json(m_progressToken))
            return false;
        m_callIds.insert(message.id.dump());
        add(direction, message);
        return true;
    }
    case JsonRpcMessage::Kind::Result:
    case JsonRpcMessage::Kind::Error: {
        const std::string id = message.id.dump();
        if (sent ? !m_serverIds.count(id) : !m_callIds.count(id))
            return false;
        // The final response: not an input_required round of multi round-trip requests,
        // nor a -32042 whose pages are asked before the call is sent again.
        const bool required = message.kind == JsonRpcMessage::Kind::Error && message.error.code == UrlRequiredCode;
        const bool final = !sent && !required
            && (message.kind == JsonRpcMessage::Kind::Error
                || McpRevision::resultType(message.result) != McpRevision::InputRequired);
        if (required && !sent)
            rememberElicitations(message.error.data);
        add(direction, message, final);
        return true;
    }
    case JsonRpcMessage::Kind::Notification:
        if (message.method == "notifications/progress" && !sent) {
            const json token = message.params.is_object() ? message.params.value("progressToken", json()) : json();
            if (token != json(m_progressToken))
                return false;
            add(direction, message);
            return true;
        }
        if (message.method == "notifications/elicitation/complete" && !sent) {
            const json id = message.params.is_object() ? message.params.value("elicitationId", json()) : json();
            if (!id.is_string() || !m_elicitationIds.count(id.get<std::string>()))
                return false;
            add(direction, message);
            return true;
        }
        if (message.method == "notifications/cancelled") {
            const std::string id = idMember(message.params, "requestId");
            if (id.empty() || !(sent ? m_callIds : m_serverIds).count(id))
                return false;
            add(direction, message, sent);
            return true;
        }
        return false;
    }
    return false;
}

void McpExchangeRecorder::rememberElicitations(const json &data)
{
    const json list = data.is_object() ? data.value("elicitations", json()) : json();
    if (!list.is_array())
        return;
    for (const json &item : list) {
        if (m_elicitationIds.size() >= MaxElicitationIds)
            return;
        const json id = item.is_object() ? item.value("elicitationId", json()) : json();
        if (id.is_string() && id.get_ref<const std::string &>().size() <= MaxIdBytes)
            m_elicitationIds.insert(id.get<std::string>());
    }
}

void McpExchangeRecorder::addServerRequest(const JsonRpcMessage &message)
{
    // Only a kept request's id is remembered (for its answer and its cancellation): a
    // server sending requests without end during one call grew this set without bound.
    const std::string id = message.id.dump();
    if (add(Direction::Received, message) && id.size() <= MaxIdBytes)
        m_serverIds.insert(id);
}

bool McpExchangeRecorder::add(Direction direction, const JsonRpcMessage &message, bool final)
{
    return addAt(direction, message.toJson(), m_clock.elapsed(), final);
}

McpExchangeRecorder::Prepared McpExchangeRecorder::prepare(json message)
{
    Prepared prepared;
    const std::string text = compact(message);
    prepared.bytes = text.size();
    if (text.size() <= MaxMessageBytes) {
        prepared.cost = text.size();
        prepared.fields = json::object();
        prepared.fields["message"] = std::move(message); // moved: a call's two messages are not copied
        return prepared;
    }
    // Method and id bounded too: a server's request with an 8 MiB method, kept whole
    // beside the head, made one attempt's record 227 MB.
    prepared.cost = HeadBytes;
    prepared.fields = json{{"kind", kindName(message)}};
    if (const auto method = message.find("method"); method != message.end() && method->is_string())
        prepared.fields["method"] = head(method->get<std::string>(), MaxIdBytes);
    if (const auto id = message.find("id"); id != message.end() && compact(*id).size() <= MaxIdBytes)
        prepared.fields["id"] = *id;
    prepared.fields["bytes"] = text.size();
    prepared.fields["head"] = head(text, HeadBytes);
    return prepared;
}

bool McpExchangeRecorder::addAt(Direction direction, json message, qint64 offsetMs, bool final)
{
    Prepared prepared = prepare(std::move(message));
    if (!admits(prepared, final))
        return false;
    store(direction, std::move(prepared.fields), prepared.cost, offsetMs);
    return true;
}

bool McpExchangeRecorder::addPrepared(Direction direction, const Prepared &prepared, bool final)
{
    if (!admits(prepared, final))
        return false;
    store(direction, prepared.fields, prepared.cost, m_clock.elapsed()); // copied: shared by several records
    return true;
}

bool McpExchangeRecorder::admits(const Prepared &prepared, bool final)
{
    ++m_revision;
    // The others leave the final response one place and MaxMessageBytes.
    const bool fits = final
        || (m_messages.size() + 1 < std::size_t(MaxMessages) && m_bytes + prepared.cost <= MaxBytes - MaxMessageBytes);
    if (!fits) {
        ++m_omittedMessages;
        m_omittedBytes += qint64(prepared.bytes);
    }
    return fits;
}

void McpExchangeRecorder::store(Direction direction, json fields, std::size_t cost, qint64 offsetMs)
{
    json entry{{"direction", direction == Direction::Sent ? "sent" : "received"}, {"offsetMs", offsetMs}};
    for (auto field = fields.begin(); field != fields.end(); ++field)
        entry[field.key()] = std::move(*field);
    m_messages.push_back(std::move(entry));
    m_bytes += cost;
}

json McpExchangeRecorder::takeJson()
{
    json exchange{{"startedAt", m_startedAt}, {"messages", std::move(m_messages)}};
    m_messages = json::array();
    if (m_omittedMessages > 0) {
        exchange["omittedMessages"] = m_omittedMessages;
        exchange["omittedBytes"] = m_omittedBytes;
    }
    return exchange;
}

json McpExchangeRecorder::toJson() const
{
    json exchange{{"startedAt", m_startedAt}, {"messages", m_messages}};
    if (m_omittedMessages > 0) {
        exchange["omittedMessages"] = m_omittedMessages;
        exchange["omittedBytes"] = m_omittedBytes;
    }
    return exchange;
}
