// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/modelmessage.h"
#include "project/modelconfig.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

/// Anthropic's Messages API (POST {base_url}/v1/messages, headers `x-api-key` and
/// `anthropic-version: 2023-06-01`), written from Anthropic's published API reference.
namespace AnthropicCodec {

inline constexpr auto ApiVersion = "2023-06-01";
/// `max_tokens` is required by the API; this is sent when `params` has none.
inline constexpr int DefaultMaxTokens = 4096;

/// {"model", "max_tokens", "system" (the leading system messages, joined by a blank
/// line), "messages", "tools" and "tool_choice" ({"type": "auto" / "any" / "none"}: MCP's "required" is "any"; only with tools), …params}. Neutral messages become content blocks: an
/// assistant's text and tool calls `text` and `tool_use` blocks (arguments parsed back
/// to the `input` object), tool messages `tool_result` blocks (`is_error` kept) in a
/// user message; consecutive messages of one role are merged into one, as the API
/// alternates user and assistant. Nullopt with `error` for a system message after the
/// conversation started, a tool call whose arguments are not a JSON object, or a
/// tool the exporter refuses.
std::optional<nlohmann::ordered_json> buildRequest(const ModelConfig &model, const ModelRequest &request,
                                                   QString *error);

/// A reply body (untrusted: read through JsonInput) to a ModelReply: `text` blocks
/// joined as the content, `tool_use` blocks as tool calls (input as JSON text), other
/// blocks (thinking) left out; stop_reason in the neutral vocabulary (end_turn and
/// stop_sequence → "stop", the latter also stoppedAtSequence; tool_use → "tool_calls",
/// max_tokens → "length"); the model id it names; input
/// tokens include the cache's. Nullopt with `error` naming what was wrong.
std::optional<ModelReply> parseReply(std::string_view body, QString *error);

/// The message of an error body ({"type": "error", "error": {"type", "message"}}), as
/// "overloaded_error: Overloaded", cut and printable; "" when the body has none.
QString errorMessage(std::string_view body);

} // namespace AnthropicCodec
