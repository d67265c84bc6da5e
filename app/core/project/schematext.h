// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <string>

/// How SchemaValidator's messages name values: a JSON type in words and a value
/// shortened to fit a sentence.
namespace SchemaText {

/// "null", "boolean", "integer" (int64 and uint64), "number" (a double), "string",
/// "array", "object".
QString typeName(const nlohmann::json &value);

/// `value` as compact JSON of at most 60 characters ("..." at the end when cut); the
/// dump is bounded, so a value megabytes long or thousands of levels deep costs little.
QString shortDump(const nlohmann::json &value);

/// A schema's `pattern` as its author wrote it, for a sentence ("does not match the
/// pattern ^\d{4}$"): not JSON-escaped, so backslashes and quotes read as in the
/// schema; control and bidirectional characters escaped as printableText() does; at
/// most 60 characters ("..." at the end when cut, as shortDump()).
QString shortPattern(const std::string &source);

/// A JSON Pointer token escaped: '~' → "~0", '/' → "~1".
QString escapePointerToken(QString token);

} // namespace SchemaText
