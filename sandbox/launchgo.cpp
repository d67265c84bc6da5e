// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchgo.h"

#include "launchenvironment.h"
#include "launchstate.h"
#include "posixutil.h"
#include "statuschannel.h"

#include <cerrno>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using PosixUtil::errnoText;
using PosixUtil::retry;

bool LaunchGo::waitForGo(LaunchState &state)
{
    if (!state.policy.waitForGo)
        return true;
    if (StatusChannel::fd() < 0)
        return state.fail(SandboxExit::Usage, "wait_for_go needs a status channel (--status-fd)");
    // What the next run must start with (issue 16: a concurrent run of the same
    // sandbox uid must not reach the waiting launcher): its nice value and its work
    // dir's owner and mode as set up now, checked again after "go".
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, 0);
    if (nice == -1 && errno != 0)
        return state.fail(SandboxExit::Limits, "getpriority failed: " + errnoText(errno));
    struct stat workDir = {};
    if (::stat(".", &workDir) == -1)
        return state.fail(SandboxExit::WorkDir, "cannot stat the work dir: " + errnoText(errno));
    if (!StatusChannel::send("ready"))
        return state.fail(SandboxExit::Parent, "cannot tell the studio the sandbox is ready: " + errnoText(errno));
    std::string message(SandboxGo::MaxBytes, '\0');
    const ssize_t n = retry([&] { return ::read(StatusChannel::fd(), message.data(), message.size()); });
    message.resize(n > 0 ? std::size_t(n) : 0);
    if (message != "go" && message.rfind("go ", 0) != 0)
        return state.fail(SandboxExit::Parent,
                          "the studio did not start the pre-warmed run (no \"go\" on the status channel)");
    if (!checkUntouched(state, nice, workDir))
        return false;
    if (message.size() <= 3)
        return StatusChannel::send("going")
            || state.fail(SandboxExit::Parent, "cannot confirm \"go\": " + errnoText(errno));
    // The run's own parts (SandboxGo): only names and strings change here, every
    // restriction is in place already.
    SandboxGo go;
    try {
        go = SandboxGo::fromJson(nlohmann::json::parse(message.substr(3)));
    } catch (const std::exception &error) {
        return state.fail(SandboxExit::Usage, std::string("bad \"go\" handover: ") + error.what());
    }
    if (!go.workDir.empty()) {
        struct stat here = {};
        struct stat named = {};
        if (::stat(".", &here) == -1 || ::stat(go.workDir.c_str(), &named) == -1 || here.st_dev != named.st_dev
            || here.st_ino != named.st_ino)
            return state.fail(SandboxExit::WorkDir,
                              "the \"go\" handover names " + go.workDir
                                  + ", which is not the work dir the sandbox entered");
        state.policy.workDir = go.workDir;
    }
    state.policy.argv.insert(state.policy.argv.end(), go.argv.begin(), go.argv.end());
    for (const auto &entry : go.env) {
        bool replaced = false;
        for (auto &existing : state.policy.env) {
            if (existing.first == entry.first) {
                existing.second = entry.second;
                replaced = true;
            }
        }
        if (!replaced)
            state.policy.env.push_back(entry);
    }
    state.environment = LaunchEnvironment::build(state.policy);
    // The studio waits for this before it counts the run as started (else it kills
    // this launcher and starts the run cold).
    if (!StatusChannel::send("going"))
        return state.fail(SandboxExit::Parent, "cannot confirm \"go\": " + errnoText(errno));
    return true;
}

bool LaunchGo::checkUntouched(LaunchState &state, int nice, const struct stat &workDir)
{
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, 0);
    if (now != nice || errno != 0)
        return state.fail(SandboxExit::Limits,
                          "the pre-warmed sandbox's nice value changed while it waited (" + std::to_string(nice)
                              + " -> " + std::to_string(now) + "); the run starts cold");
    struct stat here = {};
    if (::stat(".", &here) == -1 || here.st_dev != workDir.st_dev || here.st_ino != workDir.st_ino
        || here.st_mode != workDir.st_mode || here.st_uid != workDir.st_uid || here.st_gid != workDir.st_gid)
        return state.fail(
            SandboxExit::WorkDir,
            "the pre-warmed sandbox's work dir changed mode or owner while it waited; the run starts cold");
    return true;
}
