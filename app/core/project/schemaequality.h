// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>

/// JSON Schema equality, for SchemaValidator's enum, const and uniqueItems: numbers by
/// value (1 == 1.0), objects regardless of member order, arrays in order. Both functions
/// recurse at most `depthLeft` levels: nullopt when a value is nested deeper.
namespace SchemaEquality {

/// Whether `a` and `b` are equal as JSON Schema counts.
std::optional<bool> equal(const nlohmann::json &a, const nlohmann::json &b, int depthLeft);

/// A hash equal for values equal() calls equal: integral numbers hash as their integer
/// value whatever their JSON type.
std::optional<std::uint64_t> hash(const nlohmann::json &value, int depthLeft);

} // namespace SchemaEquality
