// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

/// Tools in an MCP server's `sampling/createMessage` (MCP 2025-11-25 client/sampling,
/// "Tools in Sampling"; docs/mcp.md "Tools in sampling"): the request's `tools` and
/// `toolChoice`, and its messages' `tool_use` blocks (the assistant's) and `tool_result`
/// blocks (the user's). Every byte is the server's: check() bounds and checks them all
/// before McpPersonQuestion builds anything of the request.
namespace SamplingTools {
/// Tools one request may offer.
constexpr std::size_t MaxTools = 128;
/// Bytes of the request's `tools` together (compact JSON).
constexpr std::size_t MaxToolsBytes = 256 * 1024;
/// Nesting of a tool's inputSchema (a person fills it in a form of a widget per level).
constexpr int MaxSchemaDepth = 32;
/// JSON objects (subschemas, fields of a form) in one tool's inputSchema: a person's form
/// builds widgets for each, the schema validator compiles each (attack44 F2).
constexpr std::size_t MaxSchemaObjects = 1024;
/// JSON objects in the request's inputSchemas together.
constexpr std::size_t MaxToolsSchemaObjects = 8192;
/// Characters of a tool_use's input or a tool_result's text in the transcript.
constexpr qsizetype MaxShownChars = 2000;

/// True when `protocolVersion` (the session's) allows tools in sampling: 2025-11-25 and
/// later (the 2026-07-28 era included), or "" (not known: a question built outside a
/// session). 2025-06-18 and earlier have no `sampling.tools` capability.
bool allowedIn(const QString &protocolVersion);

/// "" when the tools and the tool blocks of the sampling `params` are what MCP
/// 2025-11-25 allows and within the bounds; else the first problem, for the server's
/// InvalidParams error: tools or toolChoice in a session of `protocolVersion` that does
/// not allow them (allowedIn), `tools` not an array or of more than MaxTools or
/// MaxToolsBytes, a tool without a name, with a non-object inputSchema, one nested deeper
/// than MaxSchemaDepth, of more than MaxSchemaObjects objects (or all of them of more than
/// MaxToolsSchemaObjects) or one that does not compile, a name twice, a toolChoice not an object or whose mode is not "auto",
/// "required" or "none", "required" without tools; a tool_use in a user message or a
/// tool_result in an assistant's, a tool_use without its id, name or input object, an id
/// twice, a tool_result without toolUseId or content array or whose toolUseId names no
/// earlier tool_use, tool results mixed with other content, an assistant's tool_use not
/// answered by a tool_result in the next message. The messages are already known to be
/// an array of at most McpPersonQuestion::MaxContentBlocks blocks (contentBlocks()).
QString check(const nlohmann::json &params, const QString &protocolVersion);

/// The content blocks of `messages` (a message's content that is one block counts one; a
/// tool_result's own content blocks count too), without building anything. When the
/// messages' own blocks are more than `limit`, their count alone (no block is looked into).
std::size_t contentBlocks(const nlohmann::json &messages, std::size_t limit = SIZE_MAX);

/// The checked request's tools as a question shows and a model is given them: [{"name",
/// "description" (when sent, whole: the request's tools are at most MaxToolsBytes),
/// "inputSchema"}], in order; an empty array when none.
nlohmann::json tools(const nlohmann::json &params);
/// The checked request's toolChoice mode ("auto", "required", "none"); "" when not sent.
QString toolChoice(const nlohmann::json &params);

/// A tool_use or tool_result block (`block`) as a line of the transcript a person reads:
/// "→ get_weather({"city":"Paris"})  [call_1]", "← [call_1] 18 °C" ("← [call_1, error] …");
/// "" for any other block.
QString transcriptLine(const nlohmann::json &block);
/// A tool_result's content as the text a model is given: its text blocks, one per line,
/// any other block as "[image not sent]" (counted in `omitted`); its structuredContent as
/// JSON when it has no text. Built up to about `maxBytes` (a person's transcript is cut).
QString resultText(const nlohmann::json &block, int &omitted, std::size_t maxBytes);
/// About the bytes of `value` as compact JSON, counted without building it (strings
/// and keys by their size, other scalars as 8); counting stops once past `limit`. What
/// a tool block would cost a model's request is known before it is built.
std::size_t bytesOf(const nlohmann::json &value, std::size_t limit);
/// A checked tool_use block as a neutral tool call (llm/modelmessage.h): {"id", "type":
/// "function", "function": {"name", "arguments": its input as JSON text}}.
nlohmann::json toolCall(const nlohmann::json &block);
/// A checked tool_result block as a neutral tool message: {"role": "tool",
/// "tool_call_id": its toolUseId, "content": resultText(), "is_error": true when isError}.
nlohmann::json toolMessage(const nlohmann::json &block, int &omitted);
} // namespace SamplingTools
