// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bridgeframereader.h"
#include "bridgemessage.h"

#include <QObject>
#include <QString>

class QSocketNotifier;

/// The studio's end of the tools bridge: a non-blocking AF_UNIX stream socket,
/// NDJSON framed (DESIGN.md "The tools bridge"). Reads with recvmsg and closes any
/// file descriptor passed with SCM_RIGHTS (never accepted; reported as a protocol
/// error). Writes are queued and flushed as the socket drains, so a slow reader never
/// blocks the studio.
class BridgeChannel : public QObject
{
    Q_OBJECT
public:
    /// Takes ownership of `fd`. `maxLineBytes` bounds one incoming line.
    BridgeChannel(int fd, std::size_t maxLineBytes, QObject *parent = nullptr);
    ~BridgeChannel() override;

    /// Queues one encoded line (with its '\n') for the child.
    void send(const std::string &line);
    void close();
    bool isOpen() const { return m_fd >= 0; }
    std::size_t queuedBytes() const { return m_out.size() - m_outOffset; }

Q_SIGNALS:
    void callReceived(const BridgeCall &call);
    /// A line that is not a valid call (bad UTF-8, bad JSON, too deep, oversized,
    /// unknown type, passed fds): `reason` says what and where.
    void protocolError(const QString &reason);
    /// The child closed its end (or the socket failed).
    void closed();

private:
    void onReadable();
    void onWritable();
    void handleEvents(const std::vector<BridgeFrameReader::Event> &events);

    int m_fd = -1;
    BridgeFrameReader m_reader;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    std::string m_out;
    std::size_t m_outOffset = 0;
};
