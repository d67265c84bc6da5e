// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: a command tool's stdout (what any program a tool runs may print)
// through parseHandlerOutput, the code the command handler reads its result with.
// Checks that it never crashes or overflows the stack, that a refusal says why, and
// that an accepted result survives the journal's round trip (dump, parse) unchanged.

#include "engine/handlers/handleroutput.h"

#include "fuzzcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Result<nlohmann::json> result = parseHandlerOutput(FuzzCheck::bytes(data, size), QStringLiteral("fuzz"));
    if (!result) {
        FuzzCheck::check(!result.error().isEmpty());
        return 0;
    }
    const std::string dumped = result->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const nlohmann::json again = nlohmann::json::parse(dumped, nullptr, false);
    FuzzCheck::check(!again.is_discarded());
    FuzzCheck::check(again.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) == dumped);
    return 0;
}
