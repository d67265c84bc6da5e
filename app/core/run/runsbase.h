// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

/// The folder that holds the run folders, `<base>/runs` (docs/sandbox.md "Run folders"),
/// checked before it is trusted (issue 16, class 1): `<tmp>/toolstudio-<uid>` is
/// created by the studio or accepted only as a real directory (not a symlink) owned by
/// the studio's uid and writable by nobody else, in a parent that is the studio's or
/// root's and either not writable by others or sticky (`/tmp`); `runs/` under it the
/// same. Another user may have made `<tmp>/toolstudio-<uid>` first, to read or swap the
/// studio's runs: then it is refused, said so, and a private location is used instead —
/// `$XDG_RUNTIME_DIR/toolstudio` or the cache dir for an ordinary user,
/// `/run/toolstudio` for root (whose sandbox user must be able to traverse it; root's
/// home and runtime dir are 0700). Modes: 0711 as root (the sandbox user traverses to
/// its own work dir; each run folder is then closed to others, LaunchWorkDir), else 0700.
struct RunsBase
{
    QString runsDir; ///< absolute, canonical; empty when every candidate was refused
    QString notice;  ///< why the first candidate was refused, and what is used instead
    QString error;   ///< when runsDir is empty: every refusal

    /// Tries `<tempDir>/toolstudio-<uid>`, then each of `fallbacks` (each a base whose
    /// `runs/` is used), creating what is missing.
    static RunsBase choose(const QString &tempDir, const QStringList &fallbacks);
    /// The private locations for this process: $XDG_RUNTIME_DIR/toolstudio (when set) and
    /// the generic cache dir's toolstudio/ for an ordinary user; /run/toolstudio for root.
    static QStringList privateLocations();
    /// Why `dir` (an open directory) may not hold run folders, or "" when it may: not
    /// owned by this process's uid, or writable by group or others.
    static QString refusal(int dirFd);
};
