// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>

#include <utility>

class QSocketNotifier;

/// The read ends of a script's stdout and stderr pipes (SandboxProcess creates them;
/// the script's fds 1 and 2 are their write ends). Reads without ever blocking, on the
/// thread the object lives on: RunController reads them on its run thread next to the
/// tools bridge, so it can order output against the script's calls (docs/trace.md
/// "Console order").
///
/// Per readiness event at most ReadBudgetBytes are read per pipe (the rest on the
/// next turn of the event loop), so a script printing without pause cannot starve the
/// thread's other work.
///
/// Past its cap a stream is discarded (discard(), issue 16): its bytes are spliced to
/// /dev/null without being copied or emitted, its pipe enlarged, and the pipe is
/// watched only every DiscardPauseMs, so a script printing without end past the cap
/// costs the studio a few wake-ups a second (the script's writes wait meanwhile).
class OutputPipes : public QObject
{
    Q_OBJECT
public:
    static constexpr int Stdout = 1;
    static constexpr int Stderr = 2;
    static constexpr qsizetype ReadBudgetBytes = 1024 * 1024;
    static constexpr int DiscardPauseMs = 20;

    /// Takes ownership of both fds (either may be -1: none), made non-blocking and
    /// close-on-exec.
    OutputPipes(int stdoutFd, int stderrFd, QObject *parent = nullptr);
    ~OutputPipes() override;

    /// Reads what the pipes hold right now (FIONREAD: a bounded amount, even while the
    /// writer keeps writing), stdout first; emits output() per chunk. Whatever the
    /// script wrote before this call is reported when it returns (and, when its
    /// writers are gone, everything). One poll(2) when the pipes are empty.
    void drain();
    /// Gives up the fds without closing them (-1 when none) and stops watching them, so
    /// that an OutputPipes on another thread can take them over. Nothing more is emitted.
    std::pair<int, int> releaseFds();
    /// Both pipes reached their end (every writer closed it) or were never there.
    bool atEnd() const;
    /// From now on `stream` (1 or 2) is read and dropped: output() is not emitted for it.
    void discard(int stream);
    /// Bytes of `stream` dropped since discard().
    qint64 discardedBytes(int stream) const;

Q_SIGNALS:
    /// `stream` 1 = stdout, 2 = stderr; `chunk` is never empty.
    void output(int stream, const QByteArray &chunk);

private:
    /// Reads up to `budget` bytes from pipe `index` (0 = stdout, 1 = stderr).
    void readPipe(int index, qsizetype budget);
    void closePipe(int index);
    /// readPipe() for a discarded pipe: spliced to /dev/null (or read into a scratch
    /// buffer), then the notifier paused for DiscardPauseMs.
    void discardPipe(int index, qsizetype budget);

    int m_fd[2] = {-1, -1};
    bool m_discarding[2] = {false, false};
    qint64 m_discarded[2] = {0, 0};
    int m_devNull = -1;
    QSocketNotifier *m_notifier[2] = {nullptr, nullptr};
};
