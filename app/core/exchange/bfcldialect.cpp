// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/bfcldialect.h"

#include "project/jsonqt.h"

#include <algorithm>

namespace BfclDialect {

namespace {

using ordered = nlohmann::ordered_json;

bool isJsonSchemaType(const std::string &type)
{
    return type == "object" || type == "array" || type == "string" || type == "number" || type == "integer"
        || type == "boolean" || type == "null";
}

/// The draft-7 type of a dialect type name; "" for `any` (no type).
std::string mappedType(const std::string &type, bool *languageType)
{
    *languageType = false;
    if (isJsonSchemaType(type))
        return type;
    if (type == "dict")
        return "object";
    if (type == "float")
        return "number";
    if (type == "tuple" || type == "list")
        return "array";
    if (type == "int")
        return "integer";
    if (type == "str")
        return "string";
    if (type == "bool")
        return "boolean";
    if (type == "any")
        return std::string();
    *languageType = true;
    return "string";
}

bool dialectIn(const ordered &schema, int depth)
{
    if (depth > 64 || !schema.is_object())
        return false;
    const auto type = schema.find("type");
    if (type != schema.end() && type->is_string() && !isJsonSchemaType(type->get<std::string>()))
        return true;
    if (schema.contains("optional"))
        return true;
    if (const auto properties = schema.find("properties"); properties != schema.end() && properties->is_object())
        for (const ordered &property : *properties)
            if (dialectIn(property, depth + 1))
                return true;
    for (const char *key : {"items", "additionalProperties"})
        if (const auto sub = schema.find(key); sub != schema.end() && dialectIn(*sub, depth + 1))
            return true;
    return false;
}

ordered convert(const ordered &schema, const std::string &where, QStringList *notes, int depth)
{
    if (!schema.is_object() || depth > 64)
        return schema;
    ordered out = schema;
    out.erase("optional");
    if (const auto type = schema.find("type"); type != schema.end() && type->is_string()) {
        bool language = false;
        const std::string original = type->get<std::string>();
        const std::string mapped = mappedType(original, &language);
        if (mapped.empty())
            out.erase("type");
        else
            out["type"] = mapped;
        if (language && notes)
            *notes << QStringLiteral("parameter '%1': BFCL type '%2' is read as a string")
                          .arg(JsonQt::fromStd(where), JsonQt::fromStd(original));
    }
    if (const auto properties = schema.find("properties"); properties != schema.end() && properties->is_object()) {
        ordered required
            = schema.contains("required") && schema["required"].is_array() ? schema["required"] : ordered::array();
        for (auto it = properties->begin(); it != properties->end(); ++it) {
            const std::string path = where.empty() ? it.key() : where + '.' + it.key();
            out["properties"][it.key()] = convert(it.value(), path, notes, depth + 1);
            if (it.value().is_object() && it.value().value("optional", false))
                required.erase(std::remove(required.begin(), required.end(), ordered(it.key())), required.end());
        }
        if (schema.contains("required"))
            out["required"] = required;
    }
    for (const char *key : {"items", "additionalProperties"})
        if (const auto sub = schema.find(key); sub != schema.end() && sub->is_object())
            out[key] = convert(*sub, where + "[]", notes, depth + 1);
    if (const auto items = schema.find("items"); items != schema.end() && items->is_array()) {
        ordered list = ordered::array();
        for (const ordered &item : *items)
            list.push_back(convert(item, where + "[]", notes, depth + 1));
        out["items"] = list;
    }
    return out;
}

} // namespace

bool usesDialect(const ordered &schema)
{
    return dialectIn(schema, 0);
}

ordered toJsonSchema(const ordered &parameters, QStringList *notes)
{
    return convert(parameters, std::string(), notes, 0);
}

QString mappedName(const QString &name)
{
    QString out = name;
    out.replace(QLatin1Char('.'), QLatin1Char('_'));
    return out;
}

} // namespace BfclDialect
