// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcpbytebudget.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// Cuts a `text/event-stream` body (the HTML Living Standard's "server-sent events", as
/// MCP's Streamable HTTP uses them) into events, as its bytes arrive.
///
/// Lines end with LF or CRLF; `data:` lines are joined with LF, `event:` names the
/// event, `:` lines are comments, `id:` sets the stream's last event id (kept from event
/// to event, as the standard's "last event ID buffer": a stream resumed with it as
/// `Last-Event-ID` goes on after that event), `retry:` the milliseconds to wait before
/// connecting again; other fields are skipped. A blank line ends an event. An event whose data
/// and the line being read grow over `maxEventBytes` together is not kept: its bytes are
/// let go at once (memory given back: a stream may stay open for long), and it is
/// reported once, as `oversized`, when it ends, with the first HeadBytes of its data
/// (`head`), where the id of the response it carried can still be found (McpReplyId::scan).
/// So a stream holds at most `maxEventBytes` of an event at a time. With a `budget`
/// shared by several readers (one transport's streams), what they hold together stays
/// within it too: an event that would go over is let go the same way, marked `overBudget`.
class McpSseReader
{
public:
    /// Bytes of an oversized event's data kept as its `head`.
    static constexpr std::size_t HeadBytes = 4096;
    /// Bytes an event id may have: a longer one (or one with a byte that is no visible
    /// ASCII or space, which an HTTP header cannot carry back) is not kept, and the
    /// stream has no last event id from then on.
    static constexpr std::size_t MaxEventIdBytes = 1024;

    struct Event
    {
        std::string type = "message";
        std::string data;
        bool oversized = false;
        bool overBudget = false; ///< oversized because the budget was held by others
        std::string head;        ///< an oversized event's first data bytes (at most HeadBytes)
    };

    explicit McpSseReader(std::size_t maxEventBytes, std::shared_ptr<McpByteBudget> budget = nullptr)
        : m_max(maxEventBytes)
        , m_hold(std::move(budget))
    {}

    /// The events that `bytes` completes.
    std::vector<Event> feed(std::string_view bytes);
    /// True when the stream so far stops inside an event (a field read, or a line begun,
    /// but no blank line after it): a stream cut there lost that event.
    bool midEvent() const { return !m_line.empty() || m_inEvent; }
    /// The id of the last whole event that set one (its `id:` field), "" when none did or
    /// the last one was unusable.
    const std::string &lastEventId() const { return m_lastEventId; }
    /// The reconnection time the stream asked for (`retry:`), in ms; -1 when it did not.
    long long retryMs() const { return m_retryMs; }
    /// Bytes of memory held for the event being read (its data and the line being read,
    /// with their spare capacity).
    std::size_t heldBytes() const { return m_line.capacity() + m_event.data.capacity(); }

private:
    void takeLine(std::vector<Event> &events);
    /// What the event's data and the line hold, told to the budget.
    void settle() { m_hold.set(m_line.size() + m_event.data.size()); }

    std::size_t m_max;
    std::string m_line;
    bool m_lineTooLong = false; ///< the line being read is skipped to its end
    bool m_inEvent = false;
    Event m_event;
    std::string m_lastEventId;
    std::optional<std::string> m_pendingId; ///< the `id:` of the event being read
    long long m_retryMs = -1;
    McpByteBudget::Hold m_hold;
};
