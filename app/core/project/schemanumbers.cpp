// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemanumbers.h"

#include <bit>
#include <cmath>
#include <limits>

namespace SchemaNumbers {

namespace {

int sign(double d)
{
    return d < 0 ? -1 : (d > 0 ? 1 : 0);
}

/// -1, 0, 1 for d <=> i; d is not NaN.
int compareDoubleInt(double d, std::int64_t i)
{
    if (d < -TwoTo63)
        return -1;
    if (d >= TwoTo63)
        return 1;
    const double whole = std::trunc(d);
    const auto t = static_cast<std::int64_t>(whole); // exact: |whole| < 2^63
    if (t != i)
        return t < i ? -1 : 1;
    return sign(d - whole);
}

int compareDoubleUint(double d, std::uint64_t u)
{
    if (d < 0)
        return -1;
    if (d >= TwoTo64)
        return 1;
    const double whole = std::trunc(d);
    const auto t = static_cast<std::uint64_t>(whole); // exact: 0 <= whole < 2^64
    if (t != u)
        return t < u ? -1 : 1;
    return sign(d - whole);
}

/// |n| of an integer-valued number as uint64, when it fits.
std::optional<std::uint64_t> integerMagnitude(const nlohmann::json &n)
{
    switch (n.type()) {
    case nlohmann::json::value_t::number_unsigned:
        return n.get<std::uint64_t>();
    case nlohmann::json::value_t::number_integer: {
        const auto i = n.get<std::int64_t>();
        return i < 0 ? std::uint64_t(0) - std::uint64_t(i) : std::uint64_t(i);
    }
    case nlohmann::json::value_t::number_float: {
        const double d = std::fabs(n.get<double>());
        if (std::isfinite(d) && d == std::trunc(d) && d < TwoTo64)
            return static_cast<std::uint64_t>(d);
        return std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

} // namespace

std::optional<int> compare(const nlohmann::json &a, const nlohmann::json &b)
{
    using T = nlohmann::json::value_t;
    const T ta = a.type();
    const T tb = b.type();
    if (ta == T::number_float && tb == T::number_float) {
        const double x = a.get<double>();
        const double y = b.get<double>();
        if (std::isnan(x) || std::isnan(y))
            return std::nullopt;
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    if (ta == T::number_float || tb == T::number_float) {
        const bool flip = tb == T::number_float;
        const double d = (flip ? b : a).get<double>();
        const nlohmann::json &other = flip ? a : b;
        if (std::isnan(d))
            return std::nullopt;
        const int r = other.type() == T::number_unsigned ? compareDoubleUint(d, other.get<std::uint64_t>())
                                                         : compareDoubleInt(d, other.get<std::int64_t>());
        return flip ? -r : r;
    }
    // Both integers: int64 (only negative ones come from the parser, but a value
    // built in code may hold any) against uint64.
    if (ta == T::number_integer && tb == T::number_integer) {
        const auto x = a.get<std::int64_t>();
        const auto y = b.get<std::int64_t>();
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    if (ta == T::number_unsigned && tb == T::number_unsigned) {
        const auto x = a.get<std::uint64_t>();
        const auto y = b.get<std::uint64_t>();
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    const bool flip = ta == T::number_unsigned;
    const std::int64_t i = (flip ? b : a).get<std::int64_t>();
    const std::uint64_t u = (flip ? a : b).get<std::uint64_t>();
    const int r = i < 0 ? -1 : (std::uint64_t(i) < u ? -1 : (std::uint64_t(i) > u ? 1 : 0));
    return flip ? -r : r;
}

bool isMultipleOf(const nlohmann::json &value, const nlohmann::json &divisor)
{
    if (const auto m = integerMagnitude(divisor)) {
        if (*m == 0)
            return true; // not a valid schema (valijson refuses it); do not divide by 0
        if (const auto v = integerMagnitude(value))
            return *v % *m == 0;
        const double d = std::fabs(value.get<double>());
        if (!std::isfinite(d) || d != std::trunc(d))
            return false;
        // d >= 2^64 is M * 2^E with a 53-bit M and E > 0: divisible by m = odd * 2^a
        // when the powers of two suffice and odd divides M's odd part.
        int exponent = 0;
        const double fraction = std::frexp(d, &exponent);
        std::uint64_t mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
        const int twos = std::countr_zero(mantissa) + (exponent - 53);
        mantissa >>= std::countr_zero(mantissa);
        const int divisorTwos = std::countr_zero(*m);
        return divisorTwos <= twos && mantissa % (*m >> divisorTwos) == 0;
    }
    const double m = divisor.get<double>();
    if (!std::isfinite(m) || m <= 0)
        return true;
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (!std::isfinite(d))
            return false;
        if (m == std::trunc(m)) // an integral divisor >= 2^64: fmod is exact
            return std::fmod(d, m) == 0;
        return d == 0 || std::fabs(std::remainder(d, m)) <= std::numeric_limits<double>::epsilon();
    }
    // An integer (|v| < 2^64) against an integral divisor >= 2^64: only 0 is a multiple.
    if (m == std::trunc(m))
        return integerMagnitude(value) == std::uint64_t(0);
    const long double v
        = value.is_number_unsigned() ? (long double)value.get<std::uint64_t>() : (long double)value.get<std::int64_t>();
    return v == 0 || std::fabs(std::remainder(double(v), m)) <= std::numeric_limits<double>::epsilon();
}

} // namespace SchemaNumbers
