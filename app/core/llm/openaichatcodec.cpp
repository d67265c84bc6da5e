// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/openaichatcodec.h"

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

/// One entry of choices[0].message.tool_calls to the neutral shape; "" or the problem.
QString neutralToolCall(const json &call, std::size_t index, json *out)
{
    const QString where = QStringLiteral("choices[0].message.tool_calls[%1]").arg(index);
    if (!call.is_object())
        return QStringLiteral("%1 is not an object").arg(where);
    if (!call.contains("function") || !call["function"].is_object())
        return QStringLiteral("the reply has no %1.function").arg(where);
    const json &function = call["function"];
    if (!function.contains("name") || !function["name"].is_string() || function["name"].get<std::string>().empty())
        return QStringLiteral("the reply has no %1.function.name").arg(where);
    std::string arguments = "{}";
    if (function.contains("arguments")) {
        const json &value = function["arguments"];
        if (value.is_string())
            arguments = value.get<std::string>().empty() ? std::string("{}") : value.get<std::string>();
        else if (!value.is_null())
            arguments = value.dump(); // some servers send the object itself
    }
    std::string id = "call_" + std::to_string(index + 1);
    if (call.contains("id") && call["id"].is_string() && !call["id"].get<std::string>().empty())
        id = call["id"].get<std::string>();
    *out = json{{"id", id}, {"type", "function"}, {"function", {{"name", function["name"]}, {"arguments", arguments}}}};
    return {};
}

} // namespace

namespace OpenAIChatCodec {

std::optional<ordered_json> buildRequest(const ModelConfig &model, const ModelRequest &request, QString *error)
{
    if (QString problem = ModelMessage::checkMessages(request.messages); !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    ordered_json body = ordered_json::object();
    body["model"] = model.model.toStdString();
    ordered_json messages = ordered_json::array();
    for (const json &message : request.messages) {
        ordered_json out = ordered_json::object();
        out["role"] = message["role"];
        if (message.contains("tool_call_id"))
            out["tool_call_id"] = message["tool_call_id"];
        out["content"] = message.value("content", json());
        if (message.contains("tool_calls") && !message["tool_calls"].empty()) {
            ordered_json calls = ordered_json::array();
            for (const json &call : message["tool_calls"])
                calls.push_back(ordered_json{
                    {"id", call["id"]},
                    {"type", "function"},
                    {"function", {{"name", call["function"]["name"]}, {"arguments", call["function"]["arguments"]}}}});
            out["tool_calls"] = std::move(calls);
        }
        messages.push_back(std::move(out));
    }
    body["messages"] = std::move(messages);
    if (!request.tools.empty()) {
        auto tools = ModelMessage::exportTools(request.tools, false, error);
        if (!tools)
            return std::nullopt;
        body["tools"] = std::move(*tools);
        // Chat Completions' own words for MCP's modes.
        if (!request.toolChoice.isEmpty())
            body["tool_choice"] = request.toolChoice.toStdString();
    }
    for (auto it = model.params.begin(); it != model.params.end(); ++it)
        body[it.key()] = ordered_json(it.value());
    return body;
}

std::optional<ModelReply> parseReply(std::string_view body, QString *error)
{
    const auto root = ModelMessage::readReply(body, error);
    if (!root)
        return std::nullopt;
    if (root->contains("error") && !root->contains("choices")) {
        *error = QStringLiteral("the server answered with an error: %1").arg(errorMessage(body));
        return std::nullopt;
    }
    const json *choices = root->contains("choices") ? &(*root)["choices"] : nullptr;
    if (!choices || !choices->is_array() || choices->empty() || !(*choices)[0].is_object()
        || !(*choices)[0].contains("message") || !(*choices)[0]["message"].is_object()) {
        *error = QStringLiteral("the reply has no choices[0].message (is base_url a Chat Completions server?)");
        return std::nullopt;
    }
    const json &choice = (*choices)[0];
    const json &message = choice["message"];
    ModelReply reply;
    reply.message = json{{"role", "assistant"}, {"content", nullptr}};
    if (message.contains("content") && !message["content"].is_null()) {
        if (!message["content"].is_string()) {
            *error = QStringLiteral("the reply's choices[0].message.content is %1, not a string")
                         .arg(ManifestReader::typeName(message["content"]));
            return std::nullopt;
        }
        reply.message["content"] = message["content"];
    }
    if (message.contains("tool_calls") && !message["tool_calls"].is_null()) {
        if (!message["tool_calls"].is_array()) {
            *error = QStringLiteral("the reply's choices[0].message.tool_calls is %1, not an array")
                         .arg(ManifestReader::typeName(message["tool_calls"]));
            return std::nullopt;
        }
        json calls = json::array();
        for (std::size_t i = 0; i < message["tool_calls"].size(); ++i) {
            json call;
            if (QString problem = neutralToolCall(message["tool_calls"][i], i, &call); !problem.isEmpty()) {
                *error = problem;
                return std::nullopt;
            }
            calls.push_back(std::move(call));
        }
        if (!calls.empty())
            reply.message["tool_calls"] = std::move(calls);
    }
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string()
        && !choice["finish_reason"].get_ref<const std::string &>().empty())
        reply.stopReason = JsonQt::fromStd(choice["finish_reason"].get<std::string>()).left(64);
    else
        reply.stopReason = reply.message.contains("tool_calls") ? QStringLiteral("tool_calls") : QStringLiteral("stop");
    reply.model = ModelMessage::replyModel(*root);
    if (root->contains("usage")) {
        reply.inputTokens = tokens((*root)["usage"], "prompt_tokens");
        reply.outputTokens = tokens((*root)["usage"], "completion_tokens");
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
    if (error.is_string())
        return ModelMessage::quoteText(error.get<std::string>());
    if (error.is_object() && error.contains("message") && error["message"].is_string())
        return ModelMessage::quoteText(error["message"].get<std::string>());
    return ModelMessage::quote(error);
}

} // namespace OpenAIChatCodec
