// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "processisolation.h"

#include "posixutil.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using PosixUtil::errnoText;

namespace {

/// Marks in `used` (index uid - FirstRunUid) every reserved uid that a task has as its
/// real uid. Reads every /proc/<pid>/status: /proc/<pid> of a non-dumpable process
/// (one that just switched users) belongs to root, so its owner tells nothing.
/// False when /proc cannot be listed.
bool markUsedRunUids(std::vector<bool> *used, uid_t only = uid_t(-1))
{
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return false;
    while (const dirent *entry = ::readdir(proc)) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
            continue;
        std::string status;
        if (!PosixUtil::readFile(std::string("/proc/") + entry->d_name + "/status", 64 * 1024, &status))
            continue; // exited meanwhile
        const std::size_t at = status.find("\nUid:");
        if (at == std::string::npos)
            continue;
        const unsigned long uid = std::strtoul(status.c_str() + at + 5, nullptr, 10);
        if (ProcessIsolation::isRunUid(uid_t(uid)) && (only == uid_t(-1) || only == uid_t(uid)))
            (*used)[uid - ProcessIsolation::FirstRunUid] = true;
    }
    ::closedir(proc);
    return true;
}

/// A directory we may trust for the locks: a real directory, owned by root, not
/// writable by group or others.
std::string untrustedBecause(const std::string &path)
{
    struct stat info = {};
    if (::lstat(path.c_str(), &info) == -1)
        return path + ": " + errnoText(errno);
    if (!S_ISDIR(info.st_mode))
        return path + " is not a directory";
    if (info.st_uid != 0)
        return path + " belongs to uid " + std::to_string(info.st_uid);
    if (info.st_mode & 022)
        return path + " is writable by group or others";
    return {};
}

bool writeProcFile(const char *path, const std::string &text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd == -1)
        return false;
    const bool ok = PosixUtil::writeAll(fd, text);
    const int error = errno;
    ::close(fd);
    errno = error;
    return ok;
}

/// Linux ≥ 5.14 counts RLIMIT_NPROC per user per user namespace (ucounts).
std::string kernelTooOld()
{
    utsname host = {};
    if (::uname(&host) == -1)
        return "uname failed: " + errnoText(errno);
    char *end = nullptr;
    const long major = std::strtol(host.release, &end, 10);
    const long minor = end && *end == '.' ? std::strtol(end + 1, nullptr, 10) : 0;
    if (major < 5 || (major == 5 && minor < 14))
        return std::string("kernel ") + host.release
            + " counts RLIMIT_NPROC per user, not per user namespace (Linux 5.14 does)";
    return {};
}

} // namespace

namespace ProcessIsolation {

const char *name(Mechanism mechanism)
{
    switch (mechanism) {
    case Mechanism::PidsCgroup:
        return "pids_cgroup";
    case Mechanism::RunUid:
        return "run_uid";
    case Mechanism::UserNamespace:
        return "user_namespace";
    case Mechanism::Shared:
        break;
    }
    return "shared";
}

std::string lockDirectory(std::string *error)
{
    std::string reasons;
    for (const char *path : {"/run/toolstudio-sandbox", "/tmp/toolstudio-sandbox-0"}) {
        const std::string dir = path;
        const std::string parent = dir.substr(0, dir.rfind('/'));
        if (::access(parent.c_str(), W_OK) == -1) {
            reasons += (reasons.empty() ? "" : "; ") + parent + " is not writable: " + errnoText(errno);
            continue;
        }
        if (::mkdir(dir.c_str(), 0700) == -1 && errno != EEXIST) {
            reasons += (reasons.empty() ? "" : "; ") + std::string("cannot create ") + dir + ": " + errnoText(errno);
            continue;
        }
        if (std::string why = untrustedBecause(dir); !why.empty()) {
            reasons += (reasons.empty() ? "" : "; ") + why;
            continue;
        }
        return dir;
    }
    *error = "no lock directory for the run uids (" + reasons + ")";
    return {};
}

uid_t acquireRunUid(int *lockFd, std::string *error)
{
    *lockFd = -1;
    const std::string dir = lockDirectory(error);
    if (dir.empty())
        return uid_t(-1);
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dirFd == -1) {
        *error = "cannot open " + dir + ": " + errnoText(errno);
        return uid_t(-1);
    }
    std::vector<bool> used(RunUidCount, false);
    if (!markUsedRunUids(&used)) {
        *error = "cannot list /proc: " + errnoText(errno) + "; mount /proc";
        ::close(dirFd);
        return uid_t(-1);
    }
    std::size_t locked = 0, inUse = 0, named = 0;
    for (uid_t i = 0; i < RunUidCount; ++i) {
        if (used[i]) {
            ++inUse;
            continue;
        }
        const uid_t uid = FirstRunUid + i;
        const std::string name = "uid-" + std::to_string(uid);
        const int fd = PosixUtil::retry(
            [&] { return ::openat(dirFd, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600); });
        if (fd == -1) {
            *error = "cannot open the lock " + dir + "/" + name + ": " + errnoText(errno);
            ::close(dirFd);
            return uid_t(-1);
        }
        if (PosixUtil::retry([&] { return ::flock(fd, LOCK_EX | LOCK_NB); }) == -1) {
            ::close(fd); // another launcher is taking it
            ++locked;
            continue;
        }
        // Under the lock: a launcher that held it before us may have passed its uid on
        // to its run since our scan.
        std::vector<bool> now(RunUidCount, false);
        if (!markUsedRunUids(&now, uid) || now[i]) {
            ::close(fd);
            ++inUse;
            continue;
        }
        // Someone else's account in our range: never share it.
        if (::getpwuid(uid) || ::getgrgid(gid_t(uid))) {
            ::close(fd);
            ++named;
            continue;
        }
        ::close(dirFd);
        *lockFd = fd;
        return uid;
    }
    ::close(dirFd);
    *error = "every run uid " + std::to_string(FirstRunUid) + "-" + std::to_string(FirstRunUid + RunUidCount - 1)
        + " is taken (" + std::to_string(inUse) + " in use, " + std::to_string(locked) + " being taken, "
        + std::to_string(named) + " with an account)";
    return uid_t(-1);
}

std::string userNamespaceUnavailable()
{
    if (std::string why = kernelTooOld(); !why.empty())
        return why;
    std::string text;
    if (PosixUtil::readFile("/proc/sys/user/max_user_namespaces", 64, &text) && std::atol(text.c_str()) == 0)
        return "user namespaces are switched off (user.max_user_namespaces = 0)";
    if (::geteuid() != 0 && PosixUtil::readFile("/proc/sys/kernel/unprivileged_userns_clone", 64, &text)
        && std::atol(text.c_str()) == 0)
        return "unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)";
    // The real test: a short-lived child tries (a chroot, a seccomp filter or an
    // AppArmor policy refuse it without a sysctl saying so).
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) == -1)
        return "pipe2 failed: " + errnoText(errno);
    const pid_t child = ::fork();
    if (child == -1) {
        const int error = errno;
        ::close(pipe[0]);
        ::close(pipe[1]);
        return "fork failed: " + errnoText(error);
    }
    if (child == 0) {
        int error = 0;
        if (::unshare(CLONE_NEWUSER) == -1)
            error = errno;
        [[maybe_unused]] const ssize_t n = ::write(pipe[1], &error, sizeof error);
        ::_exit(0);
    }
    ::close(pipe[1]);
    int error = -1;
    const ssize_t n = PosixUtil::retry([&] { return ::read(pipe[0], &error, sizeof error); });
    ::close(pipe[0]);
    PosixUtil::retry([&] { return ::waitpid(child, nullptr, 0); });
    if (n != ssize_t(sizeof error))
        return "the test of unshare(CLONE_NEWUSER) did not report back";
    if (error != 0)
        return "unshare(CLONE_NEWUSER) fails: " + errnoText(error)
            + (error == EPERM ? " (in a chroot, or refused by a seccomp or AppArmor policy)" : "");
    return {};
}

bool enterUserNamespace(std::string *error, bool *entered)
{
    *entered = false;
    if (std::string why = kernelTooOld(); !why.empty()) {
        *error = why;
        return false;
    }
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    // The namespace records its creator's soft RLIMIT_NPROC as the bound on the user's
    // tasks outside it: the hard limit, so only the run's own limit (set inside) binds.
    rlimit nproc = {};
    if (::getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_cur != nproc.rlim_max) {
        nproc.rlim_cur = nproc.rlim_max;
        ::setrlimit(RLIMIT_NPROC, &nproc);
    }
    if (::unshare(CLONE_NEWUSER) == -1) {
        *error = "unshare(CLONE_NEWUSER) failed: " + errnoText(errno)
            + (errno == EPERM ? " (in a chroot, or refused by a seccomp or AppArmor policy)" : "");
        return false;
    }
    *entered = true;
    if (!writeProcFile("/proc/self/setgroups", "deny")) {
        *error = "cannot write /proc/self/setgroups in the run's user namespace: " + errnoText(errno);
        return false;
    }
    if (!writeProcFile("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n")
        || !writeProcFile("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n")) {
        *error = "cannot map uid " + std::to_string(uid) + " in the run's user namespace: " + errnoText(errno);
        return false;
    }
    // The namespace gave this process every capability in it: drop them all.
    __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capset, &header, caps) == -1) {
        *error = "cannot drop the capabilities of the run's user namespace: " + errnoText(errno);
        return false;
    }
    if (::getuid() != uid || ::getgid() != gid) {
        *error = "the run's user namespace did not keep uid " + std::to_string(uid);
        return false;
    }
    return true;
}

} // namespace ProcessIsolation
