// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/modelmessage.h"

#include "exchange/toolexport.h"
#include "jsoninput.h"
#include "project/jpegscans.h"
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

QString imageTypeList()
{
    QStringList types;
    for (std::string_view type : ModelMessage::ImageMimeTypes)
        types << QString::fromLatin1(type.data(), qsizetype(type.size()));
    return types.join(QStringLiteral(", "));
}

/// One part of a user message's content array; "" or the problem.
QString checkPart(const json &part, const QString &where)
{
    if (!part.is_object())
        return QStringLiteral("%1 must be an object, not %2").arg(where, ManifestReader::typeName(part));
    const std::string type = isString(part, "type") ? part["type"].get<std::string>() : std::string();
    if (type == "text") {
        if (const QString key = unknownKey(part, {"type", "text"}); !key.isEmpty())
            return QStringLiteral("%1: unknown key '%2' in a text part")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        if (!isString(part, "text"))
            return QStringLiteral("%1: a text part needs 'text' (a string)").arg(where);
        return {};
    }
    if (type == "image_url") {
        if (const QString key = unknownKey(part, {"type", "image_url"}); !key.isEmpty())
            return QStringLiteral("%1: unknown key '%2' in an image_url part")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        // By reference: an image is megabytes, checked on every send.
        const auto found = part.find("image_url");
        if (found == part.end() || !found->is_object() || !isString(*found, "url"))
            return QStringLiteral("%1: an image_url part needs 'image_url': {\"url\": \"data:image/png;base64,…\"}")
                .arg(where);
        const json &image = *found;
        if (const QString key = unknownKey(image, {"url", "detail"}); !key.isEmpty())
            return QStringLiteral("%1.image_url: unknown key '%2'")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        const auto inline_ = ModelMessage::dataUrl(image["url"].get_ref<const std::string &>());
        bool known = false;
        for (std::string_view mime : ModelMessage::ImageMimeTypes)
            known = known || (inline_ && inline_->first == mime);
        if (!known)
            return QStringLiteral("%1.image_url.url must be a data URL (data:MIME;base64,…) of one of %2; it begins "
                                  "%3")
                .arg(where, imageTypeList(),
                     ModelMessage::quoteText(
                         std::string_view(image["url"].get_ref<const std::string &>()).substr(0, 40)));
        if (!ModelMessage::isBase64(inline_->second))
            return QStringLiteral("%1.image_url.url: what follows ';base64,' is not base64").arg(where);
        if (const QString problem = ModelMessage::imageDataProblem(inline_->first, inline_->second); !problem.isEmpty())
            return QStringLiteral("%1.image_url.url: %2").arg(where, problem);
        return {};
    }
    if (type == "input_audio") {
        if (const QString key = unknownKey(part, {"type", "input_audio"}); !key.isEmpty())
            return QStringLiteral("%1: unknown key '%2' in an input_audio part")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        const auto found = part.find("input_audio");
        if (found == part.end() || !found->is_object() || !isString(*found, "data") || !isString(*found, "format"))
            return QStringLiteral("%1: an input_audio part needs 'input_audio': {\"data\": base64, \"format\": "
                                  "\"wav\" or \"mp3\"}")
                .arg(where);
        const json &audio = *found;
        if (const QString key = unknownKey(audio, {"data", "format"}); !key.isEmpty())
            return QStringLiteral("%1.input_audio: unknown key '%2'")
                .arg(where, ModelMessage::quoteText(key.toStdString()));
        if (audio["format"] != "wav" && audio["format"] != "mp3")
            return QStringLiteral("%1.input_audio.format must be \"wav\" or \"mp3\", not %2")
                .arg(where, ModelMessage::quote(audio["format"]));
        if (!ModelMessage::isBase64(audio["data"].get_ref<const std::string &>()))
            return QStringLiteral("%1.input_audio.data is not base64").arg(where);
        return {};
    }
    if (type.empty())
        return QStringLiteral("%1 needs a 'type': \"text\", \"image_url\" or \"input_audio\"").arg(where);
    return QStringLiteral("%1: 'type' must be \"text\", \"image_url\" or \"input_audio\", not \"%2\"")
        .arg(where, ModelMessage::quoteText(type));
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
        if (role == "user" && message.contains("content") && message["content"].is_array()) {
            const json &parts = message["content"];
            if (parts.empty())
                return QStringLiteral("%1: 'content' is an empty array; give text or at least one part").arg(where);
            for (std::size_t i = 0; i < parts.size(); ++i)
                if (QString problem = checkPart(parts[i], where + QStringLiteral(".content[%1]").arg(i));
                    !problem.isEmpty())
                    return problem;
            return {};
        }
        if (role == "user" && !hasText)
            return QStringLiteral("%1: a 'user' message needs 'content' (a string or an array of parts)").arg(where);
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

json imagePart(std::string_view mimeType, std::string_view base64)
{
    std::string url = "data:";
    url.reserve(mimeType.size() + base64.size() + 16);
    url.append(mimeType).append(";base64,").append(base64);
    return {{"type", "image_url"}, {"image_url", {{"url", std::move(url)}}}};
}

json audioPart(std::string_view format, std::string_view base64)
{
    return {{"type", "input_audio"}, {"input_audio", {{"data", std::string(base64)}, {"format", std::string(format)}}}};
}

std::string audioFormat(std::string_view mimeType)
{
    if (mimeType == "audio/wav" || mimeType == "audio/x-wav" || mimeType == "audio/wave")
        return "wav";
    if (mimeType == "audio/mpeg" || mimeType == "audio/mp3")
        return "mp3";
    return {};
}

bool isBase64(std::string_view text)
{
    if (text.empty() || text.size() % 4 != 0)
        return false;
    const std::size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
    for (std::size_t i = 0; i < text.size() - padding; ++i) {
        const char c = text[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'))
            return false;
    }
    return true;
}

QString imageDataProblem(std::string_view mimeType, std::string_view base64)
{
    // 16 characters are 12 bytes: enough for every signature below (WebP's is 12).
    const QByteArray head = QByteArray::fromBase64(
        QByteArray::fromRawData(base64.data(), qsizetype(std::min<std::size_t>(base64.size(), 16))));
    const auto is = [&head](std::string_view name, std::initializer_list<std::string_view> signatures) {
        for (std::string_view signature : signatures)
            if (head.startsWith(QByteArrayView(signature.data(), qsizetype(signature.size()))))
                return QString();
        return QStringLiteral("the data is not a %1 image (%2 declared)")
            .arg(QLatin1String(name.data(), qsizetype(name.size())));
    };
    QString problem;
    if (mimeType == "image/png")
        problem = is("PNG", {std::string_view("\x89PNG\r\n\x1a\n", 8)});
    else if (mimeType == "image/jpeg")
        problem = is("JPEG", {"\xff\xd8\xff"});
    else if (mimeType == "image/gif")
        problem = is("GIF", {"GIF87a", "GIF89a"});
    else if (mimeType == "image/webp")
        problem = head.startsWith("RIFF") && head.mid(8, 4) == "WEBP"
            ? QString()
            : QStringLiteral("the data is not a WebP image (%2 declared)");
    else
        return QStringLiteral("%1 is not an image type a model is given").arg(quoteText(mimeType));
    if (problem.isEmpty() && mimeType == "image/jpeg") {
        // A scan bomb would hold the provider's decoder (and a person's view) for minutes.
        const QByteArray bytes
            = QByteArray::fromBase64(QByteArray::fromRawData(base64.data(), qsizetype(base64.size())));
        if (const int scans = JpegScans::count(bytes); scans > JpegScans::MaxScans)
            return QStringLiteral("the JPEG has %1 scans, more than %2 (a progressive one has about 10)")
                .arg(scans)
                .arg(JpegScans::MaxScans);
    }
    return problem.isEmpty() ? problem : problem.arg(QLatin1String(mimeType.data(), qsizetype(mimeType.size())));
}

std::optional<std::pair<std::string_view, std::string_view>> dataUrl(std::string_view url)
{
    if (!url.starts_with("data:"))
        return std::nullopt;
    const std::size_t marker = url.find(";base64,");
    if (marker == std::string_view::npos)
        return std::nullopt;
    return std::pair(url.substr(5, marker - 5), url.substr(marker + 8));
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

/// A content array as text: text parts as they are, an image or audio part named and sized.
QString partsText(const nlohmann::json &parts)
{
    QStringList texts;
    for (const nlohmann::json &part : parts) {
        const QString type = textOf(valueAt(part, "type"));
        if (type == QLatin1String("text")) {
            texts << textOf(valueAt(part, "text"));
        } else if (type == QLatin1String("image_url")) {
            const nlohmann::json url = valueAt(valueAt(part, "image_url"), "url");
            const auto image = url.is_string() ? dataUrl(url.get_ref<const std::string &>()) : std::nullopt;
            texts << (image ? QStringLiteral("[image %1, %2 bytes of base64]")
                                  .arg(elidedText(
                                      QString::fromUtf8(image->first.data(), qsizetype(image->first.size())), 40))
                                  .arg(image->second.size())
                            : QStringLiteral("[image]"));
        } else if (type == QLatin1String("input_audio")) {
            const nlohmann::json audio = valueAt(part, "input_audio");
            const nlohmann::json data = valueAt(audio, "data");
            texts << QStringLiteral("[audio %1, %2 bytes of base64]")
                         .arg(elidedText(textOf(valueAt(audio, "format")), 40))
                         .arg(data.is_string() ? data.get_ref<const std::string &>().size() : 0);
        } else {
            texts << QStringLiteral("[%1]").arg(elidedText(type, 40));
        }
    }
    return texts.join(u'\n');
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
        const nlohmann::json parts = valueAt(message, "content");
        const QString content = parts.is_array() ? partsText(parts) : textOf(parts);
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
