// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bridgeframereader.h"

#include <QObject>
#include <QString>

#include <functional>
#include <string>

class McpServerSession;
class QSocketNotifier;

/// MCP's stdio transport, server side (`toolstudio serve --mcp-stdio`; docs/server.md
/// "MCP server"): one McpServerSession; each line of stdin is one message, each reply
/// and notification one line on stdout, and nothing else is written there (logs go to
/// stderr). A line over MaxLineBytes is skipped as it arrives, never buffered whole,
/// and answered with an error. The end of stdin ends the session (calls still running
/// are cancelled) and calls `onEnded`.
///
/// stdout is written only as far as the client reads it (never a blocking write, which
/// would stop the studio, signals included, while the client does not read): the rest
/// waits in a queue. While over MaxLineBytes wait, stdin is not read; past
/// MaxUnreadBytes the session ends. On destruction what waits gets DrainMs to go out.
class McpStdioServer : public QObject
{
public:
    static constexpr std::size_t MaxLineBytes = 4u << 20;
    static constexpr std::size_t MaxUnreadBytes = 64u << 20;
    static constexpr int DrainMs = 5000;

    McpStdioServer(McpServerSession *session, int inFd, int outFd, QObject *parent = nullptr);
    ~McpStdioServer() override;

    /// Starts reading.
    void start();
    /// Called once, when the input has ended: `why` in words.
    std::function<void(const QString &why)> onEnded;

private:
    void readInput();
    void write(const std::string &line);
    /// Writes what waits while stdout takes it without blocking; false when broken.
    void flush();
    void finish(const QString &why);

    McpServerSession *m_session;
    int m_in;
    int m_out;
    bool m_outBroken = false;
    bool m_finished = false;
    BridgeFrameReader m_reader{MaxLineBytes};
    QSocketNotifier *m_notifier = nullptr;
    QSocketNotifier *m_writable = nullptr;
    std::string m_unread; ///< written, not yet taken by the client
};
