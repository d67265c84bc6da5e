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

    /// The folder that holds run folders, chosen and checked once per process (RunsBase:
    /// `<tmp>/toolstudio-<uid>/runs`, or a private location when another user owns that
    /// or it is open to others, said once on stderr). Empty with `error` set when no
    /// safe folder can be had. The first call in a process also sweeps stale folders
    /// there (sweepStale()).
    static QString runsDir(QString *error = nullptr);
    /// The notice of runsDir()'s choice ("refusing … runs use … instead"), or empty.
    static QString runsDirNotice();

    /// Creates the folder `path` (mode 0700; its parent must exist) and locks it; removes
    /// what this object held before. A folder already at `path` that no live studio holds
    /// (a resumed run's old one) is removed first; one that is held is refused. False
    /// with `error` set when the folder cannot be created or is in use. From here on the
    /// folder is reached through its fd (fd()): a symlink put at `path` later redirects
    /// nothing (removal, copy-out, chown).
    bool create(const QString &path, QString *error);
    /// Renames the folder to `path` (in the same parent; which must not exist); the lock
    /// goes with it.
    bool rename(const QString &path);
    /// The folder's directory fd (owned by this object), -1 when nothing is held.
    int fd() const { return m_fd; }
    /// Removes everything in the folder but the entry `name` (and the lock); when there
    /// is no `name`, removes the whole folder (as remove()).
    void keepOnly(const QString &name);
    /// Removes the folder and everything in it (made writable first: a script may leave
    /// read-only folders), then releases the lock. Does nothing when nothing is held.
    void remove();

    /// The folder's path, empty when nothing is held.
    QString path() const { return m_path; }

    /// Removes the folders in `runsDir` whose `.lock` no live process holds (their
    /// studio died: crashed, killed, or quit while a run was starting). Folders without
    /// a `.lock` (from a studio before run folders were locked, or being created this
    /// instant) are removed once they are a day old. Only directories directly in
    /// `runsDir` are considered and removed, through fds (DirTree): no symlink is
    /// followed and nothing outside `runsDir` is touched. Returns how many were removed.
    static int sweepStale(const QString &runsDir);
    /// The same for the trusted-code folders `tempDir/toolstudio-tools-*` (ToolSandbox;
    /// docs/sandbox.md "Trusted code") a studio that died left behind: only real
    /// directories of the studio's own uid, whose `.lock` no live process holds (or
    /// without one and a day old), and only when `tempDir` is the studio's or root's and
    /// no other user can rename entries in it (not writable by others, or sticky).
    /// Called with sweepStale() on the first runsDir(). Returns how many were removed.
    static int sweepStaleToolFolders(const QString &tempDir);

private:
    void release();
    static int sweep(const QString &dir, const QByteArray &prefix);

    QString m_path;
    int m_parentFd = -1; ///< the folder's parent (the runs dir)
    int m_fd = -1;       ///< the folder
    int m_lockFd = -1;
};
