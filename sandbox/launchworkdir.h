// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

struct LaunchState;

/// The run's work dir (SANDBOX.md step 4, and the hand-over of the user switch).
/// Plain C++/POSIX.
namespace LaunchWorkDir {

/// As root, before the switch to policy.runAsUser: hands the work dir and everything
/// in it to uid:gid. Only a dedicated dir (not /, not top-level, not under /usr, /etc,
/// …, owned by root or that user); never follows a symlink and skips hard-linked
/// files. Fails with SandboxExit::Credentials.
bool handOver(LaunchState &state, uid_t uid, gid_t gid);

/// chdir into the work dir, which must be writable by the sandbox user. Fails with
/// SandboxExit::WorkDir.
bool enter(LaunchState &state);

} // namespace LaunchWorkDir
