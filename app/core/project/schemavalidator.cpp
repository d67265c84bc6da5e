// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemavalidator.h"

#include "project/jsonqt.h"
#include "project/schemacompiler.h"
#include "project/schemanumbers.h"
#include "project/schemarefs.h"
#include "project/schematext.h"
#include "project/schemawalk.h"

// valijson aborts the process on a bad schema unless exceptions are enabled.
#define VALIJSON_USE_EXCEPTIONS 1
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

// The compiled schema lives in SchemaNodes built by SchemaCompiler (keywords, $refs,
// patterns); a validate() call is one SchemaWalk over them.
struct SchemaValidatorState
{
    nlohmann::json document;
    valijson::Schema schema; // only to check the schema's shape at compile time
    SchemaCompiler compiler{document};
    const SchemaNode *root = nullptr;
};

namespace {

constexpr int MaxSchemaDepth = 256;

/// Depth of the deepest array or object in `value`, counted without recursion (a
/// schema deeper than valijson's parser can take would crash it).
int nestingDepth(const nlohmann::json &value, int stopAt)
{
    std::vector<std::pair<const nlohmann::json *, int>> stack{{&value, 1}};
    int deepest = 0;
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        if (!node->is_structured())
            continue;
        deepest = std::max(deepest, depth);
        if (deepest > stopAt)
            return deepest;
        for (const auto &child : *node)
            stack.push_back({&child, depth + 1});
    }
    return deepest;
}

/// Draft 7 (Validation §6.3, §6.4, §6.5; Core §4.2.2): maxLength, minLength, maxItems,
/// minItems, maxProperties and minProperties take a non-negative integer, and 2.0 is
/// one, but valijson takes only what the parser kept as an integer. Such a value is
/// rewritten as the integer it is, in subschema positions only (never in enum, const,
/// default or examples, which are data). The JSON Schema Test Suite's "maxLength
/// validation with a decimal" and its siblings.
void integralCounts(nlohmann::json &schema, int depthLeft)
{
    if (!schema.is_object() || depthLeft <= 0)
        return;
    for (const char *key : {"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"}) {
        const auto it = schema.find(key);
        if (it == schema.end() || !it->is_number_float())
            continue;
        const double d = it->get<double>();
        if (d >= 0 && d < SchemaNumbers::TwoTo63 && std::floor(d) == d)
            *it = std::uint64_t(d);
    }
    // One subschema, or an array of them (items, allOf, anyOf, oneOf).
    for (const char *key : {"items", "additionalItems", "contains", "additionalProperties", "propertyNames", "not",
                            "if", "then", "else", "allOf", "anyOf", "oneOf"}) {
        const auto it = schema.find(key);
        if (it == schema.end())
            continue;
        if (it->is_array()) {
            for (nlohmann::json &sub : *it)
                integralCounts(sub, depthLeft - 1);
        } else {
            integralCounts(*it, depthLeft - 1);
        }
    }
    // An object of subschemas (a dependency may also be an array of names: skipped).
    for (const char *key : {"properties", "patternProperties", "definitions", "$defs", "dependencies"}) {
        const auto it = schema.find(key);
        if (it == schema.end() || !it->is_object())
            continue;
        for (nlohmann::json &sub : *it)
            integralCounts(sub, depthLeft - 1);
    }
}

} // namespace

QString SchemaValidator::Failure::toString() const
{
    return QStringLiteral("%1: %2").arg(pointer.isEmpty() ? QStringLiteral("(root)") : pointer, message);
}

SchemaValidator::SchemaValidator()
    : d(std::make_unique<SchemaValidatorState>())
{}

SchemaValidator::~SchemaValidator() = default;

std::unique_ptr<SchemaValidator> SchemaValidator::compile(const nlohmann::json &schema, QString *error)
{
    if (!schema.is_object() && !schema.is_boolean()) {
        if (error)
            *error = QStringLiteral("a schema must be a JSON object (got %1)").arg(SchemaText::typeName(schema));
        return nullptr;
    }
    // valijson's parser and the compiler recurse through the schema and its $refs:
    // refuse what would take them too deep before either sees it.
    if (nestingDepth(schema, MaxSchemaDepth) > MaxSchemaDepth) {
        if (error)
            *error = QStringLiteral("the schema is nested deeper than %1 levels").arg(MaxSchemaDepth);
        return nullptr;
    }
    std::unique_ptr<SchemaValidator> validator(new SchemaValidator);
    validator->d->document = schema;
    integralCounts(validator->d->document, MaxSchemaDepth + 1);
    SchemaRefs::Checked refs = SchemaRefs::check(validator->d->document, MaxSchemaDepth);
    if (!refs.error.isEmpty()) {
        if (error)
            *error = refs.error;
        return nullptr;
    }
    try {
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        const valijson::adapters::NlohmannJsonAdapter adapter(refs.parserView);
        // Never fetches: a ref check() could not resolve is spelt as a URI it asks for here.
        parser.populateSchema(
            adapter, validator->d->schema, [](const std::string &) -> const nlohmann::json * { return nullptr; },
            [](const nlohmann::json *) {});
    } catch (const std::exception &e) {
        if (error) {
            const QString unfollowable = refs.explain(e.what());
            *error = unfollowable.isEmpty() ? JsonQt::fromStd(e.what()) : unfollowable;
        }
        return nullptr;
    }
    validator->d->root = validator->d->compiler.compile(validator->d->document, std::string(), error);
    if (!validator->d->root)
        return nullptr;
    return validator;
}

std::optional<SchemaValidator::Failure> SchemaValidator::validate(const nlohmann::json &value) const
{
    return validate(value, Limits());
}

std::optional<SchemaValidator::Failure> SchemaValidator::validate(const nlohmann::json &value,
                                                                  const Limits &limits) const
{
    return SchemaWalk(limits).run(*d->root, value);
}

const nlohmann::json &SchemaValidator::schema() const
{
    return d->document;
}
