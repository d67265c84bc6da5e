// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>

/// Between Qt strings and nlohmann::json, whose strings are UTF-8 std::strings.
namespace JsonQt {

/// A UTF-8 std::string (a JSON string or key) as a QString.
QString fromStd(const std::string &s);

/// `object[key]` when `object` is an object and that member a string, else empty (for
/// files a user or another program wrote, which may put anything anywhere). Works for
/// nlohmann::json and nlohmann::ordered_json.
template<typename Json>
QString stringField(const Json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? fromStd(it->template get<std::string>()) : QString();
}

} // namespace JsonQt
