// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The launcher's side of the seccomp filter: loads a BPF program generated at build
// time by toolstudio-seccomp-gen (libseccomp, SeccompFilter::build) with the raw
// seccomp() call. Nothing here links libseccomp: building the ~350 rules took most of
// toolstudio-sandbox's start-up (3–10 ms per run).
#include "seccompfilter.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <linux/seccomp.h>
#include <new>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

/// One program per option set; `placeholders` lists the instructions whose k is
/// SeccompFilter::PidPlaceholder (the studio's pid).
struct GeneratedProgram
{
    bool kill;
    bool notify;
    bool withPid;
    bool legacyLandlock;
    bool toolWorker;
    bool network;
    const sock_filter *code;
    unsigned short length;
    const unsigned short *placeholders;
    unsigned short placeholderCount;
};

#include "seccompprograms.inc" // GeneratedPrograms[]

std::string failure(const std::string &what, int error)
{
    return what + ": " + std::strerror(error);
}

} // namespace

namespace SeccompFilter {

Result install(const Options &options)
{
    Result result;
    const bool toolWorker = options.profile == Profile::ToolWorker;
    const bool kill = options.unlisted == Unlisted::Kill && !toolWorker;
    const bool withPid = options.studioPid > 0;
    const GeneratedProgram *generated = nullptr;
    for (const GeneratedProgram &candidate : GeneratedPrograms) {
        if (candidate.kill == kill && candidate.notify == options.notify && candidate.withPid == withPid
            && candidate.legacyLandlock == options.legacyLandlock && candidate.toolWorker == toolWorker
            && (!toolWorker || candidate.network == options.network))
            generated = &candidate;
    }
    if (!generated) {
        result.error = "no seccomp program was generated for these options (toolstudio-seccomp-gen)";
        return result;
    }
    // A copy: the pid goes into the placeholders.
    sock_filter *code = new (std::nothrow) sock_filter[generated->length];
    if (!code) {
        result.error = "cannot allocate the seccomp program (out of memory)";
        return result;
    }
    std::memcpy(code, generated->code, sizeof(sock_filter) * generated->length);
    // The placeholder or its negation (the studio's process group, tool worker profile).
    for (unsigned short i = 0; i < generated->placeholderCount; ++i) {
        std::uint32_t &k = code[generated->placeholders[i]].k;
        k = k == std::uint32_t(PidPlaceholder) ? std::uint32_t(options.studioPid)
                                               : 0u - std::uint32_t(options.studioPid);
    }
    sock_fprog program = {generated->length, code};
    const unsigned flags = options.notify ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0;
    const long rc = ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &program);
    const int error = errno;
    delete[] code;
    if (rc < 0) {
        result.error = failure("seccomp(SECCOMP_SET_MODE_FILTER)", error);
        return result;
    }
    // NEW_LISTENER returns the listener, already close-on-exec.
    if (options.notify)
        result.listenerFd = int(rc);
    return result;
}

bool killUnlistedFromEnvironment()
{
    const char *value = std::getenv("TOOLSTUDIO_SECCOMP_KILL_UNLISTED");
    return value && std::strcmp(value, "1") == 0;
}

bool kernelHasFilters()
{
    // PR_GET_SECCOMP works everywhere seccomp is built in; the filter mode needs
    // CONFIG_SECCOMP_FILTER, which SECCOMP_GET_ACTION_AVAIL (3.17+) confirms.
    std::uint32_t action = SECCOMP_RET_ERRNO;
    return ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0
        && ::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

bool kernelHasUserNotification()
{
    std::uint32_t action = SECCOMP_RET_USER_NOTIF;
    return ::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

} // namespace SeccompFilter
