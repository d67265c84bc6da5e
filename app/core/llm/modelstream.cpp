// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/modelstream.h"

#include "jsoninput.h"
#include "llm/anthropiccodec.h"
#include "llm/openaichatcodec.h"
#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "python/secrets.h"

using json = nlohmann::json;

namespace {

/// `text` cut to at most `bytes` bytes, not inside a UTF-8 sequence.
std::string_view utf8Prefix(std::string_view text, std::size_t bytes)
{
    if (text.size() <= bytes)
        return text;
    while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80)
        --bytes;
    return text.substr(0, bytes);
}

/// Bytes read past a preview's cut before masking, so a secret that straddles the cut is
/// still recognised and masked whole (a key is far shorter).
constexpr std::size_t MaskSlackBytes = 4096;

/// `text` cut at `chars` characters, masked with `secrets` before the cut.
QString previewText(std::string_view text, int chars, const Secrets *secrets)
{
    // Four bytes per character at most: the cut in bytes keeps `chars` characters or more.
    const std::string_view cut = utf8Prefix(text, std::size_t(chars) * 4 + MaskSlackBytes);
    QString result = QString::fromUtf8(cut.data(), qsizetype(cut.size()));
    if (secrets)
        result = secrets->mask(result);
    if (result.size() > chars || cut.size() < text.size())
        result = result.left(chars) + QStringLiteral("…");
    return result;
}

QString callLine(const std::string &name, std::string_view arguments, const Secrets *secrets)
{
    return QStringLiteral("→ %1(%2)").arg(previewText(name, 128, secrets), previewText(arguments, 200, secrets));
}

std::string stringOf(const json &object, const char *key)
{
    return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : std::string();
}

/// A non-negative integer `key` of `object` up to `max`; -1 when absent, -2 when bad.
int indexOf(const json &object, const char *key, int max)
{
    if (!object.contains(key))
        return -1;
    const json &value = object[key];
    if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<qint64>() < 0)
        || value.get<quint64>() > quint64(max))
        return -2;
    return int(value.get<quint64>());
}

} // namespace

ModelStream::ModelStream(Protocol protocol)
    : m_protocol(protocol)
{}

bool ModelStream::fail(Failure failure, const QString &reason, QString *error)
{
    m_failure = failure;
    *error = reason;
    return false;
}

bool ModelStream::add(const SseEvent &event, QString *error)
{
    if (m_failure != Failure::None)
        return fail(m_failure, QStringLiteral("the stream failed already"), error);
    if (m_ended)
        return true;
    ++m_events;
    if (m_protocol == Protocol::OpenAIChat && event.data == "[DONE]") {
        m_ended = true;
        return true;
    }
    QString problem;
    const std::optional<json> value = ModelMessage::readReply(event.data, &problem);
    if (!value)
        return fail(Failure::BadEvent, QStringLiteral("event %1 of the stream: %2").arg(m_events).arg(problem), error);
    return m_protocol == Protocol::OpenAIChat ? addOpenAI(*value, error) : addAnthropic(*value, error);
}

bool ModelStream::addOpenAI(const json &chunk, QString *error)
{
    const auto bad = [&](const QString &what) {
        return fail(Failure::BadEvent, QStringLiteral("event %1 of the stream: %2").arg(m_events).arg(what), error);
    };
    if (chunk.contains("error") && !chunk.contains("choices")) {
        const std::string text = chunk.dump(-1, ' ', false, json::error_handler_t::replace);
        return fail(
            Failure::ServerError,
            QStringLiteral("the server sent an error in the stream: %1").arg(OpenAIChatCodec::errorMessage(text)),
            error);
    }
    if (const auto model = chunk.find("model"); model != chunk.end() && model->is_string() && m_model.is_null())
        m_model = *model; // every chunk names it; the first is kept
    if (chunk.contains("usage") && !chunk["usage"].is_null()) {
        if (!chunk["usage"].is_object())
            return bad(QStringLiteral("'usage' is %1, not an object").arg(ManifestReader::typeName(chunk["usage"])));
        m_usage = chunk["usage"];
    }
    if (!chunk.contains("choices") || chunk["choices"].is_null())
        return true;
    if (!chunk["choices"].is_array())
        return bad(QStringLiteral("'choices' is %1, not an array").arg(ManifestReader::typeName(chunk["choices"])));
    for (const json &choice : chunk["choices"]) {
        if (!choice.is_object())
            return bad(QStringLiteral("a choice is %1, not an object").arg(ManifestReader::typeName(choice)));
        if (choice.contains("index") && choice["index"] != json(0))
            continue; // one reply is asked for (n = 1): another choice is not it
        if (choice.contains("finish_reason") && !choice["finish_reason"].is_null())
            m_finishReason = choice["finish_reason"];
        if (!choice.contains("delta") || choice["delta"].is_null())
            continue;
        const json &delta = choice["delta"];
        if (!delta.is_object())
            return bad(QStringLiteral("choices[0].delta is %1, not an object").arg(ManifestReader::typeName(delta)));
        if (delta.contains("content") && !delta["content"].is_null()) {
            if (!delta["content"].is_string())
                return bad(QStringLiteral("choices[0].delta.content is %1, not a string")
                               .arg(ManifestReader::typeName(delta["content"])));
            m_content += delta["content"].get_ref<const std::string &>();
            m_hasContent = true;
            m_changed = true;
        }
        if (!delta.contains("tool_calls") || delta["tool_calls"].is_null())
            continue;
        if (!delta["tool_calls"].is_array())
            return bad(QStringLiteral("choices[0].delta.tool_calls is %1, not an array")
                           .arg(ManifestReader::typeName(delta["tool_calls"])));
        for (std::size_t i = 0; i < delta["tool_calls"].size(); ++i) {
            const json &piece = delta["tool_calls"][i];
            if (!piece.is_object())
                return bad(QStringLiteral("choices[0].delta.tool_calls[%1] is not an object").arg(i));
            int index = indexOf(piece, "index", MaxIndex);
            if (index == -2)
                return bad(QStringLiteral("choices[0].delta.tool_calls[%1].index is not a number from 0 to %2")
                               .arg(i)
                               .arg(MaxIndex));
            if (index == -1) // a server that sends each call whole, without an index
                index = int(qMin<std::size_t>(i, MaxIndex));
            if (m_calls.size() <= std::size_t(index))
                m_calls.resize(std::size_t(index) + 1);
            Call &call = m_calls[std::size_t(index)];
            if (piece.contains("id") && piece["id"].is_string() && call.id.empty())
                call.id = piece["id"].get<std::string>();
            if (!piece.contains("function") || piece["function"].is_null())
                continue;
            const json &function = piece["function"];
            if (!function.is_object())
                return bad(QStringLiteral("choices[0].delta.tool_calls[%1].function is not an object").arg(i));
            if (function.contains("name") && function["name"].is_string() && call.name.empty())
                call.name = function["name"].get<std::string>();
            if (function.contains("arguments") && !function["arguments"].is_null()) {
                if (function["arguments"].is_string()) {
                    call.arguments += function["arguments"].get_ref<const std::string &>();
                } else { // some servers send the object itself, once
                    call.arguments = function["arguments"].dump();
                    call.argumentsAsObject = true;
                }
            }
            m_changed = true;
        }
    }
    return true;
}

bool ModelStream::addAnthropic(const json &event, QString *error)
{
    const auto bad = [&](const QString &what) {
        return fail(Failure::BadEvent, QStringLiteral("event %1 of the stream: %2").arg(m_events).arg(what), error);
    };
    if (!event.contains("type") || !event["type"].is_string())
        return bad(QStringLiteral("it has no 'type'"));
    const std::string &type = event["type"].get_ref<const std::string &>();
    if (type == "ping")
        return true;
    if (type == "error") {
        const std::string text = event.dump(-1, ' ', false, json::error_handler_t::replace);
        return fail(
            Failure::ServerError,
            QStringLiteral("the server sent an error in the stream: %1").arg(AnthropicCodec::errorMessage(text)),
            error);
    }
    if (type == "message_start") {
        if (m_started)
            return bad(QStringLiteral("a second message_start"));
        if (!event.contains("message") || !event["message"].is_object())
            return bad(QStringLiteral("message_start has no 'message' object"));
        m_message = event["message"];
        m_message.erase("content"); // empty when the stream starts; the blocks follow
        m_started = true;
        return true;
    }
    if (type == "message_stop") {
        if (!m_started)
            return bad(QStringLiteral("message_stop before message_start"));
        m_ended = true;
        return true;
    }
    if (type == "message_delta") {
        if (!m_started)
            return bad(QStringLiteral("message_delta before message_start"));
        if (event.contains("delta") && event["delta"].is_object())
            for (const auto &[key, value] : event["delta"].items())
                m_message[key] = value;
        if (event.contains("usage") && event["usage"].is_object()) {
            if (!m_message.contains("usage") || !m_message["usage"].is_object())
                m_message["usage"] = json::object();
            for (const auto &[key, value] : event["usage"].items())
                m_message["usage"][key] = value; // counts so far: the last one is the total
        }
        return true;
    }
    if (type != "content_block_start" && type != "content_block_delta" && type != "content_block_stop")
        return true; // an event of a later API version
    if (!m_started)
        return bad(QStringLiteral("%1 before message_start").arg(JsonQt::fromStd(type)));
    const int index = indexOf(event, "index", MaxIndex);
    if (index < 0)
        return bad(QStringLiteral("%1 has no 'index' from 0 to %2").arg(JsonQt::fromStd(type)).arg(MaxIndex));
    if (type == "content_block_start") {
        if (!event.contains("content_block") || !event["content_block"].is_object()
            || !event["content_block"].contains("type") || !event["content_block"]["type"].is_string())
            return bad(QStringLiteral("content_block_start has no 'content_block' with a 'type'"));
        if (m_blocks.size() <= std::size_t(index))
            m_blocks.resize(std::size_t(index) + 1);
        Block &block = m_blocks[std::size_t(index)];
        if (!block.start.is_null())
            return bad(QStringLiteral("content block %1 started twice").arg(index));
        block.start = event["content_block"];
        m_changed = true;
        return true;
    }
    if (m_blocks.size() <= std::size_t(index) || m_blocks[std::size_t(index)].start.is_null())
        return bad(
            QStringLiteral("%1 for content block %2, which did not start").arg(JsonQt::fromStd(type)).arg(index));
    Block &block = m_blocks[std::size_t(index)];
    if (block.stopped)
        return bad(QStringLiteral("%1 for content block %2, which stopped").arg(JsonQt::fromStd(type)).arg(index));
    if (type == "content_block_stop") {
        block.stopped = true;
        return true;
    }
    if (!event.contains("delta") || !event["delta"].is_object())
        return bad(QStringLiteral("content_block_delta has no 'delta' object"));
    const json &delta = event["delta"];
    const std::string deltaType = stringOf(delta, "type");
    const auto piece = [&](const char *key, std::string *into) {
        if (!delta.contains(key) || !delta[key].is_string())
            return bad(QStringLiteral("%1 has no '%2' string").arg(JsonQt::fromStd(deltaType), QLatin1String(key)));
        *into += delta[key].get_ref<const std::string &>();
        m_changed = true;
        return true;
    };
    if (deltaType == "text_delta")
        return piece("text", &block.text);
    if (deltaType == "input_json_delta") {
        block.hasInput = true;
        return piece("partial_json", &block.input);
    }
    return true; // thinking_delta, signature_delta, citations_delta: not in the neutral message
}

std::optional<ModelReply> ModelStream::reply(QString *error, const Secrets *secrets) const
{
    std::string body;
    if (m_protocol == Protocol::OpenAIChat) {
        json message = {{"role", "assistant"}, {"content", m_hasContent ? json(m_content) : json()}};
        if (!m_calls.empty()) {
            json calls = json::array();
            for (const Call &call : m_calls) {
                json out = {{"type", "function"}, {"function", {{"name", call.name}, {"arguments", call.arguments}}}};
                if (!call.id.empty())
                    out["id"] = call.id;
                calls.push_back(std::move(out));
            }
            message["tool_calls"] = std::move(calls);
        }
        json root
            = {{"choices",
                json::array({{{"index", 0}, {"message", std::move(message)}, {"finish_reason", m_finishReason}}})}};
        if (!m_usage.is_null())
            root["usage"] = m_usage;
        if (!m_model.is_null())
            root["model"] = m_model;
        try {
            body = root.dump();
        } catch (const json::exception &) { // invalid UTF-8 never passes the event reader; a backstop
            *error = QStringLiteral("the stream's message is not valid UTF-8");
            return std::nullopt;
        }
        if (secrets)
            body = secrets->mask(QByteArray::fromStdString(body)).toStdString();
        return OpenAIChatCodec::parseReply(body, error);
    }
    if (!m_started) {
        *error = QStringLiteral("the stream had no message_start");
        return std::nullopt;
    }
    json root = m_message;
    json content = json::array();
    for (std::size_t i = 0; i < m_blocks.size(); ++i) {
        const Block &block = m_blocks[i];
        if (block.start.is_null()) {
            *error = QStringLiteral("the stream's content block %1 never started").arg(i);
            return std::nullopt;
        }
        json out = block.start;
        const std::string &type = out["type"].get_ref<const std::string &>();
        if (type == "text") {
            out["text"]
                = (out.contains("text") && out["text"].is_string() ? out["text"].get<std::string>() : "") + block.text;
        } else if (type == "tool_use" && block.hasInput) {
            JsonInput::Problem problem;
            json input = JsonInput::read<json>(block.input, &problem);
            if (!problem.reason.empty()) {
                *error = QStringLiteral("the stream's content block %1 (tool_use): its input_json_delta pieces are "
                                        "not JSON: %2; they begin: %3")
                             .arg(i)
                             .arg(JsonQt::fromStd(problem.reason),
                                  ModelMessage::quoteText(std::string_view(block.input).substr(0, 80)));
                return std::nullopt;
            }
            out["input"] = std::move(input);
        }
        content.push_back(std::move(out));
    }
    root["content"] = std::move(content);
    try {
        body = root.dump();
    } catch (const json::exception &) { // invalid UTF-8 never passes the event reader; a backstop
        *error = QStringLiteral("the stream's message is not valid UTF-8");
        return std::nullopt;
    }
    if (secrets)
        body = secrets->mask(QByteArray::fromStdString(body)).toStdString();
    return AnthropicCodec::parseReply(body, error);
}

QString ModelStream::preview(const Secrets *secrets) const
{
    m_changed = false;
    QStringList lines;
    if (m_protocol == Protocol::OpenAIChat) {
        if (!m_content.empty())
            lines << previewText(m_content, PreviewChars, secrets);
        for (const Call &call : m_calls)
            lines << callLine(call.name, call.arguments, secrets);
        return lines.join(QLatin1Char('\n'));
    }
    std::string text;
    for (const Block &block : m_blocks) {
        if (block.start.is_null())
            continue;
        const std::string type = stringOf(block.start, "type");
        if (type == "text" && text.size() < std::size_t(PreviewChars) * 4 + MaskSlackBytes)
            text += block.text;
        else if (type == "tool_use")
            lines << callLine(stringOf(block.start, "name"), block.input, secrets);
    }
    if (!text.empty())
        lines.prepend(previewText(text, PreviewChars, secrets));
    return lines.join(QLatin1Char('\n'));
}
