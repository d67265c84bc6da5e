// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct LaunchState;
struct stat;

/// A pre-warmed start (policy.waitForGo). Plain C++/POSIX.
namespace LaunchGo {

/// Without policy.waitForGo: nothing. Otherwise "ready" on the status channel, then
/// waits there for "go", optionally followed by a SandboxGo (the run's own work dir
/// name, argv and env: only names and strings change, every restriction is in place
/// already). Before it execs, the nice value and the work dir's mode and owner must be
/// what they were when it sent "ready" (checkUntouched), then it sends "going" (the
/// studio waits for it; on a failure it starts the run cold). Fails with
/// SandboxExit::Parent, ::Usage, ::Limits or ::WorkDir.
bool waitForGo(LaunchState &state);

/// SandboxExit::Limits when the nice value is no longer `nice`, ::WorkDir when "."
/// no longer has `workDir`'s inode, mode, owner and group.
bool checkUntouched(LaunchState &state, int nice, const struct stat &workDir);

} // namespace LaunchGo
