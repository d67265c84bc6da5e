// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/schemaexample.h"

#include <cmath>

namespace SchemaExample {

namespace {

using ordered = nlohmann::ordered_json;

constexpr int MaxDepth = 32;
/// Schemas visited for one example, whatever the schema: `$ref`s back to the root
/// (twice per object, or in an array of minItems 64) made the example grow
/// exponentially with MaxDepth — one 177-byte output_schema hung `tools import --as
/// mock` (issue 16 class 3). Past the budget a value is null; the import then says the
/// example does not satisfy the schema.
constexpr int MaxVisits = 1000;

/// What a member or an item without a schema is generated from (null), by reference:
/// a conditional with a temporary would copy the other branch's schema.
const ordered noSchema;

struct Generator
{
    const ordered &root;
    int visitsLeft = MaxVisits;
};

const ordered *resolve(const ordered &root, const ordered &schema)
{
    const auto ref = schema.find("$ref");
    if (ref == schema.end() || !ref->is_string())
        return &schema;
    const std::string target = ref->get<std::string>();
    if (target.empty() || target[0] != '#')
        return &schema;
    try {
        const ordered::json_pointer pointer(target.substr(1));
        return root.contains(pointer) ? &root.at(pointer) : &schema;
    } catch (const ordered::exception &) {
        return &schema;
    }
}

std::string typeOf(const ordered &schema)
{
    const auto type = schema.find("type");
    if (type != schema.end() && type->is_string())
        return type->get<std::string>();
    if (type != schema.end() && type->is_array()) {
        for (const ordered &entry : *type)
            if (entry.is_string() && entry.get<std::string>() != "null")
                return entry.get<std::string>();
        return "null";
    }
    if (schema.contains("properties") || schema.contains("required"))
        return "object";
    if (schema.contains("items"))
        return "array";
    return std::string();
}

std::string sampleOfFormat(const std::string &format)
{
    if (format == "date")
        return "2026-01-01";
    if (format == "time")
        return "00:00:00Z";
    if (format == "date-time")
        return "2026-01-01T00:00:00Z";
    if (format == "email")
        return "user@example.com";
    if (format == "uri" || format == "url")
        return "https://example.com";
    if (format == "uuid")
        return "00000000-0000-0000-0000-000000000000";
    if (format == "ipv4")
        return "192.0.2.1";
    return std::string();
}

double lowerBound(const ordered &schema, bool integer)
{
    double value = 0;
    bool bounded = false;
    if (schema.contains("minimum") && schema["minimum"].is_number()) {
        value = schema["minimum"].get<double>();
        bounded = true;
    }
    if (schema.contains("exclusiveMinimum") && schema["exclusiveMinimum"].is_number()) {
        const double exclusive = schema["exclusiveMinimum"].get<double>();
        const double above = integer ? std::floor(exclusive) + 1 : exclusive + 1;
        if (!bounded || above > value)
            value = above;
        bounded = true;
    }
    if (integer)
        value = std::ceil(value);
    if (!bounded && schema.contains("maximum") && schema["maximum"].is_number()
        && schema["maximum"].get<double>() < value)
        value = integer ? std::floor(schema["maximum"].get<double>()) : schema["maximum"].get<double>();
    if (!bounded && schema.contains("exclusiveMaximum") && schema["exclusiveMaximum"].is_number()
        && schema["exclusiveMaximum"].get<double>() <= value)
        value = integer ? std::ceil(schema["exclusiveMaximum"].get<double>()) - 1
                        : schema["exclusiveMaximum"].get<double>() - 1;
    return value;
}

ordered example(Generator &generator, const ordered &in, int depth)
{
    if (generator.visitsLeft <= 0)
        return nullptr;
    --generator.visitsLeft; // a null too: 64 of them per array at the depth bound added up
    if (!in.is_object() || depth > MaxDepth)
        return nullptr;
    const ordered &root = generator.root;
    const ordered &schema = *resolve(root, in);
    if (schema.contains("const"))
        return schema["const"];
    if (schema.contains("enum") && schema["enum"].is_array() && !schema["enum"].empty())
        return schema["enum"][0];
    if (schema.contains("default"))
        return schema["default"];
    for (const char *key : {"anyOf", "oneOf"})
        if (schema.contains(key) && schema[key].is_array() && !schema[key].empty())
            return example(generator, schema[key][0], depth + 1);
    std::string type = typeOf(schema);
    if (schema.contains("allOf") && schema["allOf"].is_array()) {
        ordered merged = type.empty() || type == "object" ? ordered::object() : example(generator, ordered(), depth);
        for (const ordered &part : schema["allOf"]) {
            const ordered value = example(generator, part, depth + 1);
            if (value.is_object() && merged.is_object())
                merged.update(value);
            else if (!value.is_null())
                return value;
        }
        if (type.empty() || type == "object") {
            ordered own = schema;
            own.erase("allOf");
            const ordered value = example(generator, own, depth + 1);
            if (value.is_object())
                merged.update(value);
            return merged;
        }
    }
    if (type == "object") {
        ordered object = ordered::object();
        const auto properties = schema.find("properties");
        const bool hasProperties = properties != schema.end() && properties->is_object();
        if (schema.contains("required") && schema["required"].is_array())
            for (const ordered &name : schema["required"]) {
                if (generator.visitsLeft <= 0)
                    break;
                if (name.is_string()) {
                    const std::string key = name.get<std::string>();
                    const auto property = hasProperties ? properties->find(key) : schema.end();
                    // A member without a schema is null, and costs a visit too.
                    object[key] = example(
                        generator, hasProperties && property != properties->end() ? *property : noSchema, depth + 1);
                }
            }
        return object;
    }
    if (type == "array") {
        ordered array = ordered::array();
        const std::size_t count = schema.contains("minItems") && schema["minItems"].is_number_unsigned()
            ? std::min<std::size_t>(schema["minItems"].get<std::size_t>(), 64)
            : 0;
        const auto items = schema.find("items");
        for (std::size_t i = 0; i < count && generator.visitsLeft > 0; ++i) {
            if (items != schema.end() && items->is_array())
                array.push_back(example(generator, i < items->size() ? (*items)[i] : noSchema, depth + 1));
            else
                array.push_back(example(generator, items != schema.end() ? *items : noSchema, depth + 1));
        }
        return array;
    }
    if (type == "string") {
        std::string text = schema.contains("format") && schema["format"].is_string()
            ? sampleOfFormat(schema["format"].get<std::string>())
            : std::string();
        if (schema.contains("minLength") && schema["minLength"].is_number_unsigned()) {
            const std::size_t length = std::min<std::size_t>(schema["minLength"].get<std::size_t>(), 4096);
            if (text.size() < length)
                text.append(length - text.size(), 'x');
        }
        return text;
    }
    if (type == "integer") {
        // A bound beyond int64 (minimum 1e300) stays a double: the cast would be undefined.
        const double value = lowerBound(schema, true);
        if (std::abs(value) < 9.2e18)
            return static_cast<std::int64_t>(value);
        return value;
    }
    if (type == "number") {
        const double value = lowerBound(schema, false);
        if (value == std::floor(value) && std::abs(value) < 1e15)
            return static_cast<std::int64_t>(value);
        return value;
    }
    if (type == "boolean")
        return false;
    return nullptr;
}

} // namespace

ordered generate(const ordered &schema)
{
    Generator generator{schema};
    return example(generator, schema, 0);
}

} // namespace SchemaExample
