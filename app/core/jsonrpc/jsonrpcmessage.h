// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

/// A JSON-RPC 2.0 error object: `code`, `message`, optional `data` (null = absent).
struct JsonRpcError
{
    /// The codes JSON-RPC 2.0 reserves (MCP uses them with the same meaning).
    enum Code : int {
        ParseError = -32700,     ///< not JSON
        InvalidRequest = -32600, ///< JSON, but not a JSON-RPC 2.0 message
        MethodNotFound = -32601,
        InvalidParams = -32602,
        InternalError = -32603,
    };
    std::int64_t code = 0;
    std::string message;
    nlohmann::json data; ///< null when absent

    nlohmann::json toJson() const;
};

/// One JSON-RPC 2.0 message as MCP sends it (one JSON object; MCP since 2025-06-18
/// sends no batches). What each kind carries:
///   Request       `id`, `method`, `params`      {"jsonrpc":"2.0","id":1,"method":"tools/list"}
///   Notification  `method`, `params`            {"jsonrpc":"2.0","method":"notifications/initialized"}
///   Result        `id`, `result`                {"jsonrpc":"2.0","id":1,"result":{…}}
///   Error         `id` (null if the peer could not read one), `error`
/// `id` is a string or an integer (JSON-RPC allows a number, MCP says string or
/// integer; a fraction is refused). `params` is an object or an array, null when absent.
struct JsonRpcMessage
{
    enum class Kind { Request, Notification, Result, Error };
    Kind kind = Kind::Notification;
    nlohmann::json id;
    std::string method;
    nlohmann::json params;
    nlohmann::json result;
    JsonRpcError error;

    static JsonRpcMessage request(nlohmann::json id, std::string method, nlohmann::json params = nullptr);
    static JsonRpcMessage notification(std::string method, nlohmann::json params = nullptr);
    static JsonRpcMessage resultFor(nlohmann::json id, nlohmann::json result);
    static JsonRpcMessage errorFor(nlohmann::json id, JsonRpcError error);

    /// The message as one line of compact JSON, no '\n' (stdio framing), members in
    /// the order above, text that is not valid UTF-8 replaced by U+FFFD (never throws).
    std::string encode() const;
    nlohmann::json toJson() const;
};

/// What decode() makes of one received text.
struct JsonRpcDecoded
{
    std::optional<JsonRpcMessage> message;
    /// When `message` is empty: why, as the error a receiver answers with — code
    /// ParseError (not JSON, or nested deeper than JsonInput allows) or InvalidRequest
    /// (JSON, but not a message: a batch, a missing or wrong `jsonrpc`, `id`, `method`,
    /// `params`, `result` or `error`); `message` names the member and what was wrong,
    /// at most ~250 bytes whatever the input.
    JsonRpcError problem;
    /// The `id` of a refused request when it could be read (a string or an integer),
    /// else null: a receiver answers the error with it, as JSON-RPC asks.
    nlohmann::json problemId;
};

namespace JsonRpc {
/// Reads one message (e.g. one line of a stdio transport, one HTTP body) through
/// JsonInput::read (depth-bounded, never throws).
JsonRpcDecoded decode(std::string_view text);
/// The same for a value already parsed (e.g. an element of an SSE event's data).
JsonRpcDecoded decodeValue(const nlohmann::json &value);
/// True for a string or an integer (what an `id` may be).
bool isValidId(const nlohmann::json &id);
} // namespace JsonRpc
