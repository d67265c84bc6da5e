// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

/// A file the script left in its work dir, kept with the run in the run folder's
/// `files-out/` (RunController::outputFilesDir()).
struct RunFile
{
    QString name;    ///< path relative to the work dir ("out/report.csv")
    qint64 size = 0; ///< bytes
};

/// The files of a run's work dir (docs/sandbox.md "Run files"), read through directory
/// fds (DirTree): no symlink followed, any depth (a chain deeper than PATH_MAX neither
/// stops the walk nor hides the files beside it).
namespace RunFiles {

/// Regular files below the work dir → (size, mtime in ms), by path relative to it.
using Snapshot = QHash<QString, QPair<qint64, qint64>>;
Snapshot snapshot(int workFd);

/// What keep() kept and what it left out over the caps.
struct Kept
{
    QList<RunFile> files;
    int skipped = 0;
    qint64 skippedBytes = 0;
    qint64 keptBytes = 0;
};

/// Copies every regular file of the work dir that is not in `inputs` unchanged into
/// `files-out/` of the run folder `folderFd` (mode 0700 dirs, 0600 files: the run's
/// data stays private), in name order, up to `maxFiles` and `maxBytes` in all.
Kept keep(int folderFd, int workFd, const Snapshot &inputs, int maxFiles, qint64 maxBytes);

/// As root: gives everything below the work dir (not the dir itself) to the work dir's
/// owner (the sandbox user of a pre-warmed launcher), never through a symlink and
/// leaving hard-linked files alone (their inode may be shared with a file elsewhere).
void giveToOwner(int workFd);

} // namespace RunFiles
