// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>

/// JSON numbers compared exactly, for SchemaValidator's minimum, maximum and multipleOf.
/// nlohmann produces int64 (negative integers), uint64 (non-negative integers) and
/// double (anything with a fraction or exponent, and integers beyond uint64, possibly
/// ±inf for 1e400). No comparison goes through a lossy conversion: 2^64-1 is not
/// "equal to" 2^64 as a double.
namespace SchemaNumbers {

constexpr double TwoTo63 = 9223372036854775808.0;
constexpr double TwoTo64 = 18446744073709551616.0;

/// a <=> b (-1, 0, 1) for two JSON numbers; nullopt when either is NaN (never from the
/// parser).
std::optional<int> compare(const nlohmann::json &a, const nlohmann::json &b);

/// Whether `value` is a multiple of `divisor` (> 0). Exact when the divisor is an
/// integer; for a fractional divisor (0.01, not representable in binary) the rule
/// valijson used: remainder within DBL_EPSILON.
bool isMultipleOf(const nlohmann::json &value, const nlohmann::json &divisor);

} // namespace SchemaNumbers
