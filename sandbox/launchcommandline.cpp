// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchcommandline.h"

#include "landlock.h"
#include "posixutil.h"
#include "statuschannel.h"

#include <climits>
#include <cstring>
#include <unistd.h>

using PosixUtil::errnoText;
using PosixUtil::parseInt;

namespace {

constexpr std::size_t MaxPolicyBytes = 1024 * 1024;

std::string currentDirectory()
{
    std::string path(PATH_MAX, '\0');
    if (!::getcwd(path.data(), path.size()))
        return {};
    path.resize(std::strlen(path.c_str()));
    return path;
}

} // namespace

std::string LaunchCommandLine::usage()
{
    return R"(Usage:
  toolstudio-sandbox --policy FILE
  toolstudio-sandbox [--workdir DIR] [--bridge-fd N] [--user NAME] [--seccomp-only] [--landlock-abi N]
                     [--] PROGRAM [ARGS...]
  toolstudio-sandbox --report
  toolstudio-sandbox --help

Runs PROGRAM the way Tool Studio runs agent scripts: in its own session and process
group, with rlimits, the work dir as cwd, HOME and TMPDIR, only fds 0-2 (and the
bridge as fd 3), an allow-listed environment, no new privileges, Landlock (file
system, TCP, scoping) and an allow-list seccomp filter. Started as root, it first
hands the work dir (and everything in it) to an unprivileged user and becomes that
user.

  --policy FILE    read everything from a JSON policy file (what the studio passes)
  --workdir DIR    the work dir (default: the current directory; required as root)
  --bridge-fd N    an open fd (3 or more) that PROGRAM gets as fd 3
  --user NAME      the user to become when started as root (default: nobody)
  --seccomp-only   run even when the kernel has no Landlock (file system and
                   network then rest on seccomp, the user switch and rlimits only)
  --landlock-abi N use Landlock ABI N at most (as an older kernel would: Debian 12's
                   6.1 offers 2); TOOLSTUDIO_LANDLOCK_ABI_MAX=N in the environment
                   caps every run, policy files too, and shows in --report
  --report         print what this kernel lets the sandbox enforce, then exit

TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1 in the environment kills the script on a system
call that is not on the allow-list instead of failing it with ENOSYS (to find gaps).

PROGRAM without a '/' is looked up on the sandbox's PATH (/usr/local/bin:/usr/bin:/bin);
a relative path with a '/' is relative to the work dir.

Exit status: PROGRAM's, or when the sandbox cannot be set up one of 120 usage,
121 parent, 122 session, 123 limits, 124 workdir, 125 fds, 126 credentials,
127 no_new_privs, 128 landlock, 129 seccomp, 130 exec, 131 environment, with one
line "toolstudio-sandbox: <step>: <reason>" on stderr.
)";
}

LaunchCommandLine::Request LaunchCommandLine::parse(int argc, char **argv, SandboxPolicy *policy, std::string *error)
{
    std::string policyFile, workDir, user, bridge, status, abiCap;
    bool havePolicy = false, haveWorkDir = false, haveUser = false, haveBridge = false, seccompOnly = false;
    bool haveAbiCap = false;
    int statusFd = -1;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h")
            return Request::Help;
        if (arg == "--report" && argc == 2)
            return Request::Report;
        if (arg == "--seccomp-only") {
            seccompOnly = true;
            continue;
        }
        if (arg == "--status-fd") {
            // Parsed at once, so that even a usage error after it reaches the studio.
            if (i + 1 >= argc || !parseInt(argv[i + 1], &statusFd) || statusFd < 3) {
                *error = "--status-fd needs a file descriptor number of 3 or more";
                return Request::Invalid;
            }
            StatusChannel::adopt(statusFd);
            ++i;
            continue;
        }
        if (arg == "--") {
            ++i;
            break;
        }
        std::string *target = nullptr;
        bool *seen = nullptr;
        if (arg == "--policy") {
            target = &policyFile, seen = &havePolicy;
        } else if (arg == "--workdir") {
            target = &workDir, seen = &haveWorkDir;
        } else if (arg == "--user") {
            target = &user, seen = &haveUser;
        } else if (arg == "--bridge-fd") {
            target = &bridge, seen = &haveBridge;
        } else if (arg == "--landlock-abi") {
            target = &abiCap, seen = &haveAbiCap;
        } else if (!arg.empty() && arg.front() == '-') {
            *error = "unknown option " + arg + "; run toolstudio-sandbox --help";
            return Request::Invalid;
        } else {
            break; // PROGRAM
        }
        if (i + 1 >= argc) {
            *error = arg + " needs a value; run toolstudio-sandbox --help";
            return Request::Invalid;
        }
        *target = argv[++i];
        *seen = true;
    }
    std::vector<std::string> program(argv + i, argv + argc);

    if (havePolicy) {
        if (haveWorkDir || haveUser || haveBridge || seccompOnly || haveAbiCap || !program.empty()) {
            *error = "--policy cannot be combined with other options or a program; run toolstudio-sandbox --help";
            return Request::Invalid;
        }
        std::string text;
        if (!PosixUtil::readFile(policyFile, MaxPolicyBytes, &text)) {
            *error = "cannot read the policy file " + policyFile + ": " + errnoText(errno);
            return Request::Invalid;
        }
        try {
            *policy = SandboxPolicy::fromJson(nlohmann::json::parse(text));
        } catch (const std::exception &e) {
            *error = "policy file " + policyFile + ": " + e.what();
            return Request::Invalid;
        }
        if (statusFd >= 0)
            policy->statusFd = statusFd;
        if (policy->statusFd >= 0)
            StatusChannel::use(policy->statusFd);
        return Request::Run;
    }

    if (program.empty() || program.front().empty()) {
        *error = "no program to run; run toolstudio-sandbox --help";
        return Request::Invalid;
    }
    SandboxPolicy parsed;
    parsed.argv = std::move(program);
    parsed.seccompOnly = seccompOnly;
    parsed.statusFd = statusFd;
    if (haveBridge) {
        if (!parseInt(bridge, &parsed.bridgeFd) || parsed.bridgeFd < 3) {
            *error = "--bridge-fd needs a file descriptor number of 3 or more, not \"" + bridge + "\"";
            return Request::Invalid;
        }
    }
    if (haveAbiCap) {
        parsed.landlockAbiMax = Landlock::parseAbiCap(abiCap);
        if (parsed.landlockAbiMax < 0) {
            *error = "--landlock-abi needs a Landlock ABI number (1, 2, …), not \"" + abiCap + "\"";
            return Request::Invalid;
        }
    }
    if (haveUser) {
        if (user.empty()) {
            *error = "--user needs a user name";
            return Request::Invalid;
        }
        parsed.runAsUser = user;
    }
    if (!haveWorkDir) {
        if (::geteuid() == 0) {
            *error = "--workdir is required when running as root (the work dir is handed to the sandbox user)";
            return Request::Invalid;
        }
        workDir = currentDirectory();
    } else if (workDir.empty()) {
        *error = "--workdir needs a directory";
        return Request::Invalid;
    } else if (workDir.front() != '/') {
        workDir = currentDirectory() + "/" + workDir;
    }
    if (workDir.empty() || workDir.front() != '/') {
        *error = "cannot determine the current directory: " + errnoText(errno) + "; pass --workdir";
        return Request::Invalid;
    }
    parsed.workDir = workDir;
    *policy = std::move(parsed);
    return Request::Run;
}
