// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <string>

/// `.toolstudio/serve.json` of a served project: where `toolstudio serve` listens and
/// its token, for the other processes of the same user (`toolstudio answer`). Mode 0600,
/// written atomically (a temporary file renamed over it), removed when the server
/// stops (docs/server.md "serve.json").
struct ServeFile
{
    std::string url;  ///< "http://127.0.0.1:3112"
    std::string host; ///< as bound
    int port = 0;
    std::string token; ///< empty when the server needs none
    qint64 pid = 0;    ///< the serving process

    /// The file's path for the project in `projectDir`.
    static QString pathFor(const QString &projectDir);
    /// Writes it; false with `error`.
    bool write(const QString &projectDir, QString *error) const;
    /// The file when this user's `toolstudio serve` wrote it and still runs: a private
    /// regular file of this user naming a live process of this program and an address of
    /// this machine. nullopt otherwise: missing, unreadable, left by a process that is
    /// gone, or planted (came with the project, another user's, a symlink).
    static std::optional<ServeFile> readLive(const QString &projectDir);
    /// Removes the file if it still names this process.
    static void removeOwn(const QString &projectDir);
};
