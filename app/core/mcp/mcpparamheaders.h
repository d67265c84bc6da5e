// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

/// A tool's `x-mcp-header` parameters (MCP 2026-07-28 basic/transports/streamable-http
/// "Custom Headers from Tool Parameters"): a property of the `inputSchema` reached from
/// its root through `properties` keys alone may name a header; a `tools/call` over
/// Streamable HTTP then carries the argument's value as `Mcp-Param-{name}`, so that a
/// gateway can route on it. A tool whose annotations break the spec's rules is not
/// offered (the spec: the client MUST exclude it from `tools/list`).
class McpParamHeaders
{
    Q_DECLARE_TR_FUNCTIONS(McpParamHeaders)

public:
    /// More annotations than any gateway routes on; a tool with more is not offered
    /// (each would be a header on every call).
    static constexpr std::size_t MaxAnnotations = 32;
    /// Deeper than any tool's schema goes; the walk stops there (and refuses the tool).
    static constexpr int MaxDepth = 64;
    /// Characters of a header's name part (attack34 F2: a 100 000-character name was
    /// taken, and every call of the tool was answered 431).
    static constexpr std::size_t MaxNameChars = 128;
    /// Bytes of a call's Mcp-Param headers together as sent (each "name: value", values
    /// encoded): more are not sent — servers and proxies refuse requests with headers of
    /// some KiB (attack34: a 70 KB value was answered "no HTTP reply"; attack35: 31
    /// headers of 8 KiB each, 431 from a Node server, whose limit is 16 KiB for all).
    static constexpr std::size_t MaxHeaderBytes = 8192;

    struct Annotation
    {
        std::vector<std::string> path; ///< the `properties` keys from the root
        std::string name;              ///< the header is `Mcp-Param-{name}`
        std::string type;              ///< the property's: "string", "integer" or "boolean"
    };
    /// The annotations of a server's tools that have any, by the server's tool name.
    using ToolParameters = std::map<std::string, std::vector<Annotation>>;

    /// The annotations of `inputSchema` (none for a schema without any); nullopt with
    /// `why` (naming the property and the rule) when one breaks the spec's rules: an
    /// empty name or one that is not an HTTP token, a name used twice (in any case), a
    /// property whose `type` is not `string`, `integer` or `boolean`, or an annotation
    /// that is not reached through `properties` alone (under `items`, `anyOf`, `$defs`,
    /// `$ref`, …).
    static std::optional<std::vector<Annotation>> annotationsOf(const nlohmann::json &inputSchema, QString *why);

    /// The headers a call with `arguments` carries: (`Mcp-Param-{name}`, value) in the
    /// annotations' order (the schema's property names sorted, as nlohmann::json keeps them); a string as it is, an integer in decimal, a boolean as
    /// `true`/`false`, each encoded as the spec's "Value Encoding" says (`=?base64?…?=`
    /// when not plain ASCII). No value at the path, or one not of the property's
    /// type: no header.
    static std::vector<std::pair<std::string, std::string>> headersFor(const std::vector<Annotation> &annotations,
                                                                       const nlohmann::json &arguments);

    /// Why a call with `headers` (headersFor()) is not sent: more than MaxHeaderBytes
    /// together, said with the largest header and what to do; "" when they fit.
    static QString oversized(const std::vector<std::pair<std::string, std::string>> &headers);

private:
    class Walk;
    /// "property 'a.b'" for a path of `properties` keys.
    static QString pathText(const std::vector<std::string> &path);
};
