// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// The seccomp-bpf filter `toolstudio-sandbox` loads just before execve (SANDBOX.md
/// "seccomp"), built with libseccomp for the native architecture only.
///
/// Every mode kills the process (SIGSYS) on a foreign ABI (i386 `int 0x80`, x32
/// syscall numbers on x86_64) and refuses, with an errno the script sees as an
/// ordinary error:
///
/// | call | errno |
/// |---|---|
/// | socket / socketpair of any family but AF_UNIX | EAFNOSUPPORT |
/// | socket(AF_UNIX) (could sendto a named socket), socketpair(AF_UNIX) other than SOCK_STREAM / SOCK_SEQPACKET | EPERM |
/// | connect, bind | EACCES |
/// | listen, accept, accept4 | EPERM |
/// | ptrace, process_vm_readv/writev, pidfd_open/getfd/send_signal | EPERM |
/// | mount, umount2, pivot_root, chroot, unshare, setns, fsopen, fsconfig, fsmount, fspick, move_mount, open_tree, mount_setattr | EPERM |
/// | clone with CLONE_NEWUSER/NEWNS/NEWPID/NEWNET/NEWIPC/NEWUTS/NEWCGROUP or CLONE_PARENT | EPERM |
/// | clone3 (its flags live in memory seccomp cannot read; glibc falls back to clone) | ENOSYS |
/// | bpf, perf_event_open, userfaultfd, keyctl, add_key, request_key, io_uring_setup/enter/register, kexec_load, kexec_file_load, init_module, finit_module, delete_module, iopl, ioperm, syslog, reboot, swapon, swapoff | EPERM |
/// | setsid, setpgid (no escaping the group kill) | EPERM |
/// | ioctl TIOCSTI, TIOCLINUX (low 32 bits of the request, as the kernel reads it) | EPERM |
/// | kill with a negative pid (kill(-1) would reach every process of the user) | EPERM |
/// | prlimit64 on another process | EPERM |
/// | fcntl F_SETOWN, F_SETOWN_EX, F_SETSIG, F_SETLEASE (signals to other processes) | EPERM |
/// | shmget, semget, msgget, mq_open (SysV IPC and POSIX queues are shared by all runs) | EPERM |
namespace SeccompFilter {

enum class Mode {
    /// This version: everything not refused above is allowed.
    DenyList,
    /// The sandbox issue's target (SANDBOX.md): only what python3, bash and node need
    /// is allowed, anything else fails with ENOSYS, plus the refusals above. Not
    /// implemented yet: install() fails with a reason in this mode.
    AllowList,
};

/// Builds the filter and loads it into the calling thread (the launcher is
/// single-threaded). PR_SET_NO_NEW_PRIVS must be set before (the launcher does it as
/// its own step). Returns "" on success, else the failing libseccomp call and errno
/// text. After success, nothing can be undone: call it last before execve.
std::string install(Mode mode = Mode::DenyList);

}
