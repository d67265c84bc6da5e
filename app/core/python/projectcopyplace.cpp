// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/projectcopyplace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString errnoText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

/// `path` is a directory (not a link) of this user's, writable by nobody else; made with
/// `mode` when missing.
bool ownDirectory(const QByteArray &path, mode_t mode, QString *why)
{
    if (::mkdir(path.constData(), mode) != 0 && errno != EEXIST) {
        *why = QStringLiteral("cannot create %1: %2").arg(QFile::decodeName(path), errnoText());
        return false;
    }
    struct stat info = {};
    if (::lstat(path.constData(), &info) != 0) {
        *why = QStringLiteral("cannot read %1: %2").arg(QFile::decodeName(path), errnoText());
        return false;
    }
    if (!S_ISDIR(info.st_mode) || info.st_uid != ::geteuid() || (info.st_mode & 022) != 0) {
        *why = QStringLiteral("%1 is not a folder of this user's that only it can change").arg(QFile::decodeName(path));
        return false;
    }
    return true;
}

void removeTree(int parent, const char *name);

/// Removes what `dir` (open, consumed) holds that is not this user's and read-only to
/// everyone else — whole, with what is beneath a directory so removed — and walks the
/// directories kept. Never follows a link.
void reclaimTree(int dir, int depth)
{
    DIR *stream = ::fdopendir(dir);
    if (!stream) {
        ::close(dir);
        return;
    }
    const uid_t self = ::geteuid();
    while (const dirent *entry = ::readdir(stream)) {
        const char *name = entry->d_name;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
            continue;
        struct stat info = {};
        if (::fstatat(::dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        const bool kept = info.st_uid == self && (S_ISLNK(info.st_mode) || (info.st_mode & 022) == 0)
            && (S_ISDIR(info.st_mode) || info.st_nlink == 1) && depth < 64;
        if (!kept) {
            removeTree(::dirfd(stream), name);
            continue;
        }
        if (S_ISDIR(info.st_mode)) {
            const int sub = ::openat(::dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                reclaimTree(sub, depth + 1);
        }
    }
    ::closedir(stream);
}

/// Removes `name` in `parent`: a file or link, or a directory with all it holds.
void removeTree(int parent, const char *name)
{
    if (::unlinkat(parent, name, 0) == 0 || errno != EISDIR)
        return;
    const int dir = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0) {
        if (DIR *stream = ::fdopendir(dir)) {
            while (const dirent *entry = ::readdir(stream))
                if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
                    removeTree(::dirfd(stream), entry->d_name);
            ::closedir(stream);
        } else {
            ::close(dir);
        }
    }
    ::unlinkat(parent, name, AT_REMOVEDIR);
}

} // namespace

ProjectCopyPlace::~ProjectCopyPlace()
{
    if (m_lockFd >= 0)
        ::close(m_lockFd);
}

QString ProjectCopyPlace::baseIn(const QString &tempDir)
{
    return tempDir + QLatin1Char('/') + QLatin1String(BasePrefix) + QString::number(::geteuid());
}

QString ProjectCopyPlace::claim(const QString &projectDir, QString *why)
{
    const QByteArray base = QFile::encodeName(baseIn(QDir::tempPath()));
    // 0711: the sandbox user passes through to a copy it is granted, lists none.
    if (!ownDirectory(base, 0711, why))
        return {};
    const QByteArray folder = base + '/'
        + QCryptographicHash::hash(QFile::encodeName(projectDir), QCryptographicHash::Sha256).toHex().left(32);
    if (!ownDirectory(folder, 0711, why))
        return {};
    const int lock = ::open((folder + "/.lock").constData(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lock < 0) {
        *why = QStringLiteral("cannot open %1/.lock: %2").arg(QFile::decodeName(folder), errnoText());
        return {};
    }
    if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
        *why = QStringLiteral("another studio process uses the kept copy %1").arg(QFile::decodeName(folder));
        ::close(lock);
        return {};
    }
    const QByteArray copy = folder + "/project";
    if (!ownDirectory(copy, 0755, why)) {
        ::close(lock);
        return {};
    }
    ::chmod(copy.constData(), 0755);
    const int dir = ::open(copy.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0)
        reclaimTree(dir, 0);
    if (m_lockFd >= 0)
        ::close(m_lockFd);
    m_lockFd = lock;
    return QFile::decodeName(copy);
}
