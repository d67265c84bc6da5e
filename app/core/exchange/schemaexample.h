// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

/// A small value that satisfies a JSON Schema, for the canned result of a tool
/// imported as a mock (docs/project-format.md "Importing tools"): a person edits it
/// afterwards. `const`, then the first of `enum`, then `default`, else by `type` (the
/// first of a list that is not "null"; inferred from `properties`/`items` when absent):
/// an object has its required properties, an array `minItems` items, a string
/// `minLength` characters or a sample of its `format` (date, time, date-time, email,
/// uri, uuid, ipv4), a number or integer its lower bound (`minimum`,
/// `exclusiveMinimum`) or else 0, clamped to `maximum`. Local `$ref`s (`#/…`) are
/// followed; `allOf` merges objects, `anyOf`/`oneOf` take their first branch. A
/// `pattern` is not solved: the result may then fail, and the import says so. The
/// work is bounded whatever the schema: at most 32 levels and 1 000 schemas visited
/// (a `$ref` to the root grows exponentially otherwise); past that a value is null.
namespace SchemaExample {

nlohmann::ordered_json generate(const nlohmann::ordered_json &schema);

} // namespace SchemaExample
