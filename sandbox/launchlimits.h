// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct LaunchState;

/// The run's limits (SANDBOX.md "Limits"). Plain C++/POSIX.
namespace LaunchLimits {

/// With policy.pidsCgroup: moves this process into the run's pids cgroup (before the
/// user switch: the cgroup's files belong to the studio's user). Fails with
/// SandboxExit::Limits.
bool joinPidsCgroup(LaunchState &state);

/// Without a pids cgroup and not started as root (LaunchUser chose a run uid then): a
/// user namespace of its own for the run (ProcessIsolation::enterUserNamespace), so
/// RLIMIT_NPROC counts this run's tasks only. Where the kernel refuses, the run goes on
/// with the shared RLIMIT_NPROC and state.processesNote says why; a namespace entered
/// but not set up fails with SandboxExit::Limits.
bool isolate(LaunchState &state);

/// The rlimits of policy.limits, as the sandbox user, never above a hard limit already
/// in place; RLIMIT_NPROC = the user's task count (Procfs::countTasksOfUser) + the
/// budget, only without a pids cgroup — or 1 + the budget with a user of its own (run
/// uid, user namespace). Then sends "processes <mechanism> <max tasks> [<why shared>]"
/// on the status channel. Fails with SandboxExit::Limits.
bool apply(LaunchState &state);

} // namespace LaunchLimits
