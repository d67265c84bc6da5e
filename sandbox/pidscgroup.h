// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

/// A pids cgroup of one run (SANDBOX.md "Limits", processes): every task the script
/// starts — processes and threads — counts against this run's own `pids.max`, so a
/// fork bomb in one run cannot use up the process budget of another run started at
/// the same moment (RLIMIT_NPROC alone counts all tasks of the sandbox user).
///
/// The studio (SandboxProcess) creates the cgroup before it starts the launcher and
/// removes it once the run's tasks are gone; the launcher moves itself in (join())
/// before it switches users, so the script and everything it starts inherit it.
///
/// Where, in this order (probe()):
///  - cgroup v2: a child of the studio's own cgroup, when the pids controller is
///    enabled there for children (`cgroup.subtree_control` lists `pids`, as in a
///    systemd-delegated subtree) or can be enabled;
///  - cgroup v1: a child of the studio's cgroup in the `pids` hierarchy, when that
///    directory is writable (as root, or when an administrator delegated it).
/// Neither: runs fall back to RLIMIT_NPROC = the sandbox user's tasks + the budget,
/// shared by that user's concurrent runs; probe().why says why.
///
/// Plain C++/POSIX, no Qt: the launcher's --report uses probe() too.
namespace PidsCgroup {

struct Probe
{
    /// The directory run cgroups are created in; empty when none is usable.
    std::string parent;
    /// 1 or 2 when `parent` is set, else 0.
    int version = 0;
    /// Why there is none (for the report and the run's policy line), else empty.
    std::string why;
};

/// Looks for a usable pids cgroup from /proc/self/mountinfo and /proc/self/cgroup and
/// checks that its directory is writable. A few small /proc reads; no side effects,
/// except enabling `+pids` in a v2 cgroup.subtree_control where the controller is
/// available but not enabled.
Probe probe();
/// The same for another controller ("memory": the run's memory bound, issue 16
/// class 4): on cgroup v2 the run's one cgroup gets both limits; on v1 each
/// controller's hierarchy has a run cgroup of its own, joined by the launcher.
Probe probe(const std::string &controller);

/// Creates `<probe.parent>/toolstudio-run-<studio pid>-<n>` with `pids.max` =
/// `maxTasks` and returns its path. Returns "" with `error` set (what failed, errno
/// text) when it cannot; the caller then falls back to RLIMIT_NPROC. Before the first
/// one of a studio process, empty leftovers of dead studios are removed.
std::string create(const Probe &probe, std::uint64_t maxTasks, std::string *error);
/// The same with another limit file ("memory.limit_in_bytes" = "2147483648").
std::string create(const Probe &probe, const std::string &limitFile, const std::string &limit, std::string *error);

/// Writes `value` to `path`/`file` (a limit of an existing run cgroup). False with `error` set.
bool setLimit(const std::string &path, const std::string &file, const std::string &value, std::string *error);

/// How many times the kernel's OOM killer acted in `path` (memory.events on v2,
/// memory.oom_control on v1); 0 when unknown.
std::uint64_t oomKills(const std::string &path);

/// The launcher: moves the calling process into `path` (writes its pid to
/// `cgroup.procs`). False with `error` set.
bool join(const std::string &path, std::string *error);

/// True when `path` looks like a run cgroup made by create(): absolute, under
/// /sys/fs/cgroup/, no "." or ".." component, last component toolstudio-run-*.
bool isRunCgroupPath(const std::string &path);

/// The pids listed in `path`/cgroup.procs (empty when none or unreadable).
std::vector<pid_t> members(const std::string &path);

/// SIGKILLs every member (cgroup.kill on v2 when the kernel has it). True when the
/// cgroup has no member left (it may still take a moment for zombies to be reaped).
bool killAll(const std::string &path);

/// rmdir of an empty run cgroup. True when it is gone (or was never there).
bool remove(const std::string &path, std::string *error = nullptr);

} // namespace PidsCgroup
