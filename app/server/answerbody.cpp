// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerbody.h"

#include "jsoninput.h"
#include "project/printabletext.h"

#include <QStringList>

#include <algorithm>
#include <vector>

namespace {

QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// A name or value from the body, as a problem quotes it: its start only (a 1 MiB key
/// was echoed whole into the reply, attack9), control characters escaped.
QString quoted(const std::string &text)
{
    return elidedText(fromUtf8(text), AnswerBody::QuotedChars);
}

} // namespace

namespace AnswerBody {

std::optional<ManualAnswer> read(const std::string &body, const QString &callId, int *attempt, QString *problem)
{
    JsonInput::Problem parseProblem;
    const nlohmann::json json = JsonInput::read<nlohmann::json>(body, &parseProblem);
    if (json.is_discarded()) {
        *problem = QStringLiteral("the body is not valid JSON: %1").arg(fromUtf8(parseProblem.reason));
        if (parseProblem.byte != std::string_view::npos)
            *problem += QStringLiteral(" (byte offset %1)").arg(parseProblem.byte);
        return std::nullopt;
    }
    if (!json.is_object()) {
        *problem = QStringLiteral("the body must be a JSON object {\"type\": \"tool.result\" | \"tool.error\", …}");
        return std::nullopt;
    }
    const auto type = json.find("type");
    if (type == json.end() || !type->is_string() || (*type != "tool.result" && *type != "tool.error")) {
        *problem = QStringLiteral("\"type\" must be \"tool.result\" or \"tool.error\"");
        return std::nullopt;
    }
    const bool isError = *type == "tool.error";
    const std::vector<std::string> allowed = isError
        ? std::vector<std::string>{"type", "id", "attempt", "error", "retryable"}
        : std::vector<std::string>{"type", "id", "attempt", "result"};
    for (const auto &[key, value] : json.items())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            *problem = QStringLiteral("unknown member \"%1\" in a %2 (members: %3)")
                           .arg(quoted(key), fromUtf8(type->get<std::string>()),
                                QStringList([&] {
                                    QStringList names;
                                    for (const std::string &name : allowed)
                                        names << fromUtf8(name);
                                    return names;
                                }())
                                    .join(QStringLiteral(", ")));
            return std::nullopt;
        }
    const auto id = json.find("id");
    if (id == json.end() || !id->is_string()) {
        *problem = QStringLiteral("\"id\" (the call id, a string) is required");
        return std::nullopt;
    }
    if (fromUtf8(id->get<std::string>()) != callId) {
        *problem = QStringLiteral("\"id\" is '%1' but the path names call '%2'")
                       .arg(quoted(id->get<std::string>()), elidedText(callId, QuotedChars));
        return std::nullopt;
    }
    *attempt = 0;
    if (const auto given = json.find("attempt"); given != json.end()) {
        if (!given->is_number_integer() || given->get<long long>() < 1 || given->get<long long>() > 1000000) {
            *problem = QStringLiteral("\"attempt\" must be a whole number from 1 (the attempt answered)");
            return std::nullopt;
        }
        *attempt = int(given->get<long long>());
    }
    ManualAnswer answer;
    if (!isError) {
        const auto result = json.find("result");
        if (result == json.end()) {
            *problem = QStringLiteral("a tool.result needs \"result\" (any JSON value)");
            return std::nullopt;
        }
        answer.result = *result;
        return answer;
    }
    const auto error = json.find("error");
    if (error == json.end() || !error->is_string() || error->get<std::string>().empty()) {
        *problem = QStringLiteral("a tool.error needs \"error\", the message (a non-empty string)");
        return std::nullopt;
    }
    const auto retryable = json.find("retryable");
    if (retryable != json.end() && !retryable->is_boolean()) {
        *problem = QStringLiteral("\"retryable\" must be true or false");
        return std::nullopt;
    }
    answer.isError = true;
    answer.message = fromUtf8(error->get<std::string>());
    answer.retryable = retryable != json.end() && retryable->get<bool>();
    return answer;
}

} // namespace AnswerBody
