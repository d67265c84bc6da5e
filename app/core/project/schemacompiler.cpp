// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemacompiler.h"

#include "project/jsonqt.h"
#include "project/schemanumbers.h"
#include "project/schemarefs.h"
#include "project/schematext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

std::string appendToken(const std::string &pointer, const std::string &token)
{
    return pointer + '/' + SchemaRefs::escapeToken(token);
}

std::optional<std::uint64_t> count(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    if (it->is_number_unsigned())
        return it->get<std::uint64_t>();
    if (it->is_number_integer())
        return std::uint64_t(std::max<std::int64_t>(0, it->get<std::int64_t>()));
    const double d = it->get<double>();
    return d <= 0
        ? 0
        : (d >= SchemaNumbers::TwoTo64 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(std::ceil(d)));
}

const nlohmann::json *number(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? &*it : nullptr;
}

} // namespace

SchemaCompiler::SchemaCompiler(const nlohmann::json &document)
    : m_document(document)
{}

const SchemaNode *SchemaCompiler::compile(const nlohmann::json &schema, const std::string &location, QString *error)
{
    if (const auto found = m_byLocation.find(location); found != m_byLocation.end())
        return found->second;
    SchemaNode &node = m_nodes.emplace_back();
    m_byLocation.emplace(location, &node);
    node.location = location;
    node.source = &schema;
    if (schema.is_boolean()) {
        node.constant = schema.get<bool>();
        return &node;
    }
    if (!schema.is_object()) {
        node.constant = true; // valijson has refused what is not a schema
        return &node;
    }
    if (!fill(node, schema, location, error))
        return nullptr;
    return &node;
}

const SchemaNode *SchemaCompiler::sub(const nlohmann::json &object, const char *key, const std::string &location,
                                      QString *error, bool *ok)
{
    const auto it = object.find(key);
    if (it == object.end() || !*ok)
        return nullptr;
    const SchemaNode *node = compile(*it, appendToken(location, key), error);
    *ok = node != nullptr;
    return node;
}

const SchemaPattern *SchemaCompiler::pattern(const std::string &source, const std::string &at, QString *error)
{
    if (const auto found = m_patterns.find(source); found != m_patterns.end())
        return found->second.get();
    QString reason;
    auto compiled = SchemaPattern::compile(source, &reason);
    if (!compiled) {
        if (error)
            *error = QStringLiteral("invalid regular expression %1 at %2: %3")
                         .arg(SchemaText::shortDump(nlohmann::json(source)), JsonQt::fromStd(at), reason);
        return nullptr;
    }
    return m_patterns.emplace(source, std::move(compiled)).first->second.get();
}

bool SchemaCompiler::fill(SchemaNode &node, const nlohmann::json &schema, const std::string &location, QString *error)
{
    bool ok = true;
    if (const auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
        // Draft 7: a $ref's siblings are ignored.
        const auto target = SchemaRefs::resolve(m_document, ref->get<std::string>());
        if (!target) {
            if (error)
                *error = QStringLiteral("$ref %1 at %2 could not be resolved")
                             .arg(SchemaText::shortDump(*ref),
                                  JsonQt::fromStd(location.empty() ? std::string("/") : location));
            return false;
        }
        node.ref = compile(*target->value, target->pointer, error);
        // Definitions elsewhere in this object are still compiled (their patterns checked).
        for (const char *key : {"definitions", "$defs"})
            if (const auto defs = schema.find(key); defs != schema.end() && defs->is_object())
                for (auto it = defs->begin(); it != defs->end() && ok; ++it)
                    ok = compile(it.value(), appendToken(appendToken(location, key), it.key()), error);
        return node.ref && ok;
    }

    if (const auto type = schema.find("type"); type != schema.end()) {
        auto bit = [](const std::string &name) -> unsigned {
            static const std::map<std::string, unsigned> bits
                = {{"null", SchemaNode::NullType},       {"boolean", SchemaNode::BooleanType},
                   {"integer", SchemaNode::IntegerType}, {"number", SchemaNode::NumberType},
                   {"string", SchemaNode::StringType},   {"array", SchemaNode::ArrayType},
                   {"object", SchemaNode::ObjectType}};
            const auto found = bits.find(name);
            return found == bits.end() ? 0 : found->second;
        };
        if (type->is_string())
            node.types = bit(type->get<std::string>());
        else if (type->is_array())
            for (const auto &t : *type)
                if (t.is_string())
                    node.types |= bit(t.get<std::string>());
    }
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array())
        node.enumValues = &*it;
    if (const auto it = schema.find("const"); it != schema.end())
        node.constValue = &*it;

    node.minimum = number(schema, "minimum");
    node.maximum = number(schema, "maximum");
    node.exclusiveMinimum = number(schema, "exclusiveMinimum");
    node.exclusiveMaximum = number(schema, "exclusiveMaximum");
    node.multipleOf = number(schema, "multipleOf");

    node.minLength = count(schema, "minLength");
    node.maxLength = count(schema, "maxLength");
    if (const auto it = schema.find("pattern"); it != schema.end() && it->is_string()) {
        node.pattern = pattern(it->get<std::string>(), appendToken(location, "pattern"), error);
        if (!node.pattern)
            return false;
    }
    if (const auto it = schema.find("format"); it != schema.end() && it->is_string())
        node.format = SchemaFormat::fromName(it->get_ref<const std::string &>());

    if (const auto items = schema.find("items"); items != schema.end() && items->is_array()) {
        node.tuple = true;
        for (std::size_t i = 0; i < items->size() && ok; ++i) {
            const SchemaNode *item
                = compile((*items)[i], appendToken(appendToken(location, "items"), std::to_string(i)), error);
            ok = item != nullptr;
            node.tupleItems.push_back(item);
        }
        node.additionalItems = sub(schema, "additionalItems", location, error, &ok);
    } else {
        node.items = sub(schema, "items", location, error, &ok);
    }
    node.minItems = count(schema, "minItems");
    node.maxItems = count(schema, "maxItems");
    if (const auto it = schema.find("uniqueItems"); it != schema.end() && it->is_boolean())
        node.uniqueItems = it->get<bool>();
    node.contains = sub(schema, "contains", location, error, &ok);

    if (const auto it = schema.find("required"); it != schema.end() && it->is_array())
        for (const auto &name : *it)
            if (name.is_string())
                node.required.push_back(name.get<std::string>());
    if (const auto it = schema.find("properties"); it != schema.end() && it->is_object())
        for (auto p = it->begin(); p != it->end() && ok; ++p) {
            const SchemaNode *property
                = compile(p.value(), appendToken(appendToken(location, "properties"), p.key()), error);
            ok = property != nullptr;
            node.properties.emplace(p.key(), property);
        }
    if (const auto it = schema.find("patternProperties"); it != schema.end() && it->is_object())
        for (auto p = it->begin(); p != it->end() && ok; ++p) {
            const std::string at = appendToken(appendToken(location, "patternProperties"), p.key());
            const SchemaPattern *regex = pattern(p.key(), at, error);
            const SchemaNode *property = regex ? compile(p.value(), at, error) : nullptr;
            ok = property != nullptr;
            node.patternProperties.emplace_back(regex, property);
        }
    node.additionalProperties = sub(schema, "additionalProperties", location, error, &ok);
    if (const auto it = schema.find("dependencies"); it != schema.end() && it->is_object())
        for (auto p = it->begin(); p != it->end() && ok; ++p) {
            if (p->is_array()) {
                std::vector<std::string> names;
                for (const auto &name : *p)
                    if (name.is_string())
                        names.push_back(name.get<std::string>());
                node.dependentRequired.emplace_back(p.key(), std::move(names));
            } else {
                const SchemaNode *dependency
                    = compile(p.value(), appendToken(appendToken(location, "dependencies"), p.key()), error);
                ok = dependency != nullptr;
                node.dependentSchemas.emplace_back(p.key(), dependency);
            }
        }
    node.propertyNames = sub(schema, "propertyNames", location, error, &ok);
    node.minProperties = count(schema, "minProperties");
    node.maxProperties = count(schema, "maxProperties");

    for (const auto &[key, list] :
         {std::pair{"allOf", &node.allOf}, std::pair{"anyOf", &node.anyOf}, std::pair{"oneOf", &node.oneOf}}) {
        const auto it = schema.find(key);
        if (it == schema.end() || !it->is_array())
            continue;
        for (std::size_t i = 0; i < it->size() && ok; ++i) {
            const SchemaNode *branch
                = compile((*it)[i], appendToken(appendToken(location, key), std::to_string(i)), error);
            ok = branch != nullptr;
            list->push_back(branch);
        }
    }
    node.notSchema = sub(schema, "not", location, error, &ok);
    node.ifSchema = sub(schema, "if", location, error, &ok);
    node.thenSchema = sub(schema, "then", location, error, &ok);
    node.elseSchema = sub(schema, "else", location, error, &ok);

    // Not applied to values, but a bad pattern there is still a bad schema.
    for (const char *key : {"definitions", "$defs"})
        if (const auto defs = schema.find(key); defs != schema.end() && defs->is_object())
            for (auto it = defs->begin(); it != defs->end() && ok; ++it)
                ok = compile(it.value(), appendToken(appendToken(location, key), it.key()), error);
    return ok;
}
