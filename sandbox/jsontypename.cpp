// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsontypename.h"

std::string jsonTypeName(nlohmann::json::value_t type, JsonNumberNames numbers)
{
    using value_t = nlohmann::json::value_t;
    const bool integerApart = numbers == JsonNumberNames::IntegerApart;
    switch (type) {
    case value_t::null:
        return "null";
    case value_t::boolean:
        return "a boolean";
    case value_t::number_integer:
    case value_t::number_unsigned:
        return integerApart ? "an integer" : "a number";
    case value_t::number_float:
        return integerApart ? "a number with a fraction or exponent" : "a number";
    case value_t::string:
        return "a string";
    case value_t::array:
        return "an array";
    case value_t::object:
        return "an object";
    case value_t::binary:
        return "binary data";
    case value_t::discarded:
        break;
    }
    return "nothing";
}
