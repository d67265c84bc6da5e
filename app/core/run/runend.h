// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "run/runfiles.h"

#include <QByteArray>
#include <QList>
#include <QString>

class RunFolder;
class SandboxProcess;

/// The end of a run: the final status and error once the script's group is gone, and
/// what the script left in its work dir (docs/sandbox.md "Run files").
class RunEnd
{
public:
    /// Stop/timeout: how many rounds of SandboxProcess::killGroup() (~1 s each) the
    /// process group may take to be confirmed gone.
    static constexpr int KillConfirmRounds = 5;
    /// Files the script leaves are kept with the run up to these caps (issue 3).
    static constexpr int MaxOutputFiles = 100;
    static constexpr qint64 MaxOutputFileBytes = 64 * 1024 * 1024;

    /// What the studio knows when the script's process has exited.
    struct Facts
    {
        int exitCode = 0;
        bool crashed = false;    ///< `exitCode` is the signal that killed it
        QString launcherFailure; ///< the launcher failed before the script ran
        QString failure;         ///< the studio ended the run (protocol error, limits)
        bool stopRequested = false;
        bool timedOut = false;
        bool groupGone = true;                   ///< every process of the group confirmed gone
        const SandboxProcess *process = nullptr; ///< its memory cgroup and pid
    };
    struct Verdict
    {
        RunStatus status = RunStatus::Completed;
        QString error; ///< empty for a completed run
    };
    /// The final status: cancelled (stop), timed out, failed (launcher, the studio, the
    /// memory bound, a signal, an exit status) or completed; never cancelled or timed
    /// out while some of the group may still run.
    static Verdict verdict(const Facts &facts);

    /// Keeps what the script left in work/ (new or changed regular files, no links) in
    /// files-out/ within the caps, then removes work/. `inputFiles`: the work dir as
    /// prepared; `overDiskLimit`: keep nothing. Returns the notice for stderr when some
    /// files were over the caps, else empty. Through the run folder's fd: a symlink put
    /// in the place of work/ redirects nothing.
    static QByteArray keepOutputFiles(RunFolder &folder, const QString &runDir, const RunFiles::Snapshot &inputFiles,
                                      bool overDiskLimit, QList<RunFile> *kept);
};
