// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bridgeframereader.h"
#include "bridgemessage.h"

#include <QObject>
#include <QString>

#include <deque>

class QSocketNotifier;

/// The studio's end of the tools bridge: a non-blocking AF_UNIX stream socket,
/// NDJSON framed (DESIGN.md "The tools bridge"). Reads with recvmsg and closes any
/// file descriptor passed with SCM_RIGHTS (never accepted; reported as a protocol
/// error). Writes are queued and flushed as the socket drains, so a slow reader never
/// blocks the studio.
///
/// Reads are bounded per event-loop iteration (one 64 KiB read, at most 256 lines
/// handled; the rest continues on the next iteration with reading paused), so a flood
/// of calls cannot starve the studio's event loop and cannot grow memory. Empty lines
/// (or only spaces, tabs, '\r') are ignored. The channel keeps reading after a protocol
/// error; its owner normally ends the run (and closes the channel) at the first one.
/// A slot may close() or delete the channel; nothing more is emitted then.
class BridgeChannel : public QObject
{
    Q_OBJECT
public:
    /// Takes ownership of `fd` (made non-blocking and close-on-exec). `maxLineBytes`
    /// bounds one incoming line (the request cap).
    BridgeChannel(int fd, std::size_t maxLineBytes, QObject *parent = nullptr);
    ~BridgeChannel() override;

    /// Queues one encoded line (with its '\n') for the child and writes what the
    /// socket takes now; the rest goes out as it drains. Sends never raise SIGPIPE.
    /// After the channel is closed or a write failed (the child stopped reading for
    /// good), lines are dropped: the read side reports the end.
    void send(const std::string &line);
    /// Closes the fd without emitting closed(); unread lines are dropped.
    void close();
    /// Gives up the fd without closing it (-1 when closed) and stops watching it, so
    /// that a channel on another thread can take it over (RunController serves calls on
    /// its run thread). Call before anything was read; the channel is closed afterwards.
    int releaseFd();
    bool isOpen() const { return m_fd >= 0; }
    std::size_t queuedBytes() const { return m_out.size() - m_outOffset; }

Q_SIGNALS:
    /// A decoded call; or, at its '\n', a call whose line outgrew the bound but named its
    /// id in its prefix (BridgeCall::oversizedLineBytes set, args not read).
    void callReceived(const BridgeCall &call);
    /// A line that is not a valid call and not a refusable one (see callRefused): bad
    /// JSON, too deep, oversized without an id in its prefix, unknown type, no id,
    /// passed fds: `reason` says what
    /// and where. Exact texts:
    /// BridgeProtocol::decodeLine's reasons; "a bridge line of N bytes exceeds the
    /// limit of M bytes" (when its '\n' arrives) or, as soon as a line outgrows the cap,
    /// "a bridge line exceeds the limit of M bytes (N bytes so far, no '\n' yet)"
    /// (once per line); "file descriptors passed over the bridge are refused"; at
    /// the end of the stream "the bridge closed in the middle of a line (N bytes
    /// without '\n')" or "a bridge line of at least N bytes exceeds the limit of M
    /// bytes (the bridge closed before its end)".
    void protocolError(const QString &reason);
    /// A line that is recognisably a call with id `id` but is refused for its content
    /// (BridgeDecodeResult::id: bad UTF-8, a lone surrogate escape, a missing "tool",
    /// non-container "args"); `reason` is decodeLine's. The owner answers that call
    /// with a protocol_error reply; the run's other calls are unaffected.
    void callRefused(const std::string &id, const QString &reason);
    /// A {"type":"wait"} line: the script says it is blocked until a reply to one of
    /// its calls arrives. A hint, never an error, however often it comes.
    void waitReceived();
    /// The child closed its end (or the socket failed); every line before the end has
    /// been reported. The channel is closed then.
    void closed();

private:
    void onReadable();
    void onWritable();
    void handleEvents(std::vector<BridgeFrameReader::Event> events);
    /// Handles up to a bounded number of pending events; schedules itself again (with
    /// reading paused) while some remain; finishes the end of the stream after the last.
    void processPending();
    void finishEndOfStream();
    void flush();
    /// Emits protocolError; false when the slot closed or deleted the channel.
    bool reportProtocolError(const QString &reason);

    std::deque<BridgeFrameReader::Event> m_pending;
    bool m_endOfStream = false;
    bool m_writeFailed = false;
    bool m_oversizeReported = false; ///< the line being skipped was reported already
    std::string m_readBuffer;
    int m_fd = -1;
    BridgeFrameReader m_reader;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    std::string m_out;
    std::size_t m_outOffset = 0;
};
