// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

struct SchemaValidatorState;

/// A compiled JSON Schema (draft 7) that checks tool arguments against `input_schema`
/// and results against `output_schema` (DESIGN.md "Steps: the engine"). Compile once
/// per tool and reuse; validate() is const, thread-safe and cheap to call.
///
/// valijson only checks that a schema is well-formed; values are checked by the
/// studio's own evaluator (docs/steps.md "Argument validation"), whose every keyword
/// is near-linear in the size of the value: `pattern` and `patternProperties` are
/// PCRE2 searches (ECMA-262 approximated: UTF-8, `$` only at the end, `\d`/`\w`
/// ASCII), compiled once here, with bounded match steps, heap and JIT stack; numbers
/// are compared exactly (int64, uint64 and double, no lossy conversion); uniqueItems
/// hashes a canonical form. `format` is checked for date, time and date-time (RFC
/// 3339, by hand: no regex); other formats are annotations. Remote `$ref`s are not
/// fetched (a schema that needs one does not compile). `integer` is a number written
/// without fraction or exponent within 64 bits: 1.0 is not one, unlike draft 7 (a
/// documented choice, docs/project-format.md "How values are checked"). Conformance to
/// the JSON Schema Test Suite: tst_schemaconformance.
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

        /// True when the value could not be checked within the bounds (a regex match
        /// abandoned at its limits, the time budget or the nesting depth exceeded):
        /// the message says which bound and the pattern, the pointer where.
        bool abandoned = false;

        /// "/quote: expected string, got number" ("(root): …" for the empty pointer).
        QString toString() const;
    };

    /// Bounds of one validate() call; the defaults are what the engine uses.
    struct Limits
    {
        /// Wall-clock budget of the whole call, checked between keywords and after every
        /// regex match: past it the call fails as abandoned.
        std::chrono::milliseconds timeBudget{2000};
        /// pcre2_set_match_limit: backtracking steps of one match.
        std::uint32_t regexMatchLimit = 1000000;
        /// pcre2_set_depth_limit (the interpreter, where JIT is unavailable).
        std::uint32_t regexDepthLimit = 100000;
        /// pcre2_set_heap_limit, KiB, of one match.
        std::uint32_t regexHeapLimitKiB = 16 * 1024;
        /// Nesting of subschemas applied to one value (a $ref loop that never descends
        /// into the value) and of the value under uniqueItems, enum and const.
        int maxDepth = 512;
    };

    ~SchemaValidator();
    SchemaValidator(const SchemaValidator &) = delete;
    SchemaValidator &operator=(const SchemaValidator &) = delete;

    /// Compiles `schema`. Returns nullptr and sets `error` (one line, valijson's reason,
    /// e.g. "Unrecognised JSON type name 'strin'") when it is not a valid draft-7
    /// schema; a `pattern` or `patternProperties` key that PCRE2 does not compile is
    /// refused here too, named with where it is and PCRE2's reason ("invalid regular
    /// expression \"((\" at /properties/a/pattern: missing closing parenthesis at
    /// offset 2"), as are a `$ref` loop that never reaches a schema and a schema
    /// nested deeper than 256 levels. A `$ref` that cannot be resolved
    /// is named with where it is and what to do: "$ref \"#/definitions/x\" at
    /// /properties/a could not be resolved: this schema has nothing at …".
    static std::unique_ptr<SchemaValidator> compile(const nlohmann::json &schema, QString *error = nullptr);

    /// nullopt when `value` is valid, else its first bad field. "First" follows
    /// the evaluator's order: type, enum/const, the keywords of the value's kind,
    /// object members sorted by name, then allOf/anyOf/oneOf/not/if; a failure inside a
    /// member or item is the deepest field of that branch. A value that could not be
    /// checked within `limits` fails with `abandoned` set.
    std::optional<Failure> validate(const nlohmann::json &value) const;
    std::optional<Failure> validate(const nlohmann::json &value, const Limits &limits) const;

    const nlohmann::json &schema() const;

private:
    SchemaValidator();
    std::unique_ptr<SchemaValidatorState> d;
};
