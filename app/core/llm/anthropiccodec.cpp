// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/anthropiccodec.h"

#include "jsoninput.h"
#include "project/jsonqt.h"
#include "project/manifestreader.h"

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

namespace {

int tokens(const json &usage, const char *key)
{
    if (!usage.is_object() || !usage.contains(key) || !usage[key].is_number_integer())
        return 0;
    // Unsigned first: get<qint64> of 2^63 .. 2^64-1 wrapped below 0, counted as 0 tokens (attack7).
    if (usage[key].is_number_unsigned())
        return int(qMin<quint64>(usage[key].get<quint64>(), quint64(std::numeric_limits<int>::max())));
    const auto value = usage[key].get<qint64>();
    return value < 0 ? 0 : int(qMin<qint64>(value, std::numeric_limits<int>::max()));
}

/// The neutral stop reasons (OpenAI's finish_reason words) for Anthropic's.
QString neutralStopReason(const std::string &reason)
{
    if (reason == "end_turn" || reason == "stop_sequence")
        return QStringLiteral("stop");
    if (reason == "tool_use")
        return QStringLiteral("tool_calls");
    if (reason == "max_tokens")
        return QStringLiteral("length");
    return JsonQt::fromStd(reason).left(64);
}

/// Appends `blocks` as a message of `role`, merged into the last one when it has the
/// same role (the API wants user and assistant turns to alternate).
void append(ordered_json &messages, const char *role, ordered_json blocks)
{
    if (!messages.empty() && messages.back()["role"] == role) {
        for (auto &block : blocks)
            messages.back()["content"].push_back(std::move(block));
        return;
    }
    messages.push_back(ordered_json{{"role", role}, {"content", std::move(blocks)}});
}

ordered_json textBlock(const json &text)
{
    return ordered_json{{"type", "text"}, {"text", text}};
}

/// A user message's content (text or parts, checked) as Messages blocks; "" or the
/// problem: Anthropic takes no audio.
QString userBlocks(const json &content, std::size_t index, ordered_json *blocks)
{
    if (!content.is_array()) {
        blocks->push_back(textBlock(content));
        return {};
    }
    for (std::size_t i = 0; i < content.size(); ++i) {
        const json &part = content[i];
        const std::string &type = part["type"].get_ref<const std::string &>();
        if (type == "text") {
            blocks->push_back(textBlock(part["text"]));
        } else if (type == "image_url") {
            const auto image = ModelMessage::dataUrl(part["image_url"]["url"].get_ref<const std::string &>());
            blocks->push_back(ordered_json{{"type", "image"},
                                           {"source",
                                            {{"type", "base64"},
                                             {"media_type", std::string(image->first)},
                                             {"data", std::string(image->second)}}}});
        } else {
            return QStringLiteral("messages[%1].content[%2]: Anthropic takes no audio (an %3 part); leave it out")
                .arg(index)
                .arg(i)
                .arg(JsonQt::fromStd(type));
        }
    }
    return {};
}

/// An assistant message's blocks; "" or the problem.
QString assistantBlocks(const json &message, std::size_t index, ordered_json *blocks)
{
    if (message.contains("content") && message["content"].is_string() && !message["content"].get<std::string>().empty())
        blocks->push_back(textBlock(message["content"]));
    if (!message.contains("tool_calls"))
        return {};
    for (std::size_t i = 0; i < message["tool_calls"].size(); ++i) {
        const json &call = message["tool_calls"][i];
        const std::string &text = call["function"]["arguments"].get_ref<const std::string &>();
        JsonInput::Problem problem;
        const json input = JsonInput::read<json>(text, &problem);
        if (!problem.reason.empty() || !input.is_object())
            return QStringLiteral("messages[%1].tool_calls[%2]: Anthropic takes a tool call's arguments as a JSON "
                                  "object, and these are %3")
                .arg(index)
                .arg(i)
                .arg(problem.reason.empty()
                         ? ManifestReader::typeName(input)
                         : QStringLiteral("not valid JSON (%1)").arg(JsonQt::fromStd(problem.reason)));
        blocks->push_back(ordered_json{{"type", "tool_use"},
                                       {"id", call["id"]},
                                       {"name", call["function"]["name"]},
                                       {"input", ordered_json(input)}});
    }
    return {};
}

} // namespace

namespace AnthropicCodec {

std::optional<ordered_json> buildRequest(const ModelConfig &model, const ModelRequest &request, QString *error)
{
    if (QString problem = ModelMessage::checkMessages(request.messages); !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    QStringList system;
    ordered_json messages = ordered_json::array();
    for (std::size_t i = 0; i < request.messages.size(); ++i) {
        const json &message = request.messages[i];
        const std::string &role = message["role"].get_ref<const std::string &>();
        if (role == "system") {
            if (!messages.empty()) {
                *error = QStringLiteral("messages[%1]: a 'system' message after the conversation started; Anthropic "
                                        "takes one system prompt, so put system messages first")
                             .arg(i);
                return std::nullopt;
            }
            system << JsonQt::fromStd(message["content"].get<std::string>());
        } else if (role == "user") {
            ordered_json blocks = ordered_json::array();
            if (QString problem = userBlocks(message["content"], i, &blocks); !problem.isEmpty()) {
                *error = problem;
                return std::nullopt;
            }
            append(messages, "user", std::move(blocks));
        } else if (role == "assistant") {
            ordered_json blocks = ordered_json::array();
            if (QString problem = assistantBlocks(message, i, &blocks); !problem.isEmpty()) {
                *error = problem;
                return std::nullopt;
            }
            if (!blocks.empty())
                append(messages, "assistant", std::move(blocks));
        } else { // tool
            ordered_json block
                = {{"type", "tool_result"}, {"tool_use_id", message["tool_call_id"]}, {"content", message["content"]}};
            if (message.value("is_error", nlohmann::json()) == true)
                block["is_error"] = true;
            append(messages, "user", ordered_json::array({std::move(block)}));
        }
    }
    if (messages.empty()) {
        *error = QStringLiteral("'messages' has no user message (only a system prompt)");
        return std::nullopt;
    }
    ordered_json body = ordered_json::object();
    body["model"] = model.model.toStdString();
    body["max_tokens"] = model.params.contains("max_tokens") ? ordered_json(model.params["max_tokens"])
                                                             : ordered_json(DefaultMaxTokens);
    if (!system.isEmpty())
        body["system"] = system.join(QStringLiteral("\n\n")).toStdString();
    body["messages"] = std::move(messages);
    if (!request.tools.empty()) {
        auto tools = ModelMessage::exportTools(request.tools, true, error);
        if (!tools)
            return std::nullopt;
        body["tools"] = std::move(*tools);
        // Messages' tool_choice: "required" is its "any" (at least one tool).
        if (!request.toolChoice.isEmpty())
            body["tool_choice"] = {
                {"type", request.toolChoice == QLatin1String("required") ? "any" : request.toolChoice.toStdString()}};
    }
    for (auto it = model.params.begin(); it != model.params.end(); ++it)
        if (it.key() != "max_tokens")
            body[it.key()] = ordered_json(it.value());
    return body;
}

std::optional<ModelReply> parseReply(std::string_view body, QString *error)
{
    const auto root = ModelMessage::readReply(body, error);
    if (!root)
        return std::nullopt;
    if (root->value("type", json()) == json("error")) {
        *error = QStringLiteral("the server answered with an error: %1").arg(errorMessage(body));
        return std::nullopt;
    }
    if (!root->contains("content") || !(*root)["content"].is_array()) {
        *error = QStringLiteral("the reply has no content array (is base_url a Messages API server?)");
        return std::nullopt;
    }
    if (root->contains("role") && (*root)["role"] != json("assistant")) {
        *error = QStringLiteral("the reply's role is %1, not \"assistant\"").arg(ModelMessage::quote((*root)["role"]));
        return std::nullopt;
    }
    std::string text;
    bool hasText = false;
    json calls = json::array();
    const json &content = (*root)["content"];
    for (std::size_t i = 0; i < content.size(); ++i) {
        const json &block = content[i];
        if (!block.is_object() || !block.contains("type") || !block["type"].is_string()) {
            *error = QStringLiteral("the reply's content[%1] is not a block with a 'type'").arg(i);
            return std::nullopt;
        }
        const std::string &type = block["type"].get_ref<const std::string &>();
        if (type == "text") {
            if (!block.contains("text") || !block["text"].is_string()) {
                *error = QStringLiteral("the reply's content[%1] (text) has no 'text' string").arg(i);
                return std::nullopt;
            }
            text += block["text"].get<std::string>();
            hasText = true;
        } else if (type == "tool_use") {
            for (const char *key : {"id", "name"})
                if (!block.contains(key) || !block[key].is_string() || block[key].get<std::string>().empty()) {
                    *error = QStringLiteral("the reply's content[%1] (tool_use) has no '%2'")
                                 .arg(i)
                                 .arg(QLatin1String(key));
                    return std::nullopt;
                }
            const json input = block.contains("input") ? block["input"] : json::object();
            calls.push_back(json{{"id", block["id"]},
                                 {"type", "function"},
                                 {"function", {{"name", block["name"]}, {"arguments", input.dump()}}}});
        }
        // thinking, redacted_thinking and blocks of later API versions are not part of
        // the neutral message.
    }
    ModelReply reply;
    reply.message = json{{"role", "assistant"}, {"content", hasText ? json(text) : json()}};
    if (!calls.empty())
        reply.message["tool_calls"] = std::move(calls);
    if (root->contains("stop_reason") && (*root)["stop_reason"].is_string()
        && !(*root)["stop_reason"].get_ref<const std::string &>().empty())
        reply.stopReason = neutralStopReason((*root)["stop_reason"].get<std::string>());
    else
        reply.stopReason = reply.message.contains("tool_calls") ? QStringLiteral("tool_calls") : QStringLiteral("stop");
    reply.model = ModelMessage::replyModel(*root);
    reply.stoppedAtSequence = root->value("stop_reason", json()) == json("stop_sequence");
    if (root->contains("usage")) {
        const json &usage = (*root)["usage"];
        const qint64 input = qint64(tokens(usage, "input_tokens")) + tokens(usage, "cache_creation_input_tokens")
            + tokens(usage, "cache_read_input_tokens");
        reply.inputTokens = int(qMin<qint64>(input, std::numeric_limits<int>::max()));
        reply.outputTokens = tokens(usage, "output_tokens");
    }
    ModelMessage::checkArguments(reply);
    return reply;
}

QString errorMessage(std::string_view body)
{
    QString ignored;
    const auto root = ModelMessage::readReply(body, &ignored);
    if (!root || !root->contains("error"))
        return {};
    const json &error = (*root)["error"];
    if (!error.is_object() || !error.contains("message") || !error["message"].is_string())
        return ModelMessage::quote(error);
    QString message = ModelMessage::quoteText(error["message"].get<std::string>());
    if (error.contains("type") && error["type"].is_string())
        message = ModelMessage::quoteText(error["type"].get<std::string>()) + QStringLiteral(": ") + message;
    return message;
}

} // namespace AnthropicCodec
