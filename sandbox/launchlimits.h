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

/// The rlimits of policy.limits, as the sandbox user, never above a hard limit already
/// in place; RLIMIT_NPROC = the user's task count (Procfs::countTasksOfUser) + the
/// budget, only without a pids cgroup. Fails with SandboxExit::Limits.
bool apply(LaunchState &state);

} // namespace LaunchLimits
