// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runfolder.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr char LockName[] = ".lock";
/// A folder without a lock is left alone for this long: it may be being created.
constexpr qint64 UnlockedGraceSecs = 24 * 60 * 60;

/// Gives the owner write access to `dir` and every folder below it, so that it can be
/// removed even when the script made some read-only.
void makeRemovable(const QString &dir)
{
    QFile::setPermissions(
        dir, QFile::permissions(dir) | QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QDirIterator it(dir, QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile::setPermissions(
            path, QFile::permissions(path) | QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
}

/// Opens and locks `folder`'s lock file without waiting: the descriptor, or -1 when it
/// is missing or a live process holds it.
int tryLock(const QString &folder)
{
    const QByteArray lockPath = QFile::encodeName(folder + QLatin1Char('/') + QLatin1String(LockName));
    const int fd = ::open(lockPath.constData(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1;
    struct stat opened
    {};
    struct stat named
    {};
    // Locked, and still the folder's lock file (not one removed meanwhile by its holder).
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd, &opened) != 0 || ::stat(lockPath.constData(), &named) != 0
        || opened.st_ino != named.st_ino || opened.st_dev != named.st_dev) {
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

void RunFolder::removeTree(const QString &dir)
{
    makeRemovable(dir);
    QDir(dir).removeRecursively();
}

RunFolder::~RunFolder()
{
    remove();
}

RunFolder::RunFolder(RunFolder &&other) noexcept
    : m_path(std::exchange(other.m_path, QString()))
    , m_lockFd(std::exchange(other.m_lockFd, -1))
{}

RunFolder &RunFolder::operator=(RunFolder &&other) noexcept
{
    if (this != &other) {
        remove();
        m_path = std::exchange(other.m_path, QString());
        m_lockFd = std::exchange(other.m_lockFd, -1);
    }
    return *this;
}

QString RunFolder::runsDir()
{
    const QString base = QDir::tempPath() + QStringLiteral("/toolstudio-%1").arg(::getuid());
    const QString runs = base + QStringLiteral("/runs");
    QDir().mkpath(runs);
    const auto traversable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
        | QFileDevice::ExeGroup | QFileDevice::ExeOther;
    QFile::setPermissions(base, traversable);
    QFile::setPermissions(runs, traversable);
    static std::once_flag swept;
    std::call_once(swept, [&runs] { sweepStale(runs); });
    return runs;
}

bool RunFolder::create(const QString &path, QString *error)
{
    remove();
    if (QFileInfo::exists(path)) {
        const int fd = tryLock(path);
        const bool unlocked = fd >= 0 || !QFileInfo::exists(path + QLatin1Char('/') + QLatin1String(LockName));
        if (!unlocked) {
            *error = QObject::tr("the run folder %1 is in use by another Tool Studio").arg(path);
            return false;
        }
        removeTree(path);
        if (fd >= 0)
            ::close(fd);
    }
    if (!QDir().mkdir(path)) {
        *error = QObject::tr("cannot create the run folder %1").arg(path);
        return false;
    }
    // The lock file appears under its name already locked (rename is atomic), so a
    // sweeping studio never finds it unlocked while this one sets it up.
    const QString temporary = path + QStringLiteral("/.lock-%1").arg(::getpid());
    const int fd = ::open(QFile::encodeName(temporary).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0
        || ::rename(QFile::encodeName(temporary).constData(),
                    QFile::encodeName(path + QLatin1Char('/') + QLatin1String(LockName)).constData())
            != 0) {
        *error
            = QObject::tr("cannot lock the run folder %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        if (fd >= 0)
            ::close(fd);
        removeTree(path);
        return false;
    }
    m_path = path;
    m_lockFd = fd;
    return true;
}

bool RunFolder::rename(const QString &path)
{
    if (m_path.isEmpty() || QFileInfo::exists(path) || !QDir().rename(m_path, path))
        return false;
    m_path = path;
    return true;
}

void RunFolder::keepOnly(const QString &name)
{
    if (m_path.isEmpty())
        return;
    if (!QFileInfo::exists(m_path + QLatin1Char('/') + name)) {
        remove();
        return;
    }
    const QDir dir(m_path);
    for (const QFileInfo &entry :
         dir.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System)) {
        if (entry.fileName() == name || entry.fileName() == QLatin1String(LockName))
            continue;
        if (entry.isDir() && !entry.isSymLink())
            removeTree(entry.filePath());
        else
            QFile::remove(entry.filePath());
    }
}

void RunFolder::remove()
{
    if (!m_path.isEmpty())
        removeTree(m_path); // the lock file with it, while still locked
    release();
}

void RunFolder::release()
{
    if (m_lockFd >= 0)
        ::close(m_lockFd);
    m_lockFd = -1;
    m_path.clear();
}

int RunFolder::sweepStale(const QString &runsDir)
{
    int removed = 0;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QFileInfoList folders
        = QDir(runsDir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::NoSymLinks);
    for (const QFileInfo &folder : folders) {
        const QString path = folder.filePath();
        const int fd = tryLock(path);
        if (fd >= 0) { // its holder is gone
            removeTree(path);
            ::close(fd);
            ++removed;
        } else if (!QFileInfo::exists(path + QLatin1Char('/') + QLatin1String(LockName))
                   && now - folder.lastModified().toSecsSinceEpoch() > UnlockedGraceSecs) {
            removeTree(path);
            ++removed;
        }
    }
    return removed;
}
