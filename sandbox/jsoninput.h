// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bridgemessage.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

/// JSON that enters the studio from outside — a command tool's stdout, a Python tool
/// worker's reply, a mock sequence in a manifest, a manual answer, an answers file, a
/// cassette, an imported run, a journal row — read with one depth bound (issue 16,
/// class 3). nlohmann's parser itself needs no stack for depth, but copying, dumping,
/// comparing or validating the value recurses once per level: a stdout of 100 000 `[`
/// crashed the studio. The bound is the bridge's (BridgeProtocol::MaxNestingDepth,
/// 128 levels of arrays and objects), so whatever a script could send, a tool can
/// return, and nothing deeper is ever built.
namespace JsonInput {
inline constexpr int MaxDepth = BridgeProtocol::MaxNestingDepth;

/// One linear pass (brackets outside strings, no allocation): the byte offset of the
/// `[` or `{` that opens level MaxDepth + 1, or npos. Malformed JSON is left to the
/// parser.
std::size_t tooDeepAt(std::string_view text);

/// "" if `text` is nested at most MaxDepth levels, else the reason naming the source:
/// "<what> is nested deeper than 128 levels (byte offset N)", e.g. what = "command
/// tool lookup: stdout".
std::string depthProblem(std::string_view text, std::string_view what);

/// nlohmann::json::parse(text, nullptr, false) with the depth bound: a discarded value
/// when `text` is not JSON or is nested deeper than MaxDepth. `problem` (optional) gets
/// the reason — depthProblem()'s, or "<what> is not valid JSON: <parser message>" —
/// and is cleared on success.
nlohmann::json parse(std::string_view text, std::string_view what, std::string *problem = nullptr);
} // namespace JsonInput
