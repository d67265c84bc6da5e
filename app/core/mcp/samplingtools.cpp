// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/samplingtools.h"

#include "mcp/mcpacceptedtools.h"
#include "project/manifestreader.h"
#include "project/printabletext.h"
#include "project/schemavalidator.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

/// A server's string for a message: printable, at most `chars` characters.
QString named(const std::string &text, qsizetype chars = 60)
{
    return elidedText(printableText(fromStd(text)), chars);
}

const std::string *stringAt(const json &object, const char *key)
{
    const auto found = object.is_object() ? object.find(key) : object.end();
    return found != object.end() && found->is_string() ? &found->get_ref<const std::string &>() : nullptr;
}

/// The blocks of a message's content: the array, or the one block as an array of one.
std::vector<const json *> blocksOf(const json &message)
{
    std::vector<const json *> blocks;
    const auto content = message.is_object() ? message.find("content") : message.end();
    if (content == message.end())
        return blocks;
    if (content->is_array())
        for (const json &block : *content)
            blocks.push_back(&block);
    else
        blocks.push_back(&*content);
    return blocks;
}

std::string typeOf(const json &block)
{
    const std::string *type = stringAt(block, "type");
    return type ? *type : std::string();
}

/// The JSON objects in `value` (itself included), counted up to past `limit`.
std::size_t objectsOf(const json &value, std::size_t limit)
{
    // Nested at most MaxSchemaDepth (checked before): the recursion is bounded.
    std::size_t count = value.is_object() ? 1 : 0;
    if (value.is_structured())
        for (auto it = value.begin(); it != value.end() && count <= limit; ++it)
            count += objectsOf(*it, limit - count);
    return count;
}

QString checkTools(const json &params)
{
    const auto tools = params.find("tools");
    if (tools == params.end() || tools->is_null())
        return {};
    if (!tools->is_array())
        return QStringLiteral("\"tools\" is %1, not an array of tools").arg(ManifestReader::typeName(*tools));
    if (tools->size() > SamplingTools::MaxTools)
        return QStringLiteral("the request offers %1 tools; Tool Studio takes at most %2")
            .arg(tools->size())
            .arg(SamplingTools::MaxTools);
    // Measured without building first: the tools of one request may be tens of MB, dumped
    // only to say how far over the bound they are when they are near it (attack44).
    constexpr std::size_t FarOver = 2 * SamplingTools::MaxToolsBytes;
    if (SamplingTools::bytesOf(*tools, FarOver) > FarOver)
        return QStringLiteral("the request's tools are more than %1 bytes; Tool Studio takes at most %2")
            .arg(FarOver)
            .arg(SamplingTools::MaxToolsBytes);
    const std::size_t bytes = tools->dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (bytes > SamplingTools::MaxToolsBytes)
        return QStringLiteral("the request's tools are %1 bytes; Tool Studio takes at most %2")
            .arg(bytes)
            .arg(SamplingTools::MaxToolsBytes);
    std::set<std::string> names;
    std::size_t objects = 0; // of the inputSchemas so far
    for (std::size_t i = 0; i < tools->size(); ++i) {
        const json &tool = (*tools)[i];
        if (!tool.is_object())
            return QStringLiteral("tools[%1] is %2, not a tool").arg(i).arg(ManifestReader::typeName(tool));
        const std::string *name = stringAt(tool, "name");
        if (!name || name->empty() || name->size() > 128)
            return QStringLiteral("tools[%1] has no name (a string of 1 to 128 bytes)").arg(i);
        const auto schema = tool.find("inputSchema");
        if (schema == tool.end() || !schema->is_object())
            return QStringLiteral("tools[%1] \"%2\": its inputSchema is %3, not an object")
                .arg(i)
                .arg(named(*name),
                     schema == tool.end() ? QStringLiteral("missing") : ManifestReader::typeName(*schema));
        if (McpAcceptedTools::depthOf(*schema) > SamplingTools::MaxSchemaDepth)
            return QStringLiteral("tools[%1] \"%2\": its inputSchema is nested deeper than %3 levels")
                .arg(i)
                .arg(named(*name))
                .arg(SamplingTools::MaxSchemaDepth);
        // Counted before it is compiled: a wide schema costs the validator and a form.
        const std::size_t own = objectsOf(*schema, SamplingTools::MaxSchemaObjects);
        if (own > SamplingTools::MaxSchemaObjects)
            return QStringLiteral("tools[%1] \"%2\": its inputSchema has more than %3 objects (subschemas); Tool "
                                  "Studio takes at most %3 in one tool")
                .arg(i)
                .arg(named(*name))
                .arg(SamplingTools::MaxSchemaObjects);
        objects += own;
        if (objects > SamplingTools::MaxToolsSchemaObjects)
            return QStringLiteral("tools[%1] \"%2\": the request's inputSchemas have more than %3 objects "
                                  "(subschemas) together; Tool Studio takes at most %3")
                .arg(i)
                .arg(named(*name))
                .arg(SamplingTools::MaxToolsSchemaObjects);
        QString why;
        if (!SchemaValidator::compile(*schema, &why))
            return QStringLiteral("tools[%1] \"%2\": its inputSchema does not compile: %3")
                .arg(i)
                .arg(named(*name), elidedText(why, 300));
        if (!names.insert(*name).second)
            return QStringLiteral("tools[%1]: the name \"%2\" is given to two tools").arg(i).arg(named(*name));
    }
    return {};
}

QString checkToolChoice(const json &params)
{
    const auto choice = params.find("toolChoice");
    if (choice == params.end() || choice->is_null())
        return {};
    if (!choice->is_object())
        return QStringLiteral("\"toolChoice\" is %1, not an object ({\"mode\": \"auto\"})")
            .arg(ManifestReader::typeName(*choice));
    const auto mode = choice->find("mode");
    if (mode == choice->end())
        return {};
    if (*mode != "auto" && *mode != "required" && *mode != "none")
        return QStringLiteral("toolChoice.mode is %1; MCP's modes are \"auto\", \"required\" and \"none\"")
            .arg(elidedText(printableText(fromStd(mode->dump(-1, ' ', false, json::error_handler_t::replace))), 40));
    const auto tools = params.find("tools");
    if (*mode == "required" && (tools == params.end() || !tools->is_array() || tools->empty()))
        return QStringLiteral("toolChoice.mode is \"required\" but the request offers no tools");
    return {};
}

QString checkToolUse(const json &block, const QString &where, std::set<std::string> &ids)
{
    const std::string *id = stringAt(block, "id");
    if (!id || id->empty() || id->size() > 256)
        return QStringLiteral("%1: a tool_use needs \"id\", a string of 1 to 256 bytes").arg(where);
    const std::string *name = stringAt(block, "name");
    if (!name || name->empty())
        return QStringLiteral("%1: a tool_use needs \"name\", the tool's name").arg(where);
    const auto input = block.find("input");
    if (input == block.end() || !input->is_object())
        return QStringLiteral("%1: the tool_use's \"input\" is %2, not an object")
            .arg(where, input == block.end() ? QStringLiteral("missing") : ManifestReader::typeName(*input));
    if (!ids.insert(*id).second)
        return QStringLiteral("%1: the tool_use id \"%2\" is used twice").arg(where, named(*id));
    return {};
}

QString checkToolResult(const json &block, const QString &where, const std::set<std::string> &ids)
{
    const std::string *id = stringAt(block, "toolUseId");
    if (!id || id->empty())
        return QStringLiteral("%1: a tool_result needs \"toolUseId\", the id of the tool_use it answers").arg(where);
    if (!ids.count(*id))
        return QStringLiteral("%1: the tool_result's toolUseId \"%2\" names no earlier tool_use")
            .arg(where, named(*id));
    const auto content = block.find("content");
    if (content == block.end() || !content->is_array())
        return QStringLiteral("%1: the tool_result's \"content\" is %2, not an array of content blocks")
            .arg(where, content == block.end() ? QStringLiteral("missing") : ManifestReader::typeName(*content));
    if (const auto error = block.find("isError"); error != block.end() && !error->is_boolean())
        return QStringLiteral("%1: the tool_result's \"isError\" is %2, not true or false")
            .arg(where, ManifestReader::typeName(*error));
    return {};
}

QString checkMessages(const json &messages)
{
    std::set<std::string> ids;        // every tool_use so far
    std::set<std::string> unanswered; // the previous assistant message's tool_use ids
    std::size_t askedIn = 0;          // that message's index
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const json &message = messages[i];
        const std::string *role = stringAt(message, "role");
        const std::vector<const json *> blocks = blocksOf(message);
        std::size_t uses = 0, results = 0;
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            const json &block = *blocks[b];
            const std::string type = typeOf(block);
            const QString where = QStringLiteral("messages[%1].content%2")
                                      .arg(i)
                                      .arg(message["content"].is_array() ? QStringLiteral("[%1]").arg(b) : QString());
            if (type == "tool_use") {
                if (!role || *role != "assistant")
                    return QStringLiteral("%1: a tool_use in a message of role \"%2\"; a tool_use is the assistant's")
                        .arg(where, role ? named(*role, 20) : QString());
                if (const QString problem = checkToolUse(block, where, ids); !problem.isEmpty())
                    return problem;
                ++uses;
            } else if (type == "tool_result") {
                if (!role || *role != "user")
                    return QStringLiteral("%1: a tool_result in a message of role \"%2\"; a tool_result is the user's")
                        .arg(where, role ? named(*role, 20) : QString());
                if (const QString problem = checkToolResult(block, where, ids); !problem.isEmpty())
                    return problem;
                unanswered.erase(*stringAt(block, "toolUseId"));
                ++results;
            }
        }
        if (results > 0 && results != blocks.size())
            return QStringLiteral("messages[%1] mixes tool results with other content; a message of tool results "
                                  "holds nothing else")
                .arg(i);
        if (!unanswered.empty())
            return QStringLiteral("messages[%1] has a tool_use (\"%2\") that messages[%3] does not answer with a "
                                  "tool_result")
                .arg(askedIn)
                .arg(named(*unanswered.begin()))
                .arg(askedIn + 1);
        if (uses > 0) {
            askedIn = i;
            for (const json *block : blocks)
                if (typeOf(*block) == "tool_use")
                    unanswered.insert(*stringAt(*block, "id"));
        }
    }
    if (!unanswered.empty())
        return QStringLiteral("messages[%1] has a tool_use (\"%2\") that no tool_result answers; the request ends "
                              "with it")
            .arg(askedIn)
            .arg(named(*unanswered.begin()));
    return {};
}

} // namespace

bool SamplingTools::allowedIn(const QString &protocolVersion)
{
    // Revisions are dates: later ones sort after.
    return protocolVersion.isEmpty() || protocolVersion >= QLatin1String("2025-11-25");
}

QString SamplingTools::check(const json &params, const QString &protocolVersion)
{
    const auto given = [&params](const char *key) {
        const auto found = params.find(key);
        return found != params.end() && !found->is_null();
    };
    if ((given("tools") || given("toolChoice")) && !allowedIn(protocolVersion))
        return QStringLiteral("tools and toolChoice in sampling/createMessage need MCP 2025-11-25 (the client "
                              "capability sampling.tools); this server's session speaks %1")
            .arg(elidedText(printableText(protocolVersion), 40));
    if (const QString problem = checkTools(params); !problem.isEmpty())
        return problem;
    if (const QString problem = checkToolChoice(params); !problem.isEmpty())
        return problem;
    const auto messages = params.find("messages");
    return messages != params.end() && messages->is_array() ? checkMessages(*messages) : QString();
}

std::size_t SamplingTools::contentBlocks(const json &messages, std::size_t limit)
{
    // The messages' own blocks first, a size each: past `limit` the blocks are not walked
    // (two million of them took 0.4 s to look into, 1.2 s under AddressSanitizer).
    std::size_t shallow = 0;
    for (const json &message : messages) {
        const auto content = message.is_object() ? message.find("content") : message.end();
        shallow += content != message.end() && content->is_array() ? content->size() : 1;
    }
    if (shallow > limit)
        return shallow;
    std::size_t count = 0;
    for (const json &message : messages) {
        const auto content = message.is_object() ? message.find("content") : message.end();
        if (content == message.end() || !content->is_array()) {
            ++count;
            if (content != message.end() && typeOf(*content) == "tool_result")
                if (const auto inner = content->find("content"); inner != content->end() && inner->is_array())
                    count += inner->size();
            continue;
        }
        count += content->size();
        for (const json &block : *content)
            if (typeOf(block) == "tool_result")
                if (const auto inner = block.find("content"); inner != block.end() && inner->is_array())
                    count += inner->size();
    }
    return count;
}

json SamplingTools::tools(const json &params)
{
    json result = json::array();
    const auto tools = params.find("tools");
    if (tools == params.end() || !tools->is_array())
        return result;
    for (const json &tool : *tools) {
        json shown = {{"name", tool["name"]}};
        if (const std::string *description = stringAt(tool, "description"))
            shown["description"] = *description;
        shown["inputSchema"] = tool["inputSchema"];
        result.push_back(std::move(shown));
    }
    return result;
}

QString SamplingTools::toolChoice(const json &params)
{
    const auto choice = params.find("toolChoice");
    if (choice == params.end() || !choice->is_object())
        return {};
    const std::string *mode = stringAt(*choice, "mode");
    return mode ? fromStd(*mode) : QStringLiteral("auto");
}

std::size_t SamplingTools::bytesOf(const json &value, std::size_t limit)
{
    // What reaches here was read with the transport's depth bound: the recursion is bounded.
    std::size_t bytes = 0;
    if (value.is_string())
        return value.get_ref<const std::string &>().size() + 2;
    if (!value.is_structured())
        return 8;
    for (auto it = value.begin(); it != value.end() && bytes <= limit; ++it)
        bytes += (value.is_object() ? it.key().size() + 4 : 1) + bytesOf(*it, limit - std::min(bytes, limit));
    return bytes + 2;
}

QString SamplingTools::transcriptLine(const json &block)
{
    const std::string type = typeOf(block);
    if (type == "tool_use") {
        // Dumped only when it is short: a server's megabytes are not copied to be cut.
        const json &input = block.contains("input") ? block["input"] : json::object();
        const QString shown = bytesOf(input, MaxShownChars) > std::size_t(MaxShownChars)
            ? QStringLiteral("{… more than %1 bytes}").arg(MaxShownChars)
            : printableText(fromStd(input.dump(-1, ' ', false, json::error_handler_t::replace)));
        return QStringLiteral("→ %1(%2)  [%3]")
            .arg(named(block.value("name", std::string()), 128), shown, named(block.value("id", std::string())));
    }
    if (type == "tool_result") {
        int ignored = 0;
        const bool error = block.value("isError", json()) == true;
        return QStringLiteral("← [%1%2] %3")
            .arg(named(block.value("toolUseId", std::string())), error ? QStringLiteral(", error") : QString(),
                 printableLines(resultText(block, ignored, MaxShownChars)));
    }
    return {};
}

QString SamplingTools::resultText(const json &block, int &omitted, std::size_t maxBytes)
{
    QStringList lines;
    std::size_t bytes = 0;
    bool hasText = false;
    const auto content = block.find("content");
    if (content != block.end() && content->is_array())
        for (const json &part : *content) {
            if (bytes > maxBytes)
                break; // the rest is past what is kept
            const std::string type = typeOf(part);
            if (type == "text") {
                static const std::string none;
                const std::string &text = stringAt(part, "text") ? *stringAt(part, "text") : none;
                std::size_t cut = std::min(text.size(), maxBytes - bytes);
                while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
                    --cut; // not inside a character
                lines << fromStd(text.substr(0, cut))
                        + (cut < text.size() ? QStringLiteral("… (%1 more bytes)").arg(text.size() - cut) : QString());
                bytes += cut + 1;
                hasText = true;
            } else {
                lines
                    << QStringLiteral("[%1 not sent]").arg(type.empty() ? QStringLiteral("content") : named(type, 40));
                bytes += 16;
                ++omitted;
            }
        }
    if (!hasText)
        if (const auto structured = block.find("structuredContent");
            structured != block.end() && !structured->is_null())
            lines << (bytesOf(*structured, maxBytes) > maxBytes
                          ? QStringLiteral("{… more than %1 bytes}").arg(maxBytes)
                          : fromStd(structured->dump(-1, ' ', false, json::error_handler_t::replace)));
    return lines.join(u'\n');
}

json SamplingTools::toolCall(const json &block)
{
    return {{"id", block["id"]},
            {"type", "function"},
            {"function",
             {{"name", block["name"]},
              {"arguments", block["input"].dump(-1, ' ', false, json::error_handler_t::replace)}}}};
}

json SamplingTools::toolMessage(const json &block, int &omitted)
{
    json message = {{"role", "tool"},
                    {"tool_call_id", block["toolUseId"]},
                    {"content", resultText(block, omitted, std::numeric_limits<std::size_t>::max() - 1).toStdString()}};
    if (block.value("isError", json()) == true)
        message["is_error"] = true;
    return message;
}
