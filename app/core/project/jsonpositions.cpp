// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/jsonpositions.h"

JsonPositions::JsonPositions(const QByteArray &text, const nlohmann::json &root)
    : m_text(text)
{
    scan(m_text.startsWith("\xEF\xBB\xBF") ? 3 : 0, &root);
}

std::optional<TextPosition> JsonPositions::positionOf(const nlohmann::json *node, bool key) const
{
    const auto found = m_offsets.find(node);
    if (found == m_offsets.end())
        return std::nullopt;
    const Offsets &offsets = found->second;
    return textPositionAt(m_text, key && offsets.key ? *offsets.key : offsets.value);
}

std::size_t JsonPositions::skipSpace(std::size_t pos) const
{
    while (pos < std::size_t(m_text.size())) {
        const char c = m_text[qsizetype(pos)];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        ++pos;
    }
    return pos;
}

/// `pos` is at the opening quote; returns the position after the closing one.
std::size_t JsonPositions::skipString(std::size_t pos) const
{
    ++pos;
    while (pos < std::size_t(m_text.size()) && m_text[qsizetype(pos)] != '"')
        pos += m_text[qsizetype(pos)] == '\\' ? 2 : 1;
    return pos + 1;
}

/// Scans the value at `pos` (after white space), which is `node` in the document (or
/// a value nlohmann dropped, a duplicate key's first value: `node` null), and returns
/// the position after it.
std::size_t JsonPositions::scan(std::size_t pos, const nlohmann::json *node)
{
    pos = skipSpace(pos);
    if (node)
        m_offsets[node].value = pos;
    const std::size_t size = std::size_t(m_text.size());
    if (pos >= size)
        return pos;
    const char c = m_text[qsizetype(pos)];
    if (c == '{') {
        pos = skipSpace(pos + 1);
        while (pos < size && m_text[qsizetype(pos)] == '"') {
            const std::size_t keyStart = pos;
            pos = skipString(pos);
            // The key as nlohmann decoded it (escapes included), to find the member.
            const std::string key
                = nlohmann::json::parse(m_text.constData() + keyStart, m_text.constData() + pos).get<std::string>();
            const nlohmann::json *child = nullptr;
            if (node && node->is_object()) {
                const auto it = node->find(key);
                if (it != node->end())
                    child = &*it;
            }
            pos = skipSpace(pos) + 1; // ':'
            pos = scan(pos, child);
            if (child)
                m_offsets[child].key = keyStart;
            pos = skipSpace(pos);
            if (pos < size && m_text[qsizetype(pos)] == ',')
                pos = skipSpace(pos + 1);
        }
        return pos + 1; // '}'
    }
    if (c == '[') {
        pos = skipSpace(pos + 1);
        std::size_t index = 0;
        while (pos < size && m_text[qsizetype(pos)] != ']') {
            const nlohmann::json *child = node && node->is_array() && index < node->size() ? &(*node)[index] : nullptr;
            pos = skipSpace(scan(pos, child));
            ++index;
            if (pos < size && m_text[qsizetype(pos)] == ',')
                pos = skipSpace(pos + 1);
        }
        return pos + 1; // ']'
    }
    if (c == '"')
        return skipString(pos);
    // A number, true, false or null: up to the next delimiter.
    while (pos < size) {
        const char d = m_text[qsizetype(pos)];
        if (d == ',' || d == ']' || d == '}' || d == ' ' || d == '\t' || d == '\n' || d == '\r')
            break;
        ++pos;
    }
    return pos;
}
