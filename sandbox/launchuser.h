// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct LaunchState;

/// The user switch (SANDBOX.md "How the child is started": scripts never run as root).
/// Plain C++/POSIX.
namespace LaunchUser {

/// Not root: records the uid and returns. As root: hands the work dir to
/// policy.runAsUser (LaunchWorkDir::handOver), then setgroups(0), setgid, setuid;
/// setuid(0) must fail afterwards and no capability may be left; the parent-death
/// signal is re-armed (a uid change clears it). Fails with SandboxExit::Credentials
/// (SandboxExit::Parent for the re-arm).
bool switchFromRoot(LaunchState &state);

} // namespace LaunchUser
