// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/toolexport.h"

#include "project/jsonqt.h"

#include <QSet>

#include <initializer_list>

namespace ToolExport {

namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

constexpr int MaxStrictDepth = 10; // OpenAI structured outputs: up to 10 levels of nesting

struct Refusal
{
    QString message;
};

[[noreturn]] void refuse(const std::string &pointer, const QString &message)
{
    throw Refusal{QStringLiteral("%1: %2").arg(
        pointer.empty() ? QStringLiteral("input_schema") : JsonQt::fromStd("input_schema" + pointer), message)};
}

bool isObjectSchema(const json &schema)
{
    return schema.value("type", json()) == "object" || schema.contains("properties");
}

bool isArraySchema(const json &schema)
{
    const json type = schema.value("type", json());
    return type == "array" || (type.is_array() && std::find(type.begin(), type.end(), json("array")) != type.end());
}

json makeNullable(json schema)
{
    if (schema.contains("type") && schema["type"].is_string()) {
        schema["type"] = json::array({schema["type"], "null"});
        if (schema.contains("enum") && schema["enum"].is_array())
            schema["enum"].push_back(nullptr);
    } else if (schema.contains("type") && schema["type"].is_array()) {
        if (std::find(schema["type"].begin(), schema["type"].end(), json("null")) == schema["type"].end())
            schema["type"].push_back("null");
    } else if (schema.contains("anyOf")) {
        schema["anyOf"].push_back(json{{"type", "null"}});
    } else if (schema.contains("enum")) {
        schema["enum"].push_back(nullptr);
    } else {
        schema = json{{"anyOf", json::array({schema, json{{"type", "null"}}})}};
    }
    return schema;
}

json strictSchema(const json &schema, const std::string &pointer, int depth)
{
    static const std::initializer_list<const char *> allowed = {"type",
                                                                "properties",
                                                                "required",
                                                                "additionalProperties",
                                                                "items",
                                                                "enum",
                                                                "const",
                                                                "anyOf",
                                                                "description",
                                                                "title",
                                                                "default",
                                                                "pattern",
                                                                "format",
                                                                "minimum",
                                                                "maximum",
                                                                "exclusiveMinimum",
                                                                "exclusiveMaximum",
                                                                "multipleOf",
                                                                "minItems",
                                                                "maxItems"};
    if (!schema.is_object())
        refuse(pointer, QStringLiteral("not a schema object"));
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        bool known = false;
        for (const char *key : allowed)
            known = known || it.key() == key;
        if (!known)
            refuse(pointer,
                   QStringLiteral("'%1' is not supported in OpenAI strict mode").arg(JsonQt::fromStd(it.key())));
    }
    json result = schema;
    if (result.contains("default")) {
        const std::string note = "(default: " + result["default"].dump() + ")";
        if (result.contains("description") && !result["description"].is_string())
            refuse(pointer, QStringLiteral("'description' must be a string"));
        const std::string description = result.value("description", std::string());
        result["description"] = description.empty() ? note : description + " " + note;
        result.erase("default");
    }
    if (result.contains("anyOf")) {
        if (!result["anyOf"].is_array())
            refuse(pointer, QStringLiteral("'anyOf' must be an array"));
        for (std::size_t i = 0; i < result["anyOf"].size(); ++i)
            result["anyOf"][i] = strictSchema(result["anyOf"][i], pointer + "/anyOf/" + std::to_string(i), depth);
        return result;
    }
    if (!result.contains("type") && !result.contains("enum") && !result.contains("const"))
        refuse(pointer, QStringLiteral("no type (any JSON value); strict mode needs a type"));
    if (isObjectSchema(result)) {
        if (depth >= MaxStrictDepth)
            refuse(pointer, QStringLiteral("objects nested deeper than %1 levels").arg(MaxStrictDepth));
        if (result.contains("additionalProperties") && result["additionalProperties"] != json(false))
            refuse(pointer,
                   QStringLiteral("a map (additionalProperties) has no fixed properties; strict mode needs them"));
        const json properties = result.value("properties", json::object());
        if (properties.empty() && !pointer.empty())
            refuse(pointer, QStringLiteral("a free-form object (no properties) cannot be expressed in strict mode"));
        const json required = result.value("required", json::array());
        json allRequired = json::array();
        json converted = json::object();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            json property = strictSchema(it.value(), pointer + "/properties/" + it.key(), depth + 1);
            if (std::find(required.begin(), required.end(), json(it.key())) == required.end())
                property = makeNullable(property);
            converted[it.key()] = property;
            allRequired.push_back(it.key());
        }
        result["properties"] = converted;
        result["required"] = allRequired;
        result["additionalProperties"] = false;
    }
    if (isArraySchema(result)) {
        if (!result.contains("items") || result["items"] == json::object())
            refuse(pointer, QStringLiteral("an array without an item type; strict mode needs one"));
        result["items"] = strictSchema(result["items"], pointer + "/items", depth);
    }
    return result;
}

/// Keys in the order people read a schema; the rest sorted after them.
ordered orderKeys(const json &schema, const QStringList &propertyOrder)
{
    if (!schema.is_object()) {
        if (schema.is_array()) {
            ordered list = ordered::array();
            for (const json &element : schema)
                list.push_back(element.is_object() || element.is_array() ? orderKeys(element, {}) : ordered(element));
            return list;
        }
        return ordered(schema);
    }
    static const char *first[] = {"type",     "description",          "enum",  "const", "properties", "items",
                                  "required", "additionalProperties", "anyOf", "oneOf", "allOf",      "default"};
    ordered result = ordered::object();
    auto put = [&](const std::string &key) {
        const json &value = schema.at(key);
        if (key == "properties" && value.is_object()) {
            ordered properties = ordered::object();
            for (const QString &name : propertyOrder)
                if (value.contains(name.toStdString()))
                    properties[name.toStdString()] = orderKeys(value.at(name.toStdString()), {});
            for (auto it = value.begin(); it != value.end(); ++it)
                if (!properties.contains(it.key()))
                    properties[it.key()] = orderKeys(it.value(), {});
            result[key] = properties;
        } else if (key == "required" && value.is_array() && !propertyOrder.isEmpty()) {
            ordered required = ordered::array();
            for (const QString &name : propertyOrder)
                if (std::find(value.begin(), value.end(), json(name.toStdString())) != value.end())
                    required.push_back(name.toStdString());
            for (const json &name : value)
                if (std::find(required.begin(), required.end(), ordered(name)) == required.end())
                    required.push_back(ordered(name));
            result[key] = required;
        } else {
            result[key] = value.is_object() || value.is_array() ? orderKeys(value, {}) : ordered(value);
        }
    };
    for (const char *key : first)
        if (schema.contains(key))
            put(key);
    for (auto it = schema.begin(); it != schema.end(); ++it)
        if (!result.contains(it.key()))
            put(it.key());
    return result;
}

} // namespace

std::optional<Format> parseFormat(const QString &name)
{
    if (name == QLatin1String("anthropic"))
        return Format::Anthropic;
    if (name == QLatin1String("openai-chat") || name == QLatin1String("openai"))
        return Format::OpenAIChat;
    if (name == QLatin1String("openai-responses"))
        return Format::OpenAIResponses;
    return std::nullopt;
}

QString formatName(Format format)
{
    switch (format) {
    case Format::Anthropic:
        return QStringLiteral("anthropic");
    case Format::OpenAIChat:
        return QStringLiteral("openai-chat");
    case Format::OpenAIResponses:
        return QStringLiteral("openai-responses");
    }
    return {};
}

nlohmann::ordered_json orderedSchema(const nlohmann::json &schema, const QStringList &parameterOrder)
{
    return orderKeys(schema, parameterOrder);
}

nlohmann::json withArrayItems(const nlohmann::json &schema, QStringList *added, const QString &pointer)
{
    if (!schema.is_object())
        return schema;
    json result = schema;
    const auto below = [&](const std::string &key) { return pointer + QLatin1Char('/') + JsonQt::fromStd(key); };
    for (const char *key : {"items", "additionalProperties", "not"})
        if (result.contains(key) && result[key].is_object())
            result[key] = withArrayItems(result[key], added, below(key));
    for (const char *key : {"properties", "definitions", "$defs"})
        if (result.contains(key) && result[key].is_object())
            for (auto it = result[key].begin(); it != result[key].end(); ++it)
                it.value()
                    = withArrayItems(it.value(), added, below(key) + QLatin1Char('/') + JsonQt::fromStd(it.key()));
    for (const char *key : {"anyOf", "oneOf", "allOf"})
        if (result.contains(key) && result[key].is_array())
            for (std::size_t i = 0; i < result[key].size(); ++i)
                result[key][i] = withArrayItems(result[key][i], added, below(key) + QStringLiteral("/%1").arg(i));
    if (isArraySchema(result) && !result.contains("items")) {
        result["items"] = json::object();
        if (added)
            *added << (pointer.isEmpty() ? QStringLiteral("(root)") : pointer);
    }
    return result;
}

std::optional<nlohmann::json> toStrictSchema(const nlohmann::json &inputSchema, QString *reason)
{
    try {
        return strictSchema(inputSchema, std::string(), 0);
    } catch (const Refusal &refusal) {
        if (reason)
            *reason = refusal.message;
        return std::nullopt;
    }
}

std::optional<QString> providerName(const QString &name, QString *reason)
{
    if (name.size() > 64) {
        if (reason)
            *reason = QStringLiteral("the name is %1 characters long; the model APIs take at most 64 (rename the tool "
                                     "to export it)")
                          .arg(name.size());
        return std::nullopt;
    }
    return QString(name).replace(QLatin1Char('.'), QLatin1Char('_'));
}

std::optional<nlohmann::ordered_json> exportTool(const Tool &tool, Format format, bool strict, QString *reason,
                                                 QStringList *added)
{
    const auto mapped = providerName(tool.name, reason);
    if (!mapped)
        return std::nullopt;
    for (const char *key : {"anyOf", "oneOf", "allOf"}) {
        if (tool.inputSchema.contains(key)) {
            if (reason)
                *reason = QStringLiteral("input_schema has a top-level '%1'; the model APIs take a plain object schema "
                                         "there (make it one object with optional properties)")
                              .arg(QLatin1String(key));
            return std::nullopt;
        }
    }
    if (strict && format == Format::Anthropic) {
        if (reason)
            *reason = QStringLiteral("--strict is OpenAI's strict mode; use it with openai-chat or openai-responses");
        return std::nullopt;
    }
    json schema = withArrayItems(tool.inputSchema, added);
    if (strict) {
        const auto converted = toStrictSchema(schema, reason);
        if (!converted)
            return std::nullopt;
        schema = *converted;
    }
    const std::string name = mapped->toStdString();
    const std::string description = tool.description.toStdString();
    const ordered parameters = orderKeys(schema, tool.parameterOrder);
    ordered result = ordered::object();
    switch (format) {
    case Format::Anthropic:
        result["name"] = name;
        result["description"] = description;
        result["input_schema"] = parameters;
        break;
    case Format::OpenAIChat: {
        ordered function = ordered::object();
        function["name"] = name;
        function["description"] = description;
        function["parameters"] = parameters;
        if (strict)
            function["strict"] = true;
        result["type"] = "function";
        result["function"] = function;
        break;
    }
    case Format::OpenAIResponses:
        result["type"] = "function";
        result["name"] = name;
        result["description"] = description;
        result["parameters"] = parameters;
        result["strict"] = strict;
        break;
    }
    return result;
}

nlohmann::ordered_json exportTools(const std::vector<Tool> &tools, Format format, bool strict, QStringList *refused,
                                   QStringList *changed)
{
    QSet<QString> names;
    for (const Tool &tool : tools)
        names.insert(tool.name);
    ordered list = ordered::array();
    for (const Tool &tool : tools) {
        QString reason;
        const auto mapped = providerName(tool.name, &reason);
        if (mapped && *mapped != tool.name && names.contains(*mapped))
            reason = QStringLiteral("its name maps to '%1' for the model APIs (no '.'), the name of another tool: "
                                    "rename one of them")
                         .arg(*mapped);
        else if (mapped && *mapped != tool.name)
            names.insert(*mapped);
        std::optional<ordered> definition;
        QStringList added;
        if (reason.isEmpty())
            definition = exportTool(tool, format, strict, &reason, &added);
        if (definition) {
            list.push_back(*definition);
            if (changed && !added.isEmpty())
                *changed << QStringLiteral(
                                "tool '%1': added \"items\": {} (any item) to the array schema at %2 (OpenAI "
                                "refuses an array schema without items)")
                                .arg(tool.name, added.join(QStringLiteral(", ")));
            if (changed && *mapped != tool.name)
                *changed << QStringLiteral("tool '%1' is exported as '%2' (the model APIs take only letters, digits, "
                                           "'_' and '-' in a name)")
                                .arg(tool.name, *mapped);
        } else if (refused) {
            *refused << QStringLiteral("tool '%1': %2").arg(tool.name, reason);
        }
    }
    return list;
}

} // namespace ToolExport
