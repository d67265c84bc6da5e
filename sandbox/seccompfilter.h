// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <linux/filter.h>
#include <string>
#include <sys/types.h>
#include <vector>

/// The seccomp-bpf filter `toolstudio-sandbox` loads just before execve (SANDBOX.md
/// "seccomp"), built with libseccomp for the native architecture only.
///
/// It is an allow-list: what python3, bash (with coreutils) and node need for
/// ordinary work is allowed; every other call fails with ENOSYS (so glibc's and
/// libuv's probes fall back), or kills the process in the "kill on unlisted" variant
/// (CI runs the ordinary workloads under it to find gaps). A foreign ABI (i386
/// `int 0x80`, x32 numbers on x86_64) always kills the process. Refused with an errno
/// the script sees as an ordinary error, whatever the variant:
///
/// | call | errno |
/// |---|---|
/// | socket of any family but AF_UNIX; socketpair of another family | EAFNOSUPPORT |
/// | socket(AF_UNIX) (could reach a named socket), socketpair(AF_UNIX) other than SOCK_STREAM / SOCK_SEQPACKET | EPERM |
/// | connect, bind | EACCES |
/// | listen, accept, accept4 | EPERM |
/// | ptrace, process_vm_readv/writev, pidfd_open/getfd/send_signal | EPERM |
/// | mount, umount2, pivot_root, chroot, unshare, setns, fsopen, fsconfig, fsmount, fspick, move_mount, open_tree, mount_setattr | EPERM |
/// | clone with CLONE_NEWUSER/NEWNS/NEWPID/NEWNET/NEWIPC/NEWUTS/NEWCGROUP or CLONE_PARENT | EPERM |
/// | clone3 (its flags live in memory seccomp cannot read; glibc falls back to clone) | ENOSYS |
/// | bpf, perf_event_open, userfaultfd, keyctl, add_key, request_key, io_uring_*, kexec_*, *_module, iopl, ioperm, syslog, reboot, swapon/off | EPERM |
/// | memfd_create (fileless exec), SysV IPC, POSIX message queues | EPERM |
/// | setsid, setpgid (no escaping the group kill); setuid family, setgroups, capset | EPERM |
/// | kill/tkill/tgkill/rt_(tg)sigqueueinfo to a pid outside 0..INT_MAX (low 32 bits) | EPERM |
/// | the same to a process outside the run (`legacyLandlock` with `notify`: checked by the studio) | EPERM |
/// | truncate by path; open/openat with O_TRUNC but without O_WRONLY/O_RDWR (`legacyLandlock`) | EACCES |
/// | ioctl TIOCSTI, TIOCLINUX (low 32 bits); other ioctls but the listed queries | EPERM / unlisted |
/// | fcntl F_SETOWN, F_SETOWN_EX, F_SETSIG, F_SETLEASE, F_NOTIFY | EPERM |
/// | personality other than the query (0xffffffff) | EPERM |
/// | prlimit64 on another process | EPERM |
/// | setpriority / ioprio_set other than on itself or its own group (who = 0): PRIO_USER, another pid or group | EPERM |
/// | open / openat with O_PATH but not O_DIRECTORY (Landlock does not check O_PATH opens) | EPERM |
/// | openat2 (its flags live in memory; libc falls back to openat) | ENOSYS |
/// | chown, fchown, lchown, fchownat | EPERM |
/// | setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr | EOPNOTSUPP |
/// | inotify_init(1), inotify_add_watch, inotify_rm_watch, fanotify_init, fanotify_mark (no file watching) | ENOSYS |
/// | chmod, fchmod, fchmodat, fchmodat2, utime, utimes, utimensat, futimesat | with notify: brokered (MetadataBroker), else EPERM |
///
/// With `Options::notify`, the attempts a person should see (network, ptrace family,
/// mount/namespace calls, kill of the studio or of pid -1) go to a seccomp user
/// notification listener instead: the studio answers each with refusalErrno() and
/// records a policy event (PolicyListener). The mode and time changes go there too:
/// the studio performs them beneath the work dir and refuses them elsewhere.
///
/// The tool worker profile (trusted code: the Python tool worker, command tools;
/// docs/sandbox.md "Trusted code") is the same rule set with ALLOW as the default: a
/// deny-list of the kernel surface above — ptrace family, mount and namespace calls,
/// new namespaces in clone, clone3 and openat2 (ENOSYS), bpf, perf_event_open,
/// userfaultfd, keyctl family, io_uring, kexec, modules, iopl/ioperm, syslog, reboot,
/// swap, inotify/fanotify, chown family, xattr changes, TIOCSTI/TIOCLINUX, personality
/// changes, the fcntl owner/lease/notify commands, setpriority/ioprio_set/prlimit64
/// beyond itself, signals to -1 and to the studio or its group, and below Landlock ABI
/// 6 the O_TRUNC/truncate rules — all with the errno above, never notified. Sockets:
/// any family, or with `network` false only AF_UNIX (EAFNOSUPPORT otherwise).
/// Allowed unlike scripts: memfd_create, SysV IPC, message queues, setsid/setpgid, the
/// setuid family (no capabilities), O_PATH, mode and time changes (a residual).
namespace SeccompFilter {

/// Whose filter: an agent script's allow-list or trusted code's deny-list.
enum class Profile {
    Script,
    ToolWorker,
};

/// What happens to a call that is not on the allow-list.
enum class Unlisted {
    Enosys, ///< fails with ENOSYS (the default)
    Kill,   ///< kills the process with SIGSYS (CI: TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1)
};

struct Options
{
    Unlisted unlisted = Unlisted::Enosys;
    /// Route the policy-event calls to a user-notification listener (returned by install()).
    bool notify = false;
    /// The studio's pid: kill/tgkill/... aimed at it are policy events (0 = none).
    pid_t studioPid = 0;
    /// Landlock below ABI 6 (an older kernel, a cap, or none): seccomp adds what it
    /// lacks. ABI 3's truncate right: truncate() by path and open/openat with O_TRUNC
    /// but neither O_WRONLY nor O_RDWR (Landlock < 3 checks only read access then) fail
    /// with EACCES, as Landlock's refusal would. ABI 6's signal scoping, with `notify`:
    /// every kill/tkill/tgkill/rt_(tg)sigqueueinfo naming a pid other than 0 goes to
    /// the listener, which lets it through only when the target is in the caller's
    /// session (the run; SignalBroker).
    bool legacyLandlock = false;
    Profile profile = Profile::Script;
    /// Profile::ToolWorker only: sockets of every family; false: AF_UNIX only (the
    /// project's `sandbox.tools_network: false`).
    bool network = true;
};

struct Result
{
    std::string error;   ///< "" on success, else the failing libseccomp call and errno text
    int listenerFd = -1; ///< the user-notification listener when Options::notify (close-on-exec)
};

/// Builds the filter with libseccomp and returns its BPF program (seccomp_export_bpf).
/// Used at build time only, by toolstudio-seccomp-gen: the launcher loads the programs
/// it generated (seccompprograms.inc) and never runs libseccomp itself, which took
/// most of its start-up time. "" on success, else the failing libseccomp call.
std::string build(const Options &options, std::vector<sock_filter> *program);

/// The studio's pid in the programs generated with Options::studioPid set: a value no
/// pid can take (above PID_MAX_LIMIT), replaced by the real pid when loading.
constexpr pid_t PidPlaceholder = 0x3a5c7e91;

/// Loads the filter generated at build time for `options` into the calling thread
/// (the launcher is single-threaded) with the raw seccomp() call, and with
/// SECCOMP_FILTER_FLAG_NEW_LISTENER when Options::notify. PR_SET_NO_NEW_PRIVS must be
/// set before. After success nothing can be undone: call it last before execve.
/// (seccompprogram.cpp: no libseccomp in the launcher.)
Result install(const Options &options);

/// The errno the filter gives a refused call `nr` with `args` (the same table as
/// above); the studio answers user notifications with it. 0 when the call would
/// be allowed.
int refusalErrno(int nr, const std::uint64_t args[6]);

/// libseccomp's name for syscall `nr` on this architecture; empty when it has none.
std::string resolvedName(int nr);
/// The syscall's name on the native architecture ("socket"), or "syscall <nr>".
std::string syscallName(int nr);

/// A short human-readable summary of the arguments that matter for a refused call,
/// e.g. "AF_INET, SOCK_STREAM" for socket, "pid 4242, SIGKILL" for kill.
std::string describeArguments(int nr, const std::uint64_t args[6]);

/// True when `getenv("TOOLSTUDIO_SECCOMP_KILL_UNLISTED")` is "1".
bool killUnlistedFromEnvironment();

/// Whether the kernel offers seccomp filters and user notification (for --report).
bool kernelHasFilters();
bool kernelHasUserNotification();

} // namespace SeccompFilter
