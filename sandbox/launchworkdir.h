// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <sys/types.h>

struct LaunchState;

/// The run's work dir (SANDBOX.md step 4, and the hand-over of the user switch).
/// Plain C++/POSIX.
namespace LaunchWorkDir {

/// As root, before the switch to the sandbox user (`name` in messages): hands the work
/// dir and everything in it to uid:gid. Only a dedicated dir (not /, not top-level,
/// not under /usr, /etc, …, owned by root, that user or a run uid); never follows a
/// symlink and skips hard-linked files. For a run uid of its own (ProcessIsolation)
/// the work dir becomes 0700: private to the run. Fails with SandboxExit::Credentials.
bool handOver(LaunchState &state, uid_t uid, gid_t gid, const std::string &name);

/// chdir into the work dir, which must be writable by the sandbox user. Fails with
/// SandboxExit::WorkDir.
bool enter(LaunchState &state);

} // namespace LaunchWorkDir
