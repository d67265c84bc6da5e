// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

/// Bridge protocol messages (DESIGN.md, "The tools bridge"): one JSON object per
/// `\n`-terminated UTF-8 line on fd 3.
///
/// Child → studio:  {"type":"call","id":"<call id>","tool":"<name>","args":{...}|[...]}
/// Studio → child:  {"type":"result","id":"…","value":<json>}
///                  {"type":"error","id":"…","error":{"code","message","retryable","attempts"}}

/// Error codes of the bridge protocol (DESIGN.md's list, spelled as on the wire).
namespace BridgeErrorCode {
inline constexpr const char *UnknownTool = "unknown_tool";
inline constexpr const char *InactiveTool = "inactive_tool";
inline constexpr const char *InvalidArguments = "invalid_arguments";
inline constexpr const char *RequestTooLarge = "request_too_large";
inline constexpr const char *ReplyTooLarge = "reply_too_large";
inline constexpr const char *MaxCallsExceeded = "max_calls_exceeded";
inline constexpr const char *Timeout = "timeout";
inline constexpr const char *ToolFailed = "tool_failed";
inline constexpr const char *Cancelled = "cancelled";
inline constexpr const char *ProtocolError = "protocol_error";
}

/// A tool call as the script sent it. `args` is an object (keyword arguments) or an
/// array (positional arguments, mapped to the schema's property order by the engine).
struct BridgeCall
{
    std::string id;
    std::string tool;
    nlohmann::json args = nlohmann::json::object();
    /// Size in bytes of `args` serialised as compact UTF-8 JSON; the request cap counts this.
    std::size_t argsBytes = 0;
};

/// The error half of a reply; also the shape of a step's error in the journal.
struct BridgeError
{
    std::string code;
    std::string message;
    bool retryable = false;
    int attempts = 0;
    /// Optional extra fields (e.g. "pointer" for invalid_arguments).
    nlohmann::json details = nlohmann::json::object();

    nlohmann::json toJson() const;
    static BridgeError fromJson(const nlohmann::json &json);
};

/// Outcome of decoding one line. Exactly one of `call` or `error` is set.
struct BridgeDecodeResult
{
    std::optional<BridgeCall> call;
    std::string error; ///< human-readable reason the line is a protocol error
};

namespace BridgeProtocol {
/// Bound on JSON nesting depth of a decoded line (arrays + objects).
inline constexpr int MaxNestingDepth = 128;

/// Decodes one line (without its trailing '\n'). Rejects invalid UTF-8 (naming the
/// byte offset), JSON nested deeper than MaxNestingDepth, non-objects, unknown
/// "type" values and calls missing a string "id"/"tool" or with non-container args.
BridgeDecodeResult decodeLine(std::string_view line);

/// Encodes a result reply as one line, including the trailing '\n'.
std::string encodeResult(const std::string &id, const nlohmann::json &value);
/// Encodes an error reply as one line, including the trailing '\n'.
std::string encodeError(const std::string &id, const BridgeError &error);

/// Returns the offset of the first byte that is not valid UTF-8, or npos.
std::size_t firstInvalidUtf8(std::string_view bytes);
}
