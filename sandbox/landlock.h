// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

/// Landlock through raw syscalls (SANDBOX.md "Landlock"; the kernel's
/// Documentation/userspace-api/landlock.rst), at the highest ABI the kernel offers:
///
/// | ABI | what the launcher restricts with it |
/// |---|---|
/// | 1 | file system: read/write/execute/create/remove beneath the rules only |
/// | 2 | + link and rename across directories (REFER), granted only inside the work dir |
/// | 3 | + truncate |
/// | 4 | + TCP bind and connect: none allowed |
/// | 5 | + ioctl on devices: none allowed |
/// | 6 | + scoping: no signal to a process outside the sandbox (the studio), no abstract unix socket outside it |
/// | 7 | (audit logging only; nothing more to restrict) |
///
/// Plain C++/POSIX: the launcher is single-threaded and Qt-free.
namespace Landlock {

/// The highest Landlock ABI the kernel offers, 0 when it has none (not built in, or
/// not in the `lsm=` list), with `why` saying which.
int abiVersion(std::string *why = nullptr);

/// The paths a ruleset gets (SANDBOX.md): what the child may read and execute, only
/// read, and read-write (the work dir; never execute).
struct Rules
{
    std::vector<std::string> readExecute; ///< /usr, /bin, /sbin, /lib*, /opt, interpreter prefix, shim dir
    std::vector<std::string> readOnly; ///< /etc, /proc, /sys/devices/system/cpu, /dev/zero, /dev/urandom, /dev/random
    std::vector<std::string> readWriteFiles; ///< /dev/null (read and write, no directory rights)
    std::string workDir;                     ///< read-write, not executable
    /// More read-write (not executable) dirs: the trusted-code profile's tool data dir.
    std::vector<std::string> readWrite;
    /// TCP bind/connect allowed (the trusted-code profile; ABI >= 4 handles them otherwise).
    bool allowTcp = false;
};

/// The default rules for a run: the system dirs above, `extraReadExecute` (the
/// interpreter's resolved prefix, the shim/runtime dir) and the work dir.
Rules defaultRules(const std::string &workDir, const std::vector<std::string> &extraReadExecute);

/// The prefix of an interpreter binary after resolving symlinks: /usr for
/// /usr/bin/python3 -> /usr/bin/python3.11, /opt/node for /opt/node/bin/node.
/// Empty when `program` cannot be resolved.
std::string interpreterPrefix(const std::string &program);

/// Creates the ruleset at ABI `abi` (≥ 1), adds `rules` (paths that do not exist are
/// skipped) and restricts the calling thread. PR_SET_NO_NEW_PRIVS must be set.
/// Returns "" on success, else what failed.
std::string restrictSelf(int abi, const Rules &rules);

/// One line per ABI feature for --report: "file system (ABI 1): enforced", …
std::vector<std::string> describeFeatures(int abi);

} // namespace Landlock
