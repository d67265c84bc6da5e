// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchsequence.h"

#include "landlock.h"
#include "launchconfine.h"
#include "launchenvironment.h"
#include "launchexec.h"
#include "launchfds.h"
#include "launchgo.h"
#include "launchlimits.h"
#include "launchsession.h"
#include "launchuser.h"
#include "launchworkdir.h"
#include "posixutil.h"
#include "seccompfilter.h"
#include "statuschannel.h"

#include <cstdlib>
#include <unistd.h>

LaunchSequence::LaunchSequence(SandboxPolicy policy, pid_t parentAtStart)
{
    m_state.policy = std::move(policy);
    m_state.parent = m_state.policy.parentPid > 0 ? pid_t(m_state.policy.parentPid) : parentAtStart;
    // Read before the environment is replaced.
    m_state.killUnlisted = SeccompFilter::killUnlistedFromEnvironment();
    if (const char *cap = std::getenv(Landlock::AbiCapVariable))
        m_state.landlockAbiCapVariable = cap;
    m_state.protectedDirs = LaunchConfine::protectedDirs();
}

LaunchSequence::Failure LaunchSequence::run()
{
    LaunchState &s = m_state;
    // The studio may die between fork and the prctl: then the signal never comes, so
    // the parent is checked again right after (armParentDeath).
    if (LaunchSession::armParentDeath(s, "before the sandbox was set up") && LaunchSession::enter(s)
        && LaunchLimits::joinPidsCgroup(s) && LaunchUser::switchFromRoot(s) && LaunchLimits::isolate(s)
        && LaunchLimits::apply(s) && LaunchWorkDir::enter(s) && LaunchFds::arrange(s) && LaunchEnvironment::replace(s)
        && LaunchExec::resolveProgram(s) && LaunchConfine::noNewPrivs(s) && LaunchConfine::landlock(s)
        && LaunchConfine::seccomp(s) && LaunchGo::waitForGo(s))
        LaunchExec::exec(s);
    return s.failure;
}

void LaunchSequence::exitWith(const Failure &failure)
{
    std::string line = "toolstudio-sandbox: ";
    line += SandboxExit::stepName(failure.exitStatus);
    line += ": ";
    for (char c : failure.reason)
        line += (c == '\n' || c == '\r') ? ' ' : c;
    line += '\n';
    StatusChannel::send("failure " + std::to_string(failure.exitStatus) + " " + line.substr(20, line.size() - 21));
    PosixUtil::writeAll(STDERR_FILENO, line);
    ::_exit(failure.exitStatus);
}
