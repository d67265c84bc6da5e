// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <sys/types.h>

/// How a run's tasks are kept apart from every other run's (SANDBOX.md "Limits",
/// processes): a fork bomb in one run must not use up the process budget of a run
/// started alongside. RLIMIT_NPROC counts the tasks of a user (since Linux 5.14: of a
/// user in a user namespace), so without a pids cgroup each run needs a user of its
/// own. The launcher takes the first that the machine allows, in this order:
///
///  1. PidsCgroup: the studio made the run a pids cgroup (pidscgroup.h);
///  2. RunUid: as root, a uid of its own from a reserved range (works in a chroot):
///     RLIMIT_NPROC then counts this run's tasks only;
///  3. UserNamespace: as an ordinary user, a user namespace of its own (Linux ≥ 5.14
///     counts RLIMIT_NPROC per user per namespace; not inside a chroot, where the
///     kernel refuses CLONE_NEWUSER);
///  4. Shared: the residual — RLIMIT_NPROC = the user's tasks + the budget, shared by
///     every process of that user, so a fork bomb in one run can starve another.
///
/// Plain C++/POSIX, no Qt: the launcher and its --report use it.
namespace ProcessIsolation {

enum class Mechanism { PidsCgroup, RunUid, UserNamespace, Shared };

/// "pids_cgroup", "run_uid", "user_namespace", "shared" (the status channel's and the
/// journal's word).
const char *name(Mechanism mechanism);

/// The reserved uids (and gids of the same number) for runs of a root studio: in
/// systemd's unused range 1879048192–2147352575 (docs/UIDS-GIDS.md), below 2^31, not in
/// /etc/subuid's usual 100000–… blocks. A uid with a passwd or group entry is skipped.
constexpr uid_t FirstRunUid = 1900000000;
constexpr uid_t RunUidCount = 1000;
constexpr bool isRunUid(uid_t uid)
{
    return uid >= FirstRunUid && uid < FirstRunUid + RunUidCount;
}

/// As root: a uid of the range that no process uses, locked against concurrent
/// launchers. The lock is a flock on `<lock dir>/uid-<N>` (lockDirectory()), held by
/// the returned fd (close-on-exec) until the launcher has become that uid (LaunchFds
/// closes it after the switch): from then on the launcher, and later the run's own
/// tasks, have that uid, and a launcher that takes the lock afterwards sees them in
/// /proc and skips the uid until every one of them is gone. Returns the uid, or
/// (uid_t)-1 with `error` set.
uid_t acquireRunUid(int *lockFd, std::string *error);

/// The lock directory for acquireRunUid(): /run/toolstudio-sandbox (else
/// /tmp/toolstudio-sandbox-0), created 0700 by root or accepted only as a real
/// directory owned by root that no one else can write. "" with `error` set.
std::string lockDirectory(std::string *error);

/// Why an ordinary user cannot get a user namespace of its own here ("" when it can):
/// kernel older than 5.14, max_user_namespaces 0, Debian's unprivileged_userns_clone 0,
/// or a test unshare in a short-lived child fails (chroot, seccomp, AppArmor).
std::string userNamespaceUnavailable();

/// The launcher, as an ordinary user: raises the soft RLIMIT_NPROC to the hard one
/// (a new namespace keeps its creator's soft limit as the bound for the user's tasks
/// outside it), unshares a user namespace that maps the user's own uid and gid to
/// themselves, denies setgroups and drops the capabilities the namespace gave.
/// Returns false with `error` set; `*entered` says whether the process is already in
/// the new namespace (then the failure is fatal: its ids are not mapped).
bool enterUserNamespace(std::string *error, bool *entered);

} // namespace ProcessIsolation
