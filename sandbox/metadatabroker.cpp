// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "metadatabroker.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
#include <utime.h>

namespace {

constexpr int PathMax = 4096;

/// An fd closed when it goes out of scope.
struct Fd
{
    int fd = -1;
    explicit Fd(int value = -1)
        : fd(value)
    {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
    void reset(int value)
    {
        if (fd >= 0)
            ::close(fd);
        fd = value;
    }
};

int openat2Path(int dirfd, const char *path, std::uint64_t flags, std::uint64_t resolve)
{
    open_how how = {};
    how.flags = flags;
    how.resolve = resolve;
    for (;;) {
        const long fd = ::syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd >= 0 || errno != EAGAIN)
            return int(fd);
    }
}

std::string fdPath(int fd)
{
    char link[64];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    char target[PathMax + 1];
    const ssize_t n = ::readlink(link, target, PathMax);
    return n > 0 ? std::string(target, std::size_t(n)) : std::string();
}

/// Reads a NUL-terminated string of at most PathMax bytes at `address` in `pid`.
int readPath(int mem, std::uint64_t address, std::string *path)
{
    if (address == 0)
        return EFAULT;
    path->clear();
    while (path->size() < std::size_t(PathMax)) {
        char chunk[PathMax];
        const std::uint64_t at = address + path->size();
        const std::size_t want = std::min<std::size_t>(PathMax - (at % PathMax), PathMax - path->size());
        const ssize_t n = ::pread(mem, chunk, want, off_t(at));
        if (n <= 0)
            return EFAULT;
        const void *nul = std::memchr(chunk, '\0', std::size_t(n));
        if (nul) {
            path->append(chunk, std::size_t(static_cast<const char *>(nul) - chunk));
            return 0;
        }
        path->append(chunk, std::size_t(n));
    }
    return ENAMETOOLONG;
}

int readMemory(int mem, std::uint64_t address, void *out, std::size_t size)
{
    return ::pread(mem, out, size, off_t(address)) == ssize_t(size) ? 0 : EFAULT;
}

/// The caller's fs uid and gid (the ids the kernel checks ownership with).
bool callerIds(pid_t pid, uid_t *uid, gid_t *gid)
{
    char name[64];
    std::snprintf(name, sizeof name, "/proc/%d/status", int(pid));
    Fd status(::open(name, O_RDONLY | O_CLOEXEC));
    char text[8192];
    const ssize_t n = status.fd >= 0 ? ::read(status.fd, text, sizeof text - 1) : -1;
    if (n <= 0)
        return false;
    text[n] = '\0';
    unsigned long r, e, s, f;
    const char *uidLine = std::strstr(text, "\nUid:");
    const char *gidLine = std::strstr(text, "\nGid:");
    if (!uidLine || !gidLine || std::sscanf(uidLine, "\nUid: %lu %lu %lu %lu", &r, &e, &s, &f) != 4)
        return false;
    *uid = uid_t(f);
    if (std::sscanf(gidLine, "\nGid: %lu %lu %lu %lu", &r, &e, &s, &f) != 4)
        return false;
    *gid = gid_t(f);
    return true;
}

/// Whether `path` (absolute, as written or as /proc reads it) names the work dir at
/// `work` or lies in it, textually; `*relative` is then the rest ("." for the dir itself).
bool beneathWorkDirPath(const std::string &path, const std::string &work, std::string *relative)
{
    if (work.empty() || work[0] != '/' || path.compare(0, work.size(), work) != 0)
        return false;
    if (path.size() == work.size()) {
        *relative = ".";
        return true;
    }
    if (path[work.size()] != '/')
        return false;
    const std::size_t rest = path.find_first_not_of('/', work.size());
    *relative = rest == std::string::npos ? std::string(".") : path.substr(rest);
    return true;
}

/// 0 when `object` lies beneath the work dir (or is it), else EPERM.
int beneathWorkDir(int object, int workDirFd, const struct stat &info)
{
    const std::string base = fdPath(workDirFd);
    const std::string path = fdPath(object);
    if (base.empty() || base[0] != '/' || path.empty() || path[0] != '/')
        return EPERM;
    struct stat dir = {};
    if (::fstat(workDirFd, &dir) == -1)
        return EPERM;
    if (path == base)
        return dir.st_dev == info.st_dev && dir.st_ino == info.st_ino ? 0 : EPERM;
    if (path.size() <= base.size() + 1 || path.compare(0, base.size(), base) != 0 || path[base.size()] != '/')
        return EPERM;
    const std::string relative = path.substr(base.size() + 1);
    Fd again(openat2Path(workDirFd, relative.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC,
                         RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS));
    struct stat check = {};
    if (again.fd < 0 || ::fstat(again.fd, &check) == -1 || check.st_dev != info.st_dev || check.st_ino != info.st_ino)
        return EPERM;
    if (!S_ISDIR(info.st_mode) && info.st_nlink != 1)
        return EPERM;
    return 0;
}

struct Call
{
    bool mode = false; ///< chmod family, else times
    std::int64_t dirfd = AT_FDCWD;
    std::uint64_t pathAddress = 0; ///< 0: the fd form (fchmod, utimensat with a NULL path)
    bool pathRequired = true;
    bool follow = true;
    bool emptyPath = false; ///< AT_EMPTY_PATH
    mode_t newMode = 0;
    enum class Times { None, Utimbuf, Timeval, Timespec } times = Times::None;
    std::uint64_t timesAddress = 0;
};

bool describe(const std::string &name, const std::uint64_t a[6], Call *call)
{
    const auto fd = [](std::uint64_t value) { return std::int64_t(std::int32_t(std::uint32_t(value))); };
    if (name == "chmod") {
        *call = {true, AT_FDCWD, a[0], true, true, false, mode_t(a[1])};
    } else if (name == "fchmod") {
        *call = {true, fd(a[0]), 0, false, true, true, mode_t(a[1])};
    } else if (name == "fchmodat") {
        *call = {true, fd(a[0]), a[1], true, true, false, mode_t(a[2])};
    } else if (name == "fchmodat2") {
        const unsigned flags = unsigned(a[3]);
        if (flags & ~unsigned(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
            return false;
        *call = {true, fd(a[0]), a[1], true, !(flags & AT_SYMLINK_NOFOLLOW), bool(flags & AT_EMPTY_PATH), mode_t(a[2])};
    } else if (name == "utime") {
        *call = {false, AT_FDCWD, a[0], true, true, false, 0, Call::Times::Utimbuf, a[1]};
    } else if (name == "utimes") {
        *call = {false, AT_FDCWD, a[0], true, true, false, 0, Call::Times::Timeval, a[1]};
    } else if (name == "futimesat") {
        *call = {false, fd(a[0]), a[1], true, true, false, 0, Call::Times::Timeval, a[2]};
    } else if (name == "utimensat") {
        const unsigned flags = unsigned(a[3]);
        if (flags & ~unsigned(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
            return false;
        // A NULL path is futimens(dirfd).
        *call = {false,
                 fd(a[0]),
                 a[1],
                 a[1] != 0,
                 !(flags & AT_SYMLINK_NOFOLLOW),
                 bool(flags & AT_EMPTY_PATH),
                 0,
                 Call::Times::Timespec,
                 a[2]};
    } else {
        return false;
    }
    return true;
}

bool stillValid(int notifyFd, std::uint64_t id)
{
    return ::ioctl(notifyFd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

} // namespace

namespace MetadataBroker {

bool handles(const std::string &syscall)
{
    for (const char *name : {"chmod", "fchmod", "fchmodat", "fchmodat2", "utime", "utimes", "utimensat", "futimesat"}) {
        if (syscall == name)
            return true;
    }
    return false;
}

Outcome handle(const std::string &syscall, const std::uint64_t args[6], pid_t pid, int notifyFd, std::uint64_t id,
               int workDirFd)
{
    Outcome outcome;
    const auto refuse = [&](int error) {
        outcome.error = error;
        outcome.refused = true;
        return outcome;
    };
    const auto fail = [&](int error) {
        outcome.error = error;
        return outcome;
    };
    Call call;
    if (!describe(syscall, args, &call))
        return fail(EINVAL);
    char name[64];
    std::snprintf(name, sizeof name, "/proc/%d/mem", int(pid));
    Fd mem(::open(name, O_RDONLY | O_CLOEXEC));
    if (mem.fd < 0 || !stillValid(notifyFd, id))
        return fail(ENOENT); // the caller is gone (its answer is discarded)

    std::string path;
    if (call.pathAddress != 0 || call.pathRequired) {
        if (int error = readPath(mem.fd, call.pathAddress, &path))
            return fail(error);
        if (path.empty() && !call.emptyPath)
            return fail(ENOENT);
    }
    // The times, read once.
    timespec times[2] = {};
    bool haveTimes = false;
    if (!call.mode && call.timesAddress != 0) {
        haveTimes = true;
        if (call.times == Call::Times::Utimbuf) {
            utimbuf value = {};
            if (int error = readMemory(mem.fd, call.timesAddress, &value, sizeof value))
                return fail(error);
            times[0] = {value.actime, 0};
            times[1] = {value.modtime, 0};
        } else if (call.times == Call::Times::Timeval) {
            timeval value[2] = {};
            if (int error = readMemory(mem.fd, call.timesAddress, value, sizeof value))
                return fail(error);
            for (int i = 0; i < 2; ++i) {
                if (value[i].tv_usec < 0 || value[i].tv_usec >= 1000000)
                    return fail(EINVAL);
                times[i] = {value[i].tv_sec, value[i].tv_usec * 1000};
            }
        } else if (int error = readMemory(mem.fd, call.timesAddress, times, sizeof times)) {
            return fail(error);
        }
    }

    // The base: the caller's cwd or its dirfd ("/" for an absolute path).
    outcome.what = path.empty() ? "fd " + std::to_string(call.dirfd) : path;
    if (call.pathAddress == 0 && !call.pathRequired && call.dirfd < 0)
        return fail(EBADF); // fchmod(-1), futimens(AT_FDCWD): no cwd fallback
    const bool absolute = !path.empty() && path[0] == '/';
    Fd baseFd;
    if (!absolute) {
        char base[64];
        if (call.dirfd == AT_FDCWD)
            std::snprintf(base, sizeof base, "/proc/%d/cwd", int(pid));
        else if (call.dirfd < 0)
            return fail(EBADF);
        else
            std::snprintf(base, sizeof base, "/proc/%d/fd/%d", int(pid), int(call.dirfd));
        baseFd.reset(::open(base, O_PATH | O_CLOEXEC));
        if (baseFd.fd < 0)
            return fail(call.dirfd == AT_FDCWD ? ENOENT : EBADF);
    }
    Fd object;
    if (path.empty()) {
        object.reset(::fcntl(baseFd.fd, F_DUPFD_CLOEXEC, 0));
    } else {
        // The path is resolved only beneath the work dir, from the work dir fd: the
        // studio (root, maybe) must not walk paths the caller could not, or ENOENT
        // against EPERM would tell the script which files exist in directories it
        // cannot search (/root/.ssh/id_rsa). A path that starts elsewhere, or leaves
        // the work dir on the way (`..`, an absolute symlink), is refused unresolved.
        std::string beneath;
        if (workDirFd < 0 || !beneathWorkDirPath(absolute ? path : fdPath(baseFd.fd), fdPath(workDirFd), &beneath))
            return refuse(EPERM);
        if (!absolute)
            beneath = beneath == "." ? path : beneath + "/" + path;
        object.reset(openat2Path(workDirFd, beneath.c_str(), O_PATH | O_CLOEXEC | (call.follow ? 0 : O_NOFOLLOW),
                                 RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS));
        if (object.fd < 0) {
            const int error = errno;
            if (error == EXDEV)
                return refuse(EPERM);
            return fail(error == ELOOP ? EPERM : error);
        }
    }
    uid_t uid = 0;
    gid_t gid = 0;
    if (object.fd < 0 || !callerIds(pid, &uid, &gid) || !stillValid(notifyFd, id))
        return fail(ENOENT);
    struct stat info = {};
    if (::fstat(object.fd, &info) == -1)
        return fail(errno);
    if (workDirFd < 0 || beneathWorkDir(object.fd, workDirFd, info) != 0)
        return refuse(EPERM);
    if (info.st_uid != uid)
        return refuse(EPERM);

    char self[64];
    std::snprintf(self, sizeof self, "/proc/self/fd/%d", object.fd);
    if (call.mode) {
        if (S_ISLNK(info.st_mode))
            return fail(EOPNOTSUPP);
        // No setuid or setgid bit: the studio may be root, and a run's files outlive it
        // in the run folder (the kernel would allow the owner both on its own group).
        const mode_t mode = call.newMode & 01777;
        (void)gid;
        // The work dir itself stays private to its owner: opened to group or others, a
        // local user could read the run's data and plant or swap entries in it while
        // the studio copies the run's files out (attack2).
        struct stat work = {};
        if ((mode & 077) != 0 && ::fstat(workDirFd, &work) == 0 && work.st_dev == info.st_dev
            && work.st_ino == info.st_ino)
            return refuse(EPERM);
        return fail(::chmod(self, mode) == 0 ? 0 : errno);
    }
    return fail(::utimensat(object.fd, "", haveTimes ? times : nullptr, AT_EMPTY_PATH) == 0 ? 0 : errno);
}

} // namespace MetadataBroker
