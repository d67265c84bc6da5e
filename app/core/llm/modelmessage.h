// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

/// The neutral message shape every model call speaks (docs/models.md "Messages"),
/// OpenAI Chat Completions' as the lingua franca:
///
///   {"role": "system", "content": "You convert currencies."}
///   {"role": "user", "content": "100 EUR in USD?"}
///   {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
///       "function": {"name": "get_rate", "arguments": "{\"base\":\"EUR\"}"}}]}
///   {"role": "tool", "tool_call_id": "call_1", "content": "1.08"}
///   {"role": "tool", "tool_call_id": "call_2", "content": "unknown currency", "is_error": true}
///
/// `content` is text (null only for an assistant message with tool calls); `arguments`
/// is JSON text, as the model wrote it. `is_error` is the studio's one addition: it
/// becomes Anthropic's `tool_result.is_error`; OpenAI has no such flag and gets the text.
/// A `user` message's content may instead be an array of parts, Chat Completions' own:
///
///   {"role": "user", "content": [{"type": "text", "text": "What is on it?"},
///       {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo…"}},
///       {"type": "input_audio", "input_audio": {"data": "UklGR…", "format": "wav"}}]}
///
/// An image is inline (a data URL: no model is made to fetch a URL) of one of
/// ImageMimeTypes, its bytes of that type; audio is wav or mp3 (OpenAI's input_audio).
/// AnthropicCodec sends an image as Messages' {"type": "image", "source": {"type":
/// "base64", "media_type", "data"}} and refuses audio: Anthropic takes none.
/// The codecs (OpenAIChatCodec, AnthropicCodec) turn this shape into each provider's
/// request and each provider's reply back into a ModelReply.

/// One model call's request: the conversation and the tools the model may call.
struct ModelRequest
{
    nlohmann::json messages = nlohmann::json::array(); ///< neutral messages, checked by checkMessages()
    std::vector<Tool> tools; ///< sent through ToolExport for the provider; none = no `tools` member
    /// How the model may use `tools` (MCP's toolChoice modes): "auto", "required" (at
    /// least one tool call), "none" (no tool call); "" sends none (the provider's
    /// default, auto). Each codec words it as its provider does.
    QString toolChoice;
};

/// A model's answer in the neutral shape.
struct ModelReply
{
    /// {"role": "assistant", "content": text or null, "tool_calls": [...] (only when some)}
    nlohmann::json message;
    int inputTokens = 0;  ///< prompt tokens, cached ones included; 0 when the server sent no usage
    int outputTokens = 0; ///< generated tokens
    /// OpenAI's finish_reason vocabulary: "stop" (a final answer), "tool_calls",
    /// "length" (the token limit), "content_filter"; a provider's other reasons as
    /// it named them (Anthropic's "refusal", "pause_turn").
    QString stopReason;
    /// The model id the reply names (Chat Completions' and Messages' `model`: often a
    /// dated version of the id asked for), at most MaxModelIdChars characters as sent;
    /// "" when it names none (a mock). Not in toJson(): the journal keeps the configured id.
    QString model;
    /// The model stopped at one of the request's stop sequences and the provider says so
    /// (Anthropic's stop_reason "stop_sequence"; `stopReason` is "stop" then). Chat
    /// Completions says "stop" for both. Not in toJson().
    bool stoppedAtSequence = false;
    /// Tool calls whose `arguments` are not a JSON object, by call id, with the reason
    /// ("arguments are not valid JSON: …"). The call stays in `message` as the model
    /// wrote it; the loop answers it with an error, as real loops do.
    std::vector<std::pair<QString, QString>> argumentErrors;

    /// {"message": …, "usage": {"input_tokens", "output_tokens"}, "stop_reason": …} and,
    /// when some call's arguments are bad, "argument_errors": {call id: reason}.
    nlohmann::json toJson() const;
};

namespace ModelMessage {
/// Largest text of a reply quoted in an error (a server's message, a bad value).
inline constexpr int QuoteChars = 200;
/// The longest "… (N bytes dropped)" note a quote may end with.
inline constexpr int MaxNoteChars = 32;
/// Characters of a reply's model id kept (ModelReply::model).
inline constexpr int MaxModelIdChars = 1024;

/// "" when `messages` is a non-empty array of neutral messages; else the first problem,
/// naming the message ("messages[2]: a 'tool' message needs 'tool_call_id' (the id of
/// the call it answers)"). Unknown members are refused, as in the manifest.
QString checkMessages(const nlohmann::json &messages);

/// The image types both providers take (OpenAI's and Anthropic's vision inputs).
inline constexpr std::string_view ImageMimeTypes[] = {"image/png", "image/jpeg", "image/gif", "image/webp"};
/// An image part {"type": "image_url", "image_url": {"url": "data:MIME;base64,DATA"}}.
nlohmann::json imagePart(std::string_view mimeType, std::string_view base64);
/// An audio part {"type": "input_audio", "input_audio": {"data", "format"}}.
nlohmann::json audioPart(std::string_view format, std::string_view base64);
/// The input_audio format of an audio MIME type: "wav" (audio/wav, audio/x-wav,
/// audio/wave), "mp3" (audio/mpeg, audio/mp3); "" for any other.
std::string audioFormat(std::string_view mimeType);
/// True when `text` is non-empty, well-formed base64 (the standard alphabet, padded).
bool isBase64(std::string_view text);
/// Why the bytes `base64` encodes are not an image of `mimeType` (one of
/// ImageMimeTypes), told by their first bytes ("the data is not a PNG image"); "" when
/// they are. A provider refuses an image whose bytes are not of the type it is named. A
/// JPEG of more than JpegScans::MaxScans scans is refused too ("the JPEG has 2006 scans,
/// more than 100 …": a scan bomb).
QString imageDataProblem(std::string_view mimeType, std::string_view base64);
/// An image part's inline image: the MIME type and the base64 of its data URL; nullopt
/// when it is no `data:MIME;base64,` URL.
std::optional<std::pair<std::string_view, std::string_view>> dataUrl(std::string_view url);

/// Fills `reply.argumentErrors` from its message's tool calls.
void checkArguments(ModelReply &reply);

/// `tools` as the provider's tool list (ToolExport, not strict); nullopt with `error`
/// listing each tool the exporter refuses ("tool 'x': …; the model cannot be given it").
std::optional<nlohmann::ordered_json> exportTools(const std::vector<Tool> &tools, bool anthropic, QString *error);
/// `body` read through JsonInput as a JSON object; nullopt with `error` ("the reply is
/// not JSON: … (byte offset N)", "the reply is not a JSON object but an array").
std::optional<nlohmann::json> readReply(std::string_view body, QString *error);

/// A conversation as text for a person, one block per message: "user: 100 EUR in USD?",
/// "assistant:" with a line "  → get_rate({\"base\":\"EUR\"})  [call_1]" per tool call,
/// "tool (call_1): 1.08" ("tool (call_2, error): …"); text made printable; a part not
/// text as "[image image/png, 1234 bytes of base64]", "[audio wav, 99 bytes of base64]".
QString conversationText(const nlohmann::json &messages);
/// The model id `root` (a reply) names in its string `model`, cut to MaxModelIdChars; "" when none.
QString replyModel(const nlohmann::json &root);
/// `value` as JSON text, cut to QuoteChars characters, for an error message.
QString quote(const nlohmann::json &value);
/// The text of a reply (an error body, a refused value) printable and cut for a message:
/// at most QuoteChars + MaxNoteChars characters, escapes included.
QString quoteText(std::string_view text);
} // namespace ModelMessage
