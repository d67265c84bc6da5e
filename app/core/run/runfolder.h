// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// One run folder, `<tmp>/toolstudio-<uid>/runs/<name>/` (docs/sandbox.md "Run
/// folders"), held by the studio process that uses it for a run or a pre-warmed
/// launcher. A lock file `.lock` inside it stays flock()ed while this object holds it
/// (and while any process that inherited the descriptor lives; it is close-on-exec),
/// which tells other studios the folder is in use. remove() — or the destructor —
/// deletes the folder; sweepStale() deletes the folders whose holder has died.
///
/// Moves, does not copy. Not thread-safe; used on the GUI thread.
class RunFolder
{
public:
    RunFolder() = default;
    /// Removes the folder (remove()).
    ~RunFolder();
    RunFolder(RunFolder &&other) noexcept;
    RunFolder &operator=(RunFolder &&other) noexcept;
    RunFolder(const RunFolder &) = delete;
    RunFolder &operator=(const RunFolder &) = delete;

    /// `<tmp>/toolstudio-<uid>/runs`, created if needed, world-traversable (0711) so the
    /// unprivileged sandbox user can reach its own work dir when the studio runs as root.
    /// The first call in a process also sweeps stale folders there (sweepStale()).
    static QString runsDir();

    /// Creates the folder `path` (its parent must exist) and locks it; removes what this
    /// object held before. A folder already at `path` that no live studio holds (a
    /// resumed run's old one) is removed first; one that is held is refused. False
    /// with `error` set when the folder cannot be created or is in use.
    bool create(const QString &path, QString *error);
    /// Renames the folder to `path` (which must not exist); the lock goes with it.
    bool rename(const QString &path);
    /// Removes everything in the folder but the entry `name` (and the lock); when there
    /// is no `name`, removes the whole folder (as remove()).
    void keepOnly(const QString &name);
    /// Removes the folder and everything in it (made writable first: a script may leave
    /// read-only folders), then releases the lock. Does nothing when nothing is held.
    void remove();

    /// The folder's path, empty when nothing is held.
    QString path() const { return m_path; }

    /// Removes `dir` and everything below it, first making every folder below it
    /// writable by its owner (a script may leave read-only ones); never follows symlinks.
    static void removeTree(const QString &dir);

    /// Removes the folders in `runsDir` whose `.lock` no live process holds (their
    /// studio died: crashed, killed, or quit while a run was starting). Folders without
    /// a `.lock` (from a studio before run folders were locked, or being created this
    /// instant) are removed once they are a day old. Returns how many were removed.
    static int sweepStale(const QString &runsDir);

private:
    void release();

    QString m_path;
    int m_lockFd = -1;
};
