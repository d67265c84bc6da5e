// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

/// One event of a text/event-stream: its `event:` name ("message" when none was given)
/// and its `data:` lines joined by '\n'.
struct SseEvent
{
    std::string type = "message";
    std::string data;
};

/// The event-stream format of the HTML Living Standard ("Server-sent events", §9.2.6
/// "Interpreting an event stream"), as bytes arrive (Qt 6.4 has no such parser): lines
/// end in CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
/// next are one line end); a line starting with ':' is a comment (keep-alive); `field:
/// value` with one leading space of the value dropped; `data` lines are joined by '\n';
/// an empty line dispatches the event (none when it had no data); `id` and `retry` are
/// read and ignored (no reconnection here). Works on bytes: a chunk may end anywhere, in
/// a line or a UTF-8 sequence; the events' text is checked where it is parsed as JSON.
///
/// Memory is bounded by the caller: the parser holds at most the bytes of the
/// unfinished line and event it was fed (the model client stops at its reply cap).
class SseParser
{
public:
    /// Appends `bytes`; each event completed by them is appended to `events`.
    void feed(std::string_view bytes, std::vector<SseEvent> *events);
    /// Bytes of an unfinished line or event are held: the stream ended mid-event.
    bool inEvent() const { return !m_line.empty() || m_hasData || m_typed; }
    /// Every byte fed so far.
    std::size_t bytesFed() const { return m_fed; }

private:
    void line(std::string_view text, std::vector<SseEvent> *events);

    std::string m_line;     ///< the unfinished line
    SseEvent m_event;       ///< the event being read
    bool m_hasData = false; ///< m_event has had a data line
    bool m_typed = false;   ///< m_event has had an event line
    bool m_afterCR = false; ///< the last byte was a CR: an LF next ends nothing
    bool m_started = false; ///< past a leading byte order mark
    std::size_t m_fed = 0;
};
