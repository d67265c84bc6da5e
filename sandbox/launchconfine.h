// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandboxpolicy.h"

#include <string>
#include <vector>

struct LaunchState;

/// The restrictions that stay with the script (SANDBOX.md steps 7 to 9, nsjail's
/// sandbox.cc): no new privileges, Landlock, seccomp. Plain C++/POSIX.
namespace LaunchConfine {

/// PR_SET_NO_NEW_PRIVS (required before an unprivileged seccomp filter; keeps setuid
/// binaries inert), checked to stick. Fails with SandboxExit::NoNewPrivs.
bool noNewPrivs(LaunchState &state);

/// The home, config and cache dirs of this process's user: $HOME, $XDG_CONFIG_HOME
/// (else ~/.config), $XDG_CACHE_HOME (else ~/.cache) and the passwd entry's home,
/// each also with symlinks resolved. Call before the environment is replaced.
std::vector<std::string> protectedDirs();

/// Landlock (SANDBOX.md "Landlock"): restricts this process at the best ABI the
/// kernel offers, lowered to state.policy.landlockAbiMax and the
/// TOOLSTUDIO_LANDLOCK_ABI_MAX cap, to the system dirs, policy.readPaths,
/// the interpreter's own file and library trees (Landlock::interpreterGrants, none of
/// them beneath or around state.protectedDirs) and the work dir. Sets
/// state.landlockAbi (0: none, allowed only with policy.seccompOnly) and
/// landlockAbiOffered. False with `error` set when the kernel has no Landlock and the
/// user did not opt in, the cap is malformed, the interpreter's grant is refused, or a
/// rule cannot be added.
bool applyLandlock(LaunchState &state, std::string *error);

/// applyLandlock(), then "landlock <abi>" on the status channel.
/// Fails with SandboxExit::Landlock.
bool landlock(LaunchState &state);

/// SeccompFilter::install() (allow-list; kill on unlisted with state.killUnlisted);
/// with a status channel, the policy-event listener is sent to the studio
/// (SCM_RIGHTS) and closed here. Fails with SandboxExit::Seccomp.
bool seccomp(LaunchState &state);

} // namespace LaunchConfine
