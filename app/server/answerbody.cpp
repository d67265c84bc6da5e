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

/// The body as JSON (JsonInput's bounds); discarded with `*problem` when it is not JSON.
nlohmann::json parse(const std::string &body, QString *problem)
{
    JsonInput::Problem parseProblem;
    nlohmann::json json = JsonInput::read<nlohmann::json>(body, &parseProblem);
    if (json.is_discarded()) {
        *problem = QStringLiteral("the body is not valid JSON: %1").arg(fromUtf8(parseProblem.reason));
        if (parseProblem.byte != std::string_view::npos)
            *problem += QStringLiteral(" (byte offset %1)").arg(parseProblem.byte);
    }
    return json;
}

/// False with `*problem` when `json` has a member not in `allowed` (`what`: "a tool.result").
bool onlyMembers(const nlohmann::json &json, const std::vector<std::string> &allowed, const QString &what,
                 QString *problem)
{
    for (const auto &[key, value] : json.items())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            QStringList names;
            for (const std::string &name : allowed)
                names << fromUtf8(name);
            *problem = QStringLiteral("unknown member \"%1\" in %2 (members: %3)")
                           .arg(quoted(key), what, names.join(QStringLiteral(", ")));
            return false;
        }
    return true;
}

/// The error of a tool.error or a `fail` decision: "error" a non-empty string, "retryable"
/// a boolean when given.
std::optional<ManualAnswer> readError(const nlohmann::json &json, const QString &what, QString *problem)
{
    const auto error = json.find("error");
    if (error == json.end() || !error->is_string() || error->get<std::string>().empty()) {
        *problem = QStringLiteral("%1 needs \"error\", the message (a non-empty string)").arg(what);
        return std::nullopt;
    }
    const auto retryable = json.find("retryable");
    if (retryable != json.end() && !retryable->is_boolean()) {
        *problem = QStringLiteral("\"retryable\" must be true or false");
        return std::nullopt;
    }
    ManualAnswer answer;
    answer.isError = true;
    answer.message = fromUtf8(error->get<std::string>());
    answer.retryable = retryable != json.end() && retryable->get<bool>();
    return answer;
}

} // namespace

namespace AnswerBody {

std::optional<ManualAnswer> read(const std::string &body, const QString &callId, int *attempt, QString *problem)
{
    const nlohmann::json json = parse(body, problem);
    if (json.is_discarded())
        return std::nullopt;
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
        ? std::vector<std::string>{"type", "id", "attempt", "question", "error", "retryable"}
        : std::vector<std::string>{"type", "id", "attempt", "question", "result"};
    if (!onlyMembers(json, allowed, QStringLiteral("a ") + fromUtf8(type->get<std::string>()), problem))
        return std::nullopt;
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
    int question = 0;
    if (const auto given = json.find("question"); given != json.end()) {
        if (!given->is_number_integer() || given->get<long long>() < 1 || given->get<long long>() > 1000000) {
            *problem = QStringLiteral("\"question\" must be a whole number from 1 (the serial of the question "
                                      "answered)");
            return std::nullopt;
        }
        question = int(given->get<long long>());
    }
    ManualAnswer answer;
    if (!isError) {
        const auto result = json.find("result");
        if (result == json.end()) {
            *problem = QStringLiteral("a tool.result needs \"result\" (any JSON value)");
            return std::nullopt;
        }
        answer.result = *result;
        answer.question = question;
        return answer;
    }
    auto error = readError(json, QStringLiteral("a tool.error"), problem);
    if (error)
        error->question = question;
    return error;
}

std::optional<ServedStepMode::Decision> readDecision(const std::string &body, QString *problem)
{
    using Kind = ServedStepMode::Decision::Kind;
    const nlohmann::json json = parse(body, problem);
    if (json.is_discarded())
        return std::nullopt;
    const QString shape = QStringLiteral("{\"decision\": \"continue\" | \"answer\" | \"fail\" | \"time_out\", …}");
    if (!json.is_object()) {
        *problem = QStringLiteral("the body must be a JSON object %1").arg(shape);
        return std::nullopt;
    }
    const auto name = json.find("decision");
    const std::vector<std::pair<std::string, Kind>> kinds
        = {{"continue", Kind::Continue}, {"answer", Kind::Answer}, {"fail", Kind::Fail}, {"time_out", Kind::TimeOut}};
    const auto kind = name == json.end() || !name->is_string()
        ? kinds.end()
        : std::find_if(kinds.begin(), kinds.end(), [&](const auto &k) { return k.first == name->get<std::string>(); });
    if (kind == kinds.end()) {
        *problem = QStringLiteral("\"decision\" must be \"continue\", \"answer\", \"fail\" or \"time_out\"");
        return std::nullopt;
    }
    const QString what
        = QStringLiteral("%1 %2 decision")
              .arg(kind->second == Kind::Answer ? QStringLiteral("an") : QStringLiteral("a"), fromUtf8(kind->first));
    const std::vector<std::string> allowed = kind->second == Kind::Answer
        ? std::vector<std::string>{"decision", "result"}
        : kind->second == Kind::Fail ? std::vector<std::string>{"decision", "error", "retryable"}
                                     : std::vector<std::string>{"decision"};
    if (!onlyMembers(json, allowed, what, problem))
        return std::nullopt;
    ServedStepMode::Decision decision;
    decision.kind = kind->second;
    if (kind->second == Kind::Answer) {
        const auto result = json.find("result");
        if (result == json.end()) {
            *problem = QStringLiteral("an answer decision needs \"result\" (any JSON value)");
            return std::nullopt;
        }
        decision.answer.result = *result;
    } else if (kind->second == Kind::Fail) {
        const auto error = readError(json, what, problem);
        if (!error)
            return std::nullopt;
        decision.answer = *error;
    }
    return decision;
}

} // namespace AnswerBody
