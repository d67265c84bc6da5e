// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/schemaformat.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

class SchemaPattern;

/// One subschema of a compiled schema (SchemaCompiler builds them, SchemaWalk applies
/// them): its keywords read once, `$ref`s resolved to the node they name. The json
/// pointers point into the schema document the compiler was given.
struct SchemaNode
{
    enum TypeBit : unsigned {
        NullType = 1,
        BooleanType = 2,
        IntegerType = 4,
        NumberType = 8,
        StringType = 16,
        ArrayType = 32,
        ObjectType = 64,
    };

    std::string location;         // JSON pointer of this subschema in the document
    std::optional<bool> constant; // a boolean schema
    const SchemaNode *ref = nullptr;
    const nlohmann::json *source = nullptr;

    unsigned types = 0; // 0: any
    const nlohmann::json *enumValues = nullptr;
    const nlohmann::json *constValue = nullptr;

    const nlohmann::json *minimum = nullptr;
    const nlohmann::json *maximum = nullptr;
    const nlohmann::json *exclusiveMinimum = nullptr;
    const nlohmann::json *exclusiveMaximum = nullptr;
    const nlohmann::json *multipleOf = nullptr;

    std::optional<std::uint64_t> minLength, maxLength;
    const SchemaPattern *pattern = nullptr;
    SchemaFormat::Kind format = SchemaFormat::Kind::None;

    const SchemaNode *items = nullptr; // one schema for every item
    std::vector<const SchemaNode *> tupleItems;
    bool tuple = false;
    const SchemaNode *additionalItems = nullptr;
    std::optional<std::uint64_t> minItems, maxItems;
    bool uniqueItems = false;
    const SchemaNode *contains = nullptr;

    std::vector<std::string> required;
    std::unordered_map<std::string, const SchemaNode *> properties;
    std::vector<std::pair<const SchemaPattern *, const SchemaNode *>> patternProperties;
    const SchemaNode *additionalProperties = nullptr;
    std::vector<std::pair<std::string, std::vector<std::string>>> dependentRequired;
    std::vector<std::pair<std::string, const SchemaNode *>> dependentSchemas;
    const SchemaNode *propertyNames = nullptr;
    std::optional<std::uint64_t> minProperties, maxProperties;

    std::vector<const SchemaNode *> allOf, anyOf, oneOf;
    const SchemaNode *notSchema = nullptr;
    const SchemaNode *ifSchema = nullptr, *thenSchema = nullptr, *elseSchema = nullptr;
};
