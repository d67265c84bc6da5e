// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <QObject>
#include <QProcess>
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
/// stop() follows the spec's shutdown: close the server's stdin, wait, then SIGTERM,
/// then SIGKILL (StopGraceMs each).
class McpStdioTransport : public QObject
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

    static constexpr std::size_t MaxMessageBytes = 64u << 20;
    static constexpr qsizetype StderrTailBytes = 16 * 1024;
    static constexpr int StopGraceMs = 2000;

    explicit McpStdioTransport(QObject *parent = nullptr);
    ~McpStdioTransport() override;

    /// Starts the server; started() or finished() follows.
    void start(const Launch &launch);
    /// Writes one message as one line (kept by QProcess while the server is starting).
    /// False (nothing written) when the server has ended or is being stopped.
    bool send(const JsonRpcMessage &message);
    /// Ends the server (see the class comment); finished() follows unless it was not running.
    void stop();
    bool isRunning() const;
    /// The last StderrTailBytes of the server's stderr, as UTF-8 text (a cut multi-byte
    /// character at the start is dropped).
    QString stderrTail() const;
    /// The server's pid while it runs, else 0.
    qint64 processId() const;

Q_SIGNALS:
    void started();
    void messageReceived(const JsonRpcMessage &message);
    /// A stdout line that is not a JSON-RPC message, or one over MaxMessageBytes:
    /// `reason` says which; `id` is the request id when one could be read.
    void messageRefused(const QString &reason, const nlohmann::json &id);
    /// The server is gone: `why` = "exited with code N", "killed by signal N" or "could
    /// not be started: …".
    void finished(const QString &why);

private:
    void readStdout();
    void readStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);

    QProcess *m_process = nullptr;
    std::unique_ptr<BridgeFrameReader> m_reader;
    QByteArray m_stderrTail;
    bool m_stopping = false;
    bool m_reportedEnd = false;
};
