// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processisolation.h"
#include "sandboxpolicy.h"

#include <string>
#include <sys/types.h>
#include <vector>

/// A failed launch step: its SandboxExit status and a reason without newlines.
struct LaunchFailure
{
    int exitStatus = 0;
    std::string reason;
};

/// What the launcher's steps (launch*.cpp) share while LaunchSequence applies a policy,
/// as nsjail's modules share nsjconf_t. Plain C++/POSIX: no Qt.
struct LaunchState
{
    SandboxPolicy policy;
    pid_t parent = 0;                     ///< the studio (or the shell); it must stay our parent
    uid_t sandboxUid = 0;                 ///< the uid the script runs as
    std::string sandboxUserName;          ///< known only after a switch from root
    std::string program;                  ///< the resolved path passed to execve
    std::vector<std::string> environment; ///< the child's, "NAME=value"
    bool killUnlisted = false;            ///< seccomp: kill on unlisted calls instead of ENOSYS
    int landlockAbi = 0;                  ///< 0: none (seccomp-only)
    int landlockAbiOffered = 0;           ///< what the kernel offers (landlockAbi may be capped below it)
    /// TOOLSTUDIO_LANDLOCK_ABI_MAX as found at start ("" = not set); read before the
    /// environment is replaced, checked by the landlock step.
    std::string landlockAbiCapVariable;
    /// The home, config and cache dirs of the user who started the launcher (from its
    /// environment at start and the passwd entry): no Landlock grant derived from a
    /// path (the interpreter's) may be or contain them.
    std::vector<std::string> protectedDirs;
    /// How the run's tasks are kept apart from other runs' (ProcessIsolation), and why
    /// not better when it is Shared.
    ProcessIsolation::Mechanism processes = ProcessIsolation::Mechanism::Shared;
    std::string processesNote;
    int runUidLock = -1;   ///< the flock on the run uid, held until after the switch to it
    LaunchFailure failure; ///< the first failed step's

    /// Records the failure and returns false, for `return state.fail(…)`.
    bool fail(int exitStatus, std::string reason);
    /// "uid 65534 (nobody)" for the current uid. Only for messages: the name is looked up
    /// (NSS) when a message needs it, not on every start.
    std::string userLabel() const;
};
