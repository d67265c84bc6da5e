// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchexec.h"

#include "launchstate.h"
#include "posixutil.h"

#include <algorithm>
#include <sys/stat.h>
#include <unistd.h>

using PosixUtil::errnoText;

bool LaunchExec::resolveProgram(LaunchState &state)
{
    const std::string &name = state.policy.argv.front();
    const auto who = [&state] { return state.userLabel(); };
    // Checked as the sandbox user, so "cannot run" is reported before the filters.
    const auto check = [&](const std::string &path, int *error) {
        struct stat info = {};
        if (::stat(path.c_str(), &info) == -1) {
            *error = errno;
            return false;
        }
        if (!S_ISREG(info.st_mode)) {
            *error = EACCES;
            return false;
        }
        if (::access(path.c_str(), X_OK) == -1) {
            *error = errno;
            return false;
        }
        return true;
    };

    int error = 0;
    if (name.find('/') != std::string::npos) {
        if (!check(name, &error)) {
            if (error == ENOENT || error == ENOTDIR)
                return state.fail(SandboxExit::Exec,
                                  "cannot run " + name + ": " + errnoText(error)
                                      + "; install the interpreter or set its path in Settings");
            return state.fail(SandboxExit::Exec,
                              who() + " cannot run " + name + ": " + errnoText(error)
                                  + "; make it and its directories readable and executable by that user");
        }
        state.program = name;
        return true;
    }

    bool denied = false;
    std::string::size_type start = 0;
    while (start <= state.policy.path.size()) {
        const auto end = std::min(state.policy.path.find(':', start), state.policy.path.size());
        const std::string dir = state.policy.path.substr(start, end - start);
        start = end + 1;
        if (dir.empty())
            continue; // an empty entry would mean the cwd: never implicitly
        const std::string candidate = dir + "/" + name;
        if (check(candidate, &error)) {
            state.program = candidate;
            return true;
        }
        if (error == EACCES)
            denied = true;
    }
    if (denied)
        return state.fail(SandboxExit::Exec,
                          who() + " may not run " + name + " found on PATH (" + state.policy.path
                              + "); make it readable and executable by that user");
    return state.fail(SandboxExit::Exec,
                      name + " was not found on PATH (" + state.policy.path
                          + "); install it or give its absolute path");
}

void LaunchExec::exec(LaunchState &state)
{
    std::vector<char *> argv;
    for (std::string &arg : state.policy.argv)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (std::string &entry : state.environment)
        envp.push_back(entry.data());
    envp.push_back(nullptr);

    int rc;
    do {
        rc = ::execve(state.program.c_str(), argv.data(), envp.data());
    } while (rc == -1 && errno == EINTR);
    state.fail(SandboxExit::Exec, "cannot run " + state.program + ": " + errnoText(errno));
}
