// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/sseparser.h"

void SseParser::feed(std::string_view bytes, std::vector<SseEvent> *events)
{
    m_fed += bytes.size();
    std::size_t start = 0;
    if (m_afterCR && !bytes.empty() && bytes.front() == '\n')
        start = 1; // the LF of a CRLF split between two chunks
    m_afterCR = false;
    for (std::size_t i = start; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (c != '\n' && c != '\r')
            continue;
        if (m_line.empty()) {
            line(bytes.substr(start, i - start), events);
        } else {
            m_line.append(bytes.substr(start, i - start));
            line(m_line, events);
            m_line.clear();
        }
        if (c == '\r') {
            if (i + 1 < bytes.size() && bytes[i + 1] == '\n')
                ++i;
            else if (i + 1 == bytes.size())
                m_afterCR = true;
        }
        start = i + 1;
    }
    m_line.append(bytes.substr(start));
}

void SseParser::line(std::string_view text, std::vector<SseEvent> *events)
{
    if (!m_started) {
        m_started = true;
        if (text.substr(0, 3) == "\xEF\xBB\xBF") // one byte order mark may open the stream
            text.remove_prefix(3);
    }
    if (text.empty()) {
        if (m_hasData) {
            if (!m_event.data.empty() && m_event.data.back() == '\n')
                m_event.data.pop_back();
            events->push_back(std::move(m_event));
        }
        m_event = SseEvent();
        m_hasData = false;
        m_typed = false;
        return;
    }
    if (text.front() == ':')
        return; // a comment
    const std::size_t colon = text.find(':');
    const std::string_view field = text.substr(0, colon);
    std::string_view value;
    if (colon != std::string_view::npos) {
        value = text.substr(colon + 1);
        if (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
    }
    if (field == "data") {
        m_event.data.append(value);
        m_event.data.push_back('\n');
        m_hasData = true;
    } else if (field == "event") {
        m_event.type = value.empty() ? std::string("message") : std::string(value);
        m_typed = true;
    }
    // "id", "retry" and unknown fields: nothing to do without reconnection.
}
