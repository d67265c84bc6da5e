// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servedfolder.h"

#include "posixutil.h"
#include "run/dirtree.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString errnoText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

/// What a file that is not a plain file of ours is, for the refusal.
QString kindOf(const struct stat &info)
{
    if (S_ISFIFO(info.st_mode))
        return QStringLiteral("a FIFO");
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))
        return QStringLiteral("a device");
    if (S_ISDIR(info.st_mode))
        return QStringLiteral("a directory");
    if (S_ISSOCK(info.st_mode))
        return QStringLiteral("a socket");
    if (info.st_uid != ::geteuid())
        return QStringLiteral("owned by another user");
    return QStringLiteral("linked from elsewhere (%1 links)").arg(info.st_nlink);
}

} // namespace

ServedFolder::ServedFolder(const QString &projectDir, bool create)
    : m_path(projectDir + QStringLiteral("/.toolstudio/served"))
{
    const int projectFd = ::open(QFile::encodeName(projectDir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (projectFd < 0) {
        m_error = QStringLiteral("cannot open %1: %2").arg(projectDir, errnoText());
        return;
    }
    if (create) {
        // `.toolstudio` as the journal makes it; only `served` is private.
        const int dotFd = DirTree::makeDirsBeneath(projectFd, ".toolstudio", 0755);
        m_fd = dotFd < 0 ? -1 : DirTree::makeDirsBeneath(dotFd, "served", 0700);
        if (dotFd >= 0)
            ::close(dotFd);
    } else {
        m_fd = DirTree::openBeneath(projectFd, ".toolstudio/served", O_RDONLY | O_DIRECTORY);
    }
    if (m_fd < 0) {
        m_error = errno == ELOOP || errno == ENOTDIR
            ? QStringLiteral("%1 or the folder it is in is a symlink or not a folder; remove it").arg(m_path)
            : QStringLiteral("cannot open %1: %2").arg(m_path, errnoText());
    }
    ::close(projectFd);
    struct stat info = {};
    if (m_fd >= 0 && (::fstat(m_fd, &info) != 0 || info.st_uid != ::geteuid() || ::fchmod(m_fd, 0700) != 0)) {
        m_error = QStringLiteral("%1 is not this user's folder; remove it").arg(m_path);
        ::close(m_fd);
        m_fd = -1;
    }
}

ServedFolder::~ServedFolder()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

QString ServedFolder::pathOf(const QString &name) const
{
    return m_path + QLatin1Char('/') + name;
}

int ServedFolder::openFile(const QString &name, int flags, struct stat *info, QString *error) const
{
    if (m_fd < 0) {
        *error = m_error;
        return -1;
    }
    // O_NONBLOCK: a FIFO put in a file's place must not hold the studio in open().
    const int fd
        = ::openat(m_fd, QFile::encodeName(name).constData(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0) {
        const QString reason = errnoText();
        struct stat there = {};
        if (::fstatat(m_fd, QFile::encodeName(name).constData(), &there, AT_SYMLINK_NOFOLLOW) != 0
            || S_ISREG(there.st_mode))
            *error = QStringLiteral("cannot open %1: %2").arg(pathOf(name), reason);
        else if (S_ISLNK(there.st_mode))
            *error = QStringLiteral("%1 is a symlink; remove it").arg(pathOf(name));
        else // a FIFO without a reader, a socket
            *error
                = QStringLiteral("%1 is %2, not a file the studio wrote; remove it").arg(pathOf(name), kindOf(there));
        return -1;
    }
    if (::fstat(fd, info) != 0 || !S_ISREG(info->st_mode) || info->st_uid != ::geteuid() || info->st_nlink != 1) {
        *error = QStringLiteral("%1 is %2, not a file the studio wrote; remove it").arg(pathOf(name), kindOf(*info));
        ::close(fd);
        return -1;
    }
    return fd;
}

bool ServedFolder::write(const QString &name, const QByteArray &bytes, QString *error) const
{
    struct stat info = {};
    const int fd = openFile(name, O_WRONLY | O_CREAT, &info, error);
    if (fd < 0)
        return false;
    const bool written = ::ftruncate(fd, 0) == 0 && ::fchmod(fd, 0600) == 0
        && PosixUtil::writeAll(fd, std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!written)
        *error = QStringLiteral("cannot write %1: %2").arg(pathOf(name), errnoText());
    ::close(fd);
    return written;
}

bool ServedFolder::overwrite(const QString &name, const QByteArray &bytes, qint64 bound, QString *error) const
{
    struct stat info = {};
    const int fd = openFile(name, O_WRONLY | O_CREAT, &info, error);
    if (fd < 0)
        return false;
    bool written = true;
    if (info.st_size > bound) { // not a slot the studio wrote: start it again
        written = ::ftruncate(fd, 0) == 0;
        info.st_size = 0;
    }
    if (written) {
        QByteArray padded = bytes;
        if (padded.size() < info.st_size)
            padded.append(QByteArray(qsizetype(info.st_size) - padded.size(), ' '));
        written = ::pwrite(fd, padded.constData(), std::size_t(padded.size()), 0) == padded.size();
    }
    if (!written)
        *error = QStringLiteral("cannot write %1: %2").arg(pathOf(name), errnoText());
    ::close(fd);
    return written;
}

QByteArray ServedFolder::read(const QString &name, qint64 bound) const
{
    struct stat info = {};
    QString ignored;
    const int fd = openFile(name, O_RDONLY, &info, &ignored);
    if (fd < 0)
        return {};
    QByteArray bytes;
    if (info.st_size <= bound) {
        // Read to the bound, not to the size fstat gave: the file may grow meanwhile.
        bytes.resize(qsizetype(info.st_size) + 1);
        qsizetype done = 0;
        for (;;) {
            const ssize_t n
                = PosixUtil::retry([&] { return ::read(fd, bytes.data() + done, std::size_t(bytes.size() - done)); });
            if (n <= 0)
                break;
            done += n;
            if (done == bytes.size())
                break;
        }
        bytes.truncate(done > info.st_size ? 0 : done); // grew past what fstat said: not whole
    }
    ::close(fd);
    return bytes;
}

void ServedFolder::remove(const QString &name) const
{
    if (m_fd >= 0)
        ::unlinkat(m_fd, QFile::encodeName(name).constData(), 0);
}
