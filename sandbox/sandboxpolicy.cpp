// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandboxpolicy.h"

#include "pidscgroup.h"

#include <climits>
#include <set>
#include <stdexcept>

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string &field, const std::string &what)
{
    throw std::runtime_error("policy field \"" + field + "\": " + what);
}

/// Strings end up in execve's argv/envp and in paths: an embedded NUL would silently
/// cut them short there, so it is refused here.
std::string stringField(const json &value, const std::string &field)
{
    if (!value.is_string())
        bad(field, "must be a string");
    const auto &text = value.get_ref<const std::string &>();
    if (text.find('\0') != std::string::npos)
        bad(field, "must not contain a NUL character");
    return text;
}

std::uint64_t unsignedField(const json &value, const std::string &field)
{
    if (value.is_number_unsigned())
        return value.get<std::uint64_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
    bad(field, "must be a non-negative integer");
}

std::vector<std::string> stringList(const json &value, const std::string &field)
{
    if (!value.is_array())
        bad(field, "must be an array of strings");
    std::vector<std::string> list;
    for (std::size_t i = 0; i < value.size(); ++i)
        list.push_back(stringField(value[i], field + "[" + std::to_string(i) + "]"));
    return list;
}

std::vector<std::pair<std::string, std::string>> environmentField(const json &environment)
{
    if (!environment.is_object())
        bad("env", "must be an object of strings");
    std::vector<std::pair<std::string, std::string>> entries;
    for (const auto &[name, entry] : environment.items()) {
        if (name.empty() || name.find('=') != std::string::npos || name.find('\0') != std::string::npos)
            bad("env", "\"" + name + "\" is not a valid variable name");
        entries.emplace_back(name, stringField(entry, "env." + name));
    }
    return entries;
}

void checkKeys(const json &object, const std::string &where, const std::set<std::string> &known)
{
    // A misspelt key would otherwise silently fall back to a default: refuse it.
    for (const auto &[key, value] : object.items()) {
        if (!known.count(key))
            bad(where.empty() ? key : where + "." + key, "unknown field");
    }
}

/// `value` without the trusted-code fields (checked by readTrustedCodeFields).
json withoutTrustedCodeFields(json value)
{
    for (const char *key : {"profile", "network", "write_paths", "pass_env", "cwd", "keep_fds"})
        value.erase(key);
    return value;
}

/// The fields of the trusted-code profile (docs/sandbox.md "Trusted code").
void readTrustedCodeFields(const json &value, SandboxPolicy *policy)
{
    if (value.contains("profile")) {
        policy->profile = stringField(value["profile"], "profile");
        if (policy->profile != SandboxPolicy::ProfileRun && policy->profile != SandboxPolicy::ProfileToolWorker)
            bad("profile", "must be \"run\" or \"tool_worker\"");
    }
    if (value.contains("network")) {
        if (!value["network"].is_boolean())
            bad("network", "must be true or false");
        policy->network = value["network"].get<bool>();
        if (policy->network && policy->profile != SandboxPolicy::ProfileToolWorker)
            bad("network", "is allowed only with the \"tool_worker\" profile");
    }
    if (value.contains("write_paths")) {
        policy->writePaths = stringList(value["write_paths"], "write_paths");
        for (const std::string &path : policy->writePaths)
            if (path.empty() || path.front() != '/')
                bad("write_paths", "must hold absolute paths");
    }
    if (value.contains("pass_env")) {
        policy->passEnv = stringList(value["pass_env"], "pass_env");
        for (const std::string &name : policy->passEnv)
            if (name.empty() || name.find('=') != std::string::npos)
                bad("pass_env", "\"" + name + "\" is not a valid variable name");
    }
    if (value.contains("cwd")) {
        policy->cwd = stringField(value["cwd"], "cwd");
        if (!policy->cwd.empty() && policy->cwd.front() != '/')
            bad("cwd", "must be an absolute path (or empty: the work dir)");
    }
    if (value.contains("keep_fds")) {
        const json &count = value["keep_fds"];
        if (!count.is_number_integer() || count.get<std::int64_t>() < 0 || count.get<std::int64_t>() > 64)
            bad("keep_fds", "must be an integer from 0 to 64");
        policy->keepFds = count.get<int>();
        if (policy->keepFds > 0 && (policy->bridgeFd >= 0 || policy->statusFd >= 0))
            bad("keep_fds", "needs a policy without bridge_fd and status_fd");
    }
}

} // namespace

json SandboxPolicy::toJson() const
{
    json environment = json::object();
    for (const auto &[name, value] : env)
        environment[name] = value;
    json result{
        {"work_dir", workDir},
        {"argv", argv},
        {"env", environment},
        {"path", path},
        {"lang", lang},
        {"bridge_fd", bridgeFd},
        {"status_fd", statusFd},
        {"parent_pid", parentPid},
        {"seccomp_only", seccompOnly},
        {"run_as_user", runAsUser},
        {"read_paths", readPaths},
        {"pids_cgroup", pidsCgroup},
        {"memory_cgroup", memoryCgroup},
        {"isolate_processes", isolateProcesses},
        {"wait_for_go", waitForGo},
        {"landlock_abi_max", landlockAbiMax},
        {"limits",
         {
             {"cpu_seconds", limits.cpuSeconds},
             {"data_bytes", limits.dataBytes},
             {"file_size_bytes", limits.fileSizeBytes},
             {"open_files", limits.openFiles},
             {"extra_processes", limits.extraProcesses},
         }},
    };
    // The trusted-code fields only when set: a run's policy reads as before.
    if (profile != ProfileRun)
        result["profile"] = profile;
    if (network)
        result["network"] = network;
    if (!writePaths.empty())
        result["write_paths"] = writePaths;
    if (!passEnv.empty())
        result["pass_env"] = passEnv;
    if (!cwd.empty())
        result["cwd"] = cwd;
    if (keepFds != 0)
        result["keep_fds"] = keepFds;
    return result;
}

SandboxPolicy SandboxPolicy::fromJson(const json &value)
{
    if (!value.is_object())
        throw std::runtime_error("a sandbox policy must be a JSON object");
    checkKeys(withoutTrustedCodeFields(value), {},
              {"work_dir", "argv", "env", "path", "lang", "bridge_fd", "status_fd", "parent_pid", "seccomp_only",
               "run_as_user", "read_paths", "pids_cgroup", "memory_cgroup", "isolate_processes", "wait_for_go",
               "landlock_abi_max", "limits"});

    SandboxPolicy policy;
    if (!value.contains("work_dir"))
        bad("work_dir", "is required");
    policy.workDir = stringField(value["work_dir"], "work_dir");
    if (policy.workDir.empty() || policy.workDir.front() != '/')
        bad("work_dir", "must be an absolute path");

    if (!value.contains("argv"))
        bad("argv", "is required");
    policy.argv = stringList(value["argv"], "argv");
    if (policy.argv.empty() || policy.argv.front().empty())
        bad("argv", "must name a program to run");

    if (value.contains("env"))
        policy.env = environmentField(value["env"]);
    if (value.contains("path"))
        policy.path = stringField(value["path"], "path");
    if (value.contains("lang"))
        policy.lang = stringField(value["lang"], "lang");
    if (value.contains("bridge_fd")) {
        const json &fd = value["bridge_fd"];
        if (!fd.is_number_integer() || fd.get<std::int64_t>() > INT_MAX
            || (fd.get<std::int64_t>() != -1 && fd.get<std::int64_t>() < 3))
            bad("bridge_fd", "must be -1 (no bridge) or a file descriptor number of 3 or more");
        policy.bridgeFd = fd.get<int>();
    }
    if (value.contains("status_fd")) {
        const json &fd = value["status_fd"];
        if (!fd.is_number_integer() || fd.get<std::int64_t>() > INT_MAX
            || (fd.get<std::int64_t>() != -1 && fd.get<std::int64_t>() < 3))
            bad("status_fd", "must be -1 (no status channel) or a file descriptor number of 3 or more");
        policy.statusFd = fd.get<int>();
        if (policy.statusFd >= 0 && policy.statusFd == policy.bridgeFd)
            bad("status_fd", "must differ from bridge_fd");
    }
    if (value.contains("seccomp_only")) {
        if (!value["seccomp_only"].is_boolean())
            bad("seccomp_only", "must be true or false");
        policy.seccompOnly = value["seccomp_only"].get<bool>();
    }
    if (value.contains("parent_pid")) {
        const json &pid = value["parent_pid"];
        if (!pid.is_number_integer() || pid.get<std::int64_t>() < 0 || pid.get<std::int64_t>() > INT_MAX)
            bad("parent_pid", "must be a process id (0 = the launcher's parent at start)");
        policy.parentPid = pid.get<std::int64_t>();
    }
    if (value.contains("run_as_user"))
        policy.runAsUser = stringField(value["run_as_user"], "run_as_user");
    if (value.contains("read_paths"))
        policy.readPaths = stringList(value["read_paths"], "read_paths");
    if (value.contains("wait_for_go")) {
        if (!value["wait_for_go"].is_boolean())
            bad("wait_for_go", "must be true or false");
        policy.waitForGo = value["wait_for_go"].get<bool>();
    }
    if (value.contains("isolate_processes")) {
        if (!value["isolate_processes"].is_boolean())
            bad("isolate_processes", "must be true or false");
        policy.isolateProcesses = value["isolate_processes"].get<bool>();
    }
    if (value.contains("landlock_abi_max")) {
        const json &cap = value["landlock_abi_max"];
        if (!cap.is_number_integer() || cap.get<std::int64_t>() < 0 || cap.get<std::int64_t>() > 99)
            bad("landlock_abi_max", "must be 0 (the best the kernel offers) or a Landlock ABI 1..99");
        policy.landlockAbiMax = cap.get<int>();
    }
    if (value.contains("memory_cgroup")) {
        policy.memoryCgroup = stringField(value["memory_cgroup"], "memory_cgroup");
        if (!policy.memoryCgroup.empty() && !PidsCgroup::isRunCgroupPath(policy.memoryCgroup))
            bad("memory_cgroup", "must be a run cgroup /sys/fs/cgroup/…/toolstudio-run-* (or empty)");
    }
    if (value.contains("pids_cgroup")) {
        policy.pidsCgroup = stringField(value["pids_cgroup"], "pids_cgroup");
        if (!policy.pidsCgroup.empty() && !PidsCgroup::isRunCgroupPath(policy.pidsCgroup))
            bad("pids_cgroup", "must be a run cgroup /sys/fs/cgroup/…/toolstudio-run-* (or empty)");
    }

    if (value.contains("limits")) {
        const json &limits = value["limits"];
        if (!limits.is_object())
            bad("limits", "must be an object");
        checkKeys(limits, "limits", {"cpu_seconds", "data_bytes", "file_size_bytes", "open_files", "extra_processes"});
        const auto read = [&](const char *key, std::uint64_t &target) {
            if (limits.contains(key))
                target = unsignedField(limits[key], std::string("limits.") + key);
        };
        read("cpu_seconds", policy.limits.cpuSeconds);
        read("data_bytes", policy.limits.dataBytes);
        read("file_size_bytes", policy.limits.fileSizeBytes);
        read("open_files", policy.limits.openFiles);
        read("extra_processes", policy.limits.extraProcesses);
    }
    readTrustedCodeFields(value, &policy);
    return policy;
}

json SandboxGo::toJson() const
{
    json environment = json::object();
    for (const auto &[name, value] : env)
        environment[name] = value;
    return json{{"work_dir", workDir}, {"argv", argv}, {"env", environment}};
}

SandboxGo SandboxGo::fromJson(const json &value)
{
    if (!value.is_object())
        throw std::runtime_error("the \"go\" handover must be a JSON object");
    checkKeys(value, {}, {"work_dir", "argv", "env"});
    SandboxGo go;
    if (value.contains("work_dir")) {
        go.workDir = stringField(value["work_dir"], "work_dir");
        if (!go.workDir.empty() && go.workDir.front() != '/')
            bad("work_dir", "must be an absolute path");
    }
    if (value.contains("argv"))
        go.argv = stringList(value["argv"], "argv");
    if (value.contains("env"))
        go.env = environmentField(value["env"]);
    return go;
}

namespace SandboxExit {

const char *stepName(int exitStatus)
{
    switch (exitStatus) {
    case Usage:
        return "usage";
    case Parent:
        return "parent";
    case Session:
        return "session";
    case Limits:
        return "limits";
    case WorkDir:
        return "workdir";
    case Fds:
        return "fds";
    case Credentials:
        return "credentials";
    case NoNewPrivs:
        return "no_new_privs";
    case Landlock:
        return "landlock";
    case Seccomp:
        return "seccomp";
    case Exec:
        return "exec";
    case Environment:
        return "environment";
    default:
        return "";
    }
}

} // namespace SandboxExit
