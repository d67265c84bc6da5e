// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgemessage.h"

#include "jsoninput.h"
#include "jsontypename.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

using nlohmann::json;

/// Longest excerpt of script-controlled text (a type value, a parser message) quoted in
/// an error reason, so a hostile line cannot make the reason itself huge.
constexpr std::size_t MaxQuotedBytes = 64;
constexpr std::size_t MaxParserMessageBytes = 200;

/// Cuts `text` to at most `maxBytes` without splitting a UTF-8 sequence.
std::string truncateUtf8(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return std::string(text);
    std::size_t end = maxBytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return std::string(text.substr(0, end)) + "…";
}

/// `"value"` as JSON (control characters escaped), cut to MaxQuotedBytes.
std::string quotedExcerpt(std::string_view value)
{
    return json(truncateUtf8(value, MaxQuotedBytes)).dump(-1, ' ', false, json::error_handler_t::replace);
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

unsigned hexValue(std::string_view four)
{
    unsigned value = 0;
    for (char c : four) {
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= unsigned(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= unsigned(c - 'a' + 10);
        else
            value |= unsigned(c - 'A' + 10);
    }
    return value;
}

/// What nlohmann's parser would otherwise take on trust, before anything is built: the
/// bounds of JsonInput::overLimit (nesting depth, so a line nested 100 000 deep costs no
/// stack; the number of values, so a line of `[{},{},…]` cannot take 25 times its size
/// in memory), then one linear pass for `\uD800`-style escapes that are not part of a
/// surrogate pair. Malformed JSON is left to the parser. Returns "" or the reason. With
/// `repair`, a copy of `line`, lone surrogate escapes are overwritten there with \ufffd
/// (same length) and the scan goes on: only a bound then yields a reason.
std::string prescan(std::string_view line, std::string *repair = nullptr, const char *replacement = "fffd",
                    std::size_t *offset = nullptr)
{
    if (const JsonInput::Problem bound = JsonInput::overLimit(line); bound.limit) {
        if (bound.reason.rfind("nested", 0) == 0)
            return "JSON " + bound.reason + " at byte offset " + std::to_string(bound.byte);
        return "JSON with " + bound.reason + " at byte offset " + std::to_string(bound.byte) + " (at most "
            + std::to_string(BridgeProtocol::MaxValues) + " in one message: pass less, or in parts)";
    }
    bool inString = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (!inString) {
            if (c == '"')
                inString = true;
            continue;
        }
        if (c == '"') {
            inString = false;
        } else if (c == '\\' && i + 1 < line.size()) {
            if (line[i + 1] != 'u') {
                ++i; // skip the escaped character (it may be '"' or '\\')
                continue;
            }
            if (i + 6 > line.size() || !std::all_of(line.begin() + i + 2, line.begin() + i + 6, isHex))
                continue; // malformed escape: the parser reports it
            const unsigned unit = hexValue(line.substr(i + 2, 4));
            const auto lone = [&] {
                if (offset)
                    *offset = i;
                return "lone UTF-16 surrogate escape \\" + std::string(line.substr(i + 1, 5))
                    + " in a JSON string at byte offset " + std::to_string(i);
            };
            const auto refuse = [&] {
                if (!repair)
                    return lone();
                repair->replace(i + 2, 4, replacement);
                return std::string();
            };
            if (unit >= 0xDC00 && unit <= 0xDFFF) {
                if (std::string reason = refuse(); !reason.empty())
                    return reason;
                i += 5;
                continue;
            }
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                const bool paired = i + 12 <= line.size() && line[i + 6] == '\\' && line[i + 7] == 'u'
                    && std::all_of(line.begin() + i + 8, line.begin() + i + 12, isHex)
                    && hexValue(line.substr(i + 8, 4)) >= 0xDC00 && hexValue(line.substr(i + 8, 4)) <= 0xDFFF;
                if (!paired) {
                    if (std::string reason = refuse(); !reason.empty())
                        return reason;
                    i += 5;
                    continue;
                }
                i += 11;
                continue;
            }
            i += 5;
        }
    }
    return {};
}

/// The "id" of `line` once every bad UTF-8 byte is replaced by `badByte` and every lone
/// surrogate escape by `\u<surrogate>`, if the result is {"type":"call","id":"…"};
/// otherwise nullopt.
std::optional<std::string> repairedCallId(std::string_view line, char badByte, const char *surrogate)
{
    std::string repaired(line);
    for (std::size_t from = 0; from < repaired.size();) {
        const std::size_t bad = BridgeProtocol::firstInvalidUtf8(std::string_view(repaired).substr(from));
        if (bad == std::string_view::npos)
            break;
        repaired[from + bad] = badByte;
        from += bad + 1;
    }
    if (!prescan(repaired, &repaired, surrogate).empty())
        return std::nullopt; // too deep or too large: not worth parsing
    const json message = json::parse(repaired.begin(), repaired.end(), nullptr, false);
    if (!message.is_object())
        return std::nullopt;
    const auto type = message.find("type");
    const auto id = message.find("id");
    if (type == message.end() || *type != "call" || id == message.end() || !id->is_string() || id->empty())
        return std::nullopt;
    return id->get<std::string>();
}

/// The id of a line that is a call in all but its content ({"type":"call","id":"…"}
/// once bad UTF-8 bytes and lone surrogate escapes are neutralised), or "". Lets the
/// studio refuse just that call instead of ending the run. The repair is done twice
/// with different replacements: an id that changes contains a bad byte itself and
/// could not be answered, so it counts as none. Linear in the line.
std::string recoverCallId(std::string_view line)
{
    const auto first = repairedCallId(line, '?', "fffd");
    if (!first)
        return {};
    const auto second = repairedCallId(line, '!', "fffc");
    return second == first ? *first : std::string();
}

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// The envelope of a call in the shims' own shape: `{"type":"call","id":"…","tool":"…",
/// "args":` — "type", "id" and "tool" once each, in any order, as strings without
/// escapes or control characters, then "args" last. `argsAt` is where the value of
/// "args" starts and `argsEnd` where it ends (before the object's closing brace and
/// the spaces before it).
struct ShimEnvelope
{
    std::string_view id, tool;
    std::size_t argsAt = 0, argsEnd = 0;
};

std::optional<ShimEnvelope> readShimEnvelope(std::string_view line)
{
    std::size_t at = 0;
    const auto skipSpace = [&] {
        while (at < line.size() && isJsonSpace(line[at]))
            ++at;
    };
    const auto readString = [&](std::string_view *out) {
        if (at >= line.size() || line[at] != '"')
            return false;
        std::size_t end = at + 1;
        while (end < line.size() && line[end] != '"') {
            if (line[end] == '\\' || static_cast<unsigned char>(line[end]) < 0x20)
                return false;
            ++end;
        }
        if (end >= line.size())
            return false;
        *out = line.substr(at + 1, end - at - 1);
        at = end + 1;
        return true;
    };
    skipSpace();
    if (at >= line.size() || line[at] != '{')
        return std::nullopt;
    ++at;
    std::string_view type;
    ShimEnvelope envelope;
    bool haveType = false, haveId = false, haveTool = false;
    for (;;) {
        skipSpace();
        std::string_view key;
        if (!readString(&key))
            return std::nullopt;
        skipSpace();
        if (at >= line.size() || line[at] != ':')
            return std::nullopt;
        ++at;
        skipSpace();
        if (key == "args")
            break;
        std::string_view value;
        bool *have = key == "type" ? &haveType : key == "id" ? &haveId : key == "tool" ? &haveTool : nullptr;
        if (!have || *have || !readString(&value))
            return std::nullopt;
        *have = true;
        (key == "type" ? type : key == "id" ? envelope.id : envelope.tool) = value;
        skipSpace();
        if (at >= line.size() || line[at] != ',')
            return std::nullopt;
        ++at;
    }
    if (!haveType || !haveId || !haveTool || type != "call" || envelope.id.empty())
        return std::nullopt;
    // "args" is the last member: its value runs to the object's closing brace.
    std::size_t end = line.size();
    while (end > at && isJsonSpace(line[end - 1]))
        --end;
    if (end <= at || line[end - 1] != '}')
        return std::nullopt;
    --end;
    while (end > at && isJsonSpace(line[end - 1]))
        --end;
    envelope.argsAt = at;
    envelope.argsEnd = end;
    return envelope;
}

/// A line in the shims' shape, read with one parse of its arguments. Anything else
/// (another member, a duplicate, an escape, another type, an empty id, args that are
/// not an object or array, JSON the parser refuses) returns nullopt and the line takes
/// the general path, which decides it and words any error: a call read here is the
/// call that path would read. Expects a line that passed the UTF-8 and prescan checks.
std::optional<BridgeCall> decodeShimCall(std::string_view line)
{
    const auto envelope = readShimEnvelope(line);
    if (!envelope)
        return std::nullopt;
    const std::size_t at = envelope->argsAt, end = envelope->argsEnd;
    // A container starts right here (the parser would also skip a byte order mark at
    // the start of its input, which the whole line may not have there).
    if (at >= end || (line[at] != '{' && line[at] != '['))
        return std::nullopt;
    BridgeCall call;
    try {
        call.args = json::parse(line.begin() + std::ptrdiff_t(at), line.begin() + std::ptrdiff_t(end), nullptr, false);
    } catch (const json::exception &) {
        return std::nullopt;
    }
    if (!call.args.is_object() && !call.args.is_array())
        return std::nullopt; // also a value the parser refused (discarded)
    call.id = std::string(envelope->id);
    call.tool = std::string(envelope->tool);
    return call;
}

/// A line that is refused as a whole, read once more as a call in the shims' shape
/// whose arguments are the trouble: then a call with only `argumentsError` (why, with
/// the byte offset within the arguments), so that one call fails as invalid_arguments
/// and the run goes on. `badAt` is where the line-wide check found a bad byte or a lone
/// surrogate (npos: the line is not JSON); the arguments must hold it. Nullopt when the
/// envelope is not the shims' or the arguments are not where the problem is.
std::optional<BridgeCall> callWithBadArguments(std::string_view line, std::size_t badAt, const std::string &what)
{
    const auto envelope = readShimEnvelope(line);
    if (!envelope)
        return std::nullopt;
    const std::string_view args = line.substr(envelope->argsAt, envelope->argsEnd - envelope->argsAt);
    std::string reason;
    if (badAt != std::string_view::npos) {
        if (badAt < envelope->argsAt || badAt >= envelope->argsEnd)
            return std::nullopt;
        reason = what + " at byte " + std::to_string(badAt - envelope->argsAt) + " of the arguments";
    } else if (args.empty() || std::all_of(args.begin(), args.end(), isJsonSpace)) {
        reason = "no arguments after \"args\":";
    } else {
        try {
            const json parsed = json::parse(args.begin(), args.end());
            if (parsed.is_object() || parsed.is_array())
                return std::nullopt; // the arguments are fine: the line is wrong elsewhere
            reason = "the arguments must be a JSON object or array, not " + jsonTypeName(parsed.type());
        } catch (const json::parse_error &e) {
            std::string detail = e.what();
            if (const std::size_t colon = detail.find(": "); colon != std::string::npos)
                detail.erase(0, colon + 2);
            reason = "not valid JSON at byte " + std::to_string(e.byte > 0 ? e.byte - 1 : 0)
                + " of the arguments: " + truncateUtf8(detail, MaxParserMessageBytes);
        } catch (const json::exception &e) {
            std::string detail = e.what();
            if (const std::size_t at = detail.find("] "); at != std::string::npos)
                detail.erase(0, at + 2);
            reason = "not valid JSON: " + truncateUtf8(detail, MaxParserMessageBytes);
        }
    }
    BridgeCall call;
    call.id = std::string(envelope->id);
    call.tool = std::string(envelope->tool);
    call.argsJson = "{}";
    call.argsBytes = 2;
    call.argumentsError = std::move(reason);
    return call;
}

/// A {"type":"model"} frame: {"id","model":"<name>","request":{…}}. A frame without a
/// string "model" or an object "request" is refused by its id (the run goes on).
BridgeDecodeResult decodeModelCall(json message, std::string id)
{
    BridgeDecodeResult result;
    const auto name = message.find("model");
    const auto request = message.find("request");
    if (name == message.end() || !name->is_string()) {
        result.error = "a model call needs a string \"model\" (the model's name in toolstudio.json)";
        result.id = std::move(id);
        return result;
    }
    if (request == message.end() || !request->is_object()) {
        result.error = "a model call needs an object \"request\" ({\"messages\": [...], \"tools\": \"bound\"})";
        result.id = std::move(id);
        return result;
    }
    BridgeCall call;
    call.kind = BridgeCall::Kind::Model;
    call.id = std::move(id);
    call.tool = name->get<std::string>();
    call.args = std::move(*request);
    try {
        call.argsJson = call.args.dump(-1, ' ', false, json::error_handler_t::strict);
        call.argsBytes = call.argsJson.size();
    } catch (const json::exception &e) {
        result.error = std::string("the model request cannot be serialised: ") + e.what();
        return result;
    }
    result.call = std::move(call);
    return result;
}

} // namespace

json BridgeError::toJson() const
{
    json object = details.is_object() ? details : json::object();
    object["code"] = code;
    object["message"] = message;
    object["retryable"] = retryable;
    object["attempts"] = attempts;
    return object;
}

BridgeError BridgeError::fromJson(const json &value)
{
    if (!value.is_object())
        throw std::runtime_error("an error must be a JSON object, not " + jsonTypeName(value.type()));
    BridgeError error;
    for (const auto &[key, field] : value.items()) {
        if (key == "code" || key == "message") {
            if (!field.is_string())
                throw std::runtime_error("error field \"" + key + "\" must be a string, not "
                                         + jsonTypeName(field.type()));
            (key == "code" ? error.code : error.message) = field.get<std::string>();
        } else if (key == "retryable") {
            if (!field.is_boolean())
                throw std::runtime_error("error field \"retryable\" must be a boolean, not "
                                         + jsonTypeName(field.type()));
            error.retryable = field.get<bool>();
        } else if (key == "attempts") {
            if (!field.is_number_integer() || field.get<std::int64_t>() < 0 || field.get<std::int64_t>() > INT32_MAX)
                throw std::runtime_error("error field \"attempts\" must be a non-negative integer");
            error.attempts = field.get<int>();
        } else {
            error.details[key] = field;
        }
    }
    return error;
}

namespace BridgeProtocol {

std::size_t firstInvalidUtf8(std::string_view bytes)
{
    // Well-formed sequences per Unicode 15, table 3-7: no overlongs, no UTF-16
    // surrogates (ED A0..BF), nothing above U+10FFFF (F4 90.., F5..FF).
    const auto *s = reinterpret_cast<const unsigned char *>(bytes.data());
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = s[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned char lo = 0x80, hi = 0xBF; // range of the second byte
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3;
            if (b == 0xE0)
                lo = 0xA0;
            else if (b == 0xED)
                hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4;
            if (b == 0xF0)
                lo = 0x90;
            else if (b == 0xF4)
                hi = 0x8F;
        } else {
            return i; // continuation byte without a lead, C0/C1 overlong leads, F5..FF
        }
        if (i + length > n || s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (std::size_t k = 2; k < length; ++k) {
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return i;
        }
        i += length;
    }
    return std::string_view::npos;
}

BridgeDecodeResult decodeLine(std::string_view line)
{
    BridgeDecodeResult result;
    if (const std::size_t bad = firstInvalidUtf8(line); bad != std::string_view::npos) {
        if (auto call = callWithBadArguments(line, bad, "invalid UTF-8")) {
            result.call = std::move(call);
            return result;
        }
        result.error = "invalid UTF-8 at byte offset " + std::to_string(bad);
        result.id = recoverCallId(line);
        return result;
    }
    std::size_t loneAt = std::string_view::npos;
    if (std::string reason = prescan(line, nullptr, "fffd", &loneAt); !reason.empty()) {
        if (reason.rfind("lone", 0) == 0) {
            const std::string escape = "lone UTF-16 surrogate escape \\" + std::string(line.substr(loneAt + 1, 5));
            if (auto call = callWithBadArguments(line, loneAt, escape)) {
                result.call = std::move(call);
                return result;
            }
            result.id = recoverCallId(line);
        }
        result.error = std::move(reason);
        return result;
    }

    if (std::optional<BridgeCall> call = decodeShimCall(line)) {
        // One parse, of the arguments only (the usual line).
        try {
            call->argsJson = call->args.dump(-1, ' ', false, json::error_handler_t::strict);
            call->argsBytes = call->argsJson.size();
            result.call = std::move(call);
            return result;
        } catch (const json::exception &) {
            // Cannot happen after the checks above; the general path below words it.
        }
    }

    json message;
    try {
        message = json::parse(line.begin(), line.end());
    } catch (const json::parse_error &e) {
        if (auto call = callWithBadArguments(line, std::string_view::npos, {})) {
            result.call = std::move(call);
            return result;
        }
        // e.byte counts the characters read, the offending one included.
        std::string what = e.what();
        if (const std::size_t at = what.find(": "); at != std::string::npos)
            what.erase(0, at + 2); // drop "[json.exception.parse_error.101] parse error at line 1, column 5"
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        result.error = "invalid JSON at byte offset " + std::to_string(offset) + ": "
            + truncateUtf8(what, MaxParserMessageBytes);
        return result;
    } catch (const json::exception &e) {
        if (auto call = callWithBadArguments(line, std::string_view::npos, {})) {
            result.call = std::move(call);
            return result;
        }
        // out_of_range 406: a number beyond a double ("1e999"); found by the fuzzer —
        // it used to escape decodeLine and end the studio. No offset is known here.
        std::string what = e.what();
        if (const std::size_t at = what.find("] "); at != std::string::npos)
            what.erase(0, at + 2);
        result.error = "invalid JSON: " + truncateUtf8(what, MaxParserMessageBytes);
        return result;
    }

    if (!message.is_object()) {
        result.error = "a bridge message must be a JSON object, not " + jsonTypeName(message.type());
        return result;
    }
    const auto type = message.find("type");
    if (type == message.end() || !type->is_string()) {
        result.error = "a bridge message needs a string \"type\"";
        return result;
    }
    const bool model = type->get_ref<const std::string &>() == "model";
    if (!model && type->get_ref<const std::string &>() != "call") {
        result.error = "unknown bridge message type " + quotedExcerpt(type->get_ref<const std::string &>())
            + " (a script sends only \"call\", \"model\" and \"wait\")";
        return result;
    }
    const auto id = message.find("id");
    if (id == message.end() || !id->is_string() || id->get_ref<const std::string &>().empty()) {
        result.error = "a call needs a non-empty string \"id\"";
        return result;
    }
    if (model) {
        // The id is read before the message is moved: function arguments are evaluated
        // in no fixed order (clang moved first, and the id iterator then pointed into
        // an empty object — found by fuzz_bridge).
        std::string modelId = id->get<std::string>();
        return decodeModelCall(std::move(message), std::move(modelId));
    }
    const auto tool = message.find("tool");
    if (tool == message.end() || !tool->is_string()) {
        result.error = "a call needs a string \"tool\"";
        result.id = id->get<std::string>();
        return result;
    }

    BridgeCall call;
    call.id = id->get<std::string>();
    call.tool = tool->get<std::string>();
    if (const auto args = message.find("args"); args != message.end()) {
        if (!args->is_object() && !args->is_array()) {
            // That call fails (invalid_arguments); the run goes on.
            BridgeCall refused;
            refused.id = id->get<std::string>();
            refused.tool = tool->get<std::string>();
            refused.argsJson = "{}";
            refused.argsBytes = 2;
            refused.argumentsError = "the arguments must be a JSON object or array, not " + jsonTypeName(args->type());
            result.call = std::move(refused);
            return result;
        }
        call.args = std::move(*args);
    }
    try {
        call.argsJson = call.args.dump(-1, ' ', false, json::error_handler_t::strict);
        call.argsBytes = call.argsJson.size();
    } catch (const json::exception &e) {
        // Cannot happen after the UTF-8 and surrogate checks; kept so a parser change
        // turns into a protocol error rather than an exception in the studio.
        result.error = std::string("arguments cannot be serialised: ") + e.what();
        return result;
    }
    result.call = std::move(call);
    return result;
}

std::string encodeResult(const std::string &id, const json &value)
{
    // Built by hand so "type" comes first on the wire (json objects sort their keys).
    // Invalid UTF-8 in a handler's strings becomes U+FFFD: a reply can always be sent.
    return "{\"type\":\"result\",\"id\":" + json(id).dump(-1, ' ', false, json::error_handler_t::replace)
        + ",\"value\":" + value.dump(-1, ' ', false, json::error_handler_t::replace) + "}\n";
}

std::string encodeError(const std::string &id, const BridgeError &error)
{
    return "{\"type\":\"error\",\"id\":" + json(id).dump(-1, ' ', false, json::error_handler_t::replace)
        + ",\"error\":" + error.toJson().dump(-1, ' ', false, json::error_handler_t::replace) + "}\n";
}

} // namespace BridgeProtocol
