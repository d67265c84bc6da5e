// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/modelmessage.h"

#include "exchange/toolexport.h"
#include "jsoninput.h"
#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "project/printabletext.h"

#include <initializer_list>

using json = nlohmann::json;

namespace {

QString fromStd(const std::string &text)
{
    return JsonQt::fromStd(text);
}

/// The first member of `object` not in `allowed`, or "".
QString unknownKey(const json &object, std::initializer_list<const char *> allowed)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool known = false;
        for (const char *key : allowed)
            known = known || it.key() == key;
        if (!known)
            return fromStd(it.key());
    }
    return {};
}

bool isString(const json &object, const char *key)
{
    return object.contains(key) && object[key].is_string();
}

QString checkToolCall(const json &call, const QString &where)
{
    if (!call.is_object())
        return QStringLiteral("%1 must be an object, not %2").arg(where, ManifestReader::typeName(call));
    if (const QString key = unknownKey(call, {"id", "type", "function"}); !key.isEmpty())
        return QStringLiteral("%1: unknown key '%2'").arg(where, ModelMessage::quoteText(key.toStdString()));
    if (!isString(call, "id") || call["id"].get_ref<const std::string &>().empty())
        return QStringLiteral("%1 needs an 'id' (a non-empty string)").arg(where);
    if (call.contains("type") && call["type"] != json("function"))
        return QStringLiteral("%1: 'type' must be \"function\"").arg(where);
    if (!call.contains("function") || !call["function"].is_object())
        return QStringLiteral("%1 needs 'function': {\"name\", \"arguments\"}").arg(where);
    const json &function = call["function"];
    if (const QString key = unknownKey(function, {"name", "arguments"}); !key.isEmpty())
        return QStringLiteral("%1.function: unknown key '%2'").arg(where, ModelMessage::quoteText(key.toStdString()));
    if (!isString(function, "name"))
        return QStringLiteral("%1.function needs a 'name' (a string)").arg(where);
    if (!isString(function, "arguments"))
        return QStringLiteral("%1.function needs 'arguments' (the arguments as JSON text)").arg(where);
    return {};
}

QString checkMessage(const json &message, const QString &where)
{
    if (!message.is_object())
        return QStringLiteral("%1 must be an object, not %2").arg(where, ManifestReader::typeName(message));
    if (!isString(message, "role"))
        return QStringLiteral("%1 needs a 'role': \"system\", \"user\", \"assistant\" or \"tool\"").arg(where);
    const std::string &role = message["role"].get_ref<const std::string &>();
    const bool hasText = isString(message, "content");
    if (role == "system" || role == "user") {
        if (const QString key = unknownKey(message, {"role", "content"}); !key.isEmpty())
            return QStringLiteral("%1: unknown key '%2' in a '%3' message")
                .arg(where, ModelMessage::quoteText(key.toStdString()), fromStd(role));
        if (!hasText)
            return QStringLiteral("%1: a '%2' message needs 'content' (a string)").arg(where, fromStd(role));
        return {};
    }
    if (role == "assistant") {
        if (const QString key = unknownKey(message, {"role", "content", "tool_calls"}); !key.isEmpty())
            return QStringLiteral("%1: unknown key '%2' in an 'assistant' message")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        const bool hasCalls
            = message.contains("tool_calls") && message["tool_calls"].is_array() && !message["tool_calls"].empty();
        if (message.contains("tool_calls") && !message["tool_calls"].is_array())
            return QStringLiteral("%1: 'tool_calls' must be an array").arg(where);
        if (message.contains("content") && !hasText && !message["content"].is_null())
            return QStringLiteral("%1: 'content' must be a string or null").arg(where);
        if (!hasText && !hasCalls)
            return QStringLiteral("%1: an 'assistant' message needs 'content' or 'tool_calls'").arg(where);
        if (hasCalls)
            for (std::size_t i = 0; i < message["tool_calls"].size(); ++i)
                if (QString problem
                    = checkToolCall(message["tool_calls"][i], where + QStringLiteral(".tool_calls[%1]").arg(i));
                    !problem.isEmpty())
                    return problem;
        return {};
    }
    if (role == "tool") {
        if (const QString key = unknownKey(message, {"role", "content", "tool_call_id", "is_error"}); !key.isEmpty())
            return QStringLiteral("%1: unknown key '%2' in a 'tool' message")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        if (!isString(message, "tool_call_id"))
            return QStringLiteral("%1: a 'tool' message needs 'tool_call_id' (the id of the call it answers)")
                .arg(where);
        if (!hasText)
            return QStringLiteral("%1: a 'tool' message needs 'content' (the result as text)").arg(where);
        if (message.contains("is_error") && !message["is_error"].is_boolean())
            return QStringLiteral("%1: 'is_error' must be true or false").arg(where);
        return {};
    }
    return QStringLiteral("%1: 'role' must be \"system\", \"user\", \"assistant\" or \"tool\", not \"%2\"")
        .arg(where, ModelMessage::quoteText(role));
}

} // namespace

json ModelReply::toJson() const
{
    json out = {{"message", message},
                {"usage", {{"input_tokens", inputTokens}, {"output_tokens", outputTokens}}},
                {"stop_reason", stopReason.toStdString()}};
    if (!argumentErrors.empty()) {
        json errors = json::object();
        for (const auto &[id, reason] : argumentErrors)
            errors[id.toStdString()] = reason.toStdString();
        out["argument_errors"] = std::move(errors);
    }
    return out;
}

namespace ModelMessage {

QString checkMessages(const json &messages)
{
    if (!messages.is_array())
        return QStringLiteral("'messages' must be an array of messages, not %1")
            .arg(ManifestReader::typeName(messages));
    if (messages.empty())
        return QStringLiteral("'messages' is empty; give at least one user message");
    for (std::size_t i = 0; i < messages.size(); ++i)
        if (QString problem = checkMessage(messages[i], QStringLiteral("messages[%1]").arg(i)); !problem.isEmpty())
            return problem;
    return {};
}

void checkArguments(ModelReply &reply)
{
    reply.argumentErrors.clear();
    if (!reply.message.contains("tool_calls"))
        return;
    for (const json &call : reply.message["tool_calls"]) {
        const QString id = fromStd(call["id"].get<std::string>());
        const std::string &text = call["function"]["arguments"].get_ref<const std::string &>();
        JsonInput::Problem problem;
        const json arguments = JsonInput::read<json>(text, &problem);
        if (!problem.reason.empty())
            reply.argumentErrors.emplace_back(id,
                                              QStringLiteral("arguments are not valid JSON: %1; they were: %2")
                                                  .arg(fromStd(problem.reason), quoteText(text)));
        else if (!arguments.is_object())
            reply.argumentErrors.emplace_back(
                id, QStringLiteral("arguments must be a JSON object, not %1").arg(ManifestReader::typeName(arguments)));
    }
}

std::optional<nlohmann::ordered_json> exportTools(const std::vector<Tool> &tools, bool anthropic, QString *error)
{
    QStringList refused;
    nlohmann::ordered_json list = ToolExport::exportTools(
        tools, anthropic ? ToolExport::Format::Anthropic : ToolExport::Format::OpenAIChat, false, &refused);
    if (!refused.isEmpty()) {
        *error = refused.join(QStringLiteral("; ")) + QStringLiteral(" (the model cannot be given this tool)");
        return std::nullopt;
    }
    return list;
}

std::optional<json> readReply(std::string_view body, QString *error)
{
    JsonInput::Problem problem;
    json value = JsonInput::read<json>(body, &problem);
    if (!problem.reason.empty()) {
        *error = QStringLiteral("the reply is not JSON: %1").arg(fromStd(problem.reason));
        if (problem.byte != std::string_view::npos)
            *error += QStringLiteral(" (byte offset %1)").arg(problem.byte);
        if (!body.empty())
            *error += QStringLiteral("; it begins: %1").arg(quoteText(body.substr(0, 80)));
        return std::nullopt;
    }
    if (!value.is_object()) {
        *error = QStringLiteral("the reply is not a JSON object but %1").arg(ManifestReader::typeName(value));
        return std::nullopt;
    }
    return value;
}

QString replyModel(const json &root)
{
    const auto model = root.is_object() ? root.find("model") : root.end();
    if (model == root.end() || !model->is_string())
        return {};
    const std::string &id = model->get_ref<const std::string &>();
    // Cut in bytes first (a reply of a megabyte of id), then in characters.
    return fromStd(id.substr(0, std::size_t(MaxModelIdChars) * 4)).left(MaxModelIdChars);
}

QString quote(const json &value)
{
    return quoteText(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

QString quoteText(std::string_view text)
{
    // Cut the bytes first: a reply may hold megabytes, and only the start is shown.
    const QByteArray head = QByteArray(text.data(), qsizetype(qMin<std::size_t>(text.size(), QuoteChars * 4)));
    const QString decoded = QString::fromUtf8(head);
    QString shown = elidedText(decoded, QuoteChars);
    // An escape shows a control character as up to six characters: 200 of them made a
    // 1 200-character quote (CI's fuzz_modelreply). Fewer are kept until it fits.
    for (qsizetype keep = QuoteChars / 2; shown.size() > QuoteChars + MaxNoteChars && keep > 0; keep /= 2)
        shown = elidedText(decoded, keep);
    return shown;
}

namespace {

QString textOf(const nlohmann::json &value)
{
    if (value.is_string())
        return printableText(QString::fromStdString(value.get<std::string>()));
    if (value.is_null())
        return {};
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

nlohmann::json valueAt(const nlohmann::json &object, const char *key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nlohmann::json() : *it;
}

} // namespace

QString conversationText(const nlohmann::json &messages)
{
    QStringList blocks;
    if (!messages.is_array())
        return {};
    for (const nlohmann::json &message : messages) {
        const QString role = textOf(valueAt(message, "role"));
        QString block = role;
        if (role == QLatin1String("tool"))
            block += QStringLiteral(" (%1%2)").arg(textOf(valueAt(message, "tool_call_id")),
                                                   valueAt(message, "is_error") == true ? QStringLiteral(", error")
                                                                                        : QString());
        const QString content = textOf(valueAt(message, "content"));
        block += content.isEmpty() ? QStringLiteral(":") : QStringLiteral(": ") + content;
        const nlohmann::json calls = valueAt(message, "tool_calls");
        for (const nlohmann::json &call : calls.is_array() ? calls : nlohmann::json::array()) {
            const nlohmann::json function = valueAt(call, "function");
            block += QStringLiteral("\n  \u2192 %1(%2)  [%3]")
                         .arg(textOf(valueAt(function, "name")), textOf(valueAt(function, "arguments")),
                              textOf(valueAt(call, "id")));
        }
        blocks << block;
    }
    return blocks.join(QStringLiteral("\n\n"));
}

} // namespace ModelMessage
