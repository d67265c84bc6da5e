// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>

/// The studio's check of the signals a script sends when Landlock cannot scope them
/// (issue 16, class 4: kernels and caps below ABI 6, e.g. Debian 12's ABI 2). The
/// seccomp filter (SeccompFilter::Options::legacyLandlock with notify) routes kill, tkill, tgkill,
/// rt_sigqueueinfo and rt_tgsigqueueinfo naming any pid but 0 to the listener;
/// PolicyListener asks here. A signal is let through
/// (SECCOMP_USER_NOTIF_FLAG_CONTINUE: its arguments are numbers, nothing the kernel
/// re-reads) only when its target is in the caller's session — the run: the launcher
/// made it with setsid() and the script can neither leave it nor make another
/// (setsid/setpgid are refused). The studio, pid -1, other groups and every process
/// outside the run are refused with EPERM, a policy event.
///
/// Residual: the kernel delivers the signal after the check; a target that exits in
/// between and whose pid is taken at once by a process outside the run (after the
/// pid counter wraps around) would get it.
namespace SignalBroker {

/// Whether `syscall` (a name from SeccompFilter::syscallName) is a signal call checked here.
bool handles(const std::string &syscall);

struct Outcome
{
    bool allowed = false; ///< let it through (the target is in the run)
    int error = 0;        ///< when not allowed: the errno the caller gets (EPERM; ESRCH when the target is gone)
    bool refused = false; ///< refused by the policy (outside the run): a policy event
};

/// Checks one notified signal call of thread `caller`. `notifyFd` and `id` are the
/// listener and the notification (SECCOMP_IOCTL_NOTIF_ID_VALID after the check).
Outcome check(const std::string &syscall, const std::uint64_t args[6], pid_t caller, int notifyFd, std::uint64_t id);

} // namespace SignalBroker
