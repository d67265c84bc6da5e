// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schematext.h"

#include "project/jsonqt.h"
#include "project/printabletext.h"

#include <algorithm>
#include <string>

namespace {

/// Appends `value` as compact JSON to `out`, stopping once `out` holds more than
/// `limit` bytes: a script's value may be megabytes long or thousands of levels deep,
/// and a message needs 60 characters of it.
void dumpBounded(const nlohmann::json &value, std::string &out, std::size_t limit)
{
    if (out.size() > limit)
        return;
    if (value.is_array()) {
        out += '[';
        bool first = true;
        for (const auto &element : value) {
            if (out.size() > limit)
                return;
            if (!first)
                out += ',';
            first = false;
            dumpBounded(element, out, limit);
        }
        out += ']';
    } else if (value.is_object()) {
        out += '{';
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (out.size() > limit)
                return;
            if (!first)
                out += ',';
            first = false;
            out += nlohmann::json(it.key()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            out += ':';
            dumpBounded(it.value(), out, limit);
        }
        out += '}';
    } else if (value.is_string() && value.get_ref<const std::string &>().size() > limit) {
        out += nlohmann::json(value.get_ref<const std::string &>().substr(0, limit))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else {
        out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

} // namespace

namespace SchemaText {

QString typeName(const nlohmann::json &value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return QStringLiteral("null");
    case nlohmann::json::value_t::boolean:
        return QStringLiteral("boolean");
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return QStringLiteral("integer");
    case nlohmann::json::value_t::number_float:
        return QStringLiteral("number");
    case nlohmann::json::value_t::string:
        return QStringLiteral("string");
    case nlohmann::json::value_t::array:
        return QStringLiteral("array");
    case nlohmann::json::value_t::object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("value");
    }
}

QString shortDump(const nlohmann::json &value)
{
    std::string text;
    dumpBounded(value, text, 80);
    QString dumped = JsonQt::fromStd(text);
    if (dumped.size() > 60)
        dumped = QString::fromUtf8(clipChars(dumped, 57).kept) + QStringLiteral("..."); // the dump itself was bounded
    return dumped;
}

QString shortPattern(const std::string &source)
{
    // 60 characters take at most 240 bytes of UTF-8: a pattern megabytes long costs little.
    constexpr std::size_t headBytes = 256;
    const QByteArray head = QByteArray::fromRawData(source.data(), qsizetype(std::min(source.size(), headBytes)));
    QString text = QString::fromUtf8(clipUtf8(head, qsizetype(headBytes)).kept);
    if (text.size() > 60)
        return printableText(QString::fromUtf8(clipChars(text, 57).kept)) + QStringLiteral("...");
    return printableText(text);
}

QString escapePointerToken(QString token)
{
    token.replace(QLatin1Char('~'), QStringLiteral("~0"));
    token.replace(QLatin1Char('/'), QStringLiteral("~1"));
    return token;
}

} // namespace SchemaText
