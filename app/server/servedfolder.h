// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

/// The project's `.toolstudio/served/` (docs/server.md "Sessions and tokens"): where a
/// served session keeps its program and its state. The project is not trusted to be
/// shaped as the studio left it — a clone, an archive or another local user may have put
/// a symlink, a FIFO, a device or a huge sparse file where a state file goes — so the
/// folder and its files are reached through fds only: the folder beneath the project
/// without following a symlink on the way, owned by this user and made 0700; a file
/// opened O_NOFOLLOW | O_NONBLOCK and used only when it is a regular file of this user
/// with one link, read no further than its bound. Anything else is refused with what it
/// is, never followed, waited on or read whole.
class ServedFolder
{
public:
    /// Opens the folder of the project in `projectDir`; with `create`, makes it (and
    /// `.toolstudio`) when missing. isOpen() false with error() when it cannot be used.
    ServedFolder(const QString &projectDir, bool create);
    ~ServedFolder();
    ServedFolder(const ServedFolder &) = delete;
    ServedFolder &operator=(const ServedFolder &) = delete;

    bool isOpen() const { return m_fd >= 0; }
    QString error() const { return m_error; }
    /// `projectDir/.toolstudio/served/NAME`, for messages and for a run's script path.
    QString pathOf(const QString &name) const;

    /// Writes `bytes` as the whole of `name` (created 0600, truncated first).
    bool write(const QString &name, const QByteArray &bytes, QString *error) const;
    /// Writes `bytes` over the start of `name` (created 0600) in one pwrite, padding with
    /// spaces to the file's length so nothing is truncated (a torn write spoils this
    /// file only). A file longer than `bound` is cut to nothing first: padding is never
    /// more than `bound`.
    bool overwrite(const QString &name, const QByteArray &bytes, qint64 bound, QString *error) const;
    /// The content of `name`; empty when it is missing, not a regular file of this user,
    /// or longer than `bound`.
    QByteArray read(const QString &name, qint64 bound) const;
    /// Removes `name` (a symlink itself, never its target).
    void remove(const QString &name) const;

private:
    /// An fd of `name` opened with `flags` when it is a regular file of this user with
    /// one link (its fstat in `info`); -1 with `error` otherwise.
    int openFile(const QString &name, int flags, struct stat *info, QString *error) const;

    QString m_path;
    QString m_error;
    int m_fd = -1;
};
