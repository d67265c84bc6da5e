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

/// The name of the environment variable that caps the ABI the launcher uses
/// (tests run the battery at Debian 12's ABI 2 on newer kernels).
inline constexpr const char *AbiCapVariable = "TOOLSTUDIO_LANDLOCK_ABI_MAX";

/// Parses a cap on the ABI ("2"): 1..99, else -1. Used for the environment variable,
/// `--landlock-abi N` and the policy's `landlock_abi_max`.
int parseAbiCap(const std::string &text);

/// `offered` lowered to `cap` (0 = no cap).
int cappedAbi(int offered, int cap);

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

/// What the interpreter `program` is granted (read and execute), issue 16 class 2:
/// its own file after resolving symlinks (/usr/bin/python3 -> /usr/bin/python3.11)
/// and, for <prefix>/bin/<name>, its library trees <prefix>/lib and <prefix>/lib64
/// (those that exist) — never <prefix> itself, which for ~/bin or ~/.local/bin is the
/// user's home. A library tree that is, contains or lies in a prefix that is or
/// contains one of `protectedDirs` (the home, config and cache dirs), or that is "/",
/// is refused: `error` names the path and what to do, `paths` is then empty.
struct InterpreterGrants
{
    std::vector<std::string> paths;
    std::string error;
};
InterpreterGrants interpreterGrants(const std::string &program, const std::vector<std::string> &protectedDirs);

/// Creates the ruleset at ABI `abi` (≥ 1), adds `rules` (paths that do not exist are
/// skipped) and restricts the calling thread. PR_SET_NO_NEW_PRIVS must be set.
/// Returns "" on success, else what failed.
std::string restrictSelf(int abi, const Rules &rules);

/// One line per ABI feature for --report: "file system (ABI 1): enforced", …
std::vector<std::string> describeFeatures(int abi);

} // namespace Landlock
