// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchfds.h"

#include "launchstate.h"
#include "posixutil.h"
#include "procfs.h"
#include "statuschannel.h"

#include <fcntl.h>
#include <unistd.h>
#include <vector>

using PosixUtil::errnoText;
using PosixUtil::retry;

bool LaunchFds::closeFrom(unsigned first, std::string *error)
{
    if (::close_range(first, ~0U, 0) == 0)
        return true;
    if (errno != ENOSYS && errno != EINVAL) {
        *error = "close_range failed: " + errnoText(errno);
        return false;
    }
    std::vector<int> open;
    if (!Procfs::listOwnFds(&open)) {
        *error = "cannot close inherited fds: close_range is not supported and /proc/self/fd cannot be read ("
            + errnoText(errno) + "); mount /proc";
        return false;
    }
    for (int fd : open) {
        if (fd >= int(first))
            ::close(fd); // close() is not retried on EINTR: the fd is gone either way on Linux
    }
    return true;
}

bool LaunchFds::arrange(LaunchState &state)
{
    // 0..2 must exist, or the script's first open() would become its stdout.
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        const int null = retry([] { return ::open("/dev/null", O_RDWR); });
        if (null != fd)
            return state.fail(SandboxExit::Fds,
                              "cannot open /dev/null as fd " + std::to_string(fd) + ": "
                                  + errnoText(null == -1 ? errno : EBADF));
    }

    std::string error;
    // The status channel goes to the fd after the bridge's (3 or 4), close-on-exec.
    // First out of the way of 3 and 4, which the moves below may overwrite.
    int status = state.policy.statusFd;
    if (status >= 0) {
        status = ::fcntl(status, F_DUPFD_CLOEXEC, 5);
        if (status == -1)
            return state.fail(SandboxExit::Fds,
                              "cannot move the status channel fd " + std::to_string(state.policy.statusFd) + ": "
                                  + errnoText(errno));
    }
    const auto placeStatus = [&](int target) {
        if (status < 0)
            return closeFrom(unsigned(target), &error);
        int rc;
        do {
            rc = ::dup3(status, target, O_CLOEXEC);
        } while (rc == -1 && (errno == EINTR || errno == EBUSY));
        if (rc == -1) {
            error = "cannot move the status channel to fd " + std::to_string(target) + ": " + errnoText(errno);
            return false;
        }
        state.policy.statusFd = target;
        StatusChannel::use(target);
        return closeFrom(unsigned(target) + 1, &error);
    };
    const int bridge = state.policy.bridgeFd;
    if (bridge < 0) {
        // A command tool's file_args (SandboxPolicy::keepFds) stay at 3, 4, …
        if (!placeStatus(3 + state.policy.keepFds))
            return state.fail(SandboxExit::Fds, error);
        return true;
    }
    if (bridge < 3)
        return state.fail(SandboxExit::Fds, "the bridge fd must be 3 or more, not " + std::to_string(bridge));
    const int flags = ::fcntl(bridge, F_GETFD);
    if (flags == -1)
        return state.fail(SandboxExit::Fds,
                          "the bridge fd " + std::to_string(bridge) + " is not open: " + errnoText(errno)
                              + "; the caller must pass it without FD_CLOEXEC");
    if (bridge == 3) {
        if (::fcntl(3, F_SETFD, flags & ~FD_CLOEXEC) == -1)
            return state.fail(SandboxExit::Fds, "cannot clear FD_CLOEXEC on the bridge: " + errnoText(errno));
    } else {
        // dup2 leaves the new fd without FD_CLOEXEC; the old one is closed below.
        int rc;
        do {
            rc = ::dup2(bridge, 3);
        } while (rc == -1 && (errno == EINTR || errno == EBUSY));
        if (rc == -1)
            return state.fail(SandboxExit::Fds,
                              "cannot move the bridge fd " + std::to_string(bridge) + " to 3: " + errnoText(errno));
    }
    if (!placeStatus(4))
        return state.fail(SandboxExit::Fds, error);
    return true;
}
