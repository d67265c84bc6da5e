// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"
#include "python/secrets.h"

#include <QProcess>
#include <QStringList>

#include <cstdint>
#include <memory>

class ToolSandbox;

/// Runs a host command for one attempt (handler kind `command`, docs/project-format.md):
/// argv from the manifest, confined by ToolSandbox (docs/sandbox.md "Trusted code": the
/// project read-only, a scratch dir as HOME and TMPDIR, no home, never root, network
/// allowed), run in the project folder in a session and process group of its own; the
/// arguments as one line of JSON on stdin; a clean environment holding only the
/// project's secrets and TOOLSTUDIO_TOOL, TOOLSTUDIO_RUN_ID, TOOLSTUDIO_CALL_ID,
/// TOOLSTUDIO_ATTEMPT and TOOLSTUDIO_IDEMPOTENCY_KEY.
///
/// Outcome by exit status: 0 = success, stdout is the result JSON (invalid or empty
/// JSON = a non-retryable error); 65 (EX_DATAERR) = non-retryable error; any other
/// status or a signal = retryable error. The error message is the last lines of
/// stderr (or the exit status). stderr is the attempt's captured output (first 1 MiB).
/// stdout beyond 4 × the reply cap kills the command (reply_too_large). Every secret
/// value of the project is masked in the captured stderr and the error message.
///
/// `fileArgs` (the handler's "file_args"): string arguments that name a file the
/// script wrote in its work dir (HandlerRequest::workDir). Each is opened on this
/// (trusted) side with WorkDirFile — beneath the work dir, no symlink, no "..", no
/// hard link, a regular file — and handed to the command as an open fd (3, 4, … in
/// the order of `fileArgs`), its value in the stdin JSON replaced by "/dev/fd/N". A
/// refused path fails the attempt, not retryable, with `invalid_arguments` and
/// "argument 'NAME': <WorkDirFile refusal> [path_…]"; the command is not started.
class CommandHandler : public ToolHandler
{
    Q_OBJECT
public:
    static constexpr int ExitNonRetryable = 65; ///< EX_DATAERR from sysexits.h
    static constexpr int ExitRetryable = 75;    ///< EX_TEMPFAIL; any other non-zero status is retryable too
    static constexpr qsizetype MaxCapturedStderr = 1024 * 1024;
    static constexpr std::uint64_t CpuSecondsPerAttempt = 600; ///< RLIMIT_CPU of one attempt

    CommandHandler(QStringList command, QObject *parent = nullptr, QStringList fileArgs = {});
    ~CommandHandler() override;

    void start(const HandlerRequest &request) override;
    /// Kills the command's whole process group and waits (up to 2 s) until it is gone.
    void cancel() override;
    /// "the command's process group (pid N) was killed (SIGKILL) and is gone", or
    /// "… could not be confirmed gone" when members outlived 2 s.
    QString cancelReport() const override { return m_killReport; }

private:
    void finish(const HandlerOutcome &outcome);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    /// Appends to m_stderr up to MaxCapturedStderr (clipUtf8), counting the rest.
    void keepStderr(const QByteArray &chunk);
    void killGroup();
    QString stderrTail() const;

    QStringList m_command;
    QStringList m_fileArgs;
    QString m_tool; ///< the tool's name, for messages
    QProcess *m_process = nullptr;
    QByteArray m_stdout;
    QByteArray m_stderr;
    /// Bytes of stderr past MaxCapturedStderr (clipped on a character boundary).
    qsizetype m_stderrDropped = 0;
    std::size_t m_maxStdout = 0;
    bool m_done = false;
    QString m_killReport;
    Secrets m_secrets;                      ///< the project's, given to the command and masked in its stderr
    std::shared_ptr<ToolSandbox> m_sandbox; ///< the project's (ToolSandbox::forProject)
};
