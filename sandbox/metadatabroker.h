// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>

/// The studio's side of the brokered metadata calls (issue 16, class 1: "Landlock does
/// not govern file metadata"). The seccomp filter routes chmod, fchmod, fchmodat,
/// fchmodat2, utime, utimes, utimensat and futimesat to the user-notification
/// listener; PolicyListener hands them here. The call is never let through
/// (SECCOMP_USER_NOTIF_FLAG_CONTINUE would let the kernel re-read the path after the
/// check): the studio performs it itself, on an object it resolved once and holds:
///
/// 1. the path is read once from the caller's memory (/proc/<pid>/mem) into the
///    studio; it is resolved only beneath the work dir (an absolute path in it, or a
///    relative one from a cwd or dirfd in it; else refused unresolved, so the studio
///    never tells which names exist where the script cannot search): from the work
///    dir fd with `openat2(O_PATH, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`
///    (O_NOFOLLOW for the nofollow forms); fd forms (fchmod, futimens) open
///    /proc/<pid>/fd/N;
/// 2. SECCOMP_IOCTL_NOTIF_ID_VALID: the caller is still the one that asked (no pid reuse);
/// 3. beneath the work dir: the object's path must lie in the work dir (the studio holds
///    the work dir as an fd, so the pre-warmed folder's rename is followed) and
///    re-opening that relative path from the work dir fd with RESOLVE_BENEATH |
///    RESOLVE_NO_SYMLINKS must give the same inode; a non-directory must have one
///    link (a hard link may share its inode with a file outside);
/// 4. the caller's fs uid must own it (the studio may be root); setuid and setgid bits
///    are dropped from a new mode;
/// 5. the change is made through the held fd (/proc/self/fd/N, or AT_EMPTY_PATH).
///
/// A script cannot move an object out of its work dir (Landlock grants no write
/// outside), so the object checked is the object changed.
namespace MetadataBroker {

/// Whether `syscall` (a name from SeccompFilter::syscallName) is brokered here.
bool handles(const std::string &syscall);

struct Outcome
{
    int error = 0;        ///< 0: done (the caller gets 0), else the errno it gets
    bool refused = false; ///< refused by the policy (outside the work dir, not its owner): a policy event
    std::string what;     ///< the path or fd, for the policy event
};

/// Performs (or refuses) one brokered call of `pid`. `notifyFd` and `id` are the
/// listener and the notification (for SECCOMP_IOCTL_NOTIF_ID_VALID); `workDirFd` an
/// O_PATH fd of the run's work dir, -1 when unknown (then everything is refused).
Outcome handle(const std::string &syscall, const std::uint64_t args[6], pid_t pid, int notifyFd, std::uint64_t id,
               int workDirFd);

} // namespace MetadataBroker
