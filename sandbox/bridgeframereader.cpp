// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgeframereader.h"

#include "bridgemessage.h"

namespace {

constexpr std::size_t MaxIdBytes = 256;

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// A usable id or tool name: 1–MaxIdBytes bytes of valid UTF-8, no control characters.
bool isPlainName(std::string_view text)
{
    if (text.empty() || text.size() > MaxIdBytes || BridgeProtocol::firstInvalidUtf8(text) != std::string_view::npos)
        return false;
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

} // namespace

std::string BridgeFrameReader::scanCallPrefix(std::string_view head, std::string *tool, bool *model)
{
    std::size_t at = 0;
    const auto skipSpace = [&] {
        while (at < head.size() && isJsonSpace(head[at]))
            ++at;
    };
    // A string without escapes starting at `at` (a '"'); false if it is not one.
    const auto readString = [&](std::string_view *out) {
        if (at >= head.size() || head[at] != '"')
            return false;
        const std::size_t end = head.find_first_of("\"\\", at + 1);
        if (end == std::string_view::npos || head[end] != '"')
            return false;
        *out = head.substr(at + 1, end - at - 1);
        at = end + 1;
        return true;
    };

    std::string_view id, toolName, modelName, type;
    bool haveId = false, haveTool = false, haveModel = false, haveType = false;
    skipSpace();
    if (at >= head.size() || head[at] != '{')
        return {};
    ++at;
    for (;;) {
        skipSpace();
        std::string_view key, value;
        if (!readString(&key))
            break;
        skipSpace();
        if (at >= head.size() || head[at] != ':')
            break;
        ++at;
        skipSpace();
        if (!readString(&value))
            break; // "args" (or any non-string value): the rest is not read
        // The first of a duplicated key counts, as far as the prefix goes.
        if (key == "id" && !haveId) {
            id = value;
            haveId = true;
        } else if (key == "tool" && !haveTool) {
            toolName = value;
            haveTool = true;
        } else if (key == "model" && !haveModel) {
            modelName = value;
            haveModel = true;
        } else if (key == "type" && !haveType) {
            type = value;
            haveType = true;
        }
        skipSpace();
        if (at >= head.size() || head[at] != ',')
            break;
        ++at;
    }
    const bool isModel = haveType && type == "model";
    if (!haveId || (haveType && type != "call" && !isModel) || !isPlainName(id))
        return {};
    const std::string_view name = isModel ? modelName : toolName;
    if (tool && (isModel ? haveModel : haveTool) && isPlainName(name))
        *tool = std::string(name);
    if (model)
        *model = isModel;
    return std::string(id);
}

BridgeFrameReader::BridgeFrameReader(std::size_t maxLineBytes)
    : m_maxLineBytes(maxLineBytes)
{}

std::vector<BridgeFrameReader::Event> BridgeFrameReader::feed(std::string_view bytes)
{
    std::vector<Event> events;
    while (!bytes.empty()) {
        const std::size_t newline = bytes.find('\n');
        const std::string_view part = newline == std::string_view::npos ? bytes : bytes.substr(0, newline);

        if (m_skipping) {
            m_skippedLength += part.size();
        } else if (part.size() > m_maxLineBytes - m_buffer.size()) {
            // The line just outgrew the cap: keep the call's id and tool from its prefix,
            // drop what we held and only count from here on, so memory stays bounded
            // whatever the child sends.
            m_skipping = true;
            m_skippedLength = m_buffer.size() + part.size();
            std::string head = m_buffer.substr(0, PrefixBytes);
            head.append(part.substr(0, PrefixBytes - head.size()));
            m_skipTool.clear();
            m_skipModel = false;
            m_skipId = scanCallPrefix(head, &m_skipTool, &m_skipModel);
            m_skipHead = std::move(head);
            std::string().swap(m_buffer);
        } else {
            m_buffer.append(part);
        }

        if (newline == std::string_view::npos)
            break;

        Event event;
        if (m_skipping) {
            event.kind = Event::Oversized;
            event.length = m_skippedLength;
            event.id = std::move(m_skipId);
            event.tool = std::move(m_skipTool);
            event.model = m_skipModel;
            event.head = std::move(m_skipHead);
            m_skipId.clear();
            m_skipTool.clear();
            m_skipHead.clear();
            m_skipping = false;
            m_skippedLength = 0;
        } else {
            event.kind = Event::Line;
            event.length = m_buffer.size();
            event.line = std::move(m_buffer);
            m_buffer.clear();
        }
        events.push_back(std::move(event));
        bytes.remove_prefix(newline + 1);
    }
    return events;
}

BridgeFrameReader::Event BridgeFrameReader::flushOversized()
{
    Event event;
    if (m_skipping) {
        event.kind = Event::Oversized;
        event.length = m_skippedLength;
        event.id = std::move(m_skipId);
        event.tool = std::move(m_skipTool);
        event.model = m_skipModel;
        event.head = std::move(m_skipHead);
        m_skipId.clear();
        m_skipTool.clear();
        m_skipHead.clear();
        m_skipping = false;
        m_skippedLength = 0;
    }
    return event;
}
