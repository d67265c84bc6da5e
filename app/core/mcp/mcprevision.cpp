// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcprevision.h"

#include <QByteArray>

using nlohmann::json;

namespace McpRevision {

namespace {

JsonRpcError invalidParams(std::string message)
{
    JsonRpcError error;
    error.code = JsonRpcError::InvalidParams;
    error.message = std::move(message);
    return error;
}

/// `text` cut to `most` bytes, on a UTF-8 boundary.
std::string bounded(const std::string &text, std::size_t most)
{
    if (text.size() <= most)
        return text;
    std::size_t cut = most;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return text.substr(0, cut) + "…";
}

} // namespace

bool isModern(std::string_view version)
{
    return version == Modern;
}

bool isLegacyServed(std::string_view version)
{
    return version == "2025-11-25" || version == "2025-06-18";
}

const std::vector<std::string> &serverVersions()
{
    static const std::vector<std::string> versions{std::string(Modern), "2025-11-25", "2025-06-18"};
    return versions;
}

std::string versionsInWords(const std::vector<std::string> &versions)
{
    std::string words;
    for (std::size_t i = 0; i < versions.size(); ++i) {
        if (i > 0)
            words += i + 1 == versions.size() ? " and " : ", ";
        words += versions[i];
    }
    return words;
}

std::string RequestMeta::clientName() const
{
    if (!clientInfo.is_object())
        return {};
    const json name = clientInfo.value("name", json());
    return name.is_string() ? bounded(name.get<std::string>(), 64) : std::string();
}

bool declaresVersion(const json &params)
{
    if (!params.is_object())
        return false;
    const auto meta = params.find("_meta");
    return meta != params.end() && meta->is_object() && meta->contains(ProtocolVersionKey);
}

JsonRpcError unsupportedVersion(const std::string &requested)
{
    const std::string shown = bounded(requested, MaxVersionChars);
    JsonRpcError error;
    error.code = UnsupportedProtocolVersion;
    error.message = "Unsupported protocol version '" + shown + "': this server supports "
        + versionsInWords(serverVersions()) + " (" + std::string(Modern) + " in each request's _meta; "
        + "the 2025 revisions after initialize)";
    error.data = {{"supported", serverVersions()}, {"requested", shown}};
    return error;
}

std::optional<RequestMeta> readRequestMeta(const json &params, JsonRpcError *error)
{
    const std::string sendThis = "send _meta {\"" + std::string(ProtocolVersionKey) + "\": \"" + std::string(Modern)
        + "\", \"" + ClientCapabilitiesKey + "\": {}} with every request";
    if (!params.is_object() || !params.contains("_meta")) {
        *error = invalidParams("the request has no _meta with \"" + std::string(ProtocolVersionKey)
                               + "\": without initialize, " + sendThis);
        return std::nullopt;
    }
    const json &meta = params["_meta"];
    if (!meta.is_object()) {
        *error = invalidParams("the request's _meta is not an object: " + sendThis);
        return std::nullopt;
    }
    const std::size_t size = meta.dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (size > MaxMetaBytes) {
        *error = invalidParams("the request's _meta is " + std::to_string(size) + " bytes, over the limit of "
                               + std::to_string(MaxMetaBytes) + " bytes");
        return std::nullopt;
    }
    const auto version = meta.find(ProtocolVersionKey);
    if (version == meta.end() || !version->is_string()) {
        *error = invalidParams("the request's _meta has no string \"" + std::string(ProtocolVersionKey)
                               + "\": without initialize, " + sendThis);
        return std::nullopt;
    }
    RequestMeta read;
    read.protocolVersion = version->get<std::string>();
    if (!isModern(read.protocolVersion)) {
        *error = unsupportedVersion(read.protocolVersion);
        return std::nullopt;
    }
    const auto capabilities = meta.find(ClientCapabilitiesKey);
    if (capabilities == meta.end() || !capabilities->is_object()) {
        *error = invalidParams("the request's _meta has no object \"" + std::string(ClientCapabilitiesKey)
                               + "\" (required with " + std::string(Modern) + "; {} declares none)");
        return std::nullopt;
    }
    read.clientCapabilities = *capabilities;
    const auto info = meta.find(ClientInfoKey);
    if (info != meta.end() && info->is_object())
        read.clientInfo = *info;
    return read;
}

json withRequestMeta(json params, const json &clientInfo, const json &clientCapabilities)
{
    if (!params.is_object())
        params = json::object();
    json &meta = params["_meta"];
    if (!meta.is_object())
        meta = json::object();
    meta[ProtocolVersionKey] = std::string(Modern);
    if (clientInfo.is_object())
        meta[ClientInfoKey] = clientInfo;
    meta[ClientCapabilitiesKey] = clientCapabilities.is_object() ? clientCapabilities : json::object();
    return params;
}

namespace {
constexpr std::string_view SentinelPrefix = "=?base64?";
constexpr std::string_view SentinelSuffix = "?=";

bool looksEncoded(const std::string &value)
{
    return value.size() >= SentinelPrefix.size() + SentinelSuffix.size()
        && value.compare(0, SentinelPrefix.size(), SentinelPrefix) == 0
        && value.compare(value.size() - SentinelSuffix.size(), SentinelSuffix.size(), SentinelSuffix) == 0;
}
} // namespace

std::string encodeHeaderValue(const std::string &value)
{
    bool plain = !value.empty() && value.front() != ' ' && value.back() != ' ' && !looksEncoded(value);
    for (const char c : value)
        plain = plain && c >= 0x20 && c <= 0x7E;
    if (plain)
        return value;
    return std::string(SentinelPrefix) + QByteArray::fromStdString(value).toBase64().toStdString()
        + std::string(SentinelSuffix);
}

std::optional<std::string> decodeHeaderValue(const std::string &raw)
{
    if (!looksEncoded(raw))
        return raw;
    const auto decoded = QByteArray::fromBase64Encoding(
        QByteArray::fromStdString(
            raw.substr(SentinelPrefix.size(), raw.size() - SentinelPrefix.size() - SentinelSuffix.size())),
        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return decoded.decoded.toStdString();
}

std::optional<std::string> mirroredName(const std::string &method, const json &params)
{
    const bool named = method == "tools/call" || method == "prompts/get";
    if (!named && method != "resources/read")
        return std::nullopt;
    const json value = params.is_object() ? params.value(named ? "name" : "uri", json()) : json();
    return value.is_string() ? value.get<std::string>() : std::string();
}

std::string resultType(const json &result)
{
    if (!result.is_object() || !result.contains("resultType"))
        return Complete;
    const json &type = result["resultType"];
    return type.is_string() ? type.get<std::string>() : std::string();
}

} // namespace McpRevision
