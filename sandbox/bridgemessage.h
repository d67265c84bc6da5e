// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "errorcode.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

/// Bridge protocol messages (DESIGN.md, "The tools bridge"): one JSON object per
/// `\n`-terminated UTF-8 line on fd 3.
///
/// Child → studio:  {"type":"call","id":"<call id>","tool":"<name>","args":{...}|[...]}
///                  {"type":"model","id":"<call id>","model":"<name>","request":{"messages":[...],"tools":…}}
/// Studio → child:  {"type":"result","id":"…","value":<json>}
///                  {"type":"error","id":"…","error":{"code","message","retryable","attempts"}}

/// A tool call as the script sent it. `args` is an object (keyword arguments) or an
/// array (positional arguments, mapped to the schema's property order by the engine).
struct BridgeCall
{
    /// A tool call, or a model call ({"type":"model"}: `tool` is the model's name and
    /// `args` the request object; docs/models.md "The model step").
    enum class Kind { Tool, Model };
    Kind kind = Kind::Tool;
    std::string id;
    std::string tool;
    nlohmann::json args = nlohmann::json::object();
    /// Size in bytes of `args` serialised as compact UTF-8 JSON; the request cap counts this.
    std::size_t argsBytes = 0;
    /// `args` serialised as compact UTF-8 JSON (keys sorted), as decodeLine measured it
    /// (argsBytes is its size); empty when the call was not decoded from a line. The
    /// engine hashes this text instead of serialising the arguments again.
    std::string argsJson;
    /// Non-zero: the call's line was this many bytes, over the bridge's line bound, and
    /// was not read (BridgeFrameReader kept only `id` and `tool` from its prefix; `args`
    /// is empty). The studio refuses it with request_too_large.
    std::size_t oversizedLineBytes = 0;
    /// Non-empty: the line is a call in the shims' shape whose arguments could not be
    /// read — not JSON, invalid UTF-8 or a lone surrogate escape in them — and this says
    /// why and where ("not valid JSON at byte 12 of the arguments: …"). `args` is then
    /// {}; the studio records the call as an invalid_arguments step and the run goes on.
    std::string argumentsError;
};

/// The error half of a reply, as sent: `code` is a wire name (errorCodeName(),
/// errorcode.h). The studio's core keeps it typed as StepError, in this JSON shape.
struct BridgeError
{
    std::string code;
    std::string message;
    bool retryable = false;
    int attempts = 0;
    /// Optional extra fields (e.g. "pointer" for invalid_arguments).
    nlohmann::json details = nlohmann::json::object();

    /// {"code","message","retryable","attempts"} plus the fields of `details` (which
    /// never override those four).
    nlohmann::json toJson() const;
    /// The inverse of toJson(): unknown fields go to `details`, missing ones keep their
    /// defaults. Throws std::runtime_error naming the field when a known field has the
    /// wrong type, or when `json` is not an object.
    static BridgeError fromJson(const nlohmann::json &json);
};

/// Outcome of decoding one line. Exactly one of `call` or `error` is set.
struct BridgeDecodeResult
{
    std::optional<BridgeCall> call;
    std::string error; ///< human-readable reason the line is a protocol error
    /// With `error`: the call's id when the line is recognisably a call
    /// ({"type":"call","id":"…"} after bad UTF-8 bytes and lone surrogate escapes are
    /// neutralised) refused for its content — bad UTF-8, a lone surrogate escape, a
    /// missing "tool", non-container "args". The studio then refuses only that call
    /// (a protocol_error reply) and the run goes on. Empty for anything else (not JSON,
    /// too deep, not an object, unknown type, no id): those end the run.
    std::string id;
};

namespace BridgeProtocol {
/// Bound on JSON nesting depth of a decoded line (arrays + objects).
inline constexpr int MaxNestingDepth = 128;
/// Bound on the JSON values of a decoded line (and of any JSON the studio reads:
/// JsonInput::MaxValues, where the figure is explained): 8 Mi.
inline constexpr std::size_t MaxValues = std::size_t(8) << 20;

/// Decodes one line (without its trailing '\n'). Rejects invalid UTF-8 (naming the
/// byte offset), JSON nested deeper than MaxNestingDepth, non-objects, unknown
/// "type" values and calls missing a string "id"/"tool" or with non-container args.
///
/// Checks run in this order, each reason naming a 0-based byte offset where one
/// exists: "invalid UTF-8 at byte offset N"; "JSON nested deeper than 128 levels at
/// byte offset N" or "JSON with more than 8388608 values at byte offset N (…)" (a
/// linear pre-scan, so any depth costs no stack and no line more than MaxValues
/// values); "lone UTF-16
/// surrogate escape \\ud800 in a JSON string at byte offset N"; "invalid JSON at
/// byte offset N: <parser detail>"; then the shape of the message. A missing "args"
/// is {}; unknown extra fields are ignored. Quoted script text is cut to 64 bytes.
/// A line in the shims' shape ({"type":"call","id":…,"tool":…,"args":…}, plain
/// strings, "args" last) is read with one parse of its "args" only; the outcome is the
/// one the general path gives (any other line, and any doubt, takes that path). When
/// such a line fails only in its arguments (the text after "args": is not JSON, or has
/// invalid UTF-8 or a lone surrogate escape), it is a call with
/// BridgeCall::argumentsError set, so that one call fails and the run goes on.
BridgeDecodeResult decodeLine(std::string_view line);

/// Encodes a result reply as one compact line, including the trailing '\n':
/// {"type":"result","id":…,"value":…}. Invalid UTF-8 in strings becomes U+FFFD.
std::string encodeResult(const std::string &id, const nlohmann::json &value);
/// Encodes an error reply as one compact line, including the trailing '\n':
/// {"type":"error","id":…,"error":BridgeError::toJson()}.
std::string encodeError(const std::string &id, const BridgeError &error);

/// Returns the offset of the first byte that is not valid UTF-8, or npos. For an
/// ill-formed multi-byte sequence this is the offset of its lead byte. Overlongs,
/// UTF-16 surrogates (U+D800..U+DFFF) and code points above U+10FFFF are invalid
/// (Unicode 15, table 3-7).
std::size_t firstInvalidUtf8(std::string_view bytes);
} // namespace BridgeProtocol
