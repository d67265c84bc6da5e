// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "signalbroker.h"

#include "procfs.h"

#include <cerrno>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace SignalBroker {

bool handles(const std::string &syscall)
{
    return syscall == "kill" || syscall == "tkill" || syscall == "tgkill" || syscall == "rt_sigqueueinfo"
        || syscall == "rt_tgsigqueueinfo";
}

Outcome check(const std::string &syscall, const std::uint64_t args[6], pid_t caller, int notifyFd, std::uint64_t id)
{
    Outcome outcome;
    // pid and tid arguments are ints: the kernel reads the low 32 bits.
    const pid_t target = pid_t(std::int32_t(args[0]));
    if (target == 0) {
        outcome.allowed = true; // its own process group
        return outcome;
    }
    outcome.error = EPERM;
    outcome.refused = true;
    if (target < 0 || target == ::getpid())
        return outcome; // pid -1, a group, the studio
    Procfs::ProcessStat from, to;
    if (!Procfs::readStat(caller, &from))
        return outcome; // the caller is gone; the answer goes nowhere
    const bool threadDirected = syscall == "tgkill" || syscall == "rt_tgsigqueueinfo";
    const bool found = threadDirected ? Procfs::readTaskStat(target, pid_t(std::int32_t(args[1])), &to)
                                      : Procfs::readStat(target, &to);
    if (!found) {
        outcome.error = ESRCH; // what the kernel says of a process that does not exist
        outcome.refused = false;
        return outcome;
    }
    if (from.session <= 0 || to.session != from.session)
        return outcome;
    // The caller still waits in this call (its pid, hence its session, is still its own).
    if (::ioctl(notifyFd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) != 0)
        return outcome;
    outcome.allowed = true;
    outcome.refused = false;
    outcome.error = 0;
    return outcome;
}

} // namespace SignalBroker
