// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

/// The `id` of a message that could not be read (JsonRpc::decode refused it: nested
/// deeper than the depth limit, too many values, `result` and `error` both, …), found
/// in its raw text, so that the request it answers fails at once instead of waiting
/// for its timeout.
///
/// One pass over the text with a depth counter and no recursion (any depth, no value
/// built but the id): the members of the top-level object are looked at, the rest is
/// skipped. An `id` is taken when it is an integer or a string of at most MaxIdBytes.
namespace McpReplyId {

constexpr std::size_t MaxIdBytes = 1024;

/// The id of a response (a top-level object with an `id` member and no `method`), or
/// null when the text is no object, has no readable id, or is a request or notification
/// of the server (its id is not one the studio sent).
nlohmann::json scan(std::string_view text);

} // namespace McpReplyId
