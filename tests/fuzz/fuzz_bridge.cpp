// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: arbitrary bytes from a script, cut into arbitrary reads, through
// BridgeFrameReader and BridgeProtocol::decodeLine — what the studio does with every
// byte on fd 3. Checks the invariants the studio relies on: the reader never holds
// more than its cap, every line decodes to exactly a call or a reason, a decoded call
// re-encodes to a line that decodes to the same call, replies encode to one valid line.
//
// Input layout: byte 0 picks the line cap (small caps reach the oversize paths), byte
// 1 seeds the read sizes; the rest is the stream.

#include "bridgeframereader.h"
#include "bridgemessage.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void check(bool condition)
{
    if (!condition)
        std::abort();
}

void checkLine(std::string_view line)
{
    const BridgeDecodeResult decoded = BridgeProtocol::decodeLine(line);
    check(decoded.call.has_value() != !decoded.error.empty());
    if (!decoded.call)
        return;
    const BridgeCall &call = *decoded.call;
    check(!call.id.empty());
    check(call.args.is_object() || call.args.is_array());
    check(call.argsBytes == call.args.dump().size());

    // The call as a shim would send it decodes to the same call.
    const nlohmann::json message = {{"type", "call"}, {"id", call.id}, {"tool", call.tool}, {"args", call.args}};
    const BridgeDecodeResult again = BridgeProtocol::decodeLine(message.dump());
    check(again.call.has_value());
    check(again.call->id == call.id && again.call->tool == call.tool && again.call->args == call.args);

    // Replies carrying script-controlled text are one valid UTF-8 line.
    BridgeError error;
    error.code = std::string(errorCodeName(ErrorCode::ToolFailed));
    error.message = std::string(line.substr(0, 64));
    for (const std::string &reply :
         {BridgeProtocol::encodeResult(call.id, call.args), BridgeProtocol::encodeError(call.id, error)}) {
        check(!reply.empty() && reply.back() == '\n');
        check(reply.find('\n') == reply.size() - 1);
        check(BridgeProtocol::firstInvalidUtf8(reply) == std::string_view::npos);
    }
}

/// An id or tool read from an oversized line's prefix: empty, or 1-256 bytes of valid
/// UTF-8 without control characters or '"' (it is put into a reply as is).
void checkPrefixName(const std::string &name)
{
    if (name.empty())
        return;
    check(name.size() <= 256);
    check(BridgeProtocol::firstInvalidUtf8(name) == std::string_view::npos);
    for (const char c : name)
        check(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f && c != '"' && c != '\\');
    // The reply naming it is one valid line.
    BridgeError error;
    error.code = std::string(errorCodeName(ErrorCode::RequestTooLarge));
    error.message = name;
    const std::string reply = BridgeProtocol::encodeError(name, error);
    check(reply.find('\n') == reply.size() - 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::size_t cap = 1 + std::size_t(data[0]) * 64; // 1 .. 16 321 bytes
    unsigned seed = data[1];
    std::string_view stream(reinterpret_cast<const char *>(data + 2), size - 2);

    BridgeFrameReader reader(cap);
    while (!stream.empty()) {
        seed = seed * 1103515245u + 12345u;
        const std::size_t chunk = std::min<std::size_t>(stream.size(), 1 + (seed >> 16) % 300);
        for (const BridgeFrameReader::Event &event : reader.feed(stream.substr(0, chunk))) {
            if (event.kind == BridgeFrameReader::Event::Oversized) {
                check(event.length > cap);
                checkPrefixName(event.id);
                checkPrefixName(event.tool);
                check(!event.id.empty() || event.tool.empty());
                continue;
            }
            check(event.line.size() <= cap && event.length == event.line.size());
            check(event.line.find('\n') == std::string::npos);
            checkLine(event.line);
        }
        check(reader.pendingBytes() <= cap);
        stream.remove_prefix(chunk);
    }
    const BridgeFrameReader::Event rest = reader.flushOversized();
    check(rest.kind == BridgeFrameReader::Event::Line || rest.length > cap);

    // The whole input as one line, too (no framing in the way), and as a prefix.
    checkLine(std::string_view(reinterpret_cast<const char *>(data), size));
    std::string tool;
    const std::string id
        = BridgeFrameReader::scanCallPrefix(std::string_view(reinterpret_cast<const char *>(data), size), &tool);
    checkPrefixName(id);
    checkPrefixName(tool);
    return 0;
}
