// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

/// One request an MCP server sent the client while a tool of it was called
/// (`elicitation/create`, `sampling/createMessage`): its JSON-RPC id, method and params.
struct McpServerRequest
{
    nlohmann::json id;
    QString method;
    nlohmann::json params = nlohmann::json::object();
    /// The server withdrew the request (`notifications/cancelled`): whoever holds it
    /// drops it and answers nothing.
    bool withdrawn = false;
    /// The protocol revision of the server's session ("2025-11-25", "2026-07-28"); ""
    /// when not known. Tools in sampling need 2025-11-25 or later (SamplingTools::allowedIn).
    QString protocolVersion = {};
};

/// An MCP server's request as a question for a person (engine/personquestion.h), and the
/// person's answer as the server's reply (docs/mcp.md "A server's requests"). Every
/// byte is the server's: what a person is shown is bounded and checked here.
namespace McpPersonQuestion {
/// Bytes of a requestedSchema (compact JSON) a form is built from.
constexpr std::size_t MaxSchemaBytes = 64 * 1024;
/// Nesting of a requestedSchema (the spec asks for a flat object of primitives; the
/// schema form nests a widget per level).
constexpr int MaxSchemaDepth = 12;
/// Characters of a message (elicitation) or a sampling transcript shown to a person.
constexpr qsizetype MaxMessageChars = 20000;
/// Bytes of the page a URL-mode elicitation asks a person to open.
constexpr std::size_t MaxUrlBytes = 8192;
/// Bytes of text (messages and system prompt) a sampling request may have to be given
/// to a model; a larger one is answered by a person only.
constexpr std::size_t MaxModelRequestBytes = 256 * 1024;
/// Messages of a sampling request given to a model.
constexpr std::size_t MaxModelMessages = 1000;
/// Content blocks of a sampling request's messages together (a message's content that is
/// one block counts one): ten for each of the MaxModelMessages a model is given, far
/// more than a conversation holds, and few enough that checking and naming each costs
/// milliseconds. A request of more (a server's 34 MB of 2 000 000 image blocks cost
/// ~1.8 GB and ~12 s, attack42 B1) is refused before anything of it is built.
constexpr std::size_t MaxContentBlocks = 10000;
/// A sampling request's stopSequences given to a model (OpenAI's Chat Completions take
/// at most 4), each 1 to MaxStopSequenceBytes bytes of text.
constexpr std::size_t MaxStopSequences = 4;
constexpr std::size_t MaxStopSequenceBytes = 256;
/// A sampling request's modelPreferences.hints used to choose a model, each name 1 to
/// MaxHintBytes bytes.
constexpr std::size_t MaxModelHints = 8;
constexpr std::size_t MaxHintBytes = 256;

/// The question for `request` of `server`; nullopt with `error` (for the server's
/// JSON-RPC error) when it cannot be asked: a requestedSchema that is not an object
/// schema, too large, too deep or does not compile; a URL-mode elicitation whose url is
/// not an http(s) URL with a host and without user info, or has no elicitationId; a
/// sampling request without messages or of more than MaxContentBlocks content blocks
/// ("the request's messages hold 2000000 content blocks; Tool Studio takes at most
/// 10000"; a tool_result's own blocks count too), or whose tools or tool blocks
/// SamplingTools::check refuses. A URL-mode question has "mode": "url", "url",
/// "host" (its ASCII form) and "elicitation_id", and no schema. A sampling question
/// has "model_request", what a model is asked when one answers it instead of a person
/// (docs/mcp.md "A model writes the reply"): {"messages": [{"role": "user" |
/// "assistant", "content": text}] (the neutral shape, llm/modelmessage.h), "system"
/// when the server sent a systemPrompt, "omitted": the image, audio and other blocks
/// the text stands in for ("[image not sent]")}, or {"error": why not} (a role other
/// than user and assistant, more than MaxModelRequestBytes or MaxModelMessages). An
/// image or audio block a model can take (SamplingMedia) makes its user message's
/// content an array of parts (text, image_url, input_audio); one it cannot take is a
/// note in the text and in "notes" ("messages[0] image image/svg+xml: a model is given
/// PNG, JPEG, GIF and WebP images only; not sent"). The question's "media" lists the
/// images and audio a person is shown (SamplingMedia::shown()); the transcript names each
/// ("[image 1: image/png]") or says why it is not shown. What
/// else the server asked, each only when it sent it: "temperature" (a number; the
/// provider's range is checked when a model is asked), "stop_sequences" (at most
/// MaxStopSequences texts of 1 to MaxStopSequenceBytes bytes), "hints" (the names of
/// modelPreferences.hints in order, printable, at most MaxModelHints), "priorities"
/// ({"costPriority", "speedPriority", "intelligencePriority"}: numbers from 0 to 1,
/// shown, not acted on) and "notes": what the server asked that a model is not given as
/// asked (a temperature that is no number, stop sequences dropped, hints not an array,
/// includeContext "thisServer": the studio has no other context to include), one
/// sentence each. Tools in sampling (2025-11-25): the question and the model's request
/// have "tools" ([{"name", "description", "inputSchema"}]) and "tool_choice" ("auto",
/// "required", "none") when the server sent them; the transcript shows a tool_use as
/// "→ name(input)  [id]" and a tool_result as "← [id] text"; a model is given a tool_use
/// as its assistant message's "tool_calls" and a tool_result as a "tool" message. The
/// engine keeps the model's request apart from what a person reads (Attempt::modelRequest).
std::optional<nlohmann::json> question(const QString &server, const McpServerRequest &request, QString *error);
/// The server's result for a (checked) result answer to `question`: the elicitation
/// answer as it is; a sampling answer {"text"} as {"role": "assistant", "content":
/// {"type": "text", "text"}, "model", "stopReason"}: the answer's "model" and
/// "stopReason" when a model wrote it, else "person" and "endTurn"; a tool call's answer
/// {"content": [tool_use blocks]} as {"role": "assistant", "content": those blocks,
/// "model", "stopReason"}: "person" and "toolUse" unless a model's answer names its own.
nlohmann::json resultFor(const nlohmann::json &question, const ManualAnswer &answer);
} // namespace McpPersonQuestion
