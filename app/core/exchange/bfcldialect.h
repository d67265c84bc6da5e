// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

/// The Berkeley Function Calling Leaderboard's function documents, read as published
/// (docs/project-format.md "Importing tools"): their `parameters` use a dialect of
/// JSON Schema, mapped here to draft 7 the way BFCL's own OpenAI conversion does:
/// `dict` → `object`, `float` → `number`, `tuple` and `list` → `array` (an array
/// without `items` stays without), `any` → no `type` (any value), `int`/`str`/`bool`
/// → `integer`/`string`/`boolean`, and a language type of the Java and JavaScript
/// sets (`String`, `HashMap`, `long`, …; their values are source text) → `string`,
/// listed in the notes. `"optional": true` on a property removes it from `required`;
/// `default`, `enum`, `description` are kept.
namespace BfclDialect {

/// True when `schema` (a `parameters` value) uses a type name of the dialect.
bool usesDialect(const nlohmann::ordered_json &schema);

/// `parameters` as JSON Schema. `notes` gets one line per language type read as a
/// string ("parameter 'x': BFCL type 'HashMap' is read as a string").
nlohmann::ordered_json toJsonSchema(const nlohmann::ordered_json &parameters, QStringList *notes);

/// The name a model API takes: each '.' becomes '_' (`math.factorial` →
/// `math_factorial`), as BFCL does for those models.
QString mappedName(const QString &name);

} // namespace BfclDialect
