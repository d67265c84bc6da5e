// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runend.h"

#include "run/dirtree.h"
#include "run/runfolder.h"
#include "sandboxprocess.h"

#include <QObject>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

RunEnd::Verdict RunEnd::verdict(const Facts &facts)
{
    const int exitCode = facts.exitCode;
    const bool crashed = facts.crashed;
    Verdict v;
    if (facts.stopRequested) {
        v.status = RunStatus::Cancelled;
        v.error = QObject::tr("stopped by the user; the script's process group was killed");
    } else if (facts.timedOut) {
        v.status = RunStatus::TimedOut;
        v.error = facts.failure;
    } else if (!facts.launcherFailure.isEmpty()) {
        v.status = RunStatus::Failed;
        v.error = facts.launcherFailure;
    } else if (!facts.failure.isEmpty()) {
        v.status = RunStatus::Failed;
        v.error = facts.failure;
    } else if (const auto memory = facts.process->memoryLimit(); memory.oomKills > 0) {
        // The run's tasks together reached the run's memory bound (its memory
        // cgroup): the kernel killed one or more of them, whatever the script did next.
        v.status = RunStatus::Failed;
        v.error = QObject::tr("memory limit: the run's processes together reached the run's memory limit of "
                              "%1 MiB (memory cgroup); the kernel killed %2 of them")
                      .arg(memory.bytes >> 20)
                      .arg(memory.oomKills);
    } else if (crashed && exitCode == SIGSYS) {
        v.status = RunStatus::Failed;
        v.error = QObject::tr("the script was killed by the sandbox (signal SIGSYS): it made a system call "
                              "from a foreign architecture (x32 or int 0x80), or one that is not on the "
                              "allow-list in the kill-on-unlisted mode");
    } else if (crashed && exitCode == SIGXCPU) {
        v.status = RunStatus::Failed;
        v.error = QObject::tr("the script used up its CPU time limit (RLIMIT_CPU) and was killed (SIGXCPU)");
    } else if (crashed && exitCode == SIGXFSZ) {
        v.status = RunStatus::Failed;
        v.error = QObject::tr("the script wrote past the file size limit (RLIMIT_FSIZE) and was killed (SIGXFSZ)");
    } else if (crashed) {
        v.status = RunStatus::Failed;
        v.error = QObject::tr("the script was killed by signal %1").arg(exitCode);
    } else if (exitCode != 0) {
        v.status = RunStatus::Failed;
        v.error = QObject::tr("the script exited with status %1").arg(exitCode);
    } else {
        v.status = RunStatus::Completed;
    }
    if (!facts.groupGone) {
        // Not cancelled/timed out while something of it may still run.
        v.status = RunStatus::Failed;
        v.error += QObject::tr(" — some processes of the script's group could not be confirmed gone "
                               "after %1 s; check with: ps -g %2")
                       .arg(KillConfirmRounds)
                       .arg(facts.process->pid());
    }
    return v;
}

QByteArray RunEnd::keepOutputFiles(RunFolder &folder, const QString &runDir, const RunFiles::Snapshot &inputFiles,
                                   bool overDiskLimit, QList<RunFile> *keptFiles)
{
    keptFiles->clear();
    if (overDiskLimit) { // over the run's disk limit: nothing is kept (the error says so)
        DirTree::remove(folder.fd(), "work");
        return {};
    }
    // Through the run folder's fd: a symlink put in its place meanwhile redirects
    // nothing, and a chain deeper than PATH_MAX hides no file (DirTree).
    const int workFd
        = folder.fd() < 0 ? -1 : ::openat(folder.fd(), "work", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (workFd < 0)
        return {};
    const RunFiles::Kept kept = RunFiles::keep(folder.fd(), workFd, inputFiles, MaxOutputFiles, MaxOutputFileBytes);
    ::close(workFd);
    *keptFiles = kept.files;
    DirTree::remove(folder.fd(), "work");
    if (kept.skipped == 0)
        return {};
    return QObject::tr("\n[run files: kept %1 files (%2 bytes) in %3; %4 more files (%5 bytes) were "
                       "over the cap of %6 files / %7 MiB and were discarded]\n")
        .arg(keptFiles->size())
        .arg(kept.keptBytes)
        .arg(runDir + QStringLiteral("/files-out"))
        .arg(kept.skipped)
        .arg(kept.skippedBytes)
        .arg(MaxOutputFiles)
        .arg(MaxOutputFileBytes / (1024 * 1024))
        .toUtf8();
}
