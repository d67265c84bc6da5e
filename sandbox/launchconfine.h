// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandboxpolicy.h"

#include <string>

struct LaunchState;

/// The restrictions that stay with the script (SANDBOX.md steps 7 to 9, nsjail's
/// sandbox.cc): no new privileges, Landlock, seccomp. Plain C++/POSIX.
namespace LaunchConfine {

/// PR_SET_NO_NEW_PRIVS (required before an unprivileged seccomp filter; keeps setuid
/// binaries inert), checked to stick. Fails with SandboxExit::NoNewPrivs.
bool noNewPrivs(LaunchState &state);

/// Landlock (SANDBOX.md "Landlock"): restricts this process at the best ABI the
/// kernel offers to the system dirs, policy.readPaths, the resolved prefix of
/// `program` and the work dir (see Landlock::defaultRules). `abi` gets the ABI used
/// (0: none, allowed only with policy.seccompOnly). False with `error` set when the
/// kernel has no Landlock and the user did not opt in, or a rule cannot be added.
bool applyLandlock(const SandboxPolicy &policy, const std::string &program, int *abi, std::string *error);

/// applyLandlock() for state.program, then "landlock <abi>" on the status channel.
/// Fails with SandboxExit::Landlock.
bool landlock(LaunchState &state);

/// SeccompFilter::install() (allow-list; kill on unlisted with state.killUnlisted);
/// with a status channel, the policy-event listener is sent to the studio
/// (SCM_RIGHTS) and closed here. Fails with SandboxExit::Seccomp.
bool seccomp(LaunchState &state);

} // namespace LaunchConfine
