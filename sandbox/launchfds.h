// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

struct LaunchState;

/// The child's file descriptors (SANDBOX.md step 5). Plain C++/POSIX.
namespace LaunchFds {

/// Closes every fd from `first` up: close_range (Linux 5.9), else the list in
/// /proc/self/fd. False with `error` set when neither works.
bool closeFrom(unsigned first, std::string *error);

/// 0..2 kept (or /dev/null), the bridge moved to 3, the status channel (close-on-exec)
/// to the fd after it, every other fd closed. Fails with SandboxExit::Fds.
bool arrange(LaunchState &state);

} // namespace LaunchFds
