// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <linux/sched.h>
#include <sys/ioctl.h>

#ifndef FICLONE
#define FICLONE 0x40049409
#endif

/// The syscall tables of the seccomp filter (SeccompFilter::build, refusalErrno):
/// which calls are allowed, refused with which errno, brokered or notified, and the
/// argument values the conditional rules compare. Included by seccompfilter.cpp only.
namespace SeccompCalls {

/// What python3, bash with coreutils (ls, sort, sed, awk, …) and node need for
/// ordinary work, allowed without conditions. Grouped as in the man pages.
constexpr const char *AllowedCalls[] = {
    // file descriptors and files
    "read",
    "write",
    "readv",
    "writev",
    "pread64",
    "pwrite64",
    "preadv",
    "pwritev",
    "preadv2",
    "pwritev2",
    "creat",
    "close",
    "close_range",
    "dup",
    "dup2",
    "dup3",
    "lseek",
    "stat",
    "fstat",
    "lstat",
    "newfstatat",
    "statx",
    "statfs",
    "fstatfs",
    "access",
    "faccessat",
    "faccessat2",
    "getdents",
    "getdents64",
    "readlink",
    "readlinkat",
    "getcwd",
    "chdir",
    "fchdir",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "rmdir",
    "unlink",
    "unlinkat",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "mknod",
    "mknodat",
    "umask",
    "ftruncate", // truncate: see addRules
    "fallocate",
    "fsync",
    "fdatasync",
    "sync",
    "syncfs",
    "sync_file_range",
    "flock",
    "copy_file_range",
    "sendfile",
    "splice",
    "tee",
    "readahead",
    "fadvise64",
    "getxattr",
    "lgetxattr",
    "fgetxattr",
    "listxattr",
    "llistxattr",
    "flistxattr",
    "pipe",
    "pipe2",
    // memory
    "brk",
    "mmap",
    "munmap",
    "mprotect",
    "mremap",
    "madvise",
    "msync",
    "mincore",
    "membarrier",
    "pkey_alloc",
    "pkey_free",
    "pkey_mprotect",
    "get_mempolicy",
    // processes and threads (clone: see addConditionalRules)
    "fork",
    "vfork",
    "execve",
    "execveat",
    "exit",
    "exit_group",
    "wait4",
    "waitid",
    "set_tid_address",
    "set_robust_list",
    "get_robust_list",
    "rseq",
    "futex",
    "futex_waitv",
    "arch_prctl",
    "prctl",
    "sched_yield",
    "sched_getaffinity",
    "sched_getparam",
    "sched_getscheduler",
    "sched_get_priority_max",
    "sched_get_priority_min",
    "sched_getattr",
    "getpriority",
    "getcpu",
    "getpid",
    "getppid",
    "gettid",
    "getuid",
    "geteuid",
    "getgid",
    "getegid",
    "getresuid",
    "getresgid",
    "getgroups",
    "getpgrp",
    "getpgid",
    "getsid",
    "capget",
    "uname",
    "sysinfo",
    "getrusage",
    "times",
    "getrlimit",
    "setrlimit",
    "ioprio_get",
    // time
    "clock_gettime",
    "clock_getres",
    "clock_nanosleep",
    "gettimeofday",
    "time",
    "nanosleep",
    "alarm",
    "getitimer",
    "setitimer",
    "timer_create",
    "timer_settime",
    "timer_gettime",
    "timer_getoverrun",
    "timer_delete",
    "timerfd_create",
    "timerfd_settime",
    "timerfd_gettime",
    // signals (kill family: see addConditionalRules)
    "rt_sigaction",
    "rt_sigprocmask",
    "rt_sigreturn",
    "rt_sigpending",
    "rt_sigtimedwait",
    "rt_sigsuspend",
    "sigaltstack",
    "pause",
    "restart_syscall",
    "signalfd",
    "signalfd4",
    // waiting for events
    "eventfd",
    "eventfd2",
    "epoll_create",
    "epoll_create1",
    "epoll_ctl",
    "epoll_wait",
    "epoll_pwait",
    "epoll_pwait2",
    "poll",
    "ppoll",
    "select",
    "pselect6",
    // sockets that exist already (the bridge, socketpairs): no way to make new ones but socketpair
    "sendto",
    "recvfrom",
    "sendmsg",
    "recvmsg",
    "sendmmsg",
    "recvmmsg",
    "shutdown",
    "getsockopt",
    "setsockopt",
    "getsockname",
    "getpeername",
    // randomness
    "getrandom",
};

/// Refused with EPERM (or as listed) whatever the options and profile; the
/// policy-event calls (network, ptrace, mount, namespaces) are in NetworkCalls and
/// NotifiedCalls.
struct Refusal
{
    const char *name;
    int error;
};
constexpr Refusal RefusedCalls[] = {
    {"bpf", EPERM},
    {"perf_event_open", EPERM},
    {"userfaultfd", EPERM},
    {"keyctl", EPERM},
    {"add_key", EPERM},
    {"request_key", EPERM},
    {"io_uring_setup", EPERM},
    {"io_uring_enter", EPERM},
    {"io_uring_register", EPERM},
    {"kexec_load", EPERM},
    {"kexec_file_load", EPERM},
    {"init_module", EPERM},
    {"finit_module", EPERM},
    {"delete_module", EPERM},
    {"iopl", EPERM},
    {"ioperm", EPERM},
    {"syslog", EPERM},
    {"reboot", EPERM},
    {"swapon", EPERM},
    {"swapoff", EPERM},
    // clone3's flags live in memory seccomp cannot read: ENOSYS makes glibc fall back to clone.
    {"clone3", ENOSYS},
    // openat2's flags live in memory too (O_PATH opens escape Landlock's checks, see
    // addMetadataRules): ENOSYS makes glibc and the runtimes use openat.
    {"openat2", ENOSYS},
    // File watching (issue 16, class 2): inotify and fanotify report, live, the names
    // of files created and opened in directories Landlock does not let the script
    // list. ENOSYS is what a kernel without CONFIG_INOTIFY_USER says: libuv's
    // fs.watch() throws a catchable ENOSYS error, polling (fs.watchFile, watchdog's
    // PollingObserver) keeps working. F_NOTIFY (dnotify) is refused in fcntl.
    {"inotify_init", ENOSYS},
    {"inotify_init1", ENOSYS},
    {"inotify_add_watch", ENOSYS},
    {"inotify_rm_watch", ENOSYS},
    {"fanotify_init", ENOSYS},
    {"fanotify_mark", ENOSYS},
    // Ownership and extended attributes (ACLs included) are never changed by a
    // script (issue 16, class 1): Landlock does not govern them, so a path outside
    // the work dir would be reached. The sandbox user owns everything in its work
    // dir already. EOPNOTSUPP for the xattr calls is "this file system has none":
    // cp -a, shutil.copystat and tar skip them.
    {"chown", EPERM},
    {"fchown", EPERM},
    {"lchown", EPERM},
    {"fchownat", EPERM},
    {"setxattr", EOPNOTSUPP},
    {"lsetxattr", EOPNOTSUPP},
    {"fsetxattr", EOPNOTSUPP},
    {"removexattr", EOPNOTSUPP},
    {"lremovexattr", EOPNOTSUPP},
    {"fremovexattr", EOPNOTSUPP},
};

/// Refused for agent scripts only: trusted code (the tool worker profile) may use
/// them — multiprocessing's semaphores, subprocess's start_new_session, a library's
/// memfd — and runs as a uid without capabilities, so the setuid family changes nothing.
constexpr Refusal ScriptOnlyRefusals[] = {
    {"memfd_create", EPERM},    {"shmget", EPERM},    {"shmat", EPERM},         {"shmdt", EPERM},
    {"shmctl", EPERM},          {"semget", EPERM},    {"semop", EPERM},         {"semtimedop", EPERM},
    {"semctl", EPERM},          {"msgget", EPERM},    {"msgsnd", EPERM},        {"msgrcv", EPERM},
    {"msgctl", EPERM},          {"mq_open", EPERM},   {"mq_unlink", EPERM},     {"mq_timedsend", EPERM},
    {"mq_timedreceive", EPERM}, {"mq_notify", EPERM}, {"mq_getsetattr", EPERM}, {"setsid", EPERM},
    {"setpgid", EPERM},         {"setuid", EPERM},    {"setgid", EPERM},        {"setreuid", EPERM},
    {"setregid", EPERM},        {"setresuid", EPERM}, {"setresgid", EPERM},     {"setfsuid", EPERM},
    {"setfsgid", EPERM},        {"setgroups", EPERM}, {"capset", EPERM},
};

/// Mode and time changes (issue 16, class 1): with a listener the studio performs
/// them itself on the resolved file when it lies beneath the work dir
/// (PolicyListener, MetadataBroker) and refuses them (EPERM, a policy event)
/// otherwise; without a listener (run by hand) they are refused with EPERM.
constexpr const char *BrokeredCalls[] = {
    "chmod", "fchmod", "fchmodat", "fchmodat2", "utime", "utimes", "utimensat", "futimesat",
};

/// The calls a person should see in the trace (SANDBOX.md, issue "Policy events"):
/// the network (a script's; trusted code may use it) and the rest.
constexpr Refusal NetworkCalls[] = {
    {"socket", EAFNOSUPPORT}, // EPERM for AF_UNIX: see refusalErrno
    {"connect", EACCES},      {"bind", EACCES}, {"listen", EPERM}, {"accept", EPERM}, {"accept4", EPERM},
};
constexpr Refusal NotifiedCalls[] = {
    {"ptrace", EPERM},        {"process_vm_readv", EPERM}, {"process_vm_writev", EPERM},
    {"pidfd_open", EPERM},    {"pidfd_getfd", EPERM},      {"pidfd_send_signal", EPERM},
    {"mount", EPERM},         {"umount2", EPERM},          {"pivot_root", EPERM},
    {"chroot", EPERM},        {"unshare", EPERM},          {"setns", EPERM},
    {"fsopen", EPERM},        {"fsconfig", EPERM},         {"fsmount", EPERM},
    {"fspick", EPERM},        {"move_mount", EPERM},       {"open_tree", EPERM},
    {"mount_setattr", EPERM},
};

constexpr std::uint64_t NamespaceFlags[]
    = {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP};
constexpr const char *KillCalls[] = {"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"};
constexpr std::uint32_t AllowedIoctls[]
    = {TCGETS, TIOCGWINSZ, TIOCGPGRP, FIONBIO, FIOCLEX, FIONCLEX, FIONREAD, FICLONE};
constexpr std::uint32_t RefusedIoctls[] = {TIOCSTI, TIOCLINUX};
constexpr std::uint32_t AllowedFcntls[]
    = {F_DUPFD,  F_GETFD,         F_SETFD,      F_GETFL,      F_SETFL,      F_GETLK,    F_SETLK,
       F_SETLKW, F_DUPFD_CLOEXEC, F_OFD_GETLK,  F_OFD_SETLK,  F_OFD_SETLKW, F_GETOWN,   F_GETOWN_EX,
       F_GETSIG, F_GETLEASE,      F_SETPIPE_SZ, F_GETPIPE_SZ, F_ADD_SEALS,  F_GET_SEALS};
constexpr std::uint32_t RefusedFcntls[] = {F_SETOWN, F_SETOWN_EX, F_SETSIG, F_SETLEASE, F_NOTIFY};
constexpr std::uint32_t PersonalityQuery = 0xffffffffu;
#ifndef O_PATH
#define O_PATH 010000000
#endif
constexpr std::uint32_t PrioProcess = 0; // PRIO_PROCESS, PRIO_PGRP (<sys/resource.h>)
constexpr std::uint32_t PrioPgrp = 1;
constexpr std::uint32_t IoprioWhoProcess = 1; // IOPRIO_WHO_PROCESS, IOPRIO_WHO_PGRP (<linux/ioprio.h>)
constexpr std::uint32_t IoprioWhoPgrp = 2;

} // namespace SeccompCalls
