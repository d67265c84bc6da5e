// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <functional>

class QTimer;

/// The pace at which an HTTP transport reads event streams that have none of their own
/// (a request's stream answering a POST, the older HTTP+SSE transport's stream): at most
/// MaxBytesPerWindow each WindowMs, all its streams together. What comes faster waits in
/// Qt's bounded read buffer, and the server's writes wait for it (TCP). attack43 F3:
/// streams of comment lines, or of events of a type nobody reads, were read as fast as
/// they came — most of a core of the main thread for as long as the call (or, over
/// HTTP+SSE, the session) lasted. A response of a few MiB still comes within a window
/// or two; one of 64 MiB takes 3.2 s.
class McpReadPace : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 MaxBytesPerWindow = 2 << 20;
    static constexpr int WindowMs = 100;
    /// Bytes read at a time.
    static constexpr qint64 ReadChunkBytes = 64 * 1024;

    /// `resume` is called when a window ended that stopped reading.
    McpReadPace(std::function<void()> resume, QObject *parent);

    /// Whether more may be read now; when not, `resume` follows once the window ended.
    bool hasRoom();
    /// `bytes` were read.
    void count(qint64 bytes) { m_bytes += bytes; }
    /// Times reading waited for a window to end.
    qint64 pauses() const { return m_pauses; }

private:
    std::function<void()> m_resume;
    QTimer *m_timer;
    QElapsedTimer m_window;
    qint64 m_bytes = 0;
    qint64 m_pauses = 0;
};
