// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/personquestion.h"

#include "llm/samplingmodel.h"
#include "project/printabletext.h"
#include "project/schemavalidator.h"

#include <QRegularExpression>
#include <QStringList>
#include <QUuid>

#include <algorithm>
#include <set>

using nlohmann::json;

// What a model's reply answers with (SamplingModelCall::answerOf) is what the check takes.
static_assert(PersonQuestion::MaxModelChars == SamplingModelCall::MaxModelChars);

namespace {

QString checkElicitation(const json &question, const json &result)
{
    const QString shape = QStringLiteral(" (an answer is {\"action\": \"accept\", \"content\": {…}}, "
                                         "{\"action\": \"decline\"} or {\"action\": \"cancel\"})");
    if (!result.is_object() || !result.contains("action") || !result["action"].is_string())
        return QStringLiteral("the answer has no \"action\"") + shape;
    for (auto it = result.begin(); it != result.end(); ++it)
        if (it.key() != "action" && it.key() != "content")
            return QStringLiteral("the answer has \"%1\", which an elicitation answer does not")
                       .arg(elidedText(QString::fromStdString(it.key()), 40))
                + shape;
    const std::string action = result["action"].get<std::string>();
    if (action == "decline" || action == "cancel") {
        if (result.contains("content"))
            return QStringLiteral("\"%1\" takes no \"content\"").arg(QString::fromStdString(action)) + shape;
        return {};
    }
    if (action != "accept")
        return QStringLiteral("\"action\" is \"%1\"").arg(elidedText(QString::fromStdString(action), 40)) + shape;
    if (question.value("mode", json()) == "url") {
        if (result.contains("content"))
            return QStringLiteral("a URL-mode elicitation's \"accept\" takes no \"content\" (what the person "
                                  "entered went to the page, not through the studio): {\"action\": \"accept\"}");
        return {};
    }
    const auto content = result.find("content");
    if (content == result.end() || !content->is_object())
        return QStringLiteral("\"accept\" needs \"content\", an object of the form's fields") + shape;
    QString error;
    const auto validator = SchemaValidator::compile(question.value("schema", json::object()), &error);
    if (!validator)
        return QStringLiteral("the server's requestedSchema does not compile: %1").arg(error);
    if (const auto failure = validator->validate(*content))
        return QStringLiteral("the content does not match the server's requestedSchema at %1: %2")
            .arg(failure->pointer.isEmpty() ? QStringLiteral("(root)") : elidedText(failure->pointer, 128),
                 failure->message);
    return {};
}

/// {"text", "model"?, "stopReason"?}: a model's reply names the model and why it stopped
/// (docs/mcp.md "A model writes the reply"); both bounded, nothing else taken.
QString checkSamplingModel(const json &result)
{
    const QString shape = QStringLiteral(" (a model's reply is {\"text\": \"…\", \"model\": \"…\", "
                                         "\"stopReason\": \"endTurn\"})");
    for (auto it = result.begin(); it != result.end(); ++it)
        if (it.key() != "text" && it.key() != "model" && it.key() != "stopReason")
            return QStringLiteral("the answer has \"%1\", which a sampling answer does not")
                       .arg(elidedText(QString::fromStdString(it.key()), 40))
                + shape;
    if (const auto model = result.find("model"); model != result.end()) {
        const QString name = model->is_string() ? QString::fromStdString(model->get<std::string>()) : QString();
        if (name.isEmpty() || name.size() > PersonQuestion::MaxModelChars || printableText(name) != name)
            return QStringLiteral("\"model\" is the model's id, printable text of 1 to %1 characters")
                       .arg(PersonQuestion::MaxModelChars)
                + shape;
    }
    if (const auto stop = result.find("stopReason"); stop != result.end()) {
        static const QRegularExpression word(QStringLiteral("^[A-Za-z_]{1,64}$"));
        if (!stop->is_string() || !word.match(QString::fromStdString(stop->get<std::string>())).hasMatch())
            return QStringLiteral("\"stopReason\" is \"endTurn\", \"maxTokens\", \"stopSequence\" or another "
                                  "word of at most 64 letters")
                + shape;
    }
    return {};
}

/// The tool call ids of the question's conversation (its model request's messages).
std::set<std::string> conversationIds(const json &question)
{
    std::set<std::string> ids;
    const auto request = question.find("model_request");
    if (request == question.end() || !request->is_object())
        return ids;
    const auto messages = request->find("messages");
    if (messages == request->end() || !messages->is_array())
        return ids;
    for (const json &message : *messages) {
        const auto calls = message.is_object() ? message.find("tool_calls") : message.end();
        if (calls != message.end() && calls->is_array())
            for (const json &call : *calls)
                if (call.is_object() && call.contains("id") && call["id"].is_string())
                    ids.insert(call["id"].get<std::string>());
    }
    return ids;
}

/// {"content": [tool_use blocks, text blocks], "model"?, "stopReason"?}: a tool call of
/// the tools the question offers (MCP 2025-11-25 "Tools in sampling"), its input checked
/// against the tool's inputSchema; a tool_use without an id gets a fresh one, and so does
/// one whose id the conversation used already or an earlier block of the answer has (a
/// model that sends no ids gets "call_1", the spec's own example ids: attack44 F3).
QString checkToolUse(const json &question, json &result)
{
    const QString shape = QStringLiteral(" (a tool call is {\"content\": [{\"type\": \"tool_use\", \"name\": \"…\", "
                                         "\"input\": {…}}]})");
    json checked = result;
    checked.erase("content");
    if (QString problem = checkSamplingModel(checked); !problem.isEmpty())
        return problem;
    const json offered = question.value("tools", json::array());
    if (!offered.is_array() || offered.empty())
        return QStringLiteral("the server offers no tools; a sampling answer is the assistant's text: \"text\" or "
                              "{\"text\": \"…\"}");
    if (question.value("tool_choice", json()) == "none")
        return QStringLiteral("the server's toolChoice is \"none\": the reply must not use a tool; answer with text");
    json &content = result["content"];
    if (!content.is_array() || content.empty() || content.size() > PersonQuestion::MaxToolUses)
        return QStringLiteral("\"content\" is an array of 1 to %1 blocks").arg(PersonQuestion::MaxToolUses) + shape;
    bool used = false;
    std::set<std::string> ids = conversationIds(question);
    for (std::size_t i = 0; i < content.size(); ++i) {
        json &block = content[i];
        const QString where = QStringLiteral("content[%1]").arg(i);
        if (block.is_object() && block.value("type", json()) == "text" && block.size() == 2
            && block.value("text", json()).is_string())
            continue;
        if (!block.is_object() || block.value("type", json()) != "tool_use")
            return QStringLiteral("%1 is neither a tool_use nor a text block").arg(where) + shape;
        for (auto it = block.begin(); it != block.end(); ++it)
            if (it.key() != "type" && it.key() != "id" && it.key() != "name" && it.key() != "input")
                return QStringLiteral("%1 has \"%2\", which a tool_use does not")
                           .arg(where, elidedText(QString::fromStdString(it.key()), 40))
                    + shape;
        const std::string name = block.value("name", json()).is_string() ? block["name"].get<std::string>() : "";
        const auto tool = std::find_if(offered.begin(), offered.end(),
                                       [&name](const json &each) { return each.value("name", json()) == name; });
        if (tool == offered.end())
            return QStringLiteral("%1 uses the tool \"%2\", which the server does not offer")
                .arg(where, elidedText(printableText(QString::fromStdString(name)), 60));
        if (!block.contains("input") || !block["input"].is_object())
            return QStringLiteral("%1: \"input\" is the tool's arguments, an object").arg(where) + shape;
        QString error;
        const auto validator = SchemaValidator::compile(tool->value("inputSchema", json::object()), &error);
        if (!validator)
            return QStringLiteral("the tool's inputSchema does not compile: %1").arg(error);
        if (const auto failure = validator->validate(block["input"]))
            return QStringLiteral("%1: the input does not match the inputSchema of \"%2\" at %3: %4")
                .arg(where, elidedText(printableText(QString::fromStdString(name)), 60),
                     failure->pointer.isEmpty() ? QStringLiteral("(root)") : elidedText(failure->pointer, 128),
                     failure->message);
        if (block.contains("id")) {
            const QString id
                = block["id"].is_string() ? QString::fromStdString(block["id"].get<std::string>()) : QString();
            if (id.isEmpty() || id.size() > 256 || printableText(id) != id)
                return QStringLiteral(
                           "%1: \"id\" is printable text of 1 to 256 characters (leave it out for a fresh one)")
                    .arg(where);
        }
        if (!block.contains("id") || ids.count(block["id"].get<std::string>()))
            block["id"] = (QStringLiteral("call_") + QUuid::createUuid().toString(QUuid::Id128).left(24)).toStdString();
        ids.insert(block["id"].get<std::string>());
        used = true;
    }
    if (!used)
        return QStringLiteral("\"content\" has no tool_use; a reply of text alone is {\"text\": \"…\"}");
    return {};
}

} // namespace

QString PersonQuestion::kind(const json &question)
{
    const auto found = question.is_object() ? question.find("kind") : question.end();
    return found != question.end() && found->is_string() ? QString::fromStdString(found->get<std::string>())
                                                         : QString();
}

json PersonQuestion::asked(json question)
{
    if (question.is_object())
        question.erase("serial");
    return question;
}

QString PersonQuestion::check(const json &question, ManualAnswer &answer)
{
    if (answer.isError) {
        if (answer.message.trimmed().isEmpty())
            answer.message = QStringLiteral("refused by a person");
        return {};
    }
    const QString what = kind(question);
    if (what == QLatin1String("elicitation"))
        return checkElicitation(question, answer.result);
    if (what == QLatin1String("sampling")) {
        const bool required = question.value("tool_choice", json()) == "required";
        const QString text = QStringLiteral("the server's toolChoice is \"required\": answer with a tool call "
                                            "({\"content\": [{\"type\": \"tool_use\", …}]})");
        if (answer.result.is_string()) {
            if (required)
                return text;
            answer.result = json{{"text", answer.result}};
            return {};
        }
        if (answer.result.is_object() && answer.result.contains("content") && !answer.result.contains("text"))
            return checkToolUse(question, answer.result);
        if (answer.result.is_object() && answer.result.contains("text") && answer.result["text"].is_string())
            return required ? text : checkSamplingModel(answer.result);
        return QStringLiteral("a sampling answer is the assistant's text: \"text\" or {\"text\": \"…\"}");
    }
    if (what == QLatin1String("tool_change")) { // a changed MCP tool (McpToolChangeQuestion)
        if (answer.result == json{{"action", "accept"}} || answer.result == json{{"action", "reject"}})
            return {};
        return QStringLiteral("a changed tool is answered {\"action\": \"accept\"} (accept its definition as "
                              "shown and send the call) or {\"action\": \"reject\"} (fail the call)");
    }
    return QStringLiteral("the question is of no kind the studio knows");
}

QString PersonQuestion::identity(const json &question)
{
    if (!question.is_object())
        return {};
    QStringList parts;
    for (const char *key : {"serial", "kind", "server", "method", "request_id"}) {
        const auto found = question.find(key);
        if (found == question.end())
            parts << QString();
        else if (found->is_string() && found->get_ref<const std::string &>().size() > 256)
            parts << QStringLiteral("(%1 bytes)").arg(found->get_ref<const std::string &>().size());
        else if (found->is_primitive())
            parts << QString::fromStdString(found->dump(-1, ' ', false, json::error_handler_t::replace));
        else
            parts << QStringLiteral("(%1)").arg(QLatin1String(found->type_name()));
    }
    return parts.join(u'\n');
}
