// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: arbitrary bytes from an MCP server, client or peer, cut into lines
// by BridgeFrameReader as the stdio transport does, each line through JsonRpc::decode.
// Checks: every line is exactly a message or a refusal; a refusal's code is ParseError
// or InvalidRequest, its text bounded and its id a string, an integer or null; a
// message re-encodes to one line that decodes to the same message.

#include "bridgeframereader.h"
#include "jsonrpc/jsonrpcmessage.h"

#include "fuzzcheck.h"

#include <string_view>

using FuzzCheck::check;

namespace {

void checkLine(std::string_view line)
{
    const JsonRpcDecoded decoded = JsonRpc::decode(line);
    if (!decoded.message) {
        check(decoded.problem.code == JsonRpcError::ParseError || decoded.problem.code == JsonRpcError::InvalidRequest);
        check(!decoded.problem.message.empty() && decoded.problem.message.size() < 400);
        check(decoded.problemId.is_null() || JsonRpc::isValidId(decoded.problemId));
        return;
    }
    const JsonRpcMessage &message = *decoded.message;
    const std::string encoded = message.encode();
    check(encoded.find('\n') == std::string::npos);
    const JsonRpcDecoded again = JsonRpc::decode(encoded);
    check(again.message.has_value());
    check(again.message->kind == message.kind);
    check(again.message->toJson() == message.toJson());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    BridgeFrameReader reader(2048);
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    for (const BridgeFrameReader::Event &event : reader.feed(bytes))
        if (event.kind == BridgeFrameReader::Event::Line)
            checkLine(event.line);
    if (reader.pendingBytes() > 0 && !reader.skipping())
        checkLine(bytes.substr(bytes.size() - reader.pendingBytes()));
    return 0;
}
