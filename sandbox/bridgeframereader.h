// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

/// Splits a byte stream into `\n`-terminated lines without ever buffering more than
/// `maxLineBytes` of one line (SANDBOX.md: "A line longer than the request cap is
/// refused without buffering it whole").
///
/// feed() appends bytes and returns the events they complete, in order: a complete
/// line (without '\n'), or an oversized line (its total length, counted while it is
/// skipped, reported once its '\n' arrives or when `flushOversized` is called).
///
/// A line of exactly `maxLineBytes` bytes (not counting '\n') is accepted; one byte
/// more makes it Oversized. Empty lines are reported as Line events with an empty
/// `line`; what to make of them is the caller's choice.
///
/// An oversized line that starts like a call (the shims write "type", "id" and "tool"
/// before "args") keeps that call's `id` and `tool`, read from its first
/// PrefixBytes bytes when it outgrows the cap (see scanCallPrefix), so the studio can
/// refuse that one call with request_too_large by id and go on.
class BridgeFrameReader
{
public:
    struct Event
    {
        enum Kind { Line, Oversized } kind = Line;
        std::string line;       ///< the line, for Line
        std::size_t length = 0; ///< bytes in the line without '\n'
        std::string id;         ///< Oversized: the call's id from the line's prefix, or empty
        std::string tool;       ///< Oversized: the call's tool (or model) from the prefix, or empty
        bool model = false;     ///< Oversized: a model frame ({"type":"model"})
        /// Oversized: the line's first PrefixBytes bytes, for readers of other framings
        /// (an MCP client reads a JSON-RPC response's id from it, McpReplyId).
        std::string head;
    };

    /// Bytes of an oversized line searched for its "id" and "tool".
    static constexpr std::size_t PrefixBytes = 4096;

    /// The leading string members of a JSON object as the shims write a call:
    /// `{"type":"call","id":"…","tool":"…","args":…`. Reads members while their values
    /// are strings without escapes (stops at the first other value, e.g. "args", or at
    /// anything unexpected) and returns the id when one was read, "type" (if read) is
    /// "call" or "model", and the id is 1–256 bytes of valid UTF-8 without control
    /// characters; `tool` gets the tool's name under the same rules (else stays empty) —
    /// for a model frame (`{"type":"model","id":"…","model":"…","request":…`) the
    /// model's name, with `*model` set. Never reads past `head`.
    static std::string scanCallPrefix(std::string_view head, std::string *tool = nullptr, bool *model = nullptr);

    explicit BridgeFrameReader(std::size_t maxLineBytes);

    std::vector<Event> feed(std::string_view bytes);

    /// At the end of the stream: if an oversized line is being skipped, returns its
    /// Oversized event (length so far, no '\n' seen) and stops skipping; otherwise
    /// returns an event with `length` 0 and kind Line. An unfinished line that still
    /// fits stays in pendingBytes().
    Event flushOversized();

    /// Bytes of an unfinished line held so far (at most maxLineBytes).
    std::size_t pendingBytes() const { return m_buffer.size(); }
    /// True while the reader is skipping the rest of an oversized line.
    bool skipping() const { return m_skipping; }
    /// While skipping: the id found in the line's prefix (empty if none).
    const std::string &skippingId() const { return m_skipId; }
    /// While skipping: bytes of the oversized line counted so far.
    std::size_t skippedBytes() const { return m_skippedLength; }
    std::size_t maxLineBytes() const { return m_maxLineBytes; }

private:
    std::size_t m_maxLineBytes;
    std::string m_buffer;
    bool m_skipping = false;
    std::size_t m_skippedLength = 0;
    std::string m_skipId;
    std::string m_skipTool;
    std::string m_skipHead;
    bool m_skipModel = false;
};
