// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "seccompfilter.h"

#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

namespace {

struct FilterContext
{
    scmp_filter_ctx ctx = nullptr;
    ~FilterContext()
    {
        if (ctx)
            seccomp_release(ctx);
    }
};

std::string failure(const std::string &what, int rc)
{
    return what + ": " + std::strerror(rc < 0 ? -rc : rc);
}

/// Adds one rule. A syscall this architecture does not have is skipped (e.g. iopl
/// exists on x86 only): there is nothing to refuse then.
std::string addRule(scmp_filter_ctx ctx, std::uint32_t action, const char *name, unsigned count = 0,
                    const scmp_arg_cmp *conditions = nullptr)
{
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR)
        return {};
    const int rc = seccomp_rule_add_array(ctx, action, nr, count, conditions);
    if (rc < 0)
        return failure(std::string("seccomp_rule_add(") + name + ")", rc);
    return {};
}

/// `arg`'s low 32 bits equal `value`, whatever the high half holds. The kernel reads
/// int and unsigned int arguments that way; libseccomp's SCMP_Ax_32 macros only cast
/// the datum and still compare all 64 bits, so junk in the high half would slip past.
scmp_arg_cmp low32(unsigned arg, std::uint32_t value)
{
    return scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, value};
}

std::string addRefusals(scmp_filter_ctx ctx)
{
    const std::uint32_t eperm = SCMP_ACT_ERRNO(EPERM);
    std::string error;
    const auto add = [&](std::uint32_t action, const char *name, std::initializer_list<scmp_arg_cmp> conditions = {}) {
        if (error.empty())
            error = addRule(ctx, action, name, unsigned(conditions.size()), conditions.size() ? conditions.begin() : nullptr);
    };

    // Network. The NE rules compare all 64 bits: a family with junk in the high half is
    // refused by them even where the kernel would read AF_UNIX.
    add(SCMP_ACT_ERRNO(EAFNOSUPPORT), "socket", {SCMP_A0_64(SCMP_CMP_NE, AF_UNIX)});
    add(eperm, "socket", {low32(0, AF_UNIX)});
    add(SCMP_ACT_ERRNO(EAFNOSUPPORT), "socketpair", {SCMP_A0_64(SCMP_CMP_NE, AF_UNIX)});
    // A datagram pair could sendto() any named or abstract socket; stream and seqpacket
    // pairs ignore or refuse a destination address. The type's low 4 bits are the kind.
    for (unsigned kind = 0; kind < 16; ++kind) {
        if (kind != SOCK_STREAM && kind != SOCK_SEQPACKET)
            add(eperm, "socketpair", {low32(0, AF_UNIX), SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xF, kind)});
    }
    add(SCMP_ACT_ERRNO(EACCES), "connect");
    add(SCMP_ACT_ERRNO(EACCES), "bind");
    for (const char *name : {"listen", "accept", "accept4"})
        add(eperm, name);

    // Other processes, the kernel, the mount table, namespaces.
    for (const char *name : {"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd",
                             "pidfd_send_signal", "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
                             "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
                             "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
                             "io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load",
                             "init_module", "finit_module", "delete_module", "iopl", "ioperm", "syslog", "reboot",
                             "swapon", "swapoff", "setsid", "setpgid", "shmget", "semget", "msgget", "mq_open"})
        add(eperm, name);

    // clone: plain fork and threads are fine; new namespaces and CLONE_PARENT (a child
    // the studio would have to reap) are not. One rule per flag: any of them refuses.
    for (std::uint64_t flag : {std::uint64_t(CLONE_NEWUSER), std::uint64_t(CLONE_NEWNS), std::uint64_t(CLONE_NEWPID),
                               std::uint64_t(CLONE_NEWNET), std::uint64_t(CLONE_NEWIPC), std::uint64_t(CLONE_NEWUTS),
                               std::uint64_t(CLONE_NEWCGROUP), std::uint64_t(CLONE_PARENT)})
        add(eperm, "clone", {SCMP_A0_64(SCMP_CMP_MASKED_EQ, flag, flag)});
    // clone3 passes its flags in a struct seccomp cannot inspect: ENOSYS makes glibc
    // fall back to clone, which is checked above.
    add(SCMP_ACT_ERRNO(ENOSYS), "clone3");

    // Terminal injection; the kernel reads the request as unsigned int.
    add(eperm, "ioctl", {low32(1, TIOCSTI)});
    add(eperm, "ioctl", {low32(1, TIOCLINUX)});

    // Signals and limits only within reach: kill(-1)/kill(-pgid) would hit every
    // process of the user (other runs); prlimit64 with a pid changes another process.
    add(eperm, "kill", {SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0x80000000u, 0x80000000u)});
    add(eperm, "prlimit64", {SCMP_A0_64(SCMP_CMP_NE, 0)});
    for (int command : {F_SETOWN, F_SETOWN_EX, F_SETSIG, F_SETLEASE})
        add(eperm, "fcntl", {low32(1, std::uint32_t(command))});
    return error;
}

} // namespace

namespace SeccompFilter {

std::string install(Mode mode)
{
    if (mode == Mode::AllowList)
        return "the allow-list seccomp mode is not implemented yet; use the deny-list mode";

    FilterContext filter;
    filter.ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter.ctx)
        return "seccomp_init failed (out of memory)";
    // Real errno values from libseccomp instead of its generic ECANCELED (≥ 2.5).
    seccomp_attr_set(filter.ctx, SCMP_FLTATR_API_SYSRAWRC, 1);

    // Only the native ABI: seccomp_init added just it. libseccomp's x86_64 filter also
    // sends x32 syscall numbers (bit 30 set) to the bad-arch action.
    if (int rc = seccomp_attr_set(filter.ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); rc < 0)
        return failure("seccomp_attr_set(ACT_BADARCH)", rc);
    for (std::uint32_t foreign : {std::uint32_t(SCMP_ARCH_X32), std::uint32_t(SCMP_ARCH_X86)}) {
        if (foreign != seccomp_arch_native() && seccomp_arch_exist(filter.ctx, foreign) == 0)
            seccomp_arch_remove(filter.ctx, foreign);
    }

    if (std::string error = addRefusals(filter.ctx); !error.empty())
        return error;
    if (int rc = seccomp_load(filter.ctx); rc < 0)
        return failure("seccomp_load", rc);
    return {};
}

} // namespace SeccompFilter
