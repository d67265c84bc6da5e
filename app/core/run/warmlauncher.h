// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "run/runfolder.h"
#include "sandboxpolicy.h"

#include <QObject>
#include <QString>

#include <cstddef>
#include <optional>
#include <string>

class SandboxProcess;

/// The sandbox policy of one run whose folder is `runDir` (work/ = the child's cwd,
/// HOME and TMPDIR; runtime/ = the shims, readable): `interpreter` (absolute) as
/// argv[0] (node also gets --max-old-space-size), the shim environment with
/// TOOLSTUDIO_RUN_ID = `runId`, RLIMIT_CPU = the run timeout + 5 s. The script itself
/// is not in argv: the caller appends it (cold start) or hands it over with go().
SandboxPolicy runSandboxPolicy(const QString &runDir, const QString &interpreter, const QString &runId,
                               const ProjectLimits &limits, bool seccompOnly);

/// At most one pre-warmed sandbox launcher (SandboxPolicy::waitForGo) waiting for the
/// next run of a RunController (docs/sandbox.md "Pre-warmed start"): it owns a run
/// folder `<runs>/warm-<random>/` with an empty work dir and runtime dir, its pids
/// cgroup and bridge socket, and has applied rlimits, credentials, Landlock (for that
/// work dir and runtime dir) and seccomp for one interpreter. What depends on the run
/// (the script, run files, shims, run id) is added by the run: files are copied into
/// the folder, the script and environment are handed over with SandboxProcess::go().
///
/// Off when TOOLSTUDIO_PREWARM=0 (enabledByDefault()) or setEnabled(false).
/// Lives on the GUI thread, like the SandboxProcess it hands over.
class WarmLauncher : public QObject
{
    Q_OBJECT
public:
    explicit WarmLauncher(QObject *parent = nullptr);
    /// Kills a launcher still waiting and removes its run folder and cgroup.
    ~WarmLauncher() override;

    /// False when the environment says TOOLSTUDIO_PREWARM=0.
    static bool enabledByDefault();
    void setEnabled(bool enabled);
    bool isEnabled() const;

    /// Remembers what the next run is likely to need (the last run's project dir,
    /// interpreter, limits, seccomp-only choice, bridge line bound in bytes).
    void remember(const QString &projectDir, const QString &interpreter, const ProjectLimits &limits, bool seccompOnly,
                  std::size_t maxLineBytes);
    /// Starts a launcher for what was remembered, under `runsDir` (replacing any one
    /// waiting). Does nothing when disabled or nothing was remembered. A launcher that
    /// fails or exits while waiting is discarded with its folder; nothing is reported.
    void prepare(const QString &runsDir);

    /// For a run of `projectDir` whose policy (built with runSandboxPolicy for any
    /// folder) is `policy`: when the waiting launcher was prepared for the same
    /// project dir, interpreter, limits, seccomp choice and bridge bound, and is (or
    /// within 1 s becomes) ready, renames its run folder to `runDir` (which must not
    /// exist), moves it (locked) into `*folder` and hands the launcher over (no parent;
    /// the caller owns it). Otherwise discards it (killed, folder and cgroup removed) and
    /// returns nullptr: the run starts cold.
    SandboxProcess *take(const QString &projectDir, const SandboxPolicy &policy, std::size_t maxLineBytes,
                         const QString &runDir, RunFolder *folder);

    /// Kills the waiting launcher (if any) and removes its folder and cgroup.
    void discard();

    /// A launcher is waiting and has reported ready.
    bool isReady() const;
    /// Its run folder (empty when none) and the launcher's pid (0 when none).
    QString runDir() const;
    qint64 pid() const;
    /// Its pids cgroup, or empty.
    QString cgroup() const;

private:
    struct Remembered
    {
        QString projectDir;
        QString interpreter;
        ProjectLimits limits;
        bool seccompOnly = false;
        std::size_t maxLineBytes = 0;
    };
    static std::string shapeOf(const SandboxPolicy &policy);

    bool m_enabled;
    std::optional<Remembered> m_remembered;
    SandboxProcess *m_process = nullptr;
    RunFolder m_folder;
    QString m_projectDir;
    std::string m_shape;
    std::size_t m_maxLineBytes = 0;
};
