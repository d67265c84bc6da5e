// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct LaunchState;

/// The program the sandbox runs (SANDBOX.md "Interpreters" and step 10). Plain C++/POSIX.
namespace LaunchExec {

/// Resolves policy.argv[0] into state.program, checked as the sandbox user (so "cannot
/// run" is reported before the filters): absolute, relative to the work dir, or looked
/// up on policy.path (the child's PATH, never the caller's, never the cwd). Fails with
/// SandboxExit::Exec.
bool resolveProgram(LaunchState &state);

/// execve(state.program, policy.argv, state.environment), retried on EINTR. Returns
/// only on failure, with SandboxExit::Exec recorded.
void exec(LaunchState &state);

} // namespace LaunchExec
