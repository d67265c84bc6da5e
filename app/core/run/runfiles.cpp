// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runfiles.h"

#include "run/dirtree.h"

#include <QFile>
#include <QStringList>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

/// Copies `in` to `out` up to `limit` + 1 bytes (a file that grew is cut there); the
/// bytes copied.
qint64 copyFd(int in, int out, qint64 limit)
{
    char buffer[64 * 1024];
    qint64 copied = 0;
    while (copied <= limit) {
        const ssize_t n = ::read(in, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (ssize_t done = 0; done < n;) {
            const ssize_t w = ::write(out, buffer + done, std::size_t(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return copied + done;
            done += w;
        }
        copied += n;
    }
    return copied;
}

} // namespace

RunFiles::Snapshot RunFiles::snapshot(int workFd)
{
    Snapshot files;
    DirTree::walk(workFd, [&files](const DirTree::Entry &entry) {
        if (S_ISREG(entry.info->st_mode))
            files.insert(QFile::decodeName(*entry.path),
                         {qint64(entry.info->st_size),
                          qint64(entry.info->st_mtim.tv_sec) * 1000 + entry.info->st_mtim.tv_nsec / 1000000});
        return S_ISDIR(entry.info->st_mode);
    });
    return files;
}

RunFiles::Kept RunFiles::keep(int folderFd, int workFd, const Snapshot &inputs, int maxFiles, qint64 maxBytes)
{
    Kept kept;
    const Snapshot current = snapshot(workFd);
    QStringList names = current.keys();
    names.sort();
    for (const QString &name : std::as_const(names)) {
        const auto entry = current.value(name);
        if (inputs.value(name, {-1, -1}) == entry)
            continue; // an input file the script did not change
        if (kept.files.size() >= maxFiles || kept.keptBytes + entry.first > maxBytes) {
            ++kept.skipped;
            kept.skippedBytes += entry.first;
            continue;
        }
        const QByteArray path = QFile::encodeName(name);
        // Opened without following a symlink anywhere on the way (the group is gone,
        // so nothing can swap the file meanwhile; O_NOFOLLOW is belt and braces).
        const int in = DirTree::openBeneath(workFd, path, O_RDONLY | O_NONBLOCK);
        if (in < 0)
            continue;
        const int slash = path.lastIndexOf('/');
        const int outDir = DirTree::makeDirsBeneath(
            folderFd, slash < 0 ? QByteArray("files-out") : "files-out/" + path.left(slash), 0700);
        const QByteArray base = slash < 0 ? path : path.mid(slash + 1);
        const int out = outDir < 0
            ? -1
            : ::openat(outDir, base.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (outDir >= 0)
            ::close(outDir);
        if (out >= 0) {
            const qint64 copied = copyFd(in, out, entry.first);
            ::close(out);
            kept.keptBytes += copied;
            kept.files.append({name, copied});
        }
        ::close(in);
    }
    return kept;
}

void RunFiles::giveToOwner(int workFd)
{
    struct stat owner = {};
    if (::geteuid() != 0 || ::fstat(workFd, &owner) != 0 || owner.st_uid == 0)
        return;
    DirTree::walk(workFd, [&owner](const DirTree::Entry &entry) {
        const bool dir = S_ISDIR(entry.info->st_mode);
        if ((dir || entry.info->st_nlink == 1)
            && ::fchownat(entry.parentFd, entry.name, owner.st_uid, owner.st_gid, AT_SYMLINK_NOFOLLOW) != 0)
            qWarning("cannot give %s to the sandbox user: %s", entry.path->constData(), std::strerror(errno));
        return dir;
    });
}
