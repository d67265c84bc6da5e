// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "questionprompt.h"

#include "headlessrun.h"
#include "jsoninput.h"
#include "project/printabletext.h"

#include <QCoreApplication>
#include <QStringList>

#include <set>
#include <vector>

using nlohmann::json;

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("QuestionPrompt", text, disambiguation, n);
}

QString compact(const json &value)
{
    return printableText(QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace)));
}

QString typeOf(const json &field)
{
    const auto type = field.find("type");
    if (type == field.end())
        return tr("any type");
    if (type->is_string())
        return printableText(QString::fromStdString(type->get<std::string>()));
    return compact(*type);
}

/// "    name: string, required, title \"Name\"".
QString fieldLine(const std::string &name, const json &field, bool required)
{
    QStringList parts;
    if (field.is_object())
        parts << typeOf(field);
    if (required)
        parts << tr("required");
    if (!field.is_object())
        parts << compact(field);
    else
        for (const auto &[key, value] : field.items())
            if (key != "type")
                parts << printableText(QString::fromStdString(key)) + u' ' + compact(value);
    return QStringLiteral("    %1: %2")
        .arg(printableText(QString::fromStdString(name)), parts.join(QStringLiteral(", ")));
}

/// A value of `field`'s type for an example answer.
json exampleValue(const json &field)
{
    const std::string type = field.is_object() ? field.value("type", std::string()) : std::string();
    if (field.is_object() && field.contains("enum") && field["enum"].is_array() && !field["enum"].empty())
        return field["enum"].front();
    if (type == "integer" || type == "number")
        return 0;
    if (type == "boolean")
        return true;
    return "…";
}

/// {"action": "accept", "content": {…}} with a value for each required field (or the
/// first field when none is required).
json formExample(const json &schema)
{
    json content = json::object();
    const json properties = schema.value("properties", json::object());
    const json required = schema.value("required", json::array());
    if (properties.is_object() && required.is_array())
        for (const json &name : required)
            if (name.is_string() && properties.contains(name.get<std::string>()))
                content[name.get<std::string>()] = exampleValue(properties[name.get<std::string>()]);
    if (content.empty() && properties.is_object() && !properties.empty())
        content[properties.begin().key()] = exampleValue(properties.begin().value());
    return {{"action", "accept"}, {"content", content}};
}

/// An answer that fits `question`, for the problem's words.
QString exampleFor(const json *question)
{
    const std::string kind = question ? question->value("kind", std::string()) : std::string();
    if (kind == "elicitation" && question->value("mode", std::string()) == "url")
        return tr("{\"action\": \"accept\"} once done in the browser, or {\"action\": \"decline\"}");
    if (kind == "elicitation")
        return compact(formExample(question->value("schema", json::object()))) + tr(", or {\"action\": \"decline\"}");
    if (kind == "tool_change")
        return tr("{\"action\": \"accept\"} or {\"action\": \"reject\"}");
    return tr("{\"key\": \"value\"}, or \"text in double quotes\", or a number");
}

} // namespace

QString QuestionPrompt::schemaText(const json &schema, qsizetype maxBytes)
{
    QStringList lines{tr("  form (requestedSchema), one line per field:")};
    qsizetype bytes = lines.front().toUtf8().size() + 1; // each line with its newline
    const json properties = schema.value("properties", json::object());
    const json required = schema.value("required", json::array());
    std::set<std::string> requiredNames; // a set: a 64 KiB schema may list thousands
    if (required.is_array())
        for (const json &name : required)
            if (name.is_string())
                requiredNames.insert(name.get<std::string>());
    qsizetype left = properties.is_object() ? qsizetype(properties.size()) : 0;
    // The required fields first: what an answer must hold is not buried among the rest.
    std::vector<std::string> order;
    if (properties.is_object()) {
        for (const auto &[name, field] : properties.items())
            if (requiredNames.count(name))
                order.push_back(name);
        for (const auto &[name, field] : properties.items())
            if (!requiredNames.count(name))
                order.push_back(name);
    }
    for (const std::string &name : order) {
        const QString line = fieldLine(name, properties.at(name), requiredNames.count(name) > 0);
        const qsizetype lineBytes = line.toUtf8().size() + 1;
        if (bytes + lineBytes > maxBytes)
            break;
        bytes += lineBytes;
        lines << line;
        --left;
    }
    if (left > 0)
        lines << tr("    … %n more field(s) not shown; the whole schema is in the run's trace: toolstudio trace "
                    "export PROJECT RUN (the call's person_asked event), or the window's Pending Calls dock",
                    nullptr, int(left));
    if (properties.is_object() && properties.empty())
        lines << tr("    (no fields)");
    QStringList other;
    for (const auto &[key, value] : schema.items())
        if (key != "type" && key != "properties" && key != "required")
            other << printableText(QString::fromStdString(key)) + u' ' + compact(value);
    if (required.is_array())
        for (const json &name : required)
            if (!name.is_string() || !properties.is_object() || !properties.contains(name.get<std::string>()))
                other << tr("required %1 (not among the fields)").arg(compact(name));
    if (!other.isEmpty() && left == 0)
        lines << tr("    and the form's own: %1").arg(other.join(QStringLiteral(", ")));
    return lines.join(u'\n');
}

QString QuestionPrompt::questionText(const QString &command, const json &question)
{
    // docs/mcp.md "A server's requests": what the server asks and the answer's shape.
    const std::string kind = question.value("kind", std::string());
    QString text
        = QStringLiteral("toolstudio %1: MCP server '%2' asks (%3): %4")
              .arg(command, printableText(QString::fromStdString(question.value("server", std::string()))),
                   QString::fromStdString(kind), printableText(summary(question.value("message", json("")), 2000)));
    if (kind == "elicitation" && question.value("mode", std::string()) == "url")
        text += tr("\n  open in a browser (host %1): %2\n  answer, once done there: {\"action\": "
                   "\"accept\"}, or {\"action\": \"decline\"} or {\"action\": \"cancel\"}; an error "
                   "refuses it")
                    .arg(printableText(QString::fromStdString(question.value("host", std::string()))),
                         printableText(QString::fromStdString(question.value("url", std::string()))));
    else if (kind == "elicitation")
        text += u'\n' + schemaText(question.value("schema", json::object()))
            + tr("\n  answer: {\"action\": \"accept\", \"content\": {…}}, e.g. %1; {\"action\": \"decline\"} or "
                 "{\"action\": \"cancel\"}; an error refuses it")
                  .arg(compact(formExample(question.value("schema", json::object()))));
    else if (const auto tools = question.find("tools"); tools != question.end() && tools->is_array()) {
        // Sampling with tools (docs/mcp.md "Tools in sampling"): each tool, its inputSchema.
        text += tr("\n  tools (toolChoice %1):")
                    .arg(printableText(QString::fromStdString(question.value("tool_choice", std::string("auto")))));
        for (const json &tool : *tools)
            text += QStringLiteral("\n    %1 — %2 — inputSchema %3")
                        .arg(printableText(QString::fromStdString(tool.value("name", std::string()))),
                             printableText(summary(tool.value("description", json("")), 300)),
                             printableText(summary(tool.value("inputSchema", json::object()), 600)));
        text += tr("\n  answer: the model's reply as a JSON string, \"text\", or a tool call {\"content\": "
                   "[{\"type\": \"tool_use\", \"name\": …, \"input\": {…}}]}; an error refuses it");
    } else
        text += tr("\n  answer: the model's reply as a JSON string, \"text\"; an error refuses it");
    return text;
}

QString QuestionPrompt::promptLabel(const json *question)
{
    if (question && question->value("kind", std::string()) == "sampling")
        return tr("Reply text (or: !error MESSAGE to refuse): ");
    return tr("Result as JSON (or: !error MESSAGE, !retry MESSAGE): ");
}

std::optional<ManualAnswer> QuestionPrompt::typedAnswer(const std::string &line, const json *question, QString *problem)
{
    const QString text = QString::fromStdString(line).trimmed();
    ManualAnswer answer;
    if (text.startsWith(QLatin1String("!error ")) || text.startsWith(QLatin1String("!retry "))) {
        answer.isError = true;
        answer.retryable = text.startsWith(QLatin1String("!retry "));
        answer.message = text.mid(7);
        return answer;
    }
    if (const std::string bound = JsonInput::limitProblem(line, "the answer"); !bound.empty()) {
        *problem = QString::fromStdString(bound);
        return std::nullopt;
    }
    const bool sampling = question && question->value("kind", std::string()) == "sampling";
    try {
        answer.result = json::parse(line);
        if (!sampling || answer.result.is_string() || (answer.result.is_object() && answer.result.contains("text")))
            return answer;
    } catch (const json::parse_error &e) {
        if (!sampling) {
            *problem = tr("That is not JSON (it stops being JSON at character %1). An answer here is JSON, e.g. %2")
                           .arg(e.byte)
                           .arg(exampleFor(question));
            return std::nullopt;
        }
    } catch (const json::exception &) { // a number JSON cannot hold (1e999)
        if (!sampling) {
            *problem = tr("That holds a number too large to keep. An answer here is JSON, e.g. %1")
                           .arg(exampleFor(question));
            return std::nullopt;
        }
    }
    answer.result = text.toStdString(); // a sampling reply, typed as text
    return answer;
}
