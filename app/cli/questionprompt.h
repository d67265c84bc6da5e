// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

/// What a headless command prints when an MCP server asks a person (docs/mcp.md "A
/// server's requests"), and how a line typed at the terminal prompt answers a call.
namespace QuestionPrompt {

/// The form listing stops past this many bytes (a requestedSchema is at most 64 KiB,
/// McpPersonQuestion::MaxSchemaBytes); the rest is counted and where to read it said.
inline constexpr qsizetype MaxSchemaTextBytes = 16 * 1024;

/// A form's requestedSchema for a terminal, one line per field, each "    NAME: TYPE,
/// required, KEYWORD VALUE, …" (every keyword of the field, values as compact JSON:
/// `maxLength 50`, `enum ["a","b"]`, `title "Name"`), then the schema's other keywords.
/// Past `maxBytes` the fields left are counted and where the whole schema is said.
/// Printable: a server's text cannot drive the terminal.
QString schemaText(const nlohmann::json &schema, qsizetype maxBytes = MaxSchemaTextBytes);

/// "toolstudio COMMAND: MCP server 'S' asks (elicitation): …" and the answer's shape.
QString questionText(const QString &command, const nlohmann::json &question);

/// The prompt's words: for a sampling request the reply is typed as text.
QString promptLabel(const nlohmann::json *question);

/// What a line typed at the prompt answers, for a call asking `question` (nullptr: a
/// manual tool's result). "!error MESSAGE" and "!retry MESSAGE" refuse; for a sampling
/// request the line is the reply's text unless it is JSON a sampling answer takes ("…"
/// or {"text": …}); otherwise it is JSON. nullopt with `problem` in plain words and an
/// example that fits the question when it is none of these.
std::optional<ManualAnswer> typedAnswer(const std::string &line, const nlohmann::json *question, QString *problem);

} // namespace QuestionPrompt
