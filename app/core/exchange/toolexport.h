// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

/// Tool definitions in the shapes model APIs accept (DESIGN.md "Tool definitions
/// export"; docs/python-tools.md "Export"):
///
/// | format | one tool |
/// |---|---|
/// | anthropic | `{"name", "description", "input_schema"}` |
/// | openai-chat | `{"type": "function", "function": {"name", "description", "parameters"}}` (+ `"strict": true`) |
/// | openai-responses | `{"type": "function", "name", "description", "parameters", "strict": bool}` (the Responses API defaults `strict` to true, so it is always written) |
///
/// Every array schema carries `items` (`{}` when the tool gave none: OpenAI refuses an
/// array without), and each one added is listed — an export adds no key silently. A tool whose
/// input_schema has a top-level `anyOf`/`oneOf`/`allOf` is refused (the APIs want a
/// plain object at the top). `strict` (OpenAI only) converts the schema to strict
/// mode or refuses the tool with the reason and the JSON pointer.
namespace ToolExport {

enum class Format { Anthropic, OpenAIChat, OpenAIResponses };

/// "anthropic", "openai-chat" (also "openai"), "openai-responses"; nullopt otherwise.
std::optional<Format> parseFormat(const QString &name);
QString formatName(Format format);

/// Top-level properties in `parameterOrder`, keys of each schema in a readable order.
nlohmann::ordered_json orderedSchema(const nlohmann::json &schema, const QStringList &parameterOrder = {});
/// `schema` with `items: {}` added to every array schema that lacks items; `added` gets
/// the JSON pointer of each (below `pointer`; "(root)" for the schema itself).
nlohmann::json withArrayItems(const nlohmann::json &schema, QStringList *added = nullptr,
                              const QString &pointer = QString());

/// OpenAI strict mode (structured outputs): every object gets `additionalProperties:
/// false` and lists every property in `required`; a property that was optional
/// becomes a union with null (`"type": ["string", "null"]`, `null` added to an enum,
/// a `{"type": "null"}` branch added to an anyOf); a `default` is dropped and named
/// in the description ("(default: 2)"). Refused, with the pointer: a free-form object
/// (no properties, or additionalProperties as a schema — a dict), an array without an
/// item type, a schema without a type, keywords strict mode does not take (oneOf,
/// allOf, not, if/then/else, patternProperties, minLength, uniqueItems, …), nesting
/// deeper than 10 objects.
std::optional<nlohmann::json> toStrictSchema(const nlohmann::json &inputSchema, QString *reason);

/// The name `name` gets in the model APIs, whose rule is `^[a-zA-Z0-9_-]{1,64}$` (OpenAI
/// and Anthropic alike; a tool name may also hold '.' and be up to 128 long): each '.'
/// becomes '_'. Nullopt with `reason` for a name over 64 characters (cutting it could
/// make two tools one: the person renames it).
std::optional<QString> providerName(const QString &name, QString *reason);

/// One tool in `format`; nullopt with `reason` when it cannot be exported. The name is
/// `providerName(tool.name)`; `added` gets the pointer of each `items: {}` added.
std::optional<nlohmann::ordered_json> exportTool(const Tool &tool, Format format, bool strict, QString *reason,
                                                 QStringList *added = nullptr);
/// Every tool of `tools` that exports, as a JSON array; each refused one adds
/// "tool 'NAME': REASON" to `refused`; what the export changed is listed in `changed`,
/// never silent: each `items: {}` added ("tool 'NAME': added \"items\": {} … at
/// /properties/tags …") and each tool exported under another name (a '.' mapped:
/// "tool 'NAME' is exported as 'MAPPED' (…)"). A mapped name that another tool
/// already has is refused. (`--strict` changes the schema as strict mode means,
/// documented in toStrictSchema; those are not listed one by one.)
nlohmann::ordered_json exportTools(const std::vector<Tool> &tools, Format format, bool strict, QStringList *refused,
                                   QStringList *changed = nullptr);

} // namespace ToolExport
