// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/bfcldialect.h"

#include "project/jsonqt.h"
#include "project/printabletext.h"

#include <algorithm>
#include <unordered_set>

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

/// `"optional": true`; any other value (a string, a number) is not (never value():
/// it throws on a member of another type).
bool isOptional(const ordered &property)
{
    if (!property.is_object())
        return false;
    const auto flag = property.find("optional");
    return flag != property.end() && flag->is_boolean() && flag->get<bool>();
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
                          .arg(elidedText(JsonQt::fromStd(where)), elidedText(JsonQt::fromStd(original), 40));
    }
    if (const auto properties = out.find("properties"); properties != out.end() && properties->is_object()) {
        // In place and with a set: a lookup by key in an ordered_json object is linear,
        // and a file may hold tens of thousands of properties (issue 16 class 3).
        std::unordered_set<std::string> optional;
        for (auto it = properties->begin(); it != properties->end(); ++it) {
            const std::string path = where.empty() ? it.key() : where + '.' + it.key();
            if (isOptional(it.value()))
                optional.insert(it.key());
            it.value() = convert(it.value(), path, notes, depth + 1);
        }
        if (const auto required = out.find("required"); required != out.end() && required->is_array())
            required->erase(std::remove_if(required->begin(), required->end(),
                                           [&](const ordered &name) {
                                               return name.is_string() && optional.count(name.get<std::string>());
                                           }),
                            required->end());
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
