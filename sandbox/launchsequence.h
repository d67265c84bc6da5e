// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandboxpolicy.h"
#include "seccompfilter.h"

#include <string>
#include <sys/types.h>
#include <vector>

/// What `toolstudio-sandbox` does between its start and execve, in SANDBOX.md's order
/// ("How the child is started"):
///
///  1. parent       PR_SET_PDEATHSIG(SIGKILL), then the parent must still be the one
///                  recorded at start (or policy.parentPid)
///  2. session      setsid(): the child leads its own session and process group
///     cgroup       with policy.pidsCgroup: moves itself into the run's pids cgroup
///                  (before the user switch; fails with SandboxExit::Limits)
///  3. credentials  only as root: the work dir is handed to policy.runAsUser (only a
///                  dedicated dir: not /, not top-level, not under /usr, /etc, … ,
///                  owned by root or that user), then
///                  setgroups(0), setgid, setuid; setuid(0) must fail afterwards;
///                  the parent-death signal is re-armed (a uid change clears it)
///  4. limits       rlimits, as the sandbox user (RLIMIT_NPROC = its task count +
///                  the budget, only without a pids cgroup)
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
/// Plain C++/POSIX: no Qt, no threads.
class LaunchSequence
{
public:
    /// A failed step: its SandboxExit status and a reason without newlines.
    struct Failure
    {
        int exitStatus = 0;
        std::string reason;
    };

    /// What the command line asks for.
    enum class Request { Run, Help, Report, Invalid };

    /// Parses `toolstudio-sandbox --policy FILE`,
    /// `toolstudio-sandbox [--workdir DIR] [--bridge-fd N] [--user NAME] [--] PROGRAM ARGS...`
    /// or `--help`. For Run, fills `policy` (reading FILE); for Invalid, `error` says
    /// why. Without --workdir the current directory is the work dir, except as root,
    /// where --workdir is required (the work dir is handed to the sandbox user).
    static Request parseCommandLine(int argc, char **argv, SandboxPolicy *policy, std::string *error);
    /// The --help text.
    static std::string usage();
    /// The --report text: what this kernel lets the sandbox enforce (seccomp, policy
    /// events, Landlock ABI and its features, the user switch, limits, known limits).
    static std::string report();

    /// `parentAtStart` is getppid() taken first thing in main(); policy.parentPid,
    /// when set, takes precedence (it also catches a parent that died before main).
    LaunchSequence(SandboxPolicy policy, pid_t parentAtStart);

    /// Applies every step and execs the program. Returns only on failure.
    Failure run();

    /// Sends "failure <status> <step>: <reason>" on the status channel (when there is
    /// one), writes "toolstudio-sandbox: <step>: <reason>\n" to stderr and _exits with
    /// `failure.exitStatus`.
    [[noreturn]] static void exitWith(const Failure &failure);

    /// The child's environment as "NAME=value" entries: PATH, HOME and TMPDIR (= the
    /// work dir), LANG and LC_ALL (= policy.lang), PYTHONIOENCODING=utf-8,
    /// PYTHONDONTWRITEBYTECODE=1, TOOLSTUDIO_BRIDGE_FD=3 when there is a bridge, then
    /// policy.env (which may override the ones before). Nothing of the launcher's own.
    static std::vector<std::string> buildEnvironment(const SandboxPolicy &policy);

    /// Landlock (SANDBOX.md "Landlock"): restricts this process at the best ABI the
    /// kernel offers to the system dirs, policy.readPaths, the resolved prefix of
    /// `program` and the work dir (see Landlock::defaultRules). `abi` gets the ABI used
    /// (0: none, allowed only with policy.seccompOnly). False with `error` set when the
    /// kernel has no Landlock and the user did not opt in, or a rule cannot be added.
    static bool applyLandlock(const SandboxPolicy &policy, const std::string &program, int *abi, std::string *error);

    /// Number of tasks (threads included, as RLIMIT_NPROC counts them) whose real uid
    /// is `uid`, from /proc/<pid>/status. -1 when /proc cannot be read.
    static long countTasksOfUser(uid_t uid);

private:
    bool stepParent();
    bool stepSession();
    bool stepPidsCgroup();
    bool stepCredentials();
    bool stepLimits();
    bool stepWorkDir();
    bool stepFds();
    bool stepEnvironment();
    bool stepResolveProgram();
    bool stepNoNewPrivs();
    bool stepLandlock();
    bool stepSeccomp();
    bool stepWaitForGo();
    void stepExec();

    bool checkParent(const char *when);
    bool fail(int exitStatus, std::string reason);

    SandboxPolicy m_policy;
    pid_t m_parent = 0;
    uid_t m_sandboxUid = 0;
    std::string m_sandboxUserName;
    std::string m_program; ///< resolved path passed to execve
    std::vector<std::string> m_environment;
    bool m_killUnlisted = false;
    int m_landlockAbi = 0;
    Failure m_failure;
};
