// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemaequality.h"

#include "project/schemanumbers.h"

#include <bit>
#include <cmath>
#include <functional>
#include <string>

namespace SchemaEquality {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    // boost::hash_combine's constant, on 64 bits
    return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 12) + (h >> 4));
}

} // namespace

std::optional<bool> equal(const nlohmann::json &a, const nlohmann::json &b, int depthLeft)
{
    if (depthLeft <= 0)
        return std::nullopt;
    if (a.is_number() && b.is_number()) {
        const auto r = SchemaNumbers::compare(a, b);
        return r && *r == 0;
    }
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case nlohmann::json::value_t::array: {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto same = equal(a[i], b[i], depthLeft - 1);
            if (!same || !*same)
                return same;
        }
        return true;
    }
    case nlohmann::json::value_t::object: {
        if (a.size() != b.size())
            return false;
        for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) { // both sorted by key
            if (x.key() != y.key())
                return false;
            const auto same = equal(x.value(), y.value(), depthLeft - 1);
            if (!same || !*same)
                return same;
        }
        return true;
    }
    default:
        return a == b;
    }
}

std::optional<std::uint64_t> hash(const nlohmann::json &value, int depthLeft)
{
    if (depthLeft <= 0)
        return std::nullopt;
    switch (value.type()) {
    case nlohmann::json::value_t::number_integer: {
        const auto i = value.get<std::int64_t>();
        return i < 0 ? mix(1, std::uint64_t(i)) : mix(2, std::uint64_t(i));
    }
    case nlohmann::json::value_t::number_unsigned:
        return mix(2, value.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: {
        const double d = value.get<double>();
        if (d == std::trunc(d) && d >= -SchemaNumbers::TwoTo63 && d < 0)
            return mix(1, std::uint64_t(static_cast<std::int64_t>(d)));
        if (d == std::trunc(d) && d >= 0 && d < SchemaNumbers::TwoTo64)
            return mix(2, static_cast<std::uint64_t>(d));
        return mix(3, std::bit_cast<std::uint64_t>(d));
    }
    case nlohmann::json::value_t::string:
        return mix(4, std::hash<std::string>{}(value.get_ref<const std::string &>()));
    case nlohmann::json::value_t::boolean:
        return mix(5, value.get<bool>() ? 1 : 0);
    case nlohmann::json::value_t::null:
        return mix(6, 0);
    case nlohmann::json::value_t::array: {
        std::uint64_t h = mix(7, value.size());
        for (const auto &element : value) {
            const auto e = hash(element, depthLeft - 1);
            if (!e)
                return std::nullopt;
            h = mix(h, *e);
        }
        return h;
    }
    case nlohmann::json::value_t::object: {
        std::uint64_t h = mix(8, value.size());
        for (auto it = value.begin(); it != value.end(); ++it) {
            const auto e = hash(it.value(), depthLeft - 1);
            if (!e)
                return std::nullopt;
            h = mix(mix(h, std::hash<std::string>{}(it.key())), *e);
        }
        return h;
    }
    default:
        return mix(9, 0);
    }
}

} // namespace SchemaEquality
