// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/projectcopyplace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
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

/// No other user can rename `dir` (canonical) or a directory above it away and put
/// theirs in its place: each is root's or this user's, in one closed to others or sticky
/// (/tmp). The copy is then written by path (a TMPDIR of the user's own, `sudo -E`).
bool heldPath(const QByteArray &dir, QString *why)
{
    QByteArray path = "/";
    for (const QByteArray &part : dir.split('/')) {
        struct stat parent = {};
        if (part.isEmpty() || ::lstat(path.constData(), &parent) != 0)
            continue;
        const QByteArray child = path + (path.endsWith('/') ? "" : "/") + part;
        struct stat info = {};
        if (::lstat(child.constData(), &info) != 0 || !S_ISDIR(info.st_mode)
            || (info.st_uid != 0 && info.st_uid != ::geteuid())
            || ((parent.st_mode & 022) && !(parent.st_mode & S_ISVTX))) {
            *why = QStringLiteral("%1 is a folder another user can replace").arg(QFile::decodeName(child));
            return false;
        }
        path = child;
    }
    return true;
}

/// Deeper than this a tree is not walked: what is beneath stays (the walk fails).
constexpr int MaxDepth = 64;

bool removeTree(int parent, const char *name, int depth);

/// Removes what `dir` (open, consumed) holds that is not this user's and read-only to
/// everyone else — whole, with what is beneath a directory so removed — and walks the
/// directories kept. Never follows a link. False when something of that could not be
/// removed or walked (a tree too deep, one the sandbox user fills as it is removed).
bool reclaimTree(int dir, int depth)
{
    DIR *stream = ::fdopendir(dir);
    if (!stream) {
        ::close(dir);
        return false;
    }
    const uid_t self = ::geteuid();
    bool clean = true;
    while (const dirent *entry = ::readdir(stream)) {
        const char *name = entry->d_name;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
            continue;
        struct stat info = {};
        if (::fstatat(::dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
            clean = clean && errno == ENOENT;
            continue;
        }
        const bool kept = info.st_uid == self && (S_ISLNK(info.st_mode) || (info.st_mode & 022) == 0)
            && (S_ISDIR(info.st_mode) || info.st_nlink == 1) && depth < MaxDepth;
        if (!kept) {
            clean = removeTree(::dirfd(stream), name, 0) && clean;
            continue;
        }
        if (S_ISDIR(info.st_mode)) {
            const int sub = ::openat(::dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            clean = sub >= 0 && reclaimTree(sub, depth + 1) && clean;
        }
    }
    ::closedir(stream);
    return clean;
}

/// Removes `name` in `parent`: a file or link, or a directory with all it holds (at
/// most MaxDepth levels: a deeper tree stays, false).
bool removeTree(int parent, const char *name, int depth)
{
    if (::unlinkat(parent, name, 0) == 0 || errno == ENOENT)
        return true;
    if (errno != EISDIR || depth > MaxDepth)
        return false;
    const int dir = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0) {
        if (DIR *stream = ::fdopendir(dir)) {
            while (const dirent *entry = ::readdir(stream))
                if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
                    removeTree(::dirfd(stream), entry->d_name, depth + 1);
            ::closedir(stream);
        } else {
            ::close(dir);
        }
    }
    return ::unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

} // namespace

bool ProjectCopyPlace::remove(const QString &path)
{
    const QByteArray encoded = QFile::encodeName(path);
    const qsizetype slash = encoded.lastIndexOf('/');
    if (slash <= 0)
        return false;
    const int parent = ::open(encoded.left(slash).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parent < 0)
        return false;
    const bool removed = removeTree(parent, encoded.constData() + slash + 1, 0);
    ::close(parent);
    return removed;
}

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
    const QString temp = QDir(QDir::tempPath()).canonicalPath();
    if (temp.isEmpty()) {
        *why = QStringLiteral("cannot find the temp folder %1").arg(QDir::tempPath());
        return {};
    }
    if (!heldPath(QFile::encodeName(temp), why))
        return {};
    const QByteArray base = QFile::encodeName(baseIn(temp));
    // 0711: the sandbox user passes through to a copy it is granted, lists none.
    if (!ownDirectory(base, 0711, why))
        return {};
    const QByteArray folder = base + '/'
        + QCryptographicHash::hash(QFile::encodeName(projectDir), QCryptographicHash::Sha256).toHex().left(32);
    if (!ownDirectory(folder, 0711, why))
        return {};
    // 0710 root:<the sandbox user's group>: that user passes through to the copy, no
    // other local user does — the copy outlives the studio (a run folder the launcher
    // closes so only while it is used; the base is 0711 for the folders' names alone).
    const passwd *sandboxUser = ::getpwnam(SandboxUser);
    if (!sandboxUser || ::chown(folder.constData(), ::geteuid(), sandboxUser->pw_gid) != 0
        || ::chmod(folder.constData(), 0710) != 0) {
        *why = QStringLiteral("cannot close %1 to all but %2: %3")
                   .arg(QFile::decodeName(folder), QLatin1String(SandboxUser), errnoText());
        return {};
    }
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
    // What could not be reclaimed (the sandbox user still at work in it, a tree too
    // deep) would outlive the studio that ran it: no kept copy then.
    const int dir = ::open(copy.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0 || !reclaimTree(dir, 0)) {
        *why = QStringLiteral("cannot make the kept copy %1 read-only again").arg(QFile::decodeName(copy));
        ::close(lock);
        return {};
    }
    if (m_lockFd >= 0)
        ::close(m_lockFd);
    m_lockFd = lock;
    // Whose copy it is (for the sweep of copies whose project is gone), and when it was
    // last used (the lock's modification time).
    ::futimens(lock, nullptr);
    QFile named(QFile::decodeName(folder + "/.project.new"));
    if (named.open(QIODevice::WriteOnly | QIODevice::Truncate) && named.write(QFile::encodeName(projectDir)) >= 0
        && named.flush())
        ::rename((folder + "/.project.new").constData(), (folder + "/.project").constData());
    sweep(QFile::decodeName(base), QFile::decodeName(folder));
    return QFile::decodeName(copy);
}

int ProjectCopyPlace::sweep(const QString &base, const QString &kept)
{
    const QByteArray encodedBase = QFile::encodeName(base);
    const int baseFd = ::open(encodedBase.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (baseFd < 0)
        return 0;
    DIR *stream = ::fdopendir(baseFd);
    if (!stream) {
        ::close(baseFd);
        return 0;
    }
    const QByteArray keptName = QFile::encodeName(kept).mid(encodedBase.size() + 1);
    const qint64 now = qint64(::time(nullptr));
    int removed = 0;
    while (const dirent *entry = ::readdir(stream)) {
        const QByteArray name(entry->d_name);
        if (name.startsWith('.') || name == keptName)
            continue;
        const int lock = ::openat(::dirfd(stream), (name + "/.lock").constData(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
        if (lock < 0)
            continue; // not a kept copy's folder, or not made whole
        struct stat used = {};
        if (::flock(lock, LOCK_EX | LOCK_NB) != 0 || ::fstat(lock, &used) != 0) {
            ::close(lock); // in use by another studio
            continue;
        }
        QFile named(QFile::decodeName(encodedBase + '/' + name + "/.project"));
        const QByteArray project = named.open(QIODevice::ReadOnly) ? named.read(64 * 1024) : QByteArray();
        struct stat projectInfo = {};
        const bool gone = project.isEmpty() || ::lstat(project.constData(), &projectInfo) != 0;
        if (gone || now - qint64(used.st_mtim.tv_sec) > qint64(UnusedDays) * 24 * 3600)
            removed += int(removeTree(::dirfd(stream), name.constData(), 0));
        ::close(lock);
    }
    ::closedir(stream);
    return removed;
}
