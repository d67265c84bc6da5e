// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

struct SchemaValidatorState;

/// A compiled JSON Schema (draft 7, through valijson) that checks tool arguments
/// against `input_schema` and results against `output_schema` (DESIGN.md "Steps: the
/// engine"). Compile once per tool and reuse; validate() is const and cheap to call.
///
/// `format` is checked for the formats valijson knows (date, time, date-time); remote
/// `$ref`s are not fetched (a schema that needs one does not compile).
class SchemaValidator
{
public:
    /// The first bad field of a value.
    struct Failure
    {
        /// RFC 6901 JSON pointer of the bad field: "" for the value itself, "/quote",
        /// "/items/2/price". For a missing required property it is the pointer the
        /// property would have ("/quote"), so a person sees which field to add.
        QString pointer;
        /// What is wrong, in words, without the pointer: "expected string, got number",
        /// "required property is missing", "must be one of \"EUR\", \"GBP\"".
        QString message;

        /// "/quote: expected string, got number" ("(root): …" for the empty pointer).
        QString toString() const;
    };

    ~SchemaValidator();
    SchemaValidator(const SchemaValidator &) = delete;
    SchemaValidator &operator=(const SchemaValidator &) = delete;

    /// Compiles `schema`. Returns nullptr and sets `error` (one line, valijson's reason,
    /// e.g. "Unrecognised JSON type name 'strin'") when it is not a valid draft-7
    /// schema; a `pattern` that is not a valid ECMAScript regular expression is refused
    /// here too rather than failing every call later. A `$ref` that cannot be resolved
    /// is named with where it is and what to do: "$ref \"#/definitions/x\" at
    /// /properties/a could not be resolved: this schema has nothing at …".
    static std::unique_ptr<SchemaValidator> compile(const nlohmann::json &schema, QString *error = nullptr);

    /// nullopt when `value` is valid, else its first bad field. "First" follows
    /// valijson's order: constraints in schema order, object members sorted by name,
    /// the deepest field of that branch.
    std::optional<Failure> validate(const nlohmann::json &value) const;

    const nlohmann::json &schema() const;

private:
    SchemaValidator();
    std::unique_ptr<SchemaValidatorState> d;
};
