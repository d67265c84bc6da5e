// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/dirtree.h"

#include <QFile>
#include <QObject>

#include <cerrno>
#include <cstring>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace {

constexpr int DirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/// Gives the owner rwx on the directory `name` in `parentFd` without following a
/// symlink: the object is held with O_PATH first, then changed through its fd.
void makeOwnerAccessible(int parentFd, const char *name)
{
    const int held = ::openat(parentFd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (held < 0)
        return;
    struct stat info = {};
    if (::fstat(held, &info) == 0 && (info.st_mode & 0700) != 0700) {
        const QByteArray proc = "/proc/self/fd/" + QByteArray::number(held);
        ::chmod(proc.constData(), (info.st_mode & 07777) | 0700);
    }
    ::close(held);
}

/// One directory on the way down: its identity, where its path ends in the walk's
/// path, its name in its parent, and the subdirectories still to visit.
struct Frame
{
    dev_t dev = 0;
    ino_t ino = 0;
    int pathLength = 0;
    QByteArray name;
    struct stat info = {};
    std::vector<QByteArray> subdirs;
};

} // namespace

bool DirTree::walk(int rootFd, const Visit &visit, const Leave &leave, bool makeReadable, QString *error)
{
    const auto fail = [error](const QString &reason) {
        if (error && error->isEmpty())
            *error = reason;
        return false;
    };
    int fd = ::fcntl(rootFd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return fail(QObject::tr("cannot duplicate a directory fd: %1").arg(errnoText(errno)));
    QByteArray path;
    bool ok = true;
    std::vector<Frame> stack;
    // Lists `fd`: visits every entry, keeps the subdirectories to go into.
    const auto scan = [&](Frame &frame) {
        // A description of its own: a dup would share the position of an earlier listing.
        const int listing = ::openat(fd, ".", DirFlags);
        DIR *stream = listing >= 0 ? ::fdopendir(listing) : nullptr;
        if (!stream) {
            if (listing >= 0)
                ::close(listing);
            ok = fail(QObject::tr("cannot list %1: %2").arg(QFile::decodeName(path), errnoText(errno)));
            return;
        }
        while (const dirent *entry = ::readdir(stream)) {
            const char *name = entry->d_name;
            if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
                continue;
            struct stat info = {};
            if (::fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0)
                continue; // gone meanwhile
            const int length = path.size();
            if (!path.isEmpty())
                path += '/';
            path += name;
            const bool into = visit(Entry{fd, name, &path, &info});
            path.truncate(length);
            if (S_ISDIR(info.st_mode) && into)
                frame.subdirs.emplace_back(name);
        }
        ::closedir(stream);
    };

    struct stat rootInfo = {};
    ::fstat(fd, &rootInfo);
    stack.push_back(Frame{rootInfo.st_dev, rootInfo.st_ino, 0, {}, rootInfo, {}});
    scan(stack.back());
    while (!stack.empty()) {
        Frame &top = stack.back();
        if (!top.subdirs.empty()) {
            const QByteArray name = std::move(top.subdirs.back());
            top.subdirs.pop_back();
            if (makeReadable)
                makeOwnerAccessible(fd, name.constData());
            const int child = ::openat(fd, name.constData(), DirFlags);
            struct stat info = {};
            if (child < 0 || ::fstat(child, &info) != 0) {
                ok = fail(QObject::tr("cannot open %1/%2: %3")
                              .arg(QFile::decodeName(path), QFile::decodeName(name), errnoText(errno)));
                if (child >= 0)
                    ::close(child);
                continue;
            }
            ::close(fd);
            fd = child;
            Frame frame{info.st_dev, info.st_ino, int(path.size()), name, info, {}};
            if (!path.isEmpty())
                path += '/';
            path += name;
            stack.push_back(std::move(frame));
            scan(stack.back());
            continue;
        }
        // Everything below `top` is done: back up to its parent, which must be the
        // directory the walk came from (nothing moved it meanwhile).
        Frame done = std::move(stack.back());
        stack.pop_back();
        if (stack.empty())
            break;
        const int parent = ::openat(fd, "..", DirFlags);
        struct stat info = {};
        if (parent < 0 || ::fstat(parent, &info) != 0 || info.st_dev != stack.back().dev
            || info.st_ino != stack.back().ino) {
            if (parent >= 0)
                ::close(parent);
            ::close(fd);
            return fail(
                QObject::tr("%1 was moved while the studio walked it; stopped there").arg(QFile::decodeName(path)));
        }
        ::close(fd);
        fd = parent;
        path.truncate(done.pathLength);
        if (leave) {
            const int length = path.size();
            if (!path.isEmpty())
                path += '/';
            path += done.name;
            leave(Entry{fd, done.name.constData(), &path, &done.info});
            path.truncate(length);
        }
    }
    ::close(fd);
    return ok;
}

bool DirTree::clear(int dirFd, const QList<QByteArray> &keep, QString *error)
{
    bool ok = true;
    const auto visit = [&](const Entry &entry) {
        if (entry.path->indexOf('/') < 0 && keep.contains(QByteArray(entry.name)))
            return false;
        if (S_ISDIR(entry.info->st_mode))
            return true; // emptied first, removed in leave
        if (::unlinkat(entry.parentFd, entry.name, 0) != 0 && errno != ENOENT) {
            ok = false;
            if (error && error->isEmpty())
                *error = QObject::tr("cannot remove %1: %2").arg(QFile::decodeName(*entry.path), errnoText(errno));
        }
        return false;
    };
    const auto leave = [&](const Entry &entry) {
        if (::unlinkat(entry.parentFd, entry.name, AT_REMOVEDIR) != 0 && errno != ENOENT) {
            ok = false;
            if (error && error->isEmpty())
                *error = QObject::tr("cannot remove %1: %2").arg(QFile::decodeName(*entry.path), errnoText(errno));
        }
    };
    makeOwnerAccessible(dirFd, ".");
    const bool walked = walk(dirFd, visit, leave, true, error);
    return walked && ok;
}

bool DirTree::remove(int parentFd, const QByteArray &name, QString *error)
{
    makeOwnerAccessible(parentFd, name.constData());
    const int fd = ::openat(parentFd, name.constData(), DirFlags);
    if (fd < 0) {
        if (errno == ENOENT)
            return true;
        // A file, a symlink, a fifo: the entry itself goes.
        if (::unlinkat(parentFd, name.constData(), 0) == 0 || errno == ENOENT)
            return true;
        if (error)
            *error = QObject::tr("cannot remove %1: %2").arg(QFile::decodeName(name), errnoText(errno));
        return false;
    }
    struct stat opened = {};
    ::fstat(fd, &opened);
    const bool cleared = clear(fd, {}, error);
    ::close(fd);
    // Only the directory that was emptied: not whatever took its name meanwhile.
    struct stat named = {};
    if (::fstatat(parentFd, name.constData(), &named, AT_SYMLINK_NOFOLLOW) != 0)
        return cleared;
    if (named.st_dev != opened.st_dev || named.st_ino != opened.st_ino) {
        if (error && error->isEmpty())
            *error
                = QObject::tr("%1 was replaced while the studio removed it; left alone").arg(QFile::decodeName(name));
        return false;
    }
    if (::unlinkat(parentFd, name.constData(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
        if (error && error->isEmpty())
            *error = QObject::tr("cannot remove %1: %2").arg(QFile::decodeName(name), errnoText(errno));
        return false;
    }
    return cleared;
}

int DirTree::openBeneath(int rootFd, const QByteArray &path, int flags)
{
    const QList<QByteArray> parts = path.split('/');
    int fd = ::fcntl(rootFd, F_DUPFD_CLOEXEC, 0);
    for (int i = 0; fd >= 0 && i < parts.size(); ++i) {
        const QByteArray &part = parts.at(i);
        if (part.isEmpty() || part == "." || part == "..") {
            ::close(fd);
            errno = EINVAL;
            return -1;
        }
        const bool last = i == parts.size() - 1;
        const int next = ::openat(fd, part.constData(), last ? (flags | O_NOFOLLOW | O_CLOEXEC) : DirFlags);
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fd = next;
    }
    return fd;
}

int DirTree::makeDirsBeneath(int rootFd, const QByteArray &path, mode_t mode)
{
    int fd = ::fcntl(rootFd, F_DUPFD_CLOEXEC, 0);
    for (const QByteArray &part : path.split('/')) {
        if (fd < 0)
            break;
        if (part.isEmpty() || part == "." || part == "..") {
            ::close(fd);
            errno = EINVAL;
            return -1;
        }
        if (::mkdirat(fd, part.constData(), mode) != 0 && errno != EEXIST) {
            const int saved = errno;
            ::close(fd);
            errno = saved;
            return -1;
        }
        const int next = ::openat(fd, part.constData(), DirFlags);
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fd = next;
    }
    return fd;
}
