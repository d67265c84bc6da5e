// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// A read-only snapshot of an open regular file in a sealed memfd, for handing a file
/// the script wrote to a process running as another uid (a command tool's file_args,
/// docs/sandbox.md "The studio's side").
///
/// Why a copy: the run's files belong to the run's uid and are private (umask 077, a
/// 0700 work dir); a command tool runs as the sandbox user, which is another uid when
/// the run has a run uid (no pids cgroup, as root). An inherited fd can be read, but a
/// tool that opens `/dev/fd/N` re-opens the inode, and the kernel checks the file's
/// mode against the tool's uid: EACCES. A memfd's inode is the studio's, mode 0777 (or
/// 0666 with MFD_NOEXEC_SEAL), on the kernel's internal tmpfs, which Landlock does not
/// restrict; sealed (no write, grow, shrink, further seals) it is a snapshot neither
/// side can change, and the tool cannot write through it into the work dir.
///
/// Plain C++/POSIX (Linux ≥ 3.17 for memfd_create and sealing).
class SealedCopy
{
public:
    /// Copies the contents of `fd` (a regular file, read from offset 0 up to its size
    /// when called; not consumed) into a new memfd named `name` (shown in
    /// /proc/PID/fd as "/memfd:<name>"), seals it and rewinds it. Returns the memfd
    /// (O_RDWR | O_CLOEXEC, the caller closes it), or -1 with `*error` set to one line
    /// naming the step and errno (e.g. "memfd_create failed: Cannot allocate memory").
    static int of(int fd, const std::string &name, std::string *error);
};
