// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

#include <sys/stat.h>
#include <sys/types.h>

/// Walking, removing and copying a directory tree the studio does not trust (a run's
/// folder, the files a script left) through directory fds only (docs/sandbox.md "Run
/// folders"): every entry is reached with openat/fstatat/unlinkat relative to its
/// parent's fd, never by a path, so neither a symlink nor a chain deeper than PATH_MAX
/// (issue 16, class 3) can send it elsewhere or stop it. The recursion is an explicit
/// stack of names in memory, not the C stack, and holds two fds at any depth: going
/// back up opens ".." and checks it is the directory it came from (device and inode),
/// else the walk stops — it never acts outside the tree it started in.
namespace DirTree {

/// What a walk sees: the fd of the entry's directory, its name there, its path relative
/// to the walk's root ("a/b/file", raw bytes) and its lstat.
struct Entry
{
    int parentFd = -1;
    const char *name = nullptr;
    const QByteArray *path = nullptr;
    const struct stat *info = nullptr;
};

/// Called for every entry below `rootFd` (not the root itself), parents before their
/// children. For a directory, return true to go into it. `leave` (optional) is called
/// for a directory once everything below it was visited (its parent fd still valid).
using Visit = std::function<bool(const Entry &entry)>;
using Leave = std::function<void(const Entry &entry)>;

/// Walks the tree below `rootFd` (borrowed, not closed). Symlinks are visited as
/// entries, never followed. With `makeReadable`, a directory the owner cannot list or
/// enter is given u+rwx first (a script may leave such folders). False with `error`
/// when a directory could not be read or the tree moved under the walk; the walk then
/// stops where it was.
bool walk(int rootFd, const Visit &visit, const Leave &leave = {}, bool makeReadable = false, QString *error = nullptr);

/// Removes `name` beneath `parentFd` and everything below it, whatever its depth. A
/// symlink or file named so is unlinked itself, never followed. True when it is gone
/// (or was not there).
bool remove(int parentFd, const QByteArray &name, QString *error = nullptr);
/// Removes everything inside the directory `dirFd`, keeping the directory and the
/// entries named in `keep` (top level only).
bool clear(int dirFd, const QList<QByteArray> &keep = {}, QString *error = nullptr);

/// Opens `path` (relative, "/"-separated) beneath `rootFd` one component at a time with
/// O_NOFOLLOW: the last with `flags`, the directories on the way with O_DIRECTORY.
/// -1 with errno set (ELOOP/ENOTDIR for a symlink on the way).
int openBeneath(int rootFd, const QByteArray &path, int flags);
/// Creates the directories of `path` (relative) beneath `rootFd` as needed (mode
/// `mode`, never through a symlink) and returns an fd of the last one, or -1.
int makeDirsBeneath(int rootFd, const QByteArray &path, mode_t mode);

} // namespace DirTree
