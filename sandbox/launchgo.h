// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct LaunchState;

/// A pre-warmed start (policy.waitForGo). Plain C++/POSIX.
namespace LaunchGo {

/// Without policy.waitForGo: nothing. Otherwise "ready" on the status channel, then
/// waits there for "go", optionally followed by a SandboxGo (the run's own work dir
/// name, argv and env: only names and strings change, every restriction is in place
/// already). Fails with SandboxExit::Parent, ::Usage or ::WorkDir.
bool waitForGo(LaunchState &state);

} // namespace LaunchGo
