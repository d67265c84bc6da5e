// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchsession.h"

#include "launchfds.h"
#include "launchstate.h"
#include "posixutil.h"

#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using PosixUtil::errnoText;

namespace {

/// Set by the fork fallback so its signal relay knows the child.
pid_t s_relayChild = 0;

void relaySignal(int signal)
{
    ::kill(-s_relayChild, signal);
    ::kill(s_relayChild, signal);
}

} // namespace

bool LaunchSession::armParentDeath(LaunchState &state, const char *when)
{
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
        return state.fail(SandboxExit::Parent, "prctl(PR_SET_PDEATHSIG) failed: " + errnoText(errno));
    const pid_t parent = ::getppid();
    if (parent != state.parent)
        return state.fail(SandboxExit::Parent,
                          "the process that started the sandbox (pid " + std::to_string(state.parent) + ") exited "
                              + when + "; nothing to run for");
    return true;
}

bool LaunchSession::enter(LaunchState &state)
{
    if (::setsid() != -1)
        return true;
    if (errno != EPERM)
        return state.fail(SandboxExit::Session, "setsid failed: " + errnoText(errno));

    // Already a process group leader: a shell with job control started us by hand.
    // Fork once; the child (never a leader) starts the session, this process stays in
    // the shell's job, relays terminating signals and mirrors the child's exit.
    const pid_t self = ::getpid();
    const pid_t child = ::fork();
    if (child == -1)
        return state.fail(SandboxExit::Session,
                          "setsid is not possible for a process group leader and fork failed: " + errnoText(errno));
    if (child == 0) {
        state.parent = self;
        if (!armParentDeath(state, "before the sandbox was set up"))
            return false;
        if (::setsid() == -1)
            return state.fail(SandboxExit::Session, "setsid failed: " + errnoText(errno));
        return true;
    }
    s_relayChild = child;
    struct sigaction action = {};
    action.sa_handler = relaySignal;
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        ::sigaction(signal, &action, nullptr);
    std::string ignored;
    LaunchFds::closeFrom(3, &ignored); // the bridge must see EOF when the child ends
    int status = 0;
    while (::waitpid(child, &status, 0) == -1) {
        if (errno != EINTR)
            ::_exit(SandboxExit::Session);
    }
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}
