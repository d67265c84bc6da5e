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
    /// The run's process budget: its pids cgroup's pids.max is this + 1 (the
    /// interpreter); without one, RLIMIT_NPROC = the user's current task count + this.
    std::uint64_t extraProcesses = 64;
};

/// What the launcher (`toolstudio-sandbox`) applies before it execs the interpreter.
/// Plain data, Qt-free: the launcher is a small single-threaded program.
/// Serialised as JSON for `toolstudio-sandbox --policy FILE`:
///
///     {"work_dir": "/abs", "argv": ["/usr/bin/python3", "x.py"],
///      "env": {"PYTHONPATH": "…"}, "path": "…", "lang": "C.UTF-8", "bridge_fd": 5,
///      "status_fd": 6, "parent_pid": 4242, "seccomp_only": false,
///      "run_as_user": "nobody", "read_paths": [], "pids_cgroup": "/sys/fs/cgroup/…",
///      "isolate_processes": true, "landlock_abi_max": 0,
///      "limits": {"cpu_seconds": 305, "data_bytes": …, "file_size_bytes": …,
///                 "open_files": 256, "extra_processes": 64},
///      "profile": "run", "network": false, "write_paths": [], "pass_env": [],
///      "cwd": "", "keep_fds": 0}
///
/// Only "work_dir" and "argv" are required; the rest default to the values below.
struct SandboxPolicy
{
    std::string workDir;           ///< absolute; the child's cwd, HOME and TMPDIR
    std::vector<std::string> argv; ///< argv[0] is the interpreter's absolute path
    /// Extra environment entries (shim paths: PYTHONPATH, NODE_PATH, TOOLSTUDIO_*).
    /// Nothing else of the studio's environment reaches the child.
    std::vector<std::pair<std::string, std::string>> env;
    std::string path = "/usr/local/bin:/usr/bin:/bin";
    std::string lang = "C.UTF-8";
    /// The bridge's fd number in the launcher's process; the launcher moves it to 3.
    /// -1 = no bridge (the child gets no fd 3).
    int bridgeFd = -1;
    /// The launcher's status channel (an AF_UNIX SOCK_SEQPACKET socket; -1 = none).
    /// The launcher marks it close-on-exec and sends on it, as one message each:
    /// "landlock <abi>" (0 = seccomp only), the seccomp user-notification listener
    /// ("listener", the fd attached with SCM_RIGHTS), and on failure
    /// "failure <status> <step>: <reason>". A successful execve closes it; a script
    /// cannot write to it, so only the launcher can report a launcher failure.
    /// With a status channel, the policy-event calls go to the listener.
    int statusFd = -1;
    /// The user opted in to running without Landlock ("seccomp only"): a kernel without
    /// Landlock is then not a launcher failure. Such runs are marked (SandboxProcess::landlockAbi() == 0).
    bool seccompOnly = false;
    /// The process that starts the launcher (the studio). The launcher exits with
    /// SandboxExit::Parent when its parent is not this one (it died before
    /// PR_SET_PDEATHSIG). 0 = the parent the launcher sees when it starts.
    std::int64_t parentPid = 0;
    /// When the launcher runs as root it switches to this user first (SANDBOX.md).
    std::string runAsUser = "nobody";
    /// Paths the child may read and execute besides the system dirs (the shim/runtime
    /// dir); the interpreter's resolved prefix is added by the launcher (Landlock).
    std::vector<std::string> readPaths;
    /// The run's pids cgroup (PidsCgroup::create(), made by the studio): the launcher
    /// moves itself in before it switches users, and then leaves RLIMIT_NPROC alone —
    /// the cgroup's pids.max bounds the run's tasks. Empty: no cgroup, RLIMIT_NPROC =
    /// the sandbox user's task count + limits.extraProcesses (shared by that user's runs).
    std::string pidsCgroup;
    /// cgroup v1: the run's memory cgroup (memory.limit_in_bytes = limits.dataBytes for
    /// all its tasks together), made by the studio, joined by the launcher with the
    /// pids cgroup. On v2 the pids cgroup holds memory.max itself. Empty: none.
    std::string memoryCgroup;
    /// Without a pids cgroup, give the run a user of its own (ProcessIsolation): as root
    /// a reserved run uid, as an ordinary user a user namespace. false (tests, and the
    /// residual the launcher falls back to): RLIMIT_NPROC on the sandbox user, shared
    /// by its concurrent runs.
    bool isolateProcesses = true;
    /// Pre-warmed start: after every step but execve the launcher sends "ready" on
    /// the status channel and waits for "go" there before it execs (anything else, or
    /// the channel closing, ends it with SandboxExit::Parent). Needs a status channel.
    /// "go " followed by a SandboxGo as JSON hands over what depends on the run.
    bool waitForGo = false;
    /// The highest Landlock ABI to use (0 = the best the kernel offers): runs and
    /// tests can be held to an older kernel's rules (Debian 12's 6.1 offers ABI 2).
    /// TOOLSTUDIO_LANDLOCK_ABI_MAX in the launcher's environment caps it further.
    int landlockAbiMax = 0;
    SandboxLimits limits;

    /// What is confined (docs/sandbox.md "Trusted code"). ProfileRun (the default): an
    /// agent script — the seccomp allow-list, no TCP. ProfileToolWorker: trusted code the
    /// project brings (the Python tool worker, command tools) — the same Landlock file
    /// rules plus `writePaths`, TCP allowed unless `network` is false, no seccomp filter
    /// and no listener (tools call APIs; the worker's uid is never root).
    static constexpr const char *ProfileRun = "run";
    static constexpr const char *ProfileToolWorker = "tool_worker";
    std::string profile = ProfileRun;
    /// ProfileToolWorker only: TCP connect/bind allowed (Landlock ABI >= 4 handles it).
    bool network = false;
    /// Read-write (never executable) besides the work dir: the project's tool data dir.
    std::vector<std::string> writePaths;
    /// Names of variables the launcher takes from its own environment before it clears
    /// it (a tool's secrets: they are never written into the policy file).
    std::vector<std::string> passEnv;
    /// The child's working directory; empty = the work dir. It must be readable by the
    /// sandbox user (a command tool runs in the project folder).
    std::string cwd;
    /// fds 3 .. 3+keepFds-1 stay open as they are (a command tool's file_args). Only
    /// without a bridge and a status channel.
    int keepFds = 0;

    nlohmann::json toJson() const;
    /// Throws std::runtime_error naming the bad field ("policy field \"argv\": …"):
    /// wrong types, unknown fields (a typo must not fall back to a default), a relative
    /// work_dir, an empty argv, NUL characters in strings, a bridge_fd of 0..2.
    /// `env` comes back sorted by name.
    static SandboxPolicy fromJson(const nlohmann::json &json);
};

/// What a pre-warmed launcher (SandboxPolicy::waitForGo) learns with "go": the parts of
/// a run that are only known when it starts. Serialised as the JSON after "go " on the
/// status channel (one SOCK_SEQPACKET message of at most MaxBytes):
///
///     {"work_dir": "/abs/new/name", "argv": ["script.py"], "env": {"TOOLSTUDIO_RUN_ID": "…"}}
///
/// Every field is optional. `workDir` is a new name of the *same* directory the launcher
/// entered (the studio renamed the pre-warmed run folder to the run's): the launcher
/// refuses it (SandboxExit::WorkDir) unless it is the directory it is in, and sets
/// HOME and TMPDIR to it. `argv` is appended to the policy's argv; `env` entries
/// replace or add to the policy's (the same rules as SandboxPolicy::env).
struct SandboxGo
{
    static constexpr std::size_t MaxBytes = 64 * 1024;
    std::string workDir;
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> env;

    nlohmann::json toJson() const;
    /// Throws std::runtime_error naming the bad field, as SandboxPolicy::fromJson does.
    static SandboxGo fromJson(const nlohmann::json &json);
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
/// Building the child's environment failed (out of memory, a bad variable name).
inline constexpr int Environment = 131;

/// The range of launcher statuses; a script may exit with these too, so the studio
/// also checks the "toolstudio-sandbox: " prefix on stderr.
inline constexpr int First = Usage;
inline constexpr int Last = Environment;

/// Which launcher step an exit status stands for ("usage", "parent", "session",
/// "limits", "workdir", "fds", "credentials", "no_new_privs", "landlock", "seccomp",
/// "exec", "environment"), or "" for other statuses.
const char *stepName(int exitStatus);
} // namespace SandboxExit
