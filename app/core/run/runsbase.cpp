// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runsbase.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr int DirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

QString octal(mode_t mode)
{
    return QStringLiteral("0%1").arg(mode & 07777, 3, 8, QLatin1Char('0'));
}

/// 0711 as root (the sandbox user must reach its work dir), else 0700.
mode_t baseMode()
{
    return ::geteuid() == 0 ? 0711 : 0700;
}

/// Makes (if missing) and opens `name` in `parentFd` (whose path is `parentPath`) as a
/// directory the studio may trust; -1 with `why` set when it may not.
int openTrusted(int parentFd, const QString &parentPath, const QByteArray &name, QString *why)
{
    const QString path = parentPath + QLatin1Char('/') + QFile::decodeName(name);
    if (::mkdirat(parentFd, name.constData(), baseMode()) != 0 && errno != EEXIST) {
        *why = QObject::tr("cannot create %1: %2").arg(path, errnoText(errno));
        return -1;
    }
    const int fd = ::openat(parentFd, name.constData(), DirFlags);
    if (fd < 0) {
        *why = (errno == ELOOP || errno == ENOTDIR) ? QObject::tr("%1 is a symlink or not a directory").arg(path)
                                                    : QObject::tr("cannot open %1: %2").arg(path, errnoText(errno));
        return -1;
    }
    if (const QString refused = RunsBase::refusal(fd); !refused.isEmpty()) {
        ::close(fd);
        *why = QStringLiteral("%1 %2").arg(path, refused);
        return -1;
    }
    // Ours and closed to others: the mode the studio wants (an older studio made 0711).
    ::fchmod(fd, baseMode());
    return fd;
}

/// The base `base` and its runs/: the runs dir's path, or empty with `why` set.
QString tryBase(const QString &base, QString *why)
{
    const QFileInfo info(base);
    // The parent by its canonical path, so no symlink is left above the base.
    const QString parentPath = QFileInfo(info.absolutePath()).canonicalFilePath();
    if (parentPath.isEmpty() && !QDir().mkpath(info.absolutePath())) {
        *why = QObject::tr("cannot create %1").arg(info.absolutePath());
        return {};
    }
    const QString parent = QFileInfo(info.absolutePath()).canonicalFilePath();
    const int parentFd = ::open(QFile::encodeName(parent).constData(), DirFlags);
    struct stat parentInfo = {};
    if (parentFd < 0 || ::fstat(parentFd, &parentInfo) != 0) {
        *why = QObject::tr("cannot open %1: %2").arg(parent, errnoText(errno));
        if (parentFd >= 0)
            ::close(parentFd);
        return {};
    }
    // Another user must not be able to rename the base away and put theirs in its place:
    // the parent is the studio's or root's, and either closed to others or sticky.
    if ((parentInfo.st_uid != 0 && parentInfo.st_uid != ::geteuid())
        || ((parentInfo.st_mode & 022) && !(parentInfo.st_mode & S_ISVTX))) {
        ::close(parentFd);
        *why = QObject::tr("its parent %1 (uid %2, mode %3) lets other users replace it")
                   .arg(parent)
                   .arg(parentInfo.st_uid)
                   .arg(octal(parentInfo.st_mode));
        return {};
    }
    const int baseFd = openTrusted(parentFd, parent, QFile::encodeName(info.fileName()), why);
    ::close(parentFd);
    if (baseFd < 0)
        return {};
    const QString basePath = parent + QLatin1Char('/') + info.fileName();
    const int runsFd = openTrusted(baseFd, basePath, "runs", why);
    ::close(baseFd);
    if (runsFd < 0)
        return {};
    ::close(runsFd);
    return basePath + QStringLiteral("/runs");
}

} // namespace

QString RunsBase::refusal(int dirFd)
{
    struct stat info = {};
    if (::fstat(dirFd, &info) != 0)
        return QObject::tr("cannot be checked: %1").arg(errnoText(errno));
    if (!S_ISDIR(info.st_mode))
        return QObject::tr("is not a directory");
    if (info.st_uid != ::geteuid())
        return QObject::tr("belongs to uid %1, not to the studio's uid %2 (another user may have created it to "
                           "read or swap the studio's runs)")
            .arg(info.st_uid)
            .arg(::geteuid());
    if (info.st_mode & 022)
        return QObject::tr("is writable by group or others (mode %1)").arg(octal(info.st_mode));
    return {};
}

QStringList RunsBase::privateLocations()
{
    if (::geteuid() == 0)
        return {QStringLiteral("/run/toolstudio")};
    QStringList locations;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (runtime.startsWith(QLatin1Char('/')))
        locations << runtime + QStringLiteral("/toolstudio");
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (!cache.isEmpty())
        locations << cache + QStringLiteral("/toolstudio");
    return locations;
}

RunsBase RunsBase::choose(const QString &tempDir, const QStringList &fallbacks)
{
    RunsBase chosen;
    QStringList refusals;
    const QString first = QDir(tempDir).absoluteFilePath(QStringLiteral("toolstudio-%1").arg(::geteuid()));
    for (const QString &base : QStringList{first} + fallbacks) {
        QString why;
        chosen.runsDir = tryBase(base, &why);
        if (!chosen.runsDir.isEmpty())
            break;
        refusals << why;
    }
    if (chosen.runsDir.isEmpty()) {
        chosen.error = QObject::tr("no safe folder for run folders: %1; remove or fix them (as their owner or root)")
                           .arg(refusals.join(QStringLiteral("; ")));
    } else if (!refusals.isEmpty()) {
        chosen.notice = QObject::tr("refusing %1 as the run folder base: %2; runs use %3 instead (remove %1 to use "
                                    "it again)")
                            .arg(first, refusals.join(QStringLiteral("; ")), chosen.runsDir);
    }
    return chosen;
}
