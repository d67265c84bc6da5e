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
///  3. credentials  only as root: the work dir is handed to policy.runAsUser (only a
///                  dedicated dir: not /, not top-level, not under /usr, /etc, … ,
///                  owned by root or that user), then
///                  setgroups(0), setgid, setuid; setuid(0) must fail afterwards;
///                  the parent-death signal is re-armed (a uid change clears it)
///  4. limits       rlimits, as the sandbox user (RLIMIT_NPROC counts its processes)
///  5. workdir      chdir(policy.workDir)
///  6. fds          0..2 kept (or /dev/null), the bridge moved to 3, the rest closed
///  7. environment  only the allow-list (see buildEnvironment())
///  8. exec         the program resolved: absolute, relative to the work dir, or
///                  looked up on policy.path (the child's PATH, not the caller's)
///  9. no_new_privs PR_SET_NO_NEW_PRIVS
/// 10. landlock     hook only in this version (see applyLandlock())
/// 11. seccomp      SeccompFilter::install()
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
    enum class Request { Run, Help, Invalid };

    /// Parses `toolstudio-sandbox --policy FILE`,
    /// `toolstudio-sandbox [--workdir DIR] [--bridge-fd N] [--user NAME] [--] PROGRAM ARGS...`
    /// or `--help`. For Run, fills `policy` (reading FILE); for Invalid, `error` says
    /// why. Without --workdir the current directory is the work dir, except as root,
    /// where --workdir is required (the work dir is handed to the sandbox user).
    static Request parseCommandLine(int argc, char **argv, SandboxPolicy *policy, std::string *error);
    /// The --help text.
    static std::string usage();

    /// `parentAtStart` is getppid() taken first thing in main(); policy.parentPid,
    /// when set, takes precedence (it also catches a parent that died before main).
    LaunchSequence(SandboxPolicy policy, pid_t parentAtStart);

    /// Applies every step and execs the program. Returns only on failure.
    Failure run();

    /// Writes "toolstudio-sandbox: <step>: <reason>\n" to stderr (nothing else) and
    /// _exits with `failure.exitStatus`.
    [[noreturn]] static void exitWith(const Failure &failure);

    /// The child's environment as "NAME=value" entries: PATH, HOME and TMPDIR (= the
    /// work dir), LANG and LC_ALL (= policy.lang), PYTHONIOENCODING=utf-8,
    /// PYTHONDONTWRITEBYTECODE=1, TOOLSTUDIO_BRIDGE_FD=3 when there is a bridge, then
    /// policy.env (which may override the ones before). Nothing of the launcher's own.
    static std::vector<std::string> buildEnvironment(const SandboxPolicy &policy);

    /// Landlock hook (SANDBOX.md "Landlock"). NOT IMPLEMENTED in this version: it does
    /// nothing and succeeds, so the child is confined by seccomp, rlimits, the user
    /// switch and the scrubbed environment only. The sandbox issue fills it in
    /// (ruleset at the best ABI the kernel offers, the paths of the policy, refusing to
    /// run without Landlock unless the user opted in); its failures will exit with
    /// SandboxExit::Landlock.
    static bool applyLandlock(const SandboxPolicy &policy, std::string *error);

    /// Number of tasks (threads included, as RLIMIT_NPROC counts them) whose real uid
    /// is `uid`, from /proc/<pid>/status. -1 when /proc cannot be read.
    static long countTasksOfUser(uid_t uid);

private:
    bool stepParent();
    bool stepSession();
    bool stepCredentials();
    bool stepLimits();
    bool stepWorkDir();
    bool stepFds();
    bool stepEnvironment();
    bool stepResolveProgram();
    bool stepNoNewPrivs();
    bool stepLandlock();
    bool stepSeccomp();
    void stepExec();

    bool checkParent(const char *when);
    bool fail(int exitStatus, std::string reason);

    SandboxPolicy m_policy;
    pid_t m_parent = 0;
    uid_t m_sandboxUid = 0;
    std::string m_sandboxUserName;
    std::string m_program; ///< resolved path passed to execve
    std::vector<std::string> m_environment;
    SeccompFilter::Mode m_seccompMode = SeccompFilter::Mode::DenyList;
    Failure m_failure;
};
