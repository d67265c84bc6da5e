// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

/// A question a running attempt asks a person (docs/mcp.md "A server's requests"): an
/// MCP server's `elicitation/create` or `sampling/createMessage` while one of its tools
/// is called. The step waits for a person (`waiting`) until it is answered through the
/// engine's answer() — the Pending Calls dock, `toolstudio answer` — then runs on.
///
/// A question is a JSON object: {"kind": "elicitation" | "sampling", "server", "method",
/// "request_id", "message", "serial"} and, for an elicitation, "schema" (the requestedSchema),
/// for a sampling request "system_prompt" and "max_tokens" when the server sent them.
/// "serial" numbers the step's questions (1, 2, …): an answer naming another
/// (ManualAnswer::question) is refused, so one read for a question the server withdrew
/// never goes to the question that replaced it.
///
/// Answers (ManualAnswer):
/// | kind | result | error |
/// |---|---|---|
/// | elicitation | {"action": "accept", "content": {…}} (content checked against schema; a URL-mode one, "mode": "url", takes {"action": "accept"} alone), {"action": "decline"}, {"action": "cancel"} | the server gets a JSON-RPC error with the message |
/// | sampling | the assistant's text: "text" or {"text": "…"} (stored as {"text"}); a model's reply {"text", "model", "stopReason"} (model printable, 1–MaxModelChars characters; stopReason a word of at most 64 letters: "endTurn", "maxTokens", "stopSequence", …) | likewise |
/// | sampling with tools (the question has "tools") | also a tool call: {"content": [{"type": "tool_use", "name", "input"}, …]} (at most MaxToolUses blocks, text blocks allowed among them; each tool one the question offers, its input matching its inputSchema; a tool_use without "id", or whose id the conversation or an earlier block of the answer has, gets a fresh one, "call_" and 24 hex digits), with "model" and "stopReason" as above when a model wrote it; toolChoice "none" refuses it, "required" refuses text | likewise |
/// | tool_change (a changed MCP tool, McpToolChangeQuestion: "name", "change", "parts", "diff") | {"action": "accept"} or {"action": "reject"} | rejects it with the message |
namespace PersonQuestion {
/// Characters of a sampling answer's "model".
constexpr qsizetype MaxModelChars = 256;
/// Blocks of a tool call's answer (its "content").
constexpr std::size_t MaxToolUses = 128;
/// Checks `answer` to `question` and normalises it (a sampling string becomes
/// {"text"}; an empty error message gets one); returns why it is refused, "" when taken.
QString check(const nlohmann::json &question, ManualAnswer &answer);
/// The question's kind ("elicitation", "sampling", "tool_change"), "" when it is not a question.
QString kind(const nlohmann::json &question);
/// The question as its handler asked it: without the "serial" the engine numbers it with.
nlohmann::json asked(nlohmann::json question);
/// What tells `question` from another of the same attempt without reading all of it:
/// its "serial", "kind", "server", "method" and "request_id" (an id longer than 256
/// characters by its length) as one line; "" for a question that is not an object. A
/// sampling question may carry megabytes of media: a view that checks every second
/// whether its question changed compares this, not the question (attack42 B2).
QString identity(const nlohmann::json &question);
} // namespace PersonQuestion
