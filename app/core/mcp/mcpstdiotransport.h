// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcptransport.h"

#include <QPointer>
#include <QProcess>
#include <QSocketNotifier>
#include <QStringList>

#include <functional>
#include <memory>

class BridgeFrameReader;

/// MCP's stdio transport (spec "Transports", both eras): the server is a child process;
/// messages are single lines of JSON on its stdin and stdout; its stderr is logging.
///
/// What comes out of the server is outside input: stdout is cut into lines by the
/// bridge's BridgeFrameReader (a line over MaxMessageBytes is skipped without being
/// buffered whole, and reported), each line read by JsonRpc::decode; a line that is not
/// a message (a banner, garbage) is reported by messageRefused and the transport goes
/// on, as the reference SDKs do. stderr is kept as a bounded tail (StderrTailBytes) for
/// the error that names why a server failed.
///
/// What goes into the server is bounded too: a server that stops reading its stdin
/// while it keeps sending requests the studio answers (a ping flood) would grow
/// QProcess's write buffer without end, so once more than MaxPendingWriteBytes wait
/// for it, the server is killed and finished() names why.
///
/// stop() follows the spec's shutdown: close the server's stdin, wait, then SIGTERM,
/// then SIGKILL (StopGraceMs each). The server runs in a process group of its own;
/// when it has ended (or the transport is destroyed) what is left of the group — a
/// child it started, which may hold its pipes — is killed. A child that leaves the
/// group (setsid) is not: that is the sandbox's to contain (issue 21 §6).
///
/// A slot of messageReceived may delete the transport (or its session): the rest of
/// the stdout read at that moment is then dropped, nothing of the transport is touched.
class McpStdioTransport : public McpTransport
{
    Q_OBJECT
public:
    struct Launch
    {
        QString program;
        QStringList arguments;
        QProcessEnvironment environment; ///< the whole environment the server gets
        QString workingDirectory;
        /// Set: sets the process up instead of the four fields above (e.g. under
        /// toolstudio-sandbox, McpServerLaunch); false with the reason = not started.
        std::function<bool(QProcess *, QString *)> configure;
    };

    /// Bytes of earlier messages that may wait for the server to read them before a
    /// message is sent; over it, the server is killed (one message of any size is sent).
    static constexpr qint64 MaxPendingWriteBytes = 64 << 20;
    static constexpr qsizetype StderrTailBytes = 16 * 1024;
    static constexpr int StopGraceMs = 2000;

    explicit McpStdioTransport(QObject *parent = nullptr);
    ~McpStdioTransport() override;

    /// The launch start() uses.
    void setLaunch(const Launch &launch) { m_launch = launch; }
    /// Starts the server; started() or finished() follows.
    void start() override;
    void start(const Launch &launch)
    {
        setLaunch(launch);
        start();
    }
    /// Writes one message as one line (kept by QProcess while the server is starting).
    /// False (nothing written) when the server has ended or is being stopped, or when
    /// more than MaxPendingWriteBytes already wait for it (it is killed then).
    bool send(const JsonRpcMessage &message) override;
    /// Ends the server (see the class comment); finished() follows unless it was not running.
    void stop() override;
    bool isRunning() const override;
    QString transportName() const override { return QStringLiteral("stdio"); }
    /// The last StderrTailBytes of the server's stderr, as UTF-8 text (a cut multi-byte
    /// character at the start is dropped). finished()'s `why`: "exited with code N",
    /// "killed by signal N", "could not be started: …" or "does not read its stdin: …;
    /// it was killed".
    QString stderrTail() const override;
    /// The server's pid while it runs, else 0.
    qint64 processId() const;

private:
    void readStdout();
    void readStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void killGroup();
    /// Writes what it can of `bytes` to the server's stdin at once (QProcess would wait
    /// for its write notifier: a turn of the event loop and two wake-ups per message);
    /// the bytes written, 0 when it cannot (see stdinPipe()).
    qint64 writeNow(const char *bytes, qint64 size);
    /// QProcess's end of the server's stdin pipe, non-blocking: the descriptor of its
    /// write notifier (a child of the process; QProcess deletes it when it closes the
    /// pipe). -1 when there is none such, then QProcess writes everything.
    int stdinPipe();

    Launch m_launch;
    QProcess *m_process = nullptr;
    std::unique_ptr<BridgeFrameReader> m_reader;
    QByteArray m_stderrTail;
    qint64 m_group = 0;      ///< the server's process group (its pid) once started
    QString m_killedBecause; ///< why the transport killed the server, if it did
    bool m_stopping = false;
    bool m_reportedEnd = false;
    QPointer<QSocketNotifier> m_stdinNotifier; ///< stdinPipe()'s, once looked for
    bool m_stdinLooked = false;
};
