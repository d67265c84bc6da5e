// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// The MCP protocol revisions both sides of the studio speak, and the per-request
/// `_meta` of the modern era (revision 2026-07-28, stateless) — the one place the
/// studio's MCP client (app/core/mcp) and MCP server (app/server) take them from
/// (docs/mcp.md and docs/server.md "Protocol revisions" say which spec page each rule
/// comes from).
///
/// Eras (the spec's words, basic/versioning): *legacy* revisions open a session with an
/// `initialize` handshake (2025-11-25 and earlier); *modern* ones carry the protocol
/// version, client identity and client capabilities in each request's `_meta`
/// (2026-07-28). A *dual-era* peer speaks both.
namespace McpRevision {

constexpr std::string_view Modern = "2026-07-28";

/// _meta keys (basic/index "Per-request protocol fields").
constexpr const char *ProtocolVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char *ClientInfoKey = "io.modelcontextprotocol/clientInfo";
constexpr const char *ClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
constexpr const char *ServerInfoKey = "io.modelcontextprotocol/serverInfo";
/// The subscription a notification belongs to (basic/patterns/subscriptions): the id of
/// the `subscriptions/listen` request that opened it.
constexpr const char *SubscriptionIdKey = "io.modelcontextprotocol/subscriptionId";

/// The error codes of the MCP-reserved range (basic/index "Error Codes").
enum ErrorCode : int {
    HeaderMismatch = -32020,
    MissingRequiredClientCapability = -32021,
    UnsupportedProtocolVersion = -32022,
};

/// Bounds on what a peer's `_meta` may be: the whole object serialized, and a version.
constexpr std::size_t MaxMetaBytes = 64 * 1024;
constexpr std::size_t MaxVersionChars = 32;

/// True for a revision the studio serves per request (2026-07-28).
bool isModern(std::string_view version);
/// True for a legacy revision the studio's server negotiates in `initialize`
/// (2025-11-25, 2025-06-18).
bool isLegacyServed(std::string_view version);
/// Every revision the studio's server supports, newest first: the `supportedVersions`
/// of `server/discover` and the `supported` of an UnsupportedProtocolVersionError.
const std::vector<std::string> &serverVersions();
/// "2026-07-28, 2025-11-25 and 2025-06-18", for messages.
std::string versionsInWords(const std::vector<std::string> &versions);

/// What one request said about itself in `_meta`.
struct RequestMeta
{
    std::string protocolVersion;
    nlohmann::json clientInfo;         ///< an object, or null when absent
    nlohmann::json clientCapabilities; ///< an object
    /// The client's name from clientInfo, at most 64 bytes; empty when none.
    std::string clientName() const;
};

/// True when `params` is an object whose `_meta` carries a protocolVersion key: the
/// request is of the modern era (a dual-era server serves it statelessly).
bool declaresVersion(const nlohmann::json &params);

/// Reads the per-request fields of a modern request. On failure, the error a server
/// answers with: -32602 (Invalid params) when `_meta`, the protocolVersion or the
/// clientCapabilities is missing or malformed or `_meta` is over MaxMetaBytes;
/// -32022 (UnsupportedProtocolVersion, data {supported, requested}) when the version
/// is not served. Every message names what was wrong and what to send.
std::optional<RequestMeta> readRequestMeta(const nlohmann::json &params, JsonRpcError *error);

/// The UnsupportedProtocolVersionError for `requested` (bounded in the message).
JsonRpcError unsupportedVersion(const std::string &requested);

/// `params` with `_meta` carrying the modern per-request fields (other `_meta` keys
/// kept); `params` null becomes an object.
nlohmann::json withRequestMeta(nlohmann::json params, const nlohmann::json &clientInfo,
                               const nlohmann::json &clientCapabilities);

/// A header value as streamable-http "Value Encoding" carries it: as it is when it is
/// visible ASCII and spaces without leading or trailing whitespace, else (and when it
/// looks like the sentinel) `=?base64?…?=` of its UTF-8.
std::string encodeHeaderValue(const std::string &value);
/// The reverse: `=?base64?…?=` decoded, anything else as it is; nullopt for Base64 that
/// is not valid.
std::optional<std::string> decodeHeaderValue(const std::string &raw);
/// The body value Mcp-Name mirrors: params.name of tools/call and prompts/get,
/// params.uri of resources/read; nullopt for other methods.
std::optional<std::string> mirroredName(const std::string &method, const nlohmann::json &params);

/// Result kinds (basic/index "ResultType").
constexpr const char *Complete = "complete";
constexpr const char *InputRequired = "input_required";
/// A result's resultType: "complete" when absent (a legacy server's result), else the
/// string; empty when it is there but not a string.
std::string resultType(const nlohmann::json &result);

} // namespace McpRevision
