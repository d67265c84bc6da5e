// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchconfine.h"

#include "landlock.h"
#include "launchstate.h"
#include "posixutil.h"
#include "seccompfilter.h"
#include "statuschannel.h"

#include <sys/prctl.h>
#include <unistd.h>

using PosixUtil::errnoText;

bool LaunchConfine::noNewPrivs(LaunchState &state)
{
    // Required before an unprivileged seccomp filter, and keeps setuid binaries inert.
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
        return state.fail(SandboxExit::NoNewPrivs, "prctl(PR_SET_NO_NEW_PRIVS) failed: " + errnoText(errno));
    if (::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
        return state.fail(SandboxExit::NoNewPrivs, "PR_SET_NO_NEW_PRIVS did not stick");
    return true;
}

bool LaunchConfine::applyLandlock(const SandboxPolicy &policy, const std::string &program, int *abi, std::string *error)
{
    std::string why;
    *abi = Landlock::abiVersion(&why);
    if (*abi == 0) {
        if (policy.seccompOnly)
            return true; // the user opted in; the studio marks the run
        *error = why
            + "; the sandbox refuses to run scripts without it (their file system and TCP access would be "
              "unrestricted). Enable Landlock, or opt in to seccomp-only mode in Settings "
              "(toolstudio-sandbox --seccomp-only)";
        return false;
    }
    std::vector<std::string> readExecute = policy.readPaths;
    // The interpreter's own prefix (it may live outside /usr) — but never a prefix that
    // would make the work dir executable or open the whole tree.
    const std::string prefix = Landlock::interpreterPrefix(program);
    const auto beneath = [](const std::string &path, const std::string &dir) {
        return path == dir
            || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
    };
    if (!prefix.empty() && prefix != "/" && !beneath(prefix, policy.workDir) && !beneath(policy.workDir, prefix))
        readExecute.push_back(prefix);
    Landlock::Rules rules = Landlock::defaultRules(policy.workDir, readExecute);
    rules.readWrite = policy.writePaths;
    rules.allowTcp = policy.profile == SandboxPolicy::ProfileToolWorker && policy.network;
    *error = Landlock::restrictSelf(*abi, rules);
    return error->empty();
}

bool LaunchConfine::landlock(LaunchState &state)
{
    std::string error;
    if (!applyLandlock(state.policy, state.program, &state.landlockAbi, &error))
        return state.fail(SandboxExit::Landlock, error);
    if (!StatusChannel::send("landlock " + std::to_string(state.landlockAbi)))
        return state.fail(SandboxExit::Landlock, "cannot report the Landlock ABI to the studio: " + errnoText(errno));
    return true;
}

bool LaunchConfine::seccomp(LaunchState &state)
{
    // Trusted code (docs/sandbox.md "Trusted code"): the tools call APIs, so the run's
    // allow-list (no sockets) does not fit; Landlock, the uid and the rlimits confine it.
    if (state.policy.profile == SandboxPolicy::ProfileToolWorker)
        return true;
    SeccompFilter::Options options;
    options.unlisted = state.killUnlisted ? SeccompFilter::Unlisted::Kill : SeccompFilter::Unlisted::Enosys;
    options.notify = state.policy.statusFd >= 0;
    options.studioPid = state.parent;
    const SeccompFilter::Result result = SeccompFilter::install(options);
    if (!result.error.empty())
        return state.fail(SandboxExit::Seccomp,
                          result.error + "; the kernel needs seccomp filters (CONFIG_SECCOMP_FILTER)");
    if (result.listenerFd >= 0) {
        // The studio answers the policy-event calls; this process must not keep the
        // listener (the script could answer its own calls).
        const bool sent = StatusChannel::send("listener", result.listenerFd);
        const int error = errno;
        ::close(result.listenerFd);
        if (!sent)
            return state.fail(SandboxExit::Seccomp,
                              "cannot hand the policy-event listener to the studio: " + errnoText(error));
    }
    return true;
}
