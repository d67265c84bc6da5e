// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// Where a root studio keeps the sandbox user's read-only copy of a project
/// (ToolSandbox, docs/sandbox.md "Trusted code") from one start to the next, so a start
/// brings the copy up to date instead of copying the whole project again (a project with
/// node_modules/: 4 786 files, 2.2 s to copy and 0.9 s to remove at every start).
///
/// The copies live in `$TMPDIR/toolstudio-copies-UID/` (0711), one folder per project
/// (named by a hash of its path; 0710, the sandbox user's group: no other local user
/// reaches the copy) holding `project/` and a `.lock`. claim() takes a
/// project's folder for this process only while it holds the lock (flock, released when
/// the process ends): a second studio on the same project, or a base folder that is not
/// this user's own (another user made it first in the shared temp folder, or made it
/// writable), gets "" and falls back to a private copy as before. The walk that reclaims
/// a claimed copy makes it root's and read-only again: what the copy's last studio left
/// writable or handed to the sandbox user (a requirements install builds the venv in
/// the copy, owned by that user) is removed, so the sync copies it again from the
/// project — code run as the sandbox user cannot leave anything in a copy for a later
/// start. Each claim sweeps the copies of projects that are gone (their path is in the
/// folder's `.project`) or not claimed for UnusedDays days.
class ProjectCopyPlace
{
public:
    ProjectCopyPlace() = default;
    ~ProjectCopyPlace();
    ProjectCopyPlace(const ProjectCopyPlace &) = delete;
    ProjectCopyPlace &operator=(const ProjectCopyPlace &) = delete;

    /// The kept copy of `projectDir` (absolute), claimed and reclaimed; "" with `why`
    /// when there is none to have (then the caller makes a private one).
    QString claim(const QString &projectDir, QString *why);
    /// The base folder in `tempDir`: toolstudio-copies-UID.
    static QString baseIn(const QString &tempDir);
    /// Removes `path` — a file, a link (never what it points to) or a directory with
    /// all it holds — through directory fds, never following a link beneath it; its
    /// parent directory must be one no one else can change. False when something stays.
    static bool remove(const QString &path);

    /// Removes the kept copies in `base` that no studio uses and whose project is gone
    /// or that were last claimed more than UnusedDays ago, all but `kept` (claim() runs
    /// it after each claim). Returns how many went.
    static int sweep(const QString &base, const QString &kept);

    static constexpr char BasePrefix[] = "toolstudio-copies-";
    static constexpr int UnusedDays = 30;
    /// The user a root studio's launcher runs trusted code as (its default: the studio
    /// does not pass TOOLSTUDIO_SANDBOX_USER on); a project's folder is its group's.
    static constexpr char SandboxUser[] = "nobody";

private:
    int m_lockFd = -1;
};
