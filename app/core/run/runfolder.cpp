// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runfolder.h"

#include "run/dirtree.h"
#include "run/runsbase.h"

#include "python/toolsandbox.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr char LockName[] = ".lock";
constexpr int DirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
/// A folder without a lock is left alone for this long: it may be being created.
constexpr qint64 UnlockedGraceSecs = 24 * 60 * 60;

/// Opens and locks the lock file of the folder `folderFd` without waiting: the
/// descriptor, or -1 when it is missing or a live process holds it.
int tryLock(int folderFd)
{
    const int fd = ::openat(folderFd, LockName, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat opened = {};
    struct stat named = {};
    // Locked, a regular file, and still the folder's lock file (not one removed
    // meanwhile by its holder).
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)
        || ::fstatat(folderFd, LockName, &named, AT_SYMLINK_NOFOLLOW) != 0 || opened.st_ino != named.st_ino
        || opened.st_dev != named.st_dev) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool hasLockFile(int folderFd)
{
    struct stat info = {};
    return ::fstatat(folderFd, LockName, &info, AT_SYMLINK_NOFOLLOW) == 0;
}

struct Chosen
{
    RunsBase base;
    std::once_flag once;
};

Chosen &chosen()
{
    static Chosen instance;
    std::call_once(instance.once, [] {
        instance.base = RunsBase::choose(QDir::tempPath(), RunsBase::privateLocations());
        if (!instance.base.notice.isEmpty())
            qWarning("%s", qPrintable(instance.base.notice));
        if (!instance.base.runsDir.isEmpty())
            RunFolder::sweepStale(instance.base.runsDir);
        RunFolder::sweepStaleToolFolders(QDir::tempPath());
    });
    return instance;
}

} // namespace

RunFolder::~RunFolder()
{
    remove();
}

RunFolder::RunFolder(RunFolder &&other) noexcept
    : m_path(std::exchange(other.m_path, QString()))
    , m_parentFd(std::exchange(other.m_parentFd, -1))
    , m_fd(std::exchange(other.m_fd, -1))
    , m_lockFd(std::exchange(other.m_lockFd, -1))
{}

RunFolder &RunFolder::operator=(RunFolder &&other) noexcept
{
    if (this != &other) {
        remove();
        m_path = std::exchange(other.m_path, QString());
        m_parentFd = std::exchange(other.m_parentFd, -1);
        m_fd = std::exchange(other.m_fd, -1);
        m_lockFd = std::exchange(other.m_lockFd, -1);
    }
    return *this;
}

QString RunFolder::runsDir(QString *error)
{
    const RunsBase &base = chosen().base;
    if (error && base.runsDir.isEmpty())
        *error = base.error;
    return base.runsDir;
}

QString RunFolder::runsDirNotice()
{
    return chosen().base.notice;
}

bool RunFolder::create(const QString &path, QString *error)
{
    remove();
    const QFileInfo info(path);
    const QByteArray name = QFile::encodeName(info.fileName());
    const int parentFd = ::open(QFile::encodeName(info.absolutePath()).constData(), DirFlags);
    if (parentFd < 0) {
        *error
            = QObject::tr("cannot open the folder of %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (const int old = ::openat(parentFd, name.constData(), DirFlags); old >= 0) {
        const int lock = tryLock(old);
        const bool unlocked = lock >= 0 || !hasLockFile(old);
        ::close(old);
        if (!unlocked) {
            ::close(parentFd);
            *error = QObject::tr("the run folder %1 is in use by another Tool Studio").arg(path);
            return false;
        }
        DirTree::remove(parentFd, name);
        if (lock >= 0)
            ::close(lock);
    }
    const int fd
        = ::mkdirat(parentFd, name.constData(), 0700) == 0 ? ::openat(parentFd, name.constData(), DirFlags) : -1;
    if (fd < 0) {
        *error = QObject::tr("cannot create the run folder %1: %2")
                     .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        ::close(parentFd);
        return false;
    }
    ::fchmod(fd, 0700); // whatever the umask
    // The lock file appears under its name already locked (rename is atomic), so a
    // sweeping studio never finds it unlocked while this one sets it up.
    const QByteArray temporary = ".lock-" + QByteArray::number(::getpid());
    const int lock = ::openat(fd, temporary.constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lock < 0 || ::flock(lock, LOCK_EX) != 0 || ::renameat(fd, temporary.constData(), fd, LockName) != 0) {
        *error
            = QObject::tr("cannot lock the run folder %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        if (lock >= 0)
            ::close(lock);
        ::close(fd);
        DirTree::remove(parentFd, name);
        ::close(parentFd);
        return false;
    }
    m_path = info.absoluteFilePath();
    m_parentFd = parentFd;
    m_fd = fd;
    m_lockFd = lock;
    return true;
}

bool RunFolder::rename(const QString &path)
{
    if (m_path.isEmpty() || QFileInfo(path).absolutePath() != QFileInfo(m_path).absolutePath())
        return false;
    const QByteArray from = QFile::encodeName(QFileInfo(m_path).fileName());
    const QByteArray to = QFile::encodeName(QFileInfo(path).fileName());
    // Only the folder this object holds, and never over an existing name.
    struct stat named = {};
    struct stat held = {};
    if (::fstatat(m_parentFd, from.constData(), &named, AT_SYMLINK_NOFOLLOW) != 0 || ::fstat(m_fd, &held) != 0
        || named.st_ino != held.st_ino || named.st_dev != held.st_dev
        || ::renameat2(m_parentFd, from.constData(), m_parentFd, to.constData(), RENAME_NOREPLACE) != 0)
        return false;
    m_path = QFileInfo(path).absoluteFilePath();
    return true;
}

void RunFolder::keepOnly(const QString &name)
{
    if (m_fd < 0)
        return;
    struct stat info = {};
    if (::fstatat(m_fd, QFile::encodeName(name).constData(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        remove();
        return;
    }
    DirTree::clear(m_fd, {QFile::encodeName(name), QByteArray(LockName)});
}

void RunFolder::remove()
{
    if (m_fd >= 0) {
        // The folder's contents through its fd (the lock file with them, while still
        // locked), then its name only when that still is this folder.
        DirTree::clear(m_fd);
        struct stat named = {};
        struct stat held = {};
        const QByteArray name = QFile::encodeName(QFileInfo(m_path).fileName());
        if (::fstatat(m_parentFd, name.constData(), &named, AT_SYMLINK_NOFOLLOW) == 0 && ::fstat(m_fd, &held) == 0
            && named.st_ino == held.st_ino && named.st_dev == held.st_dev)
            ::unlinkat(m_parentFd, name.constData(), AT_REMOVEDIR);
    }
    release();
}

void RunFolder::release()
{
    for (int *fd : {&m_lockFd, &m_fd, &m_parentFd}) {
        if (*fd >= 0)
            ::close(*fd);
        *fd = -1;
    }
    m_path.clear();
}

int RunFolder::sweepStale(const QString &runsDir)
{
    return sweep(runsDir, QByteArray());
}

int RunFolder::sweepStaleToolFolders(const QString &tempDir)
{
    return sweep(tempDir, ToolSandbox::FolderPrefix);
}

int RunFolder::sweep(const QString &dir, const QByteArray &prefix)
{
    const int parentFd = ::open(QFile::encodeName(dir).constData(), DirFlags);
    if (parentFd < 0)
        return 0;
    // Tool folders sit in the temp dir, shared with other users: it must be ours or
    // root's and no one else may rename entries there (not writable by others, or
    // sticky), else a name checked now could be another folder when removed.
    struct stat parent = {};
    if (!prefix.isEmpty()
        && (::fstat(parentFd, &parent) != 0 || (parent.st_uid != ::geteuid() && parent.st_uid != 0)
            || ((parent.st_mode & (S_IWGRP | S_IWOTH)) && !(parent.st_mode & S_ISVTX)))) {
        ::close(parentFd);
        return 0;
    }
    // The names first (no removal while the listing is open).
    QList<QByteArray> names;
    const int listing = ::openat(parentFd, ".", DirFlags);
    if (DIR *stream = listing >= 0 ? ::fdopendir(listing) : nullptr) {
        while (const dirent *entry = ::readdir(stream)) {
            if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0
                && QByteArray(entry->d_name).startsWith(prefix))
                names << QByteArray(entry->d_name);
        }
        ::closedir(stream);
    } else if (listing >= 0) {
        ::close(listing);
    }
    int removed = 0;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    for (const QByteArray &name : std::as_const(names)) {
        const int folder = ::openat(parentFd, name.constData(), DirFlags); // no symlink, only a directory
        if (folder < 0)
            continue;
        struct stat info = {};
        // In the temp dir, only folders of the studio's own uid (another user's are theirs).
        if (::fstat(folder, &info) != 0 || (!prefix.isEmpty() && info.st_uid != ::geteuid())) {
            ::close(folder);
            continue;
        }
        const int lock = tryLock(folder);
        const bool stale = lock >= 0 // its holder is gone
            || (!hasLockFile(folder) && now - info.st_mtim.tv_sec > UnlockedGraceSecs);
        ::close(folder);
        if (stale && DirTree::remove(parentFd, name))
            ++removed;
        if (lock >= 0)
            ::close(lock);
    }
    ::close(parentFd);
    return removed;
}
