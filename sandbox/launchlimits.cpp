// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchlimits.h"

#include "launchsession.h"
#include "launchstate.h"
#include "pidscgroup.h"
#include "posixutil.h"
#include "procfs.h"
#include "statuschannel.h"

#include <sys/resource.h>
#include <unistd.h>

using PosixUtil::errnoText;

bool LaunchLimits::joinPidsCgroup(LaunchState &state)
{
    // Before the user switch: the cgroup's files belong to the studio's user.
    std::string error;
    if (!state.policy.pidsCgroup.empty() && !PidsCgroup::join(state.policy.pidsCgroup, &error))
        return state.fail(SandboxExit::Limits, error + "; the run's process budget cannot be enforced");
    if (!state.policy.pidsCgroup.empty())
        state.processes = ProcessIsolation::Mechanism::PidsCgroup;
    if (!state.policy.memoryCgroup.empty() && !PidsCgroup::join(state.policy.memoryCgroup, &error))
        return state.fail(SandboxExit::Limits, error + "; the run's memory bound cannot be enforced");
    return true;
}

bool LaunchLimits::isolate(LaunchState &state)
{
    // Started as root, LaunchUser chose a run uid (or could not); with a cgroup there
    // is nothing to do; without a budget nothing to isolate.
    if (state.processes != ProcessIsolation::Mechanism::Shared || state.policy.limits.extraProcesses == 0
        || !state.sandboxUserName.empty())
        return true;
    if (!state.policy.isolateProcesses) {
        state.processesNote = "switched off in the policy (isolate_processes false)";
        return true;
    }
    std::string error;
    bool entered = false;
    if (!ProcessIsolation::enterUserNamespace(&error, &entered)) {
        if (entered)
            return state.fail(SandboxExit::Limits, error + "; the run cannot go on in a half-made user namespace");
        state.processesNote = error;
        return true;
    }
    state.processes = ProcessIsolation::Mechanism::UserNamespace;
    return LaunchSession::armParentDeath(state, "while the sandbox entered its user namespace");
}

bool LaunchLimits::apply(LaunchState &state)
{
    const SandboxLimits &limits = state.policy.limits;
    struct Limit
    {
        int resource;
        const char *name;
        std::uint64_t value;
        bool apply;
    };
    std::uint64_t processes = 0;
    // With a pids cgroup, its pids.max bounds the run; RLIMIT_NPROC would count the
    // sandbox user's other runs too, so it is left as it is.
    using ProcessIsolation::Mechanism;
    const bool nproc = limits.extraProcesses != 0 && state.processes != Mechanism::PidsCgroup;
    if (nproc && state.processes != Mechanism::Shared) {
        // A user of its own (run uid, or the uid in a user namespace of its own): this
        // launcher is its only task, so the budget is on top of it alone.
        processes = 1 + limits.extraProcesses;
    } else if (nproc) {
        // RLIMIT_NPROC counts every task of the user, so the budget is on top of what
        // the user already runs (SANDBOX.md "Limits").
        const long count = Procfs::countTasksOfUser(::getuid());
        if (count < 0)
            return state.fail(SandboxExit::Limits,
                              "cannot count the processes of " + state.userLabel() + " in /proc: " + errnoText(errno)
                                  + "; mount /proc");
        processes = std::uint64_t(count) + limits.extraProcesses;
    }
    const Limit table[] = {
        {RLIMIT_CORE, "RLIMIT_CORE", 0, true},
        {RLIMIT_CPU, "RLIMIT_CPU", limits.cpuSeconds, limits.cpuSeconds != 0},
        {RLIMIT_DATA, "RLIMIT_DATA", limits.dataBytes, limits.dataBytes != 0},
        {RLIMIT_FSIZE, "RLIMIT_FSIZE", limits.fileSizeBytes, limits.fileSizeBytes != 0},
        {RLIMIT_NOFILE, "RLIMIT_NOFILE", limits.openFiles, limits.openFiles != 0},
        {RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK", 0, true},
        {RLIMIT_MSGQUEUE, "RLIMIT_MSGQUEUE", 0, true},
        {RLIMIT_NPROC, "RLIMIT_NPROC", processes, nproc},
    };
    for (const Limit &limit : table) {
        if (!limit.apply)
            continue;
        rlimit current = {};
        if (::getrlimit(limit.resource, &current) == -1)
            return state.fail(SandboxExit::Limits,
                              std::string("getrlimit(") + limit.name + ") failed: " + errnoText(errno));
        // An unprivileged process cannot raise its hard limit: keep the lower one.
        rlim_t value = rlim_t(limit.value);
        if (current.rlim_max != RLIM_INFINITY && value > current.rlim_max)
            value = current.rlim_max;
        // RLIMIT_CPU: the hard limit one second later, so the script first gets
        // SIGXCPU (a readable "CPU time limit") rather than a bare SIGKILL.
        rlim_t hard = value;
        if (limit.resource == RLIMIT_CPU && (current.rlim_max == RLIM_INFINITY || value < current.rlim_max))
            hard = value + 1;
        const rlimit wanted = {value, hard};
        if (::setrlimit(limit.resource, &wanted) == -1)
            return state.fail(SandboxExit::Limits,
                              std::string("setrlimit(") + limit.name + ", " + std::to_string(value)
                                  + ") failed: " + errnoText(errno));
    }
    // The studio learns how this run is bounded: "processes <mechanism> <max tasks> <note>".
    const std::uint64_t maxTasks = state.processes == Mechanism::PidsCgroup ? limits.extraProcesses + 1 : processes;
    std::string message
        = std::string("processes ") + ProcessIsolation::name(state.processes) + " " + std::to_string(maxTasks);
    if (state.processes == Mechanism::Shared && !state.processesNote.empty())
        message += " " + state.processesNote.substr(0, 400);
    StatusChannel::send(message);
    return true;
}
