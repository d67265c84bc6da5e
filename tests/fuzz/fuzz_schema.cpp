// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: an arbitrary schema (a tool's input_schema or output_schema, from a
// project, an imported run or, soon, an MCP server) and arbitrary arguments (what a
// script sends) through SchemaValidator::compile and validate() — what the studio does
// before every tool call. Checks that neither crashes, overflows the stack or runs
// away, that a failure names a pointer and a message, and that validation is
// deterministic (a resumed run re-validates the same arguments).
//
// Input layout: the schema's JSON, a NUL byte, the arguments' JSON. Invalid JSON on
// either side is skipped (the bridge and the project loader refuse it first).

#include "project/schemavalidator.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

void check(bool condition)
{
    if (!condition)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const std::size_t split = input.find('\0');
    if (split == std::string_view::npos)
        return 0;
    const nlohmann::json schema = nlohmann::json::parse(input.substr(0, split), nullptr, false);
    const nlohmann::json value = nlohmann::json::parse(input.substr(split + 1), nullptr, false);
    if (schema.is_discarded() || value.is_discarded())
        return 0;

    QString error;
    const auto validator = SchemaValidator::compile(schema, &error);
    if (!validator) {
        check(!error.isEmpty());
        return 0;
    }
    // Tighter than the engine's bounds, so a slow path shows as a timeout, not a pass.
    SchemaValidator::Limits limits;
    limits.timeBudget = std::chrono::milliseconds(1000);
    limits.regexMatchLimit = 100000;
    const auto first = validator->validate(value, limits);
    if (first) {
        check(!first->message.isEmpty());
        check(first->pointer.isEmpty() || first->pointer.startsWith(QLatin1Char('/')));
    }
    const auto second = validator->validate(value, limits);
    check(first.has_value() == second.has_value());
    if (first && !first->abandoned)
        check(first->pointer == second->pointer && first->message == second->message);
    return 0;
}
