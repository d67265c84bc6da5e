// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchsequence.h"

#include "landlock.h"
#include "pidscgroup.h"

#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr std::size_t MaxPolicyBytes = 1024 * 1024;

std::string errnoText(int error)
{
    return std::strerror(error);
}

/// Runs `call` again while it fails with EINTR (bubblewrap's TEMP_FAILURE_RETRY).
template<typename Call>
auto retry(Call call)
{
    decltype(call()) rc;
    do {
        rc = call();
    } while (rc == -1 && errno == EINTR);
    return rc;
}

/// Reads a small file whole; false with errno set on failure.
bool readFile(const std::string &path, std::size_t maxBytes, std::string *contents)
{
    const int fd = retry([&] { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); });
    if (fd == -1)
        return false;
    contents->clear();
    char buffer[8192];
    for (;;) {
        const ssize_t n = retry([&] { return ::read(fd, buffer, sizeof buffer); });
        if (n == -1) {
            const int error = errno;
            ::close(fd);
            errno = error;
            return false;
        }
        if (n == 0)
            break;
        contents->append(buffer, std::size_t(n));
        if (contents->size() > maxBytes) {
            ::close(fd);
            errno = EFBIG;
            return false;
        }
    }
    ::close(fd);
    return true;
}

bool writeAll(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = retry([&] { return ::write(fd, text.data(), text.size()); });
        if (n <= 0)
            return false;
        text.remove_prefix(std::size_t(n));
    }
    return true;
}

std::string currentDirectory()
{
    std::string path(PATH_MAX, '\0');
    if (!::getcwd(path.data(), path.size()))
        return {};
    path.resize(std::strlen(path.c_str()));
    return path;
}

bool parseFd(std::string_view text, int *fd)
{
    int value = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return false;
    *fd = value;
    return true;
}

/// Closes every fd from `first` up: close_range (Linux 5.9), else /proc/self/fd.
bool closeFrom(unsigned first, std::string *error)
{
    if (::close_range(first, ~0U, 0) == 0)
        return true;
    if (errno != ENOSYS && errno != EINVAL) {
        *error = "close_range failed: " + errnoText(errno);
        return false;
    }
    DIR *dir = ::opendir("/proc/self/fd");
    if (!dir) {
        *error = "cannot close inherited fds: close_range is not supported and /proc/self/fd cannot be read ("
            + errnoText(errno) + "); mount /proc";
        return false;
    }
    std::vector<int> open;
    while (const dirent *entry = ::readdir(dir)) {
        int fd = -1;
        if (parseFd(entry->d_name, &fd) && fd >= int(first) && fd != ::dirfd(dir))
            open.push_back(fd);
    }
    ::closedir(dir);
    for (int fd : open)
        ::close(fd); // close() is not retried on EINTR: the fd is gone either way on Linux
    return true;
}

/// Set by the session step's fork fallback so its signal relay knows the child.
pid_t s_relayChild = 0;

/// The status channel to the studio (SandboxPolicy::statusFd), -1 when there is none.
/// exitWith() reports a failure on it; only the launcher can write to it (it is
/// close-on-exec), so a script cannot fake a launcher failure.
int s_statusFd = -1;

/// Sends one message on the status channel, with `fd` attached (SCM_RIGHTS) when ≥ 0.
bool sendStatus(std::string_view message, int fd = -1)
{
    if (s_statusFd < 0)
        return true;
    iovec part = {const_cast<char *>(message.data()), message.size()};
    msghdr header = {};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (fd >= 0) {
        header.msg_control = control;
        header.msg_controllen = sizeof control;
        cmsghdr *cmsg = CMSG_FIRSTHDR(&header);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
    }
    return retry([&] { return ::sendmsg(s_statusFd, &header, MSG_NOSIGNAL); }) == ssize_t(message.size());
}

/// Hands `dir` (an open directory, consumed) and everything beneath it to uid:gid.
/// Never follows a symlink: links are re-owned themselves (AT_SYMLINK_NOFOLLOW) and
/// directories are opened with O_NOFOLLOW, so a link planted in the project's files/
/// cannot make the launcher chown something outside the work dir; files with more
/// than one hard link are skipped for the same reason.
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
        if (!S_ISDIR(info.st_mode) && info.st_nlink > 1)
            continue;
        if (::fchownat(::dirfd(stream), name.c_str(), uid, gid, AT_SYMLINK_NOFOLLOW) == -1) {
            failure = "cannot hand " + name + " over (fchownat): " + errnoText(errno);
            break;
        }
    }
    ::closedir(stream);
    return failure;
}

void relaySignal(int signal)
{
    ::kill(-s_relayChild, signal);
    ::kill(s_relayChild, signal);
}

/// Run as root, the launcher gives the work dir away; a mistyped --workdir must not
/// hand a system directory or someone's home to the sandbox user. Returns "" when
/// `dir` looks like a dedicated work dir: at least two levels below /, not under a
/// system top-level directory, owned by root or already by `uid`.
std::string checkDedicatedWorkDir(int dir, uid_t uid)
{
    std::string path(PATH_MAX, '\0');
    const std::string link = "/proc/self/fd/" + std::to_string(dir);
    const ssize_t length = ::readlink(link.c_str(), path.data(), path.size() - 1);
    if (length <= 0)
        return "cannot resolve its path (" + errnoText(errno) + ")";
    path.resize(std::size_t(length));
    const std::size_t second = path.find('/', 1);
    if (path.size() < 2 || second == std::string::npos || second + 1 >= path.size())
        return "it is a top-level directory";
    const std::string top = path.substr(1, second - 1);
    for (const char *system : {"bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "root", "run",
                               "sbin", "sys", "usr", "var"}) {
        if (top == system && !(top == "var" && path.rfind("/var/tmp/", 0) == 0))
            return "it is under /" + top;
    }
    struct stat info = {};
    if (::fstat(dir, &info) == -1)
        return "cannot stat it (" + errnoText(errno) + ")";
    if (info.st_uid != 0 && info.st_uid != uid)
        return "it belongs to uid " + std::to_string(info.st_uid);
    return {};
}

/// "uid 65534 (nobody)". Only for messages: the name is looked up (NSS) when a
/// message needs it, not on every start.
std::string userLabel(uid_t uid, const std::string &knownName)
{
    std::string name = knownName;
    if (name.empty()) {
        if (const passwd *pw = ::getpwuid(uid))
            name = pw->pw_name;
    }
    return "uid " + std::to_string(uid) + (name.empty() ? std::string() : " (" + name + ")");
}

} // namespace

std::string LaunchSequence::usage()
{
    return R"(Usage:
  toolstudio-sandbox --policy FILE
  toolstudio-sandbox [--workdir DIR] [--bridge-fd N] [--user NAME] [--seccomp-only] [--] PROGRAM [ARGS...]
  toolstudio-sandbox --report
  toolstudio-sandbox --help

Runs PROGRAM the way Tool Studio runs agent scripts: in its own session and process
group, with rlimits, the work dir as cwd, HOME and TMPDIR, only fds 0-2 (and the
bridge as fd 3), an allow-listed environment, no new privileges, Landlock (file
system, TCP, scoping) and an allow-list seccomp filter. Started as root, it first
hands the work dir (and everything in it) to an unprivileged user and becomes that
user.

  --policy FILE    read everything from a JSON policy file (what the studio passes)
  --workdir DIR    the work dir (default: the current directory; required as root)
  --bridge-fd N    an open fd (3 or more) that PROGRAM gets as fd 3
  --user NAME      the user to become when started as root (default: nobody)
  --seccomp-only   run even when the kernel has no Landlock (file system and
                   network then rest on seccomp, the user switch and rlimits only)
  --report         print what this kernel lets the sandbox enforce, then exit

TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1 in the environment kills the script on a system
call that is not on the allow-list instead of failing it with ENOSYS (to find gaps).

PROGRAM without a '/' is looked up on the sandbox's PATH (/usr/local/bin:/usr/bin:/bin);
a relative path with a '/' is relative to the work dir.

Exit status: PROGRAM's, or when the sandbox cannot be set up one of 120 usage,
121 parent, 122 session, 123 limits, 124 workdir, 125 fds, 126 credentials,
127 no_new_privs, 128 landlock, 129 seccomp, 130 exec, 131 environment, with one
line "toolstudio-sandbox: <step>: <reason>" on stderr.
)";
}

LaunchSequence::Request LaunchSequence::parseCommandLine(int argc, char **argv, SandboxPolicy *policy,
                                                         std::string *error)
{
    std::string policyFile, workDir, user, bridge, status;
    bool havePolicy = false, haveWorkDir = false, haveUser = false, haveBridge = false, seccompOnly = false;
    int statusFd = -1;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h")
            return Request::Help;
        if (arg == "--report" && argc == 2)
            return Request::Report;
        if (arg == "--seccomp-only") {
            seccompOnly = true;
            continue;
        }
        if (arg == "--status-fd") {
            // Parsed at once, so that even a usage error after it reaches the studio.
            if (i + 1 >= argc || !parseFd(argv[i + 1], &statusFd) || statusFd < 3) {
                *error = "--status-fd needs a file descriptor number of 3 or more";
                return Request::Invalid;
            }
            s_statusFd = statusFd;
            ::fcntl(statusFd, F_SETFD, FD_CLOEXEC);
            ++i;
            continue;
        }
        if (arg == "--") {
            ++i;
            break;
        }
        std::string *target = nullptr;
        bool *seen = nullptr;
        if (arg == "--policy") {
            target = &policyFile, seen = &havePolicy;
        } else if (arg == "--workdir") {
            target = &workDir, seen = &haveWorkDir;
        } else if (arg == "--user") {
            target = &user, seen = &haveUser;
        } else if (arg == "--bridge-fd") {
            target = &bridge, seen = &haveBridge;
        } else if (!arg.empty() && arg.front() == '-') {
            *error = "unknown option " + arg + "; run toolstudio-sandbox --help";
            return Request::Invalid;
        } else {
            break; // PROGRAM
        }
        if (i + 1 >= argc) {
            *error = arg + " needs a value; run toolstudio-sandbox --help";
            return Request::Invalid;
        }
        *target = argv[++i];
        *seen = true;
    }
    std::vector<std::string> program(argv + i, argv + argc);

    if (havePolicy) {
        if (haveWorkDir || haveUser || haveBridge || seccompOnly || !program.empty()) {
            *error = "--policy cannot be combined with other options or a program; run toolstudio-sandbox --help";
            return Request::Invalid;
        }
        std::string text;
        if (!readFile(policyFile, MaxPolicyBytes, &text)) {
            *error = "cannot read the policy file " + policyFile + ": " + errnoText(errno);
            return Request::Invalid;
        }
        try {
            *policy = SandboxPolicy::fromJson(nlohmann::json::parse(text));
        } catch (const std::exception &e) {
            *error = "policy file " + policyFile + ": " + e.what();
            return Request::Invalid;
        }
        if (statusFd >= 0)
            policy->statusFd = statusFd;
        if (policy->statusFd >= 0)
            s_statusFd = policy->statusFd;
        return Request::Run;
    }

    if (program.empty() || program.front().empty()) {
        *error = "no program to run; run toolstudio-sandbox --help";
        return Request::Invalid;
    }
    SandboxPolicy parsed;
    parsed.argv = std::move(program);
    parsed.seccompOnly = seccompOnly;
    parsed.statusFd = statusFd;
    if (haveBridge) {
        if (!parseFd(bridge, &parsed.bridgeFd) || parsed.bridgeFd < 3) {
            *error = "--bridge-fd needs a file descriptor number of 3 or more, not \"" + bridge + "\"";
            return Request::Invalid;
        }
    }
    if (haveUser) {
        if (user.empty()) {
            *error = "--user needs a user name";
            return Request::Invalid;
        }
        parsed.runAsUser = user;
    }
    if (!haveWorkDir) {
        if (::geteuid() == 0) {
            *error = "--workdir is required when running as root (the work dir is handed to the sandbox user)";
            return Request::Invalid;
        }
        workDir = currentDirectory();
    } else if (workDir.empty()) {
        *error = "--workdir needs a directory";
        return Request::Invalid;
    } else if (workDir.front() != '/') {
        workDir = currentDirectory() + "/" + workDir;
    }
    if (workDir.empty() || workDir.front() != '/') {
        *error = "cannot determine the current directory: " + errnoText(errno) + "; pass --workdir";
        return Request::Invalid;
    }
    parsed.workDir = workDir;
    *policy = std::move(parsed);
    return Request::Run;
}

LaunchSequence::LaunchSequence(SandboxPolicy policy, pid_t parentAtStart)
    : m_policy(std::move(policy))
    , m_parent(m_policy.parentPid > 0 ? pid_t(m_policy.parentPid) : parentAtStart)
    , m_killUnlisted(SeccompFilter::killUnlistedFromEnvironment()) // read before the environment is replaced
{}

LaunchSequence::Failure LaunchSequence::run()
{
    if (stepParent() && stepSession() && stepPidsCgroup() && stepCredentials() && stepLimits() && stepWorkDir()
        && stepFds() && stepEnvironment() && stepResolveProgram() && stepNoNewPrivs() && stepLandlock() && stepSeccomp()
        && stepWaitForGo())
        stepExec();
    return m_failure;
}

void LaunchSequence::exitWith(const Failure &failure)
{
    std::string line = "toolstudio-sandbox: ";
    line += SandboxExit::stepName(failure.exitStatus);
    line += ": ";
    for (char c : failure.reason)
        line += (c == '\n' || c == '\r') ? ' ' : c;
    line += '\n';
    sendStatus("failure " + std::to_string(failure.exitStatus) + " " + line.substr(20, line.size() - 21));
    writeAll(STDERR_FILENO, line);
    ::_exit(failure.exitStatus);
}

bool LaunchSequence::fail(int exitStatus, std::string reason)
{
    m_failure = {exitStatus, std::move(reason)};
    return false;
}

bool LaunchSequence::checkParent(const char *when)
{
    const pid_t parent = ::getppid();
    if (parent != m_parent)
        return fail(SandboxExit::Parent,
                    "the process that started the sandbox (pid " + std::to_string(m_parent) + ") exited " + when
                        + "; nothing to run for");
    return true;
}

bool LaunchSequence::stepParent()
{
    // The studio may die between fork and this prctl: then the signal never comes, so
    // the parent is checked again right after.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
        return fail(SandboxExit::Parent, "prctl(PR_SET_PDEATHSIG) failed: " + errnoText(errno));
    return checkParent("before the sandbox was set up");
}

bool LaunchSequence::stepSession()
{
    if (::setsid() != -1)
        return true;
    if (errno != EPERM)
        return fail(SandboxExit::Session, "setsid failed: " + errnoText(errno));

    // Already a process group leader: a shell with job control started us by hand.
    // Fork once; the child (never a leader) starts the session, this process stays in
    // the shell's job, relays terminating signals and mirrors the child's exit.
    const pid_t self = ::getpid();
    const pid_t child = ::fork();
    if (child == -1)
        return fail(SandboxExit::Session,
                    "setsid is not possible for a process group leader and fork failed: " + errnoText(errno));
    if (child == 0) {
        m_parent = self;
        if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
            return fail(SandboxExit::Parent, "prctl(PR_SET_PDEATHSIG) failed: " + errnoText(errno));
        if (!checkParent("before the sandbox was set up"))
            return false;
        if (::setsid() == -1)
            return fail(SandboxExit::Session, "setsid failed: " + errnoText(errno));
        return true;
    }
    s_relayChild = child;
    struct sigaction action = {};
    action.sa_handler = relaySignal;
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        ::sigaction(signal, &action, nullptr);
    std::string ignored;
    closeFrom(3, &ignored); // the bridge must see EOF when the child ends
    int status = 0;
    while (::waitpid(child, &status, 0) == -1) {
        if (errno != EINTR)
            ::_exit(SandboxExit::Session);
    }
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

bool LaunchSequence::stepPidsCgroup()
{
    // Before the user switch: the cgroup's files belong to the studio's user.
    std::string error;
    if (!m_policy.pidsCgroup.empty() && !PidsCgroup::join(m_policy.pidsCgroup, &error))
        return fail(SandboxExit::Limits, error + "; the run's process budget cannot be enforced");
    return true;
}

bool LaunchSequence::stepCredentials()
{
    if (::geteuid() != 0) {
        m_sandboxUid = ::getuid(); // its name only when a message needs it (userLabel)
        return true;
    }

    // Root ignores RLIMIT_NPROC and file permissions: scripts never run as root.
    const std::string &name = m_policy.runAsUser;
    if (name.empty())
        return fail(SandboxExit::Credentials,
                    "started as root without a sandbox user; set one in Settings (default: nobody)");
    errno = 0;
    const passwd *pw = ::getpwnam(name.c_str());
    if (!pw)
        return fail(SandboxExit::Credentials,
                    errno ? "cannot look up the sandbox user \"" + name + "\": " + errnoText(errno)
                          : "there is no user \"" + name + "\"; create it or choose another sandbox user in Settings");
    const uid_t uid = pw->pw_uid;
    const gid_t gid = pw->pw_gid;
    m_sandboxUid = uid;
    m_sandboxUserName = pw->pw_name;
    if (uid == 0 || gid == 0)
        return fail(SandboxExit::Credentials,
                    "the sandbox user \"" + name + "\" has uid or gid 0; choose an unprivileged user in Settings");

    // The work dir becomes the sandbox user's, so the script can write there.
    const int dir = retry([&] { return ::open(m_policy.workDir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); });
    if (dir == -1)
        return fail(SandboxExit::Credentials,
                    "cannot open the work dir " + m_policy.workDir + " to hand it to " + name + ": " + errnoText(errno)
                        + "; create it first");
    if (std::string reason = checkDedicatedWorkDir(dir, uid); !reason.empty()) {
        ::close(dir);
        return fail(SandboxExit::Credentials,
                    "refusing to hand " + m_policy.workDir + " to " + name + ": " + reason
                        + "; use a directory of its own for the run (e.g. under /tmp)");
    }
    // Everything in it too (the project's files/ were copied in by root), then the dir.
    const int listing = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
    if (listing == -1) {
        const int error = errno;
        ::close(dir);
        return fail(SandboxExit::Credentials,
                    "cannot hand the work dir " + m_policy.workDir + " to " + name + ": " + errnoText(error));
    }
    if (std::string reason = chownTree(listing, uid, gid, 0); !reason.empty()) {
        ::close(dir);
        return fail(SandboxExit::Credentials,
                    "cannot hand the work dir " + m_policy.workDir + " to " + name + ": " + reason);
    }
    const int chowned = ::fchown(dir, uid, gid);
    const int chownError = errno;
    ::close(dir);
    if (chowned == -1)
        return fail(SandboxExit::Credentials,
                    "cannot hand the work dir " + m_policy.workDir + " to " + name
                        + " (fchown): " + errnoText(chownError));

    if (::setgroups(0, nullptr) == -1)
        return fail(SandboxExit::Credentials, "setgroups(0) failed: " + errnoText(errno));
    if (::setgid(gid) == -1)
        return fail(SandboxExit::Credentials, "setgid(" + std::to_string(gid) + ") failed: " + errnoText(errno));
    if (::setuid(uid) == -1)
        return fail(SandboxExit::Credentials, "setuid(" + std::to_string(uid) + ") failed: " + errnoText(errno));

    // Verify the switch is complete and cannot be undone.
    if (::getuid() != uid || ::geteuid() != uid || ::getgid() != gid || ::getegid() != gid
        || ::getgroups(0, nullptr) != 0)
        return fail(SandboxExit::Credentials, "the switch to " + name + " left other ids in place");
    if (::setuid(0) != -1 || ::setgid(0) != -1)
        return fail(SandboxExit::Credentials, "the switch to " + name + " can be undone (setuid(0) succeeded)");
    __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capget, &header, caps) == -1)
        return fail(SandboxExit::Credentials, "capget failed: " + errnoText(errno));
    for (const auto &set : caps) {
        if (set.effective || set.permitted || set.inheritable)
            return fail(SandboxExit::Credentials, "capabilities are left after the switch to " + name);
    }

    // A change of effective uid clears the parent-death signal (prctl(2)): arm it again.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
        return fail(SandboxExit::Parent, "prctl(PR_SET_PDEATHSIG) failed: " + errnoText(errno));
    return checkParent("while the sandbox switched users");
}

long LaunchSequence::countTasksOfUser(uid_t uid)
{
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return -1;
    long total = 0;
    while (const dirent *entry = ::readdir(proc)) {
        int pid = 0;
        if (!parseFd(entry->d_name, &pid))
            continue;
        // /proc/<pid> belongs to the task's effective uid: skip the other users'
        // processes without reading their status (the scan is on every run's start).
        struct stat owner = {};
        if (::fstatat(::dirfd(proc), entry->d_name, &owner, 0) == -1 || owner.st_uid != uid)
            continue;
        std::string status;
        if (!readFile(std::string("/proc/") + entry->d_name + "/status", 64 * 1024, &status))
            continue; // exited meanwhile
        const std::size_t uidAt = status.find("\nUid:");
        if (uidAt == std::string::npos || std::strtoul(status.c_str() + uidAt + 5, nullptr, 10) != uid)
            continue;
        const std::size_t threadsAt = status.find("\nThreads:");
        total += threadsAt == std::string::npos
            ? 1
            : std::max(1L, std::strtol(status.c_str() + threadsAt + 9, nullptr, 10));
    }
    ::closedir(proc);
    return total;
}

bool LaunchSequence::stepLimits()
{
    const SandboxLimits &limits = m_policy.limits;
    struct Limit
    {
        int resource;
        const char *name;
        std::uint64_t value;
        bool apply;
    };
    std::uint64_t processes = 0;
    // With a pids cgroup, its pids.max bounds the run; RLIMIT_NPROC would count the
    // sandbox user's other runs too, so it is left as it is.
    const bool nproc = limits.extraProcesses != 0 && m_policy.pidsCgroup.empty();
    if (nproc) {
        // RLIMIT_NPROC counts every task of the user, so the budget is on top of what
        // the user already runs (SANDBOX.md "Limits").
        const long count = countTasksOfUser(::getuid());
        if (count < 0)
            return fail(SandboxExit::Limits,
                        "cannot count the processes of " + userLabel(::getuid(), m_sandboxUserName)
                            + " in /proc: " + errnoText(errno) + "; mount /proc");
        processes = std::uint64_t(count) + limits.extraProcesses;
    }
    const Limit table[] = {
        {RLIMIT_CORE, "RLIMIT_CORE", 0, true},
        {RLIMIT_CPU, "RLIMIT_CPU", limits.cpuSeconds, limits.cpuSeconds != 0},
        {RLIMIT_DATA, "RLIMIT_DATA", limits.dataBytes, limits.dataBytes != 0},
        {RLIMIT_FSIZE, "RLIMIT_FSIZE", limits.fileSizeBytes, limits.fileSizeBytes != 0},
        {RLIMIT_NOFILE, "RLIMIT_NOFILE", limits.openFiles, limits.openFiles != 0},
        {RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK", 0, true},
        {RLIMIT_MSGQUEUE, "RLIMIT_MSGQUEUE", 0, true},
        {RLIMIT_NPROC, "RLIMIT_NPROC", processes, nproc},
    };
    for (const Limit &limit : table) {
        if (!limit.apply)
            continue;
        rlimit current = {};
        if (::getrlimit(limit.resource, &current) == -1)
            return fail(SandboxExit::Limits, std::string("getrlimit(") + limit.name + ") failed: " + errnoText(errno));
        // An unprivileged process cannot raise its hard limit: keep the lower one.
        rlim_t value = rlim_t(limit.value);
        if (current.rlim_max != RLIM_INFINITY && value > current.rlim_max)
            value = current.rlim_max;
        // RLIMIT_CPU: the hard limit one second later, so the script first gets
        // SIGXCPU (a readable "CPU time limit") rather than a bare SIGKILL.
        rlim_t hard = value;
        if (limit.resource == RLIMIT_CPU && (current.rlim_max == RLIM_INFINITY || value < current.rlim_max))
            hard = value + 1;
        const rlimit wanted = {value, hard};
        if (::setrlimit(limit.resource, &wanted) == -1)
            return fail(SandboxExit::Limits,
                        std::string("setrlimit(") + limit.name + ", " + std::to_string(value)
                            + ") failed: " + errnoText(errno));
    }
    return true;
}

bool LaunchSequence::stepWorkDir()
{
    const std::string &dir = m_policy.workDir;
    const auto who = [this] { return userLabel(::getuid(), m_sandboxUserName); };
    if (::chdir(dir.c_str()) == -1) {
        const int error = errno;
        if (error == EACCES)
            return fail(SandboxExit::WorkDir,
                        "cannot enter the work dir " + dir + " as " + who() + ": " + errnoText(error)
                            + "; make it and every parent directory searchable by that user");
        if (error == ENOENT || error == ENOTDIR)
            return fail(SandboxExit::WorkDir,
                        "the work dir " + dir + " does not exist: " + errnoText(error) + "; create it first");
        return fail(SandboxExit::WorkDir, "cannot enter the work dir " + dir + ": " + errnoText(error));
    }
    if (::access(".", W_OK) == -1)
        return fail(SandboxExit::WorkDir,
                    "the work dir " + dir + " is not writable by " + who() + ": " + errnoText(errno)
                        + "; give that user write access");
    return true;
}

bool LaunchSequence::stepFds()
{
    // 0..2 must exist, or the script's first open() would become its stdout.
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        const int null = retry([] { return ::open("/dev/null", O_RDWR); });
        if (null != fd)
            return fail(SandboxExit::Fds,
                        "cannot open /dev/null as fd " + std::to_string(fd) + ": "
                            + errnoText(null == -1 ? errno : EBADF));
    }

    std::string error;
    // The status channel goes to the fd after the bridge's (3 or 4), close-on-exec.
    // First out of the way of 3 and 4, which the moves below may overwrite.
    int status = m_policy.statusFd;
    if (status >= 0) {
        status = ::fcntl(status, F_DUPFD_CLOEXEC, 5);
        if (status == -1)
            return fail(SandboxExit::Fds,
                        "cannot move the status channel fd " + std::to_string(m_policy.statusFd) + ": "
                            + errnoText(errno));
    }
    const auto placeStatus = [&](int target) {
        if (status < 0)
            return closeFrom(unsigned(target), &error);
        int rc;
        do {
            rc = ::dup3(status, target, O_CLOEXEC);
        } while (rc == -1 && (errno == EINTR || errno == EBUSY));
        if (rc == -1) {
            error = "cannot move the status channel to fd " + std::to_string(target) + ": " + errnoText(errno);
            return false;
        }
        m_policy.statusFd = target;
        s_statusFd = target;
        return closeFrom(unsigned(target) + 1, &error);
    };
    const int bridge = m_policy.bridgeFd;
    if (bridge < 0) {
        if (!placeStatus(3))
            return fail(SandboxExit::Fds, error);
        return true;
    }
    if (bridge < 3)
        return fail(SandboxExit::Fds, "the bridge fd must be 3 or more, not " + std::to_string(bridge));
    const int flags = ::fcntl(bridge, F_GETFD);
    if (flags == -1)
        return fail(SandboxExit::Fds,
                    "the bridge fd " + std::to_string(bridge) + " is not open: " + errnoText(errno)
                        + "; the caller must pass it without FD_CLOEXEC");
    if (bridge == 3) {
        if (::fcntl(3, F_SETFD, flags & ~FD_CLOEXEC) == -1)
            return fail(SandboxExit::Fds, "cannot clear FD_CLOEXEC on the bridge: " + errnoText(errno));
    } else {
        // dup2 leaves the new fd without FD_CLOEXEC; the old one is closed below.
        int rc;
        do {
            rc = ::dup2(bridge, 3);
        } while (rc == -1 && (errno == EINTR || errno == EBUSY));
        if (rc == -1)
            return fail(SandboxExit::Fds,
                        "cannot move the bridge fd " + std::to_string(bridge) + " to 3: " + errnoText(errno));
    }
    if (!placeStatus(4))
        return fail(SandboxExit::Fds, error);
    return true;
}

std::vector<std::string> LaunchSequence::buildEnvironment(const SandboxPolicy &policy)
{
    std::vector<std::pair<std::string, std::string>> entries = {
        {"PATH", policy.path},   {"HOME", policy.workDir},      {"TMPDIR", policy.workDir},       {"LANG", policy.lang},
        {"LC_ALL", policy.lang}, {"PYTHONIOENCODING", "utf-8"}, {"PYTHONDONTWRITEBYTECODE", "1"},
    };
    if (policy.bridgeFd >= 0)
        entries.emplace_back("TOOLSTUDIO_BRIDGE_FD", "3");
    for (const auto &[name, value] : policy.env) {
        bool replaced = false;
        for (auto &entry : entries) {
            if (entry.first == name) {
                entry.second = value;
                replaced = true;
            }
        }
        if (!replaced)
            entries.emplace_back(name, value);
    }
    std::vector<std::string> environment;
    environment.reserve(entries.size());
    for (const auto &[name, value] : entries)
        environment.push_back(name + "=" + value);
    return environment;
}

bool LaunchSequence::stepEnvironment()
{
    for (const auto &[name, value] : m_policy.env) {
        if (name.empty() || name.find('=') != std::string::npos)
            return fail(SandboxExit::Environment, "\"" + name + "\" is not a valid environment variable name");
    }
    // The launcher's own environment is the studio's: drop it, so nothing of it can
    // reach the child by accident (execve gets an explicit list anyway).
    if (::clearenv() != 0)
        return fail(SandboxExit::Environment, "clearenv failed");
    m_environment = buildEnvironment(m_policy);
    return true;
}

bool LaunchSequence::stepResolveProgram()
{
    const std::string &name = m_policy.argv.front();
    const auto who = [this] { return userLabel(::getuid(), m_sandboxUserName); };
    // Checked as the sandbox user, so "cannot run" is reported before the filters.
    const auto check = [&](const std::string &path, int *error) {
        struct stat info = {};
        if (::stat(path.c_str(), &info) == -1) {
            *error = errno;
            return false;
        }
        if (!S_ISREG(info.st_mode)) {
            *error = EACCES;
            return false;
        }
        if (::access(path.c_str(), X_OK) == -1) {
            *error = errno;
            return false;
        }
        return true;
    };

    int error = 0;
    if (name.find('/') != std::string::npos) {
        if (!check(name, &error)) {
            if (error == ENOENT || error == ENOTDIR)
                return fail(SandboxExit::Exec,
                            "cannot run " + name + ": " + errnoText(error)
                                + "; install the interpreter or set its path in Settings");
            return fail(SandboxExit::Exec,
                        who() + " cannot run " + name + ": " + errnoText(error)
                            + "; make it and its directories readable and executable by that user");
        }
        m_program = name;
        return true;
    }

    bool denied = false;
    std::string::size_type start = 0;
    while (start <= m_policy.path.size()) {
        const auto end = std::min(m_policy.path.find(':', start), m_policy.path.size());
        const std::string dir = m_policy.path.substr(start, end - start);
        start = end + 1;
        if (dir.empty())
            continue; // an empty entry would mean the cwd: never implicitly
        const std::string candidate = dir + "/" + name;
        if (check(candidate, &error)) {
            m_program = candidate;
            return true;
        }
        if (error == EACCES)
            denied = true;
    }
    if (denied)
        return fail(SandboxExit::Exec,
                    who() + " may not run " + name + " found on PATH (" + m_policy.path
                        + "); make it readable and executable by that user");
    return fail(SandboxExit::Exec,
                name + " was not found on PATH (" + m_policy.path + "); install it or give its absolute path");
}

bool LaunchSequence::stepNoNewPrivs()
{
    // Required before an unprivileged seccomp filter, and keeps setuid binaries inert.
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
        return fail(SandboxExit::NoNewPrivs, "prctl(PR_SET_NO_NEW_PRIVS) failed: " + errnoText(errno));
    if (::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
        return fail(SandboxExit::NoNewPrivs, "PR_SET_NO_NEW_PRIVS did not stick");
    return true;
}

bool LaunchSequence::applyLandlock(const SandboxPolicy &policy, const std::string &program, int *abi,
                                   std::string *error)
{
    std::string why;
    *abi = Landlock::abiVersion(&why);
    if (*abi == 0) {
        if (policy.seccompOnly)
            return true; // the user opted in; the studio marks the run
        *error = why
            + "; the sandbox refuses to run scripts without it (their file system and TCP access would be "
              "unrestricted). Enable Landlock, or opt in to seccomp-only mode in Settings "
              "(toolstudio-sandbox --seccomp-only)";
        return false;
    }
    std::vector<std::string> readExecute = policy.readPaths;
    // The interpreter's own prefix (it may live outside /usr) — but never a prefix that
    // would make the work dir executable or open the whole tree.
    const std::string prefix = Landlock::interpreterPrefix(program);
    const auto beneath = [](const std::string &path, const std::string &dir) {
        return path == dir
            || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
    };
    if (!prefix.empty() && prefix != "/" && !beneath(prefix, policy.workDir) && !beneath(policy.workDir, prefix))
        readExecute.push_back(prefix);
    *error = Landlock::restrictSelf(*abi, Landlock::defaultRules(policy.workDir, readExecute));
    return error->empty();
}

bool LaunchSequence::stepLandlock()
{
    std::string error;
    if (!applyLandlock(m_policy, m_program, &m_landlockAbi, &error))
        return fail(SandboxExit::Landlock, error);
    if (!sendStatus("landlock " + std::to_string(m_landlockAbi)))
        return fail(SandboxExit::Landlock, "cannot report the Landlock ABI to the studio: " + errnoText(errno));
    return true;
}

bool LaunchSequence::stepSeccomp()
{
    SeccompFilter::Options options;
    options.unlisted = m_killUnlisted ? SeccompFilter::Unlisted::Kill : SeccompFilter::Unlisted::Enosys;
    options.notify = m_policy.statusFd >= 0;
    options.studioPid = m_parent;
    const SeccompFilter::Result result = SeccompFilter::install(options);
    if (!result.error.empty())
        return fail(SandboxExit::Seccomp, result.error + "; the kernel needs seccomp filters (CONFIG_SECCOMP_FILTER)");
    if (result.listenerFd >= 0) {
        // The studio answers the policy-event calls; this process must not keep the
        // listener (the script could answer its own calls).
        const bool sent = sendStatus("listener", result.listenerFd);
        const int error = errno;
        ::close(result.listenerFd);
        if (!sent)
            return fail(SandboxExit::Seccomp,
                        "cannot hand the policy-event listener to the studio: " + errnoText(error));
    }
    return true;
}

bool LaunchSequence::stepWaitForGo()
{
    if (!m_policy.waitForGo)
        return true;
    if (s_statusFd < 0)
        return fail(SandboxExit::Usage, "wait_for_go needs a status channel (--status-fd)");
    if (!sendStatus("ready"))
        return fail(SandboxExit::Parent, "cannot tell the studio the sandbox is ready: " + errnoText(errno));
    std::string message(SandboxGo::MaxBytes, '\0');
    const ssize_t n = retry([&] { return ::read(s_statusFd, message.data(), message.size()); });
    message.resize(n > 0 ? std::size_t(n) : 0);
    if (message != "go" && message.rfind("go ", 0) != 0)
        return fail(SandboxExit::Parent,
                    "the studio did not start the pre-warmed run (no \"go\" on the status channel)");
    if (message.size() <= 3)
        return true;
    // The run's own parts (SandboxGo): only names and strings change here, every
    // restriction is in place already.
    SandboxGo go;
    try {
        go = SandboxGo::fromJson(nlohmann::json::parse(message.substr(3)));
    } catch (const std::exception &error) {
        return fail(SandboxExit::Usage, std::string("bad \"go\" handover: ") + error.what());
    }
    if (!go.workDir.empty()) {
        struct stat here = {};
        struct stat named = {};
        if (::stat(".", &here) == -1 || ::stat(go.workDir.c_str(), &named) == -1 || here.st_dev != named.st_dev
            || here.st_ino != named.st_ino)
            return fail(SandboxExit::WorkDir,
                        "the \"go\" handover names " + go.workDir + ", which is not the work dir the sandbox entered");
        m_policy.workDir = go.workDir;
    }
    m_policy.argv.insert(m_policy.argv.end(), go.argv.begin(), go.argv.end());
    for (const auto &entry : go.env) {
        bool replaced = false;
        for (auto &existing : m_policy.env) {
            if (existing.first == entry.first) {
                existing.second = entry.second;
                replaced = true;
            }
        }
        if (!replaced)
            m_policy.env.push_back(entry);
    }
    m_environment = buildEnvironment(m_policy);
    return true;
}

std::string LaunchSequence::report()
{
    std::string text = "toolstudio-sandbox --report\n";
    utsname host = {};
    if (::uname(&host) == 0)
        text += std::string("kernel: ") + host.sysname + " " + host.release + " " + host.machine + "\n";

    const bool filters = SeccompFilter::kernelHasFilters();
    text += std::string("seccomp: ") + (filters ? "enforced" : "NOT AVAILABLE (runs fail)")
        + " - allow-list for python3, bash and node; unlisted calls fail with ENOSYS "
          "(TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1: killed); foreign ABIs (x32, int 0x80) killed; network, ptrace, "
          "mount, namespaces, bpf, io_uring, memfd_create, SysV IPC, setsid/setpgid, setuid family refused\n";
    text += std::string("policy events: ")
        + (SeccompFilter::kernelHasUserNotification() ? "reported (seccomp user notification)"
                                                      : "not available (plain errno, no event)")
        + " - network, ptrace, mount/namespace calls and signals to the studio\n";

    std::string why;
    const int abi = Landlock::abiVersion(&why);
    if (abi > 0) {
        text += "landlock: ABI " + std::to_string(abi) + "\n";
        for (const std::string &line : Landlock::describeFeatures(abi))
            text += "  " + line + "\n";
    } else {
        text += "landlock: NOT AVAILABLE - " + why + "; runs are refused unless seccomp-only mode is opted in\n";
    }

    if (::geteuid() == 0) {
        const passwd *nobody = ::getpwnam("nobody");
        text += "user: started as root, scripts run as nobody"
            + (nobody ? " (uid " + std::to_string(nobody->pw_uid) + ")" : std::string(" (NOT FOUND: runs fail)"))
            + ", no capabilities, no supplementary groups\n";
    } else {
        text += "user: scripts run as uid " + std::to_string(::getuid()) + ", no new privileges\n";
    }
    const SandboxLimits limits;
    text += "limits: core files 0; CPU " + std::to_string(limits.cpuSeconds) + " s (run timeout + 5 s); memory "
        + std::to_string(limits.dataBytes >> 20) + " MiB (RLIMIT_DATA; node also --max-old-space-size); file size "
        + std::to_string(limits.fileSizeBytes >> 20) + " MiB; open files " + std::to_string(limits.openFiles)
        + "; locked memory 0; message queues 0\n";
    const PidsCgroup::Probe cgroups = PidsCgroup::probe();
    if (!cgroups.parent.empty())
        text += "processes: each run started by the studio gets its own pids cgroup (cgroup v"
            + std::to_string(cgroups.version) + ", under " + cgroups.parent + ") with pids.max "
            + std::to_string(limits.extraProcesses + 1) + " (" + std::to_string(limits.extraProcesses)
            + " + the interpreter), removed after the run; runs by hand: RLIMIT_NPROC = the user's tasks + "
            + std::to_string(limits.extraProcesses) + "\n";
    else
        text += "processes: RLIMIT_NPROC = the sandbox user's tasks + " + std::to_string(limits.extraProcesses)
            + ", SHARED by that user's concurrent runs (a fork bomb in one can starve another): " + cgroups.why + "\n";
    text += "run: timeout 300 s (paused while a call waits for a person), then the process group is killed and "
            "confirmed gone; stdout and stderr 10 MiB each, then truncated with a notice\n";
    text += "environment: PATH, HOME=TMPDIR=work dir, LANG/LC_ALL, PYTHONIOENCODING, shim paths, "
            "TOOLSTUDIO_BRIDGE_FD=3; fds 0-3 only\n";
    text += "known limits: a script can stat any path (Landlock does not restrict stat); it can read "
            "/proc/<pid>/cmdline of other processes of the same user\n";
    return text;
}

void LaunchSequence::stepExec()
{
    std::vector<char *> argv;
    for (std::string &arg : m_policy.argv)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (std::string &entry : m_environment)
        envp.push_back(entry.data());
    envp.push_back(nullptr);

    int rc;
    do {
        rc = ::execve(m_program.c_str(), argv.data(), envp.data());
    } while (rc == -1 && errno == EINTR);
    fail(SandboxExit::Exec, "cannot run " + m_program + ": " + errnoText(errno));
}
