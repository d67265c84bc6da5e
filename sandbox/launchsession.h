// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct LaunchState;

/// The launcher's parent and session (SANDBOX.md steps 1 and 2). Plain C++/POSIX.
namespace LaunchSession {

/// PR_SET_PDEATHSIG(SIGKILL), then checks that state.parent is still the parent: it
/// may have died before the prctl, and then the signal never comes. `when` ends the
/// message ("before the sandbox was set up"). Fails with SandboxExit::Parent.
bool armParentDeath(LaunchState &state, const char *when);

/// setsid(): the child leads its own session and process group. Started as a process
/// group leader (a shell's job), it forks once: the child goes on (and returns true),
/// this process relays terminating signals and _exits with the child's status.
/// Fails with SandboxExit::Session.
bool enter(LaunchState &state);

} // namespace LaunchSession
