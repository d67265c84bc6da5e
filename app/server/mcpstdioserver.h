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
class McpStdioServer : public QObject
{
public:
    static constexpr std::size_t MaxLineBytes = 4u << 20;

    McpStdioServer(McpServerSession *session, int inFd, int outFd, QObject *parent = nullptr);
    ~McpStdioServer() override;

    /// Starts reading.
    void start();
    /// Called once, when the input has ended: `why` in words.
    std::function<void(const QString &why)> onEnded;

private:
    void readInput();
    void write(const std::string &line);
    void finish(const QString &why);

    McpServerSession *m_session;
    int m_in;
    int m_out;
    bool m_outBroken = false;
    bool m_finished = false;
    BridgeFrameReader m_reader{MaxLineBytes};
    QSocketNotifier *m_notifier = nullptr;
};
