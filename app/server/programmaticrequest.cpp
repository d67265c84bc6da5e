// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "programmaticrequest.h"

#include "jsoninput.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace {

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// Members of `object` not in `allowed`: the first, as "unknown field 'x' in WHERE
/// (fields: a, b)"; empty when there is none.
QString unknownField(const nlohmann::json &object, const QStringList &allowed, const QString &where)
{
    for (const auto &[key, value] : object.items())
        if (!allowed.contains(fromUtf8(key)))
            return QStringLiteral("unknown field '%1' in %2 (fields: %3)")
                .arg(fromUtf8(key).left(100), where, allowed.join(QStringLiteral(", ")));
    return {};
}

/// A file name of `files`: a relative path of 1 to 255 bytes whose parts are not empty,
/// '.' or '..', without NUL, backslashes or control characters.
bool validFileName(const QString &name)
{
    if (name.isEmpty() || name.toUtf8().size() > 255 || name.startsWith(QLatin1Char('/')))
        return false;
    for (const QChar c : name)
        if (c.unicode() < 0x20 || c == QLatin1Char('\\') || c.unicode() == 0x7f)
            return false;
    const QStringList parts = name.split(QLatin1Char('/'));
    return std::none_of(parts.cbegin(), parts.cend(), [](const QString &part) {
        return part.isEmpty() || part == QLatin1String(".") || part == QLatin1String("..");
    });
}

} // namespace

std::optional<ProgrammaticRequest> ProgrammaticRequest::parse(const std::string &body, bool withTools, Problem *problem)
{
    auto fail = [problem](const QString &message, int status = 400, const char *code = "bad_request") {
        problem->status = status;
        problem->code = code;
        problem->message = message;
        return std::nullopt;
    };
    JsonInput::Problem parseProblem;
    // Ordered: the order of a tool's `parameters.properties` is its positional order.
    const nlohmann::ordered_json json = JsonInput::read<nlohmann::ordered_json>(body, &parseProblem);
    if (json.is_discarded())
        return fail(QString::fromStdString(JsonInput::describe("the body", parseProblem)), 400, "invalid_json");
    if (!json.is_object())
        return fail(QStringLiteral("the body must be a JSON object such as {\"code\": \"print(1)\", \"language\": "
                                   "\"python\"}"),
                    400, "invalid_json");
    const QStringList allowed = withTools
        ? QStringList{QStringLiteral("code"),        QStringLiteral("language"),
                      QStringLiteral("lang"),        QStringLiteral("tools"),
                      QStringLiteral("files"),       QStringLiteral("timeout"),
                      QStringLiteral("session_id"),  QStringLiteral("continuation_token"),
                      QStringLiteral("tool_results")}
        : QStringList{QStringLiteral("code"), QStringLiteral("language"), QStringLiteral("lang"),
                      QStringLiteral("files"), QStringLiteral("timeout")};
    if (const QString unknown = unknownField(json, allowed, QStringLiteral("the request")); !unknown.isEmpty())
        return fail(withTools
                        ? unknown
                        : unknown + QStringLiteral("; tools and continuations are for POST /v1/exec/programmatic"),
                    400, "unknown_field");

    ProgrammaticRequest request;
    request.continuation
        = json.contains("session_id") || json.contains("continuation_token") || json.contains("tool_results");
    if (request.continuation) {
        for (const char *field : {"language", "lang", "tools", "files", "timeout"})
            if (json.contains(field))
                return fail(QStringLiteral("'%1' belongs to the request that starts a session; a continuation sends "
                                           "session_id, continuation_token and tool_results")
                                .arg(QLatin1String(field)));
        if (json.contains("code") && json["code"] != "")
            return fail(QStringLiteral("'code' must be empty or left out when a session continues: the program is "
                                       "the one the session started with"));
        const auto sessionId = json.find("session_id");
        if (sessionId == json.end() || !sessionId->is_string() || sessionId->get<std::string>().empty())
            return fail(QStringLiteral("'session_id' (a string from the previous response) is required to continue"));
        const auto token = json.find("continuation_token");
        if (token == json.end() || !token->is_string() || token->get<std::string>().empty())
            return fail(
                QStringLiteral("'continuation_token' (a string from the previous response) is required to continue"));
        request.sessionId = fromUtf8(sessionId->get<std::string>()).left(200);
        request.continuationToken = token->get<std::string>();
        const auto results = json.find("tool_results");
        if (results == json.end() || !results->is_array())
            return fail(
                QStringLiteral("'tool_results' (an array of {\"call_id\", \"result\"}) is required to continue"));
        QSet<QString> callIds;
        for (std::size_t i = 0; i < results->size(); ++i) {
            const nlohmann::ordered_json &item = (*results)[i];
            const QString where = QStringLiteral("tool_results[%1]").arg(i);
            if (!item.is_object())
                return fail(QStringLiteral("%1 must be an object {\"call_id\", \"result\"} or {\"call_id\", "
                                           "\"is_error\": true, \"error_message\"}")
                                .arg(where));
            if (const QString unknown = unknownField(item,
                                                     {QStringLiteral("call_id"), QStringLiteral("result"),
                                                      QStringLiteral("is_error"), QStringLiteral("error_message")},
                                                     where);
                !unknown.isEmpty())
                return fail(unknown, 400, "unknown_field");
            ProgrammaticResult result;
            const auto callId = item.find("call_id");
            if (callId == item.end() || !callId->is_string() || callId->get<std::string>().empty())
                return fail(QStringLiteral("%1: 'call_id' (the id of a tool call) is required").arg(where));
            result.callId = fromUtf8(callId->get<std::string>()).left(200);
            // A set, not a scan of the earlier results: a 4 MiB body holds ~130 000 results
            // (quadratic, that kept the Qt thread busy for minutes; attack7).
            if (callIds.contains(result.callId))
                return fail(QStringLiteral("%1: call '%2' has two results in this request").arg(where, result.callId));
            callIds.insert(result.callId);
            const auto isError = item.find("is_error");
            if (isError != item.end() && !isError->is_boolean() && !isError->is_null())
                return fail(QStringLiteral("%1: 'is_error' must be true or false").arg(where));
            result.isError = isError != item.end() && isError->is_boolean() && isError->get<bool>();
            const std::string resultText = item.contains("result") ? item["result"].dump() : std::string("null");
            if (resultText.size() > MaxResultBytes)
                return fail(QStringLiteral("%1: the result of call '%2' is %3 bytes as compact JSON; a result may "
                                           "have at most %4 bytes (1 MiB)")
                                .arg(where, result.callId)
                                .arg(resultText.size())
                                .arg(MaxResultBytes),
                            413, "result_too_large");
            if (result.isError) {
                const auto message = item.find("error_message");
                if (message != item.end() && !message->is_string() && !message->is_null())
                    return fail(QStringLiteral("%1: 'error_message' must be a string").arg(where));
                if (message != item.end() && message->is_string()) {
                    if (message->get<std::string>().size() > MaxResultBytes)
                        return fail(QStringLiteral("%1: the error_message of call '%2' is over 1 MiB")
                                        .arg(where, result.callId),
                                    413, "result_too_large");
                    result.errorMessage = fromUtf8(message->get<std::string>());
                }
                if (result.errorMessage.trimmed().isEmpty())
                    result.errorMessage = QStringLiteral("the client reported an error without a message");
            } else {
                if (!item.contains("result"))
                    return fail(QStringLiteral("%1: 'result' is required unless 'is_error' is true").arg(where));
                result.result = nlohmann::json::parse(resultText);
            }
            request.results.push_back(std::move(result));
        }
        return request;
    }

    // A new session.
    const auto code = json.find("code");
    if (code == json.end() || !code->is_string() || code->get<std::string>().empty())
        return fail(QStringLiteral("'code' (the program to run, a non-empty string) is required"));
    request.code = fromUtf8(code->get<std::string>());
    QString language;
    for (const char *field : {"language", "lang"}) {
        const auto value = json.find(field);
        if (value == json.end())
            continue;
        if (!value->is_string())
            return fail(QStringLiteral("'%1' must be a string: \"python\" or \"bash\"").arg(QLatin1String(field)));
        const QString given = fromUtf8(value->get<std::string>()).toLower();
        const QString normal
            = (given == QLatin1String("python") || given == QLatin1String("py") || given == QLatin1String("python3"))
            ? QStringLiteral("python")
            : (given == QLatin1String("bash") || given == QLatin1String("sh")) ? QStringLiteral("bash")
                                                                               : QString();
        if (normal.isEmpty())
            return fail(QStringLiteral("%1 '%2' is not supported: use \"python\" or \"bash\"")
                            .arg(QLatin1String(field), given.left(40)),
                        400, "unsupported_language");
        if (!language.isEmpty() && language != normal)
            return fail(QStringLiteral("'language' and 'lang' name different languages: give one"));
        language = normal;
    }
    if (!language.isEmpty())
        request.language = language;

    if (const auto tools = json.find("tools"); tools != json.end() && !tools->is_null()) {
        if (!tools->is_array())
            return fail(QStringLiteral("'tools' must be an array of {\"name\", \"description\", \"parameters\"}"));
        if (tools->size() > std::size_t(MaxTools))
            return fail(QStringLiteral("'tools' has %1 tools; at most %2").arg(tools->size()).arg(MaxTools));
        for (std::size_t i = 0; i < tools->size(); ++i) {
            const nlohmann::ordered_json &item = (*tools)[i];
            const QString where = QStringLiteral("tools[%1]").arg(i);
            if (!item.is_object())
                return fail(
                    QStringLiteral("%1 must be an object {\"name\", \"description\", \"parameters\"}").arg(where));
            if (const QString unknown = unknownField(
                    item, {QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("parameters")}, where);
                !unknown.isEmpty())
                return fail(unknown, 400, "unknown_field");
            Tool tool;
            const auto name = item.find("name");
            if (name == item.end() || !name->is_string())
                return fail(QStringLiteral("%1: 'name' (a string) is required").arg(where));
            tool.name = fromUtf8(name->get<std::string>());
            if (!Tool::isValidName(tool.name))
                return fail(QStringLiteral("%1: '%2' is not a valid tool name: %3")
                                .arg(where, tool.name.left(130), Tool::nameRule()));
            for (const Tool &earlier : request.tools)
                if (earlier.name == tool.name)
                    return fail(QStringLiteral("%1: tool '%2' is declared twice").arg(where, tool.name));
            if (const auto description = item.find("description"); description != item.end()) {
                if (!description->is_string())
                    return fail(QStringLiteral("%1: 'description' must be a string").arg(where));
                tool.description = fromUtf8(description->get<std::string>());
            }
            nlohmann::ordered_json parameters = {{"type", "object"}};
            if (const auto given = item.find("parameters"); given != item.end()) {
                if (!given->is_object())
                    return fail(QStringLiteral("%1: 'parameters' must be a JSON Schema object such as "
                                               "{\"type\": \"object\", \"properties\": {…}}")
                                    .arg(where));
                parameters = *given;
            }
            if (const auto properties = parameters.find("properties");
                properties != parameters.end() && properties->is_object())
                for (auto it = properties->begin(); it != properties->end(); ++it)
                    tool.parameterOrder << fromUtf8(it.key());
            tool.inputSchema = nlohmann::json::parse(parameters.dump());
            request.tools.push_back(std::move(tool));
        }
    }

    if (const auto files = json.find("files"); files != json.end() && !files->is_null()) {
        if (!files->is_array())
            return fail(QStringLiteral("'files' must be an array of {\"name\", \"content\"} (content in base64)"));
        if (files->size() > std::size_t(MaxFiles))
            return fail(QStringLiteral("'files' has %1 files; at most %2").arg(files->size()).arg(MaxFiles));
        for (std::size_t i = 0; i < files->size(); ++i) {
            const nlohmann::ordered_json &item = (*files)[i];
            const QString where = QStringLiteral("files[%1]").arg(i);
            if (!item.is_object())
                return fail(QStringLiteral("%1 must be an object {\"name\", \"content\"}").arg(where));
            if (const QString unknown = unknownField(item, {QStringLiteral("name"), QStringLiteral("content")}, where);
                !unknown.isEmpty())
                return fail(unknown, 400, "unknown_field");
            const auto name = item.find("name");
            const auto content = item.find("content");
            if (name == item.end() || !name->is_string() || !validFileName(fromUtf8(name->get<std::string>())))
                return fail(QStringLiteral("%1: 'name' must be a relative path such as \"data/input.csv\" (no '..', "
                                           "no leading '/', at most 255 bytes)")
                                .arg(where));
            if (content == item.end() || !content->is_string())
                return fail(QStringLiteral("%1: 'content' (the file's bytes in base64) is required").arg(where));
            const QString fileName = fromUtf8(name->get<std::string>());
            const auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromStdString(content->get<std::string>()),
                                                                QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return fail(QStringLiteral("%1: the content of '%2' is not valid base64").arg(where, fileName));
            for (const auto &earlier : std::as_const(request.files))
                if (earlier.first == fileName)
                    return fail(QStringLiteral("%1: file '%2' is given twice").arg(where, fileName));
            request.files.append({fileName, *decoded});
        }
    }

    if (const auto timeout = json.find("timeout"); timeout != json.end() && !timeout->is_null()) {
        if (!timeout->is_number() || timeout->get<double>() <= 0 || timeout->get<double>() > MaxTimeoutSeconds)
            return fail(
                QStringLiteral("'timeout' must be a number of seconds above 0 and at most %1").arg(MaxTimeoutSeconds));
        request.timeoutSeconds = int(std::ceil(timeout->get<double>()));
    }
    if (withTools) {
        nlohmann::ordered_json spec = json;
        spec.erase("code");
        request.startSpec = spec.dump();
    }
    return request;
}
