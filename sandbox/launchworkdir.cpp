// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchworkdir.h"

#include "launchstate.h"
#include "posixutil.h"
#include "processisolation.h"
#include "procfs.h"

#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using PosixUtil::errnoText;
using PosixUtil::retry;

namespace {

/// Hands `dir` (an open directory, consumed) and everything beneath it to uid:gid.
/// Never follows a symlink: links are re-owned themselves (AT_SYMLINK_NOFOLLOW) and
/// directories are opened with O_NOFOLLOW, so a link planted in the project's files/
/// cannot make the launcher chown something outside the work dir; files with more
/// than one hard link are skipped for the same reason, and so is whatever the launcher's
/// own uid did not create (it hands over only what the studio put there).
std::string chownTree(int dir, uid_t uid, gid_t gid, int depth)
{
    if (depth > 64) {
        ::close(dir);
        return "the work dir is nested more than 64 levels deep";
    }
    DIR *stream = ::fdopendir(dir);
    if (!stream) {
        const int error = errno;
        ::close(dir);
        return "cannot list a directory of the work dir: " + errnoText(error);
    }
    std::string failure;
    while (const dirent *entry = ::readdir(stream)) {
        const std::string name = entry->d_name;
        if (name == "." || name == "..")
            continue;
        struct stat info = {};
        if (::fstatat(::dirfd(stream), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == -1) {
            failure = "cannot stat " + name + ": " + errnoText(errno);
            break;
        }
        if (S_ISDIR(info.st_mode)) {
            const int sub = retry([&] {
                return ::openat(::dirfd(stream), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            });
            if (sub == -1) {
                failure = "cannot open " + name + ": " + errnoText(errno);
                break;
            }
            failure = chownTree(sub, uid, gid, depth + 1);
            if (!failure.empty())
                break;
        }
        // A hard link shares its inode (and owner) with a file that may be outside the
        // work dir: it is left as it is, not handed over.
        if ((!S_ISDIR(info.st_mode) && info.st_nlink > 1) || info.st_uid != ::geteuid())
            continue;
        if (::fchownat(::dirfd(stream), name.c_str(), uid, gid, AT_SYMLINK_NOFOLLOW) == -1) {
            failure = "cannot hand " + name + " over (fchownat): " + errnoText(errno);
            break;
        }
    }
    ::closedir(stream);
    return failure;
}

/// Run as root, the launcher gives the work dir away; a mistyped --workdir must not
/// hand a system directory or someone's home to the sandbox user. Returns "" when
/// `dir` looks like a dedicated work dir: at least two levels below /, not under a
/// system top-level directory, owned by root or already by `uid`.
std::string checkDedicatedWorkDir(int dir, uid_t uid)
{
    const std::string path = Procfs::pathOfFd(dir);
    if (path.empty())
        return "cannot resolve its path (" + errnoText(errno) + ")";
    const std::size_t second = path.find('/', 1);
    if (path.size() < 2 || second == std::string::npos || second + 1 >= path.size())
        return "it is a top-level directory";
    const std::string top = path.substr(1, second - 1);
    for (const char *system : {"bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "root", "run",
                               "sbin", "sys", "usr", "var"}) {
        // /var/tmp, and root's private run folder base (RunsBase) in /run.
        if (top == system && !(top == "var" && path.rfind("/var/tmp/", 0) == 0)
            && !(top == "run" && path.rfind("/run/toolstudio/", 0) == 0))
            return "it is under /" + top;
    }
    struct stat info = {};
    if (::fstat(dir, &info) == -1)
        return "cannot stat it (" + errnoText(errno) + ")";
    // A run uid's (ProcessIsolation): the studio's work dir of an earlier run.
    if (info.st_uid != 0 && info.st_uid != uid && !ProcessIsolation::isRunUid(info.st_uid))
        return "it belongs to uid " + std::to_string(info.st_uid);
    return {};
}

std::string octal(mode_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "0%03o", unsigned(mode & 07777));
    return text;
}

/// Opens the work dir `path` from / one component at a time, never through a symlink,
/// and only through directories another user cannot change: each is root's or the
/// launcher's and not writable by group or others, or sticky (/tmp) with the next one
/// root's or the launcher's. -1 with `why` set otherwise. As root the launcher gives
/// the work dir away, so a swapped component must not send it anywhere else.
int openTrustedPath(const std::string &path, std::string *why)
{
    if (path.empty() || path.front() != '/') {
        *why = "it is not an absolute path";
        return -1;
    }
    int fd = retry([] { return ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC); });
    std::string walked;
    std::size_t start = 1;
    while (fd >= 0 && start < path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos)
            end = path.size();
        const std::string part = path.substr(start, end - start);
        start = end + 1;
        if (part.empty() || part == ".")
            continue;
        struct stat parent = {};
        struct stat child = {};
        if (part == ".." || ::fstat(fd, &parent) == -1) {
            *why = "its path has a \"..\" component";
            ::close(fd);
            return -1;
        }
        const int next
            = retry([&] { return ::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); });
        const int openError = errno;
        ::close(fd);
        walked += "/" + part;
        if (next == -1) {
            *why = (openError == ELOOP || openError == ENOTDIR) ? walked + " is a symlink or not a directory"
                                                                : "cannot open " + walked + ": " + errnoText(openError);
            return -1;
        }
        fd = next;
        ::fstat(fd, &child);
        const auto trusted = [](const struct stat &info) { return info.st_uid == 0 || info.st_uid == ::geteuid(); };
        const bool parentClosed = trusted(parent) && !(parent.st_mode & 022);
        const bool parentSticky = trusted(parent) && (parent.st_mode & S_ISVTX);
        // The work dir itself is held now (its owner is checked by the caller); what must
        // not be swappable is every directory above it.
        if (start < path.size() && !parentClosed && !(parentSticky && trusted(child))) {
            *why = walked + " sits in a directory other users can change (uid " + std::to_string(parent.st_uid)
                + ", mode " + octal(parent.st_mode) + ")";
            ::close(fd);
            return -1;
        }
    }
    if (fd == -1)
        *why = "cannot open / (" + errnoText(errno) + ")";
    return fd;
}

/// A studio's run folder (it holds the studio's `.lock`, LaunchWorkDir::handOver): the
/// work dir's parent, opened from the work dir; -1 when it is not one.
int openRunFolder(int workDir)
{
    const int parent = retry([&] { return ::openat(workDir, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); });
    struct stat info = {};
    struct stat lock = {};
    if (parent != -1 && ::fstat(parent, &info) == 0 && info.st_uid == ::geteuid() && !(info.st_mode & 022)
        && ::fstatat(parent, ".lock", &lock, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(lock.st_mode)
        && lock.st_uid == ::geteuid())
        return parent;
    if (parent != -1)
        ::close(parent);
    return -1;
}

} // namespace

bool LaunchWorkDir::handOver(LaunchState &state, uid_t uid, gid_t gid, const std::string &name)
{
    // The work dir becomes the sandbox user's, so the script can write there.
    std::string why;
    const int dir = openTrustedPath(state.policy.workDir, &why);
    if (dir == -1)
        return state.fail(SandboxExit::Credentials,
                          "refusing to hand the work dir " + state.policy.workDir + " to " + name + ": " + why
                              + "; create it in a directory of its own that only root can change");
    if (std::string reason = checkDedicatedWorkDir(dir, uid); !reason.empty()) {
        ::close(dir);
        return state.fail(SandboxExit::Credentials,
                          "refusing to hand " + state.policy.workDir + " to " + name + ": " + reason
                              + "; use a directory of its own for the run (e.g. under /tmp)");
    }
    // Everything in it too (the project's files/ were copied in by root), then the dir.
    const int listing = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
    if (listing == -1) {
        const int error = errno;
        ::close(dir);
        return state.fail(SandboxExit::Credentials,
                          "cannot hand the work dir " + state.policy.workDir + " to " + name + ": " + errnoText(error));
    }
    if (std::string reason = chownTree(listing, uid, gid, 0); !reason.empty()) {
        ::close(dir);
        return state.fail(SandboxExit::Credentials,
                          "cannot hand the work dir " + state.policy.workDir + " to " + name + ": " + reason);
    }
    int chowned = ::fchown(dir, uid, gid);
    int chownError = errno;
    // The work dir is private to the sandbox user (and root) — its files were readable
    // by every local user while the run was live (issue 16, class 2).
    if (chowned == 0) {
        chowned = ::fchmod(dir, 0700);
        chownError = errno;
    }
    // A studio's run folder (runtime/: the shims and the script copy; files-out/ later)
    // is closed to everyone but root and the sandbox user's group: 0710 root:gid.
    if (const int folder = chowned == 0 ? openRunFolder(dir) : -1; folder != -1) {
        if (::fchown(folder, ::geteuid(), gid) == -1 || ::fchmod(folder, 0710) == -1) {
            chowned = -1;
            chownError = errno;
        }
        ::close(folder);
    }
    ::close(dir);
    if (chowned == -1)
        return state.fail(SandboxExit::Credentials,
                          "cannot hand the work dir " + state.policy.workDir + " to " + name
                              + " (fchown): " + errnoText(chownError));
    return true;
}

bool LaunchWorkDir::enter(LaunchState &state)
{
    const std::string &dir = state.policy.workDir;
    const auto who = [&state] { return state.userLabel(); };
    if (::chdir(dir.c_str()) == -1) {
        const int error = errno;
        if (error == EACCES)
            return state.fail(SandboxExit::WorkDir,
                              "cannot enter the work dir " + dir + " as " + who() + ": " + errnoText(error)
                                  + "; make it and every parent directory searchable by that user");
        if (error == ENOENT || error == ENOTDIR)
            return state.fail(SandboxExit::WorkDir,
                              "the work dir " + dir + " does not exist: " + errnoText(error) + "; create it first");
        return state.fail(SandboxExit::WorkDir, "cannot enter the work dir " + dir + ": " + errnoText(error));
    }
    // What the script creates is private to it (and root); it may chmod its own files.
    ::umask(077);
    if (::access(".", W_OK) == -1)
        return state.fail(SandboxExit::WorkDir,
                          "the work dir " + dir + " is not writable by " + who() + ": " + errnoText(errno)
                              + "; give that user write access");
    if (!state.policy.cwd.empty() && ::chdir(state.policy.cwd.c_str()) == -1)
        return state.fail(SandboxExit::WorkDir,
                          "cannot enter " + state.policy.cwd + " as " + who() + ": " + errnoText(errno)
                              + "; make it and every parent directory searchable by that user");
    return true;
}
