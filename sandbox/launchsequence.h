// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "launchstate.h"
#include "sandboxpolicy.h"

#include <sys/types.h>

/// What `toolstudio-sandbox` does between its start and execve, in SANDBOX.md's order
/// ("How the child is started"):
///
///  1. parent       PR_SET_PDEATHSIG(SIGKILL), then the parent must still be the one
///                  recorded at start (or policy.parentPid)
///  2. session      setsid(): the child leads its own session and process group
///     cgroup       with policy.pidsCgroup: moves itself into the run's pids cgroup
///                  (before the user switch; fails with SandboxExit::Limits)
///  3. credentials  only as root: without a pids cgroup a run uid of its own
///                  (ProcessIsolation::acquireRunUid), else policy.runAsUser; the
///                  work dir is handed to it (only a dedicated dir: not /, not
///                  top-level, not under /usr, /etc, … , owned by root, that user or
///                  a run uid), then setgroups(0), setgid, setuid; setuid(0) must
///                  fail afterwards; the parent-death signal is re-armed
///     isolate      not as root, without a pids cgroup: a user namespace of its own
///                  (ProcessIsolation::enterUserNamespace), where the kernel allows
///  4. limits       rlimits, as the sandbox user (RLIMIT_NPROC = 1 + the budget with
///                  a user of its own, its task count + the budget when shared, left
///                  alone with a pids cgroup); "processes …" on the status channel
///  5. workdir      chdir(policy.workDir)
///  6. fds          0..2 kept (or /dev/null), the bridge moved to 3, the rest closed
///  7. environment  only the allow-list (see buildEnvironment())
///  8. exec         the program resolved: absolute, relative to the work dir, or
///                  looked up on policy.path (the child's PATH, not the caller's)
///  9. no_new_privs PR_SET_NO_NEW_PRIVS
/// 10. landlock     applyLandlock(): the best ABI the kernel offers; none → refused
///                  unless policy.seccompOnly; reports "landlock <abi>" on the status channel
/// 11. seccomp      SeccompFilter::install() (allow-list; kill on unlisted with
///                  TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1); with a status channel, the
///                  policy-event listener is sent to the studio (SCM_RIGHTS) and closed
///     go           with policy.waitForGo: "ready" on the status channel, then wait
///                  for "go" there (a pre-warmed start)
/// 12. exec         execve
///
/// Every step checks each syscall, retries EINTR, and on failure stops with the
/// step's SandboxExit status and a one-line reason saying what failed and what to do.
/// Each step lives in the module of its kernel concern (launchsession, launchuser,
/// launchlimits, launchworkdir, launchfds, launchenvironment, launchexec,
/// launchconfine, launchgo); this class only runs them in order. The command line is
/// LaunchCommandLine's. Plain C++/POSIX: no Qt, no threads.
class LaunchSequence
{
public:
    /// A failed step: its SandboxExit status and a reason without newlines.
    using Failure = LaunchFailure;

    /// `parentAtStart` is getppid() taken first thing in main(); policy.parentPid,
    /// when set, takes precedence (it also catches a parent that died before main).
    LaunchSequence(SandboxPolicy policy, pid_t parentAtStart);

    /// Applies every step and execs the program. Returns only on failure.
    Failure run();

    /// Sends "failure <status> <step>: <reason>" on the status channel (when there is
    /// one), writes "toolstudio-sandbox: <step>: <reason>\n" to stderr and _exits with
    /// `failure.exitStatus`.
    [[noreturn]] static void exitWith(const Failure &failure);

private:
    LaunchState m_state;
};
