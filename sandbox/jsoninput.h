// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bridgemessage.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

/// JSON that enters the studio from outside — a command tool's stdout, a Python tool
/// worker's reply, a manifest, a mock sequence, a manual answer, an answers file, a
/// cassette, an imported run or tool list, a bundle, `replay --args`, a JSON editor of
/// the window, a journal row — read through read() and nothing else (issue 16, class 3).
/// nlohmann's parser itself needs no stack for depth, but copying, dumping, comparing or
/// validating the value recurses once per level: a stdout of 100 000 `[` crashed the
/// studio, and so did every place that called nlohmann::json::parse on its own. The
/// bound is the bridge's (BridgeProtocol::MaxNestingDepth, 128 levels of arrays and
/// objects), so whatever a script could send, a tool can return, and nothing deeper is
/// ever built.
namespace JsonInput {
inline constexpr int MaxDepth = BridgeProtocol::MaxNestingDepth;

/// One linear pass (brackets outside strings, no allocation): the byte offset of the
/// `[` or `{` that opens level MaxDepth + 1, or npos. Malformed JSON is left to the
/// parser.
std::size_t tooDeepAt(std::string_view text);

/// Why a text was refused: the reason in words ("nested deeper than 128 levels",
/// "syntax error while parsing value - invalid literal; last read: 'r'", "number
/// overflow parsing '1e999'"), never longer than ~200 bytes whatever the input, and the
/// 0-based byte offset where it was found (npos if the parser named none).
struct Problem
{
    std::string reason;
    std::size_t byte = std::string_view::npos;
};

/// The one parse of outside JSON: a discarded value when `text` is nested deeper than
/// MaxDepth or is not JSON — every nlohmann exception caught, 1e999 included — with the
/// reason and its offset in `problem` (optional; cleared on success). Json is
/// nlohmann::json or nlohmann::ordered_json (when the order of members matters).
template<class Json>
Json read(std::string_view text, Problem *problem = nullptr);

/// "" if `text` is nested at most MaxDepth levels, else the reason naming the source:
/// "<what> is nested deeper than 128 levels (byte offset N)", e.g. what = "command
/// tool lookup: stdout".
std::string depthProblem(std::string_view text, std::string_view what);

/// read<nlohmann::json>() for callers that print a line: `problem` (optional) gets
/// "<what> is nested deeper than …" or "<what> is not valid JSON: <reason> (byte
/// offset N)", and is cleared on success.
nlohmann::json parse(std::string_view text, std::string_view what, std::string *problem = nullptr);
} // namespace JsonInput
