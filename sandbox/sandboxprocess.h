// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policylistener.h"
#include "sandboxpolicy.h"

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>

#include <string>
#include <utility>

class BridgeChannel;
class OutputPipes;
class QSocketNotifier;

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

    /// `policy.bridgeFd`, `policy.statusFd` and `policy.parentPid` are filled in here. The policy
    /// reaches the launcher as an inherited fd (`--policy-fd`: a sealed, read-only memfd),
    /// never as a file another user could replace. Returns false with
    /// `error` set when the socketpair, policy fd or process cannot be created;
    /// failures of the launcher's own steps arrive later through finished().
    /// `maxLineBytes` bounds one bridge line (see BridgeFrameReader). The child's
    /// stdin is /dev/null; stdout and stderr are two pipes (see releaseOutputFds()).
    /// Call it from a thread that outlives the run (normally the GUI thread): the
    /// launcher's PR_SET_PDEATHSIG fires when the *thread* that forked it exits
    /// (prctl(2)), not only when the studio does.
    bool start(SandboxPolicy policy, std::size_t maxLineBytes, QString *error = nullptr);

    /// Pre-warmed start (policy.waitForGo): the launcher applies every step, emits
    /// ready() and execs the interpreter only on go(), with `handover` (the run's
    /// script, environment and work dir name; see SandboxGo). Returns false when the
    /// launcher is not waiting (not started pre-warmed, not ready yet, or gone), the
    /// handover is over SandboxGo::MaxBytes, or the launcher did not confirm with
    /// "going" within 2 s — it refuses when its nice value or its work dir's mode or
    /// owner changed while it waited (its failure line says which); the caller then
    /// kills it and starts the run cold.
    bool go(const SandboxGo &handover = {});
    bool isReady() const;
    /// Blocks up to `msecs` until a pre-warmed launcher reports ready (reading its
    /// status channel directly, no event loop). True when it is ready.
    bool waitForReady(int msecs);

    /// The studio's end of the bridge; valid after start().
    BridgeChannel *bridge() const;
    /// The read ends of the script's stdout and stderr pipes (ownership passes to the
    /// caller, who reads them with an OutputPipes of its own, e.g. on another thread);
    /// standardOutput/standardError are not emitted any more. {-1, -1} before start()
    /// or when taken already. Take them before the event loop runs after start() (or
    /// go()), or some output is reported here first.
    std::pair<int, int> releaseOutputFds();
    qint64 pid() const;
    bool isRunning() const;

    /// The Landlock ABI the launcher enforced for this run: ≥ 1, 0 when the run is in
    /// seccomp-only mode (the kernel has none and the user opted in), -1 while unknown
    /// (before the launcher got there, or it failed earlier).
    int landlockAbi() const;

    /// How the run's tasks are bounded (SANDBOX.md "Limits", processes), known from
    /// start() on.
    struct ProcessLimit
    {
        /// The run's own pids cgroup (PidsCgroup), empty when there is none.
        QString cgroup;
        int cgroupVersion = 0; ///< 1 or 2 with a cgroup
        quint64 maxTasks = 0;  ///< pids.max, or the budget on top of the user's tasks (RLIMIT_NPROC)
        /// Without a cgroup: why (the launcher then gives the run a user of its own,
        /// ProcessIsolation, where the machine allows).
        QString fallbackReason;
        /// What the launcher put in force ("processes" on the status channel):
        /// "pids_cgroup", "run_uid" (root: a uid of its own), "user_namespace" (an
        /// ordinary user: a user namespace of its own), "shared" (the residual:
        /// RLIMIT_NPROC shared by every task of the sandbox user, so a fork bomb can
        /// starve a run started at the same time); empty until the launcher said.
        QString mechanism;
        /// With "shared": why the launcher could not give the run a user of its own.
        QString sharedReason;
    };
    ProcessLimit processLimit() const;

    /// How the run's memory is bounded (issue 16 class 4: per run, not per process),
    /// known from start() on; `oomKills` after killGroup().
    struct MemoryLimit
    {
        /// "memory_cgroup": the run's tasks together (memory.max / memory.limit_in_bytes);
        /// "per_process": the residual, RLIMIT_DATA on each process alone.
        QString mechanism;
        QString cgroup;       ///< the cgroup holding the limit (v2: the run's one cgroup)
        quint64 bytes = 0;    ///< the bound (policy limits.data_bytes)
        QString reason;       ///< with "per_process": why there is no memory cgroup
        quint64 oomKills = 0; ///< processes the kernel killed at the bound (read before the cgroup goes)
    };
    MemoryLimit memoryLimit() const;
    /// Tests: false makes start() skip the pids and memory cgroups (the launcher's
    /// fallbacks). Also false from construction when TOOLSTUDIO_CGROUPS=0 is set (a
    /// root without cgroups reproduced; fallbackReason says so).
    void setPidsCgroupAllowed(bool allowed);
    /// Tests: false also switches off the launcher's run uid / user namespace
    /// (policy isolate_processes), leaving the shared RLIMIT_NPROC residual.
    void setProcessIsolationAllowed(bool allowed);

    /// SIGKILL to the child's whole process group (it leads its own session), also
    /// after the leader exited, and to every member of the run's pids cgroup. Returns
    /// true when no live process of the group (and none in the cgroup) is left
    /// (kill(-pid, 0) fails with ESRCH, or only zombies remain), polling up to ~1 s;
    /// the cgroup is then removed once the launcher has been reaped. Blocks the
    /// caller for at most that long.
    bool killGroup();

Q_SIGNALS:
    /// The script's output as read from its pipes (none after releaseOutputFds()).
    void standardOutput(const QByteArray &chunk);
    void standardError(const QByteArray &chunk);
    /// The child exited: `exitCode` for a normal exit, or the signal number with
    /// `crashed` = true. `launcherFailure` is set when the launcher failed before
    /// execve (its one-line reason, "toolstudio-sandbox: <step>: …"), as it reported
    /// on its close-on-exec status channel: a script cannot fake it by printing the
    /// same line and exiting with a launcher status. Emitted after the last
    /// standardOutput/standardError chunk.
    void finished(int exitCode, bool crashed, const QString &launcherFailure);
    /// A pre-warmed launcher applied the whole policy and waits for go().
    void ready();
    /// The launcher applied Landlock at `abi` (0 = seccomp only), before execve.
    void landlockApplied(int abi);
    /// The sandbox refused a call and reported it (PolicyListener).
    void policyEvent(const SandboxPolicyEvent &event);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void readStatus();
    void closeStatus();
    void releaseCgroup();
    void startMemoryCgroup(SandboxPolicy &policy);

    QProcess *m_process = nullptr;
    BridgeChannel *m_bridge = nullptr;
    OutputPipes *m_output = nullptr; ///< the script's stdout/stderr, until released
    QString m_launcherPath;
    qint64 m_pid = 0;
    int m_statusFd = -1; ///< studio end of the launcher's status channel
    QSocketNotifier *m_statusNotifier = nullptr;
    PolicyListener *m_listener = nullptr;
    QString m_launcherFailure; ///< from the status channel only
    bool m_going = false;      ///< the pre-warmed launcher confirmed "go"
    static constexpr int GoWaitMs = 2000;
    QString m_workDir; ///< the policy's work dir (the listener brokers metadata changes beneath it)
    int m_landlockAbi = -1;
    bool m_ready = false;
    ProcessLimit m_processLimit;
    std::string m_liveCgroup;       ///< the run's cgroup until it is removed
    std::string m_liveMemoryCgroup; ///< cgroup v1: the run's memory cgroup until it is removed
    MemoryLimit m_memoryLimit;
    bool m_pidsCgroupAllowed = true;
    std::string m_cgroupsOffReason = "switched off for this run"; ///< the fallback reason without one
    bool m_processIsolationAllowed = true;
};
