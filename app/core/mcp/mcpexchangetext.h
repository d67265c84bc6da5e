// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

/// Words for one message of an attempt's protocol exchange (an entry of
/// McpExchangeRecorder::toJson's "messages"), for the Protocol tab and `toolstudio mcp
/// call --protocol`. Server text in them is printable and cut.
namespace McpExchangeText {
/// "→ request tools/call #7", "← notification notifications/progress 3/10",
/// "← response #7 result", "← request elicitation/create #0", "→ response #0",
/// "← response #7 error -32602"; a clipped message adds " (N bytes, clipped)".
QString summary(const nlohmann::json &entry);
/// "+12 ms" from the entry's offsetMs.
QString offset(const nlohmann::json &entry);
/// The message pretty-printed (2 spaces); a clipped one as its first bytes and a note.
QString pretty(const nlohmann::json &entry);
/// "N more messages, M bytes, not kept" for an exchange that left some out; "" otherwise.
QString omitted(const nlohmann::json &exchange);
} // namespace McpExchangeText
