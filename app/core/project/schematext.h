// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

/// How SchemaValidator's messages name values: a JSON type in words and a value
/// shortened to fit a sentence.
namespace SchemaText {

/// "null", "boolean", "integer" (int64 and uint64), "number" (a double), "string",
/// "array", "object".
QString typeName(const nlohmann::json &value);

/// `value` as compact JSON of at most 60 characters ("..." at the end when cut); the
/// dump is bounded, so a value megabytes long or thousands of levels deep costs little.
QString shortDump(const nlohmann::json &value);

/// A JSON Pointer token escaped: '~' → "~0", '/' → "~1".
QString escapePointerToken(QString token);

} // namespace SchemaText
