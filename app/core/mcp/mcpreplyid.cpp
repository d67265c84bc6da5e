// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpreplyid.h"

using nlohmann::json;

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// The index after the string that starts (with its quote) at `start`, or npos when it
/// does not end.
std::size_t afterString(std::string_view text, std::size_t start)
{
    for (std::size_t i = start + 1; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            return i + 1;
    }
    return std::string_view::npos;
}

/// The id value that starts at `start` (after the colon and blanks), or null.
json readId(std::string_view text, std::size_t start)
{
    if (start >= text.size())
        return nullptr;
    std::size_t end = start;
    if (text[start] == '"') {
        end = afterString(text, start);
    } else {
        while (end < text.size() && (text[end] == '-' || (text[end] >= '0' && text[end] <= '9')))
            ++end;
    }
    if (end == std::string_view::npos || end == start || end - start > McpReplyId::MaxIdBytes)
        return nullptr;
    json id = json::parse(text.substr(start, end - start), nullptr, false);
    return id.is_string() || id.is_number_integer() ? id : json();
}

} // namespace

namespace McpReplyId {

json scan(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size() && isSpace(text[i]))
        ++i;
    if (i >= text.size() || text[i] != '{')
        return nullptr;
    ++i;
    std::size_t depth = 1;
    bool keyNext = true; // at depth 1: the next string is a member's name
    std::string_view key;
    json id;
    bool hasMethod = false;
    while (i < text.size() && depth > 0) {
        const char c = text[i];
        if (c == '"') {
            const std::size_t end = afterString(text, i);
            if (end == std::string_view::npos)
                break;
            if (depth == 1 && keyNext) {
                key = text.substr(i + 1, end - i - 2);
                keyNext = false;
            }
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (depth == 1 && c == ',') {
            keyNext = true;
        } else if (depth == 1 && c == ':') {
            std::size_t start = i + 1;
            while (start < text.size() && isSpace(text[start]))
                ++start;
            if (key == "id" && id.is_null())
                id = readId(text, start);
            else if (key == "method")
                hasMethod = true;
        }
        ++i;
    }
    return hasMethod ? json() : id;
}

} // namespace McpReplyId
