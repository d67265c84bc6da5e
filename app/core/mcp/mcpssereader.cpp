// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpssereader.h"

#include <algorithm>
#include <utility>

namespace {

/// The value of a `data:` line's start, else "".
std::string dataValue(std::string line)
{
    if (line.rfind("data:", 0) != 0)
        return {};
    line.erase(0, line.size() > 5 && line[5] == ' ' ? 6 : 5);
    return line;
}

/// Empties `text` and gives its memory back (clear() keeps the capacity).
void release(std::string &text)
{
    std::string().swap(text);
}

} // namespace

std::vector<McpSseReader::Event> McpSseReader::feed(std::string_view bytes)
{
    std::vector<Event> events;
    while (!bytes.empty()) {
        const std::size_t end = bytes.find('\n');
        const std::string_view part = bytes.substr(0, end);
        if (!m_lineTooLong) {
            // The event's data so far and the line being read count together: both are
            // held at once (attack43 F2: a stream held 64 MiB of data lines and 64 MiB of
            // a line without end, 128 MiB, and gave neither back while it stayed open).
            const bool overMax = m_event.data.size() + m_line.size() + part.size() > m_max;
            if (overMax || !m_hold.fits(part.size())) {
                m_lineTooLong = true;
                std::string start = m_line.substr(0, HeadBytes + 6);
                start.append(part.substr(0, HeadBytes + 6 - start.size()));
                if (!m_event.oversized) {
                    m_event.head = m_event.data.empty() ? dataValue(std::move(start)).substr(0, HeadBytes)
                                                        : m_event.data.substr(0, HeadBytes);
                    m_event.overBudget = !overMax;
                }
                m_event.oversized = true;
                m_inEvent = true;
                release(m_event.data);
                release(m_line);
            } else {
                m_line.append(part);
            }
            settle();
        }
        if (end == std::string_view::npos)
            break;
        bytes.remove_prefix(end + 1);
        takeLine(events);
        settle();
    }
    return events;
}

void McpSseReader::takeLine(std::vector<Event> &events)
{
    if (!m_line.empty() && m_line.back() == '\r')
        m_line.pop_back();
    if (m_lineTooLong) {
        m_lineTooLong = false; // the event was made oversized when the line grew over the bound
        return;
    }
    if (m_line.empty()) {
        // The id counts once its event came whole: a stream cut inside it is resumed
        // from the event before.
        if (m_pendingId)
            m_lastEventId = *std::exchange(m_pendingId, std::nullopt);
        if (m_inEvent && (m_event.oversized || !m_event.data.empty()))
            events.push_back(std::move(m_event));
        m_event = Event();
        m_inEvent = false;
        return;
    }
    const std::string line = std::move(m_line);
    m_line.clear();
    if (line.front() == ':')
        return; // a comment (a keep-alive)
    m_inEvent = true;
    const std::size_t colon = line.find(':');
    const std::string_view field = std::string_view(line).substr(0, colon);
    std::string_view value;
    if (colon != std::string::npos) {
        value = std::string_view(line).substr(colon + 1);
        if (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
    }
    if (field == "event") {
        m_event.type = std::string(value);
    } else if (field == "id") {
        // The id is sent back as a header (Last-Event-ID): only what one can carry.
        const bool usable = value.size() <= MaxEventIdBytes
            && std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
        m_pendingId = usable ? std::string(value) : std::string();
    } else if (field == "retry") {
        if (!value.empty() && value.size() <= 12
            && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
            m_retryMs = std::stoll(std::string(value));
    } else if (field == "data" && !m_event.oversized) {
        if (m_event.data.size() + value.size() + 1 > m_max) {
            m_event.head
                = m_event.data.empty() ? std::string(value.substr(0, HeadBytes)) : m_event.data.substr(0, HeadBytes);
            m_event.oversized = true;
            release(m_event.data);
            return;
        }
        if (!m_event.data.empty())
            m_event.data += '\n';
        m_event.data.append(value);
    }
}
