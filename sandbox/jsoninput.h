// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bridgemessage.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

/// JSON that enters the studio from outside — a command tool's stdout, a Python tool
/// worker's reply, an MCP server's message, a manifest, a mock sequence, a manual
/// answer, an answers file, a cassette, an imported run or tool list, a bundle,
/// `replay --args`, a JSON editor of the window, a journal row — read through read()
/// and nothing else (issue 16, class 3); the bridge's decoder applies the same two
/// bounds in its own pre-scan (sandbox/bridgemessage.cpp).
///
/// Depth: nlohmann's parser itself needs no stack for depth, but copying, dumping,
/// comparing or validating the value recurses once per level: a stdout of 100 000 `[`
/// crashed the studio. The bound is the bridge's (BridgeProtocol::MaxNestingDepth, 128
/// levels of arrays and objects), so whatever a script could send, a tool can return.
///
/// Size: a parsed value costs far more than its text — 16 bytes a value plus its
/// container's share (a std::map node per member, a std::map per object), so a 64 MiB
/// line of `[{},{},…]` became 2.2 GB of RSS, `[0,0,…]` 1.2 GB. MaxValues bounds the
/// values (scalars, arrays and objects; member names not counted) of one document,
/// counted in the same linear pass before anything is built. 8 Mi values: a 64 MiB
/// document of realistic records (`{"date":"2024-01-01","rate":1.0834,"base":"USD",
/// "quote":"EUR"}`, ~12.6 bytes a value: 5.3 M values, ~800 MB parsed) still parses,
/// and a degenerate one costs the same order, not 25 times its size: the worst of 64
/// MiB is now `{"0":[],"1":[],…}` (5.7 M members, under the bound: ~930 MB), against
/// 2.2 GB for `[{},{},…]` before. A flat array of short numbers (7 bytes a value)
/// reaches the bound at ~56 MiB.
namespace JsonInput {
inline constexpr int MaxDepth = BridgeProtocol::MaxNestingDepth;
inline constexpr std::size_t MaxValues = BridgeProtocol::MaxValues;
/// Members of one object in an ordered read (read<nlohmann::ordered_json>): nlohmann's
/// ordered_map finds a member by a linear search, so parsing an object of n members
/// costs n²/2 comparisons — one 4 MiB body `{"0":0,"1":0,…}` (~400 000 members) kept
/// `toolstudio serve`'s Qt thread busy for tens of minutes (attack7). At 1024 members a
/// 4 MiB document of such objects parses in the time the unordered parse takes.
inline constexpr std::size_t MaxOrderedMembers = 1024;

/// Why a text was refused: the reason in words ("nested deeper than 128 levels",
/// "more than 8388608 values", "syntax error while parsing value - invalid literal;
/// last read: 'r'", "number overflow parsing '1e999'"), never longer than ~200 bytes
/// whatever the input, and the 0-based byte offset where it was found (npos if the
/// parser named none). `limit`: a bound of this file was hit (the text may be valid
/// JSON, too large or too deep for the studio).
struct Problem
{
    std::string reason;
    std::size_t byte = std::string_view::npos;
    bool limit = false;
};

/// One linear pass (brackets and commas outside strings, no allocation): the first
/// bound `text` passes — nested deeper than MaxDepth (the offset of the `[` or `{` that
/// opens level MaxDepth + 1) or more than MaxValues values (the offset where value
/// MaxValues + 1 begins) — or an empty reason. Malformed JSON is left to the parser.
Problem overLimit(std::string_view text);

/// overLimit() and, for an ordered read, an object with more than MaxOrderedMembers
/// members (the offset of the comma that starts member MaxOrderedMembers + 1).
Problem orderedOverLimit(std::string_view text);

/// The one parse of outside JSON: a discarded value when `text` passes a bound of
/// overLimit() (ordered: orderedOverLimit()) or is not JSON — every nlohmann exception caught, 1e999 included — with
/// the reason and its offset in `problem` (optional; cleared on success). Json is
/// nlohmann::json or nlohmann::ordered_json (when the order of members matters).
template<class Json>
Json read(std::string_view text, Problem *problem = nullptr);

/// `problem` as a sentence naming the source: "<what> is nested deeper than 128 levels
/// (byte offset N)", "<what> has more than 8388608 values (byte offset N); the studio
/// reads at most 8388608 values of one JSON document: send less, or in parts" or
/// "<what> is not valid JSON: <reason> (byte offset N)"; "" for no problem.
std::string describe(std::string_view what, const Problem &problem);

/// describe(what, overLimit(text)), e.g. what = "command tool lookup: stdout".
std::string limitProblem(std::string_view text, std::string_view what);

/// read<nlohmann::json>() for callers that print a line: `problem` (optional) gets
/// describe(what, …), and is cleared on success.
nlohmann::json parse(std::string_view text, std::string_view what, std::string *problem = nullptr);
} // namespace JsonInput
