// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

/// The bridge's wait hint, {"type":"wait"} (docs/bridge.md "The wait hint"): the script
/// says it is blocked until a reply to one of its calls arrives. Not a call: decodeLine
/// refuses it as an unknown type with UnknownTypeWait, and BridgeChannel reports it as
/// waitReceived() instead of a protocol error.
namespace BridgeWaitHint {
/// The start of decodeLine's reason for a line of type "wait" (any other fields).
inline constexpr std::string_view UnknownTypeWait = "unknown bridge message type \"wait\" ";
/// True for the hint exactly as the shims send it (no parse needed).
inline bool matches(std::string_view line)
{
    return line == R"({"type":"wait"})";
}
} // namespace BridgeWaitHint
