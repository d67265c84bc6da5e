// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandboxpolicy.h"

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>

class BridgeChannel;

/// Starts an interpreter under `toolstudio-sandbox` with a bridge socketpair whose
/// child end becomes fd 3, and reports its output and end. The studio never applies
/// the policy in a fork of its own (multi-threaded) process: it execs the launcher.
class SandboxProcess : public QObject
{
    Q_OBJECT
public:
    explicit SandboxProcess(QObject *parent = nullptr);
    ~SandboxProcess() override;

    /// Path of the `toolstudio-sandbox` executable. Default: next to the running
    /// application, else $TOOLSTUDIO_SANDBOX, else on PATH.
    static QString defaultLauncherPath();
    void setLauncherPath(const QString &path);

    /// `policy.bridgeFd` is filled in here. The policy is written to
    /// `policyFile` (read by the launcher). Returns false with `error` set when the
    /// socketpair, policy file or process cannot be created.
    /// `maxLineBytes` bounds one bridge line (see BridgeFrameReader).
    bool start(SandboxPolicy policy, const QString &policyFile, std::size_t maxLineBytes,
               QString *error = nullptr);

    /// The studio's end of the bridge; valid after start().
    BridgeChannel *bridge() const;
    qint64 pid() const;
    bool isRunning() const;

    /// SIGKILL to the child's whole process group (it leads its own session).
    /// Returns true when no process of the group is left afterwards.
    bool killGroup();

Q_SIGNALS:
    void standardOutput(const QByteArray &chunk);
    void standardError(const QByteArray &chunk);
    /// The child exited: `exitCode` for a normal exit, or the signal number with
    /// `crashed` = true. `launcherFailure` is set when the launcher failed before
    /// execve (its one-line reason).
    void finished(int exitCode, bool crashed, const QString &launcherFailure);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess *m_process = nullptr;
    BridgeChannel *m_bridge = nullptr;
    QString m_launcherPath;
    QByteArray m_stderrHead;   ///< first bytes of stderr, to find the launcher's reason
    qint64 m_pid = 0;
};
