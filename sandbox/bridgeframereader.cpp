// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgeframereader.h"

BridgeFrameReader::BridgeFrameReader(std::size_t maxLineBytes)
    : m_maxLineBytes(maxLineBytes)
{
}

std::vector<BridgeFrameReader::Event> BridgeFrameReader::feed(std::string_view bytes)
{
    std::vector<Event> events;
    while (!bytes.empty()) {
        const std::size_t newline = bytes.find('\n');
        const std::string_view part = newline == std::string_view::npos ? bytes : bytes.substr(0, newline);

        if (m_skipping) {
            m_skippedLength += part.size();
        } else if (part.size() > m_maxLineBytes - m_buffer.size()) {
            // The line just outgrew the cap: drop what we held and only count from here
            // on, so memory stays bounded whatever the child sends.
            m_skipping = true;
            m_skippedLength = m_buffer.size() + part.size();
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
        m_skipping = false;
        m_skippedLength = 0;
    }
    return event;
}
