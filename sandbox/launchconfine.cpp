// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchconfine.h"

#include "landlock.h"
#include "launchstate.h"
#include "posixutil.h"
#include "seccompfilter.h"
#include "statuschannel.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <pwd.h>
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

std::vector<std::string> LaunchConfine::protectedDirs()
{
    std::vector<std::string> dirs;
    const auto add = [&dirs](const std::string &path) {
        if (path.empty() || path.front() != '/')
            return;
        std::string clean = path;
        while (clean.size() > 1 && clean.back() == '/')
            clean.pop_back();
        if (clean != "/")
            dirs.push_back(clean);
        char resolved[PATH_MAX];
        if (::realpath(clean.c_str(), resolved) && resolved != clean && std::string(resolved) != "/")
            dirs.push_back(resolved);
    };
    const char *home = std::getenv("HOME");
    const std::string homeDir = home ? home : "";
    add(homeDir);
    const char *config = std::getenv("XDG_CONFIG_HOME");
    add(config && *config ? std::string(config) : homeDir.empty() ? std::string() : homeDir + "/.config");
    const char *cache = std::getenv("XDG_CACHE_HOME");
    add(cache && *cache ? std::string(cache) : homeDir.empty() ? std::string() : homeDir + "/.cache");
    if (const passwd *entry = ::getpwuid(::getuid()); entry && entry->pw_dir)
        add(entry->pw_dir);
    return dirs;
}

bool LaunchConfine::applyLandlock(LaunchState &state, std::string *error)
{
    const SandboxPolicy &policy = state.policy;
    int cap = policy.landlockAbiMax;
    if (!state.landlockAbiCapVariable.empty()) {
        const int variable = Landlock::parseAbiCap(state.landlockAbiCapVariable);
        if (variable < 0) {
            *error = std::string(Landlock::AbiCapVariable) + "=" + state.landlockAbiCapVariable
                + " is not a Landlock ABI (1, 2, …); unset it or give a number";
            return false;
        }
        cap = cap > 0 ? std::min(cap, variable) : variable;
    }
    std::string why;
    state.landlockAbiOffered = Landlock::abiVersion(&why);
    state.landlockAbi = Landlock::cappedAbi(state.landlockAbiOffered, cap);
    if (state.landlockAbi == 0) {
        if (policy.seccompOnly)
            return true; // the user opted in; the studio marks the run
        *error = why
            + "; the sandbox refuses to run scripts without it (their file system and TCP access would be "
              "unrestricted). Enable Landlock, or opt in to seccomp-only mode in Settings "
              "(toolstudio-sandbox --seccomp-only)";
        return false;
    }
    std::vector<std::string> readExecute = policy.readPaths;
    // The interpreter's own file and library trees (it may live outside /usr) — never
    // a tree around the home, config or cache dir, nor one that would make the work
    // dir executable.
    const Landlock::InterpreterGrants grants = Landlock::interpreterGrants(state.program, state.protectedDirs);
    if (!grants.error.empty()) {
        *error = grants.error;
        return false;
    }
    const auto beneath = [](const std::string &path, const std::string &dir) {
        return path == dir
            || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
    };
    for (const std::string &path : grants.paths) {
        if (!beneath(path, policy.workDir) && !beneath(policy.workDir, path))
            readExecute.push_back(path);
    }
    Landlock::Rules rules = Landlock::defaultRules(policy.workDir, readExecute);
    rules.readWrite = policy.writePaths;
    rules.allowTcp = policy.profile == SandboxPolicy::ProfileToolWorker && policy.network;
    *error = Landlock::restrictSelf(state.landlockAbi, rules);
    return error->empty();
}

bool LaunchConfine::landlock(LaunchState &state)
{
    std::string error;
    if (!applyLandlock(state, &error))
        return state.fail(SandboxExit::Landlock, error);
    if (!StatusChannel::send("landlock " + std::to_string(state.landlockAbi)))
        return state.fail(SandboxExit::Landlock, "cannot report the Landlock ABI to the studio: " + errnoText(errno));
    return true;
}

bool LaunchConfine::seccomp(LaunchState &state)
{
    SeccompFilter::Options options;
    options.unlisted = state.killUnlisted ? SeccompFilter::Unlisted::Kill : SeccompFilter::Unlisted::Enosys;
    options.notify = state.policy.statusFd >= 0;
    // Trusted code (docs/sandbox.md "Trusted code"): the tools call APIs and run any
    // library, so not the run's allow-list but its deny-list of kernel surface, with
    // sockets unless the project turned the network off; never notified.
    if (state.policy.profile == SandboxPolicy::ProfileToolWorker) {
        options.profile = SeccompFilter::Profile::ToolWorker;
        options.network = state.policy.network;
        options.notify = false;
    }
    options.studioPid = state.parent;
    // Below Landlock ABI 6 seccomp adds what Landlock lacks: truncation (ABI 3) and,
    // with a listener, the scoping of signals (ABI 6; SignalBroker).
    options.legacyLandlock = state.landlockAbi < 6;
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
