// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "sandboxprocess.h"

struct SandboxPolicyEvent;

/// The run-level policy events (sequence 0) a run's sandbox reports, as journaled in
/// the policy_events table and shown in the trace.
namespace SandboxEvents {

/// "sandbox_refused" (or its summary once PolicyListener stops recording a syscall):
/// `detail` {syscall, arguments, pid, errno, errno_name, text[, count, recorded]}.
PolicyEvent refused(const QString &runId, const SandboxPolicyEvent &refusal);
/// "sandbox_applied": Landlock at `abi` (0 = seccomp only) and how the run's tasks
/// are bounded (its own pids cgroup, run uid or user namespace, or RLIMIT_NPROC).
PolicyEvent applied(const QString &runId, int abi, const SandboxProcess::ProcessLimit &processes);

} // namespace SandboxEvents
