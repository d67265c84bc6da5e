// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchuser.h"

#include "launchsession.h"
#include "launchstate.h"
#include "launchworkdir.h"
#include "posixutil.h"

#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

using PosixUtil::errnoText;

bool LaunchUser::switchFromRoot(LaunchState &state)
{
    if (::geteuid() != 0) {
        state.sandboxUid = ::getuid(); // its name only when a message needs it (userLabel)
        return true;
    }

    // Root ignores RLIMIT_NPROC and file permissions: scripts never run as root.
    const std::string &name = state.policy.runAsUser;
    if (name.empty())
        return state.fail(SandboxExit::Credentials,
                          "started as root without a sandbox user; set one in Settings (default: nobody)");
    uid_t uid = 0;
    gid_t gid = 0;
    std::string label;
    // Without a pids cgroup: a uid of its own for this run, so that RLIMIT_NPROC counts
    // this run's tasks only (ProcessIsolation). The lock is held until after the switch.
    if (state.processes != ProcessIsolation::Mechanism::PidsCgroup && state.policy.isolateProcesses) {
        std::string why;
        const uid_t runUid = ProcessIsolation::acquireRunUid(&state.runUidLock, &why);
        if (runUid != uid_t(-1)) {
            uid = runUid;
            gid = gid_t(runUid);
            label = "run uid " + std::to_string(runUid);
            state.sandboxUserName = label;
            state.processes = ProcessIsolation::Mechanism::RunUid;
        } else {
            state.processesNote = why;
        }
    } else if (state.processes != ProcessIsolation::Mechanism::PidsCgroup) {
        state.processesNote = "switched off in the policy (isolate_processes false)";
    }
    if (label.empty()) {
        errno = 0;
        const passwd *pw = ::getpwnam(name.c_str());
        if (!pw)
            return state.fail(SandboxExit::Credentials,
                              errno ? "cannot look up the sandbox user \"" + name + "\": " + errnoText(errno)
                                    : "there is no user \"" + name
                                      + "\"; create it or choose another sandbox user in Settings");
        uid = pw->pw_uid;
        gid = pw->pw_gid;
        label = name;
        state.sandboxUserName = pw->pw_name;
        if (uid == 0 || gid == 0)
            return state.fail(SandboxExit::Credentials,
                              "the sandbox user \"" + name
                                  + "\" has uid or gid 0; choose an unprivileged user in Settings");
    }
    state.sandboxUid = uid;
    if (!LaunchWorkDir::handOver(state, uid, gid, label))
        return false;

    if (::setgroups(0, nullptr) == -1)
        return state.fail(SandboxExit::Credentials, "setgroups(0) failed: " + errnoText(errno));
    if (::setgid(gid) == -1)
        return state.fail(SandboxExit::Credentials, "setgid(" + std::to_string(gid) + ") failed: " + errnoText(errno));
    if (::setuid(uid) == -1)
        return state.fail(SandboxExit::Credentials, "setuid(" + std::to_string(uid) + ") failed: " + errnoText(errno));

    // Verify the switch is complete and cannot be undone.
    if (::getuid() != uid || ::geteuid() != uid || ::getgid() != gid || ::getegid() != gid
        || ::getgroups(0, nullptr) != 0)
        return state.fail(SandboxExit::Credentials, "the switch to " + label + " left other ids in place");
    if (::setuid(0) != -1 || ::setgid(0) != -1)
        return state.fail(SandboxExit::Credentials, "the switch to " + label + " can be undone (setuid(0) succeeded)");
    __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capget, &header, caps) == -1)
        return state.fail(SandboxExit::Credentials, "capget failed: " + errnoText(errno));
    for (const auto &set : caps) {
        if (set.effective || set.permitted || set.inheritable)
            return state.fail(SandboxExit::Credentials, "capabilities are left after the switch to " + label);
    }

    // A change of effective uid clears the parent-death signal (prctl(2)): arm it again.
    return LaunchSession::armParentDeath(state, "while the sandbox switched users");
}
