// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <string>

/// How error messages name a JSON value's type ("must be a string, not an array"): one
/// wording for the bridge, the manifest and JSON-RPC. Takes value.type(), so it serves
/// nlohmann::json and nlohmann::ordered_json alike.
enum class JsonNumberNames {
    Number,      ///< every number is "a number"
    IntegerApart ///< "an integer", or "a number with a fraction or exponent"
};

/// "null", "a boolean", "a number", "a string", "an array", "an object", "binary data",
/// or "nothing" (a discarded value).
std::string jsonTypeName(nlohmann::json::value_t type, JsonNumberNames numbers = JsonNumberNames::Number);
