// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

/// rlimits applied by the launcher (SANDBOX.md "Limits"). 0 = leave the limit as is,
/// except where noted.
struct SandboxLimits
{
    std::uint64_t cpuSeconds = 305;                      ///< RLIMIT_CPU (run timeout + 5 s)
    std::uint64_t dataBytes = 2ull * 1024 * 1024 * 1024; ///< RLIMIT_DATA
    std::uint64_t fileSizeBytes = 256ull * 1024 * 1024;  ///< RLIMIT_FSIZE
    std::uint64_t openFiles = 256;                       ///< RLIMIT_NOFILE
    std::uint64_t extraProcesses = 64;                   ///< RLIMIT_NPROC = user's current count + this
};

/// What the launcher (`toolstudio-sandbox`) applies before it execs the interpreter.
/// Plain data, Qt-free: the launcher is a small single-threaded program.
/// Serialised as JSON for `toolstudio-sandbox --policy FILE`.
struct SandboxPolicy
{
    std::string workDir;                 ///< absolute; the child's cwd, HOME and TMPDIR
    std::vector<std::string> argv;       ///< argv[0] is the interpreter's absolute path
    /// Extra environment entries (shim paths: PYTHONPATH, NODE_PATH, TOOLSTUDIO_*).
    /// Nothing else of the studio's environment reaches the child.
    std::vector<std::pair<std::string, std::string>> env;
    std::string path = "/usr/local/bin:/usr/bin:/bin";
    std::string lang = "C.UTF-8";
    /// The bridge's fd number in the launcher's process; the launcher moves it to 3.
    /// -1 = no bridge (the child gets no fd 3).
    int bridgeFd = -1;
    /// When the launcher runs as root it switches to this user first (SANDBOX.md).
    std::string runAsUser = "nobody";
    /// Paths the child may read and execute (interpreter prefix, shim dir); used by
    /// Landlock (the sandbox issue).
    std::vector<std::string> readPaths;
    SandboxLimits limits;

    nlohmann::json toJson() const;
    /// Throws std::runtime_error naming the bad field.
    static SandboxPolicy fromJson(const nlohmann::json &json);
};

/// Exit statuses of `toolstudio-sandbox` when it fails before execve (each step has
/// its own, so the studio can say which step failed). The reason is also printed as
/// one line on stderr: "toolstudio-sandbox: <step>: <reason>".
namespace SandboxExit {
inline constexpr int Usage = 120;
inline constexpr int Parent = 121;
inline constexpr int Session = 122;
inline constexpr int Limits = 123;
inline constexpr int WorkDir = 124;
inline constexpr int Fds = 125;
inline constexpr int Credentials = 126;
inline constexpr int NoNewPrivs = 127;
inline constexpr int Landlock = 128;
inline constexpr int Seccomp = 129;
inline constexpr int Exec = 130;

/// Which launcher step an exit status stands for, or "" for other statuses.
const char *stepName(int exitStatus);
}
