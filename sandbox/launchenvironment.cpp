// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchenvironment.h"

#include "launchstate.h"

#include <cstdlib>

std::vector<std::string> LaunchEnvironment::build(const SandboxPolicy &policy)
{
    std::vector<std::pair<std::string, std::string>> entries = {
        {"PATH", policy.path},   {"HOME", policy.workDir},      {"TMPDIR", policy.workDir},       {"LANG", policy.lang},
        {"LC_ALL", policy.lang}, {"PYTHONIOENCODING", "utf-8"}, {"PYTHONDONTWRITEBYTECODE", "1"},
    };
    if (policy.bridgeFd >= 0)
        entries.emplace_back("TOOLSTUDIO_BRIDGE_FD", "3");
    for (const auto &[name, value] : policy.env) {
        bool replaced = false;
        for (auto &entry : entries) {
            if (entry.first == name) {
                entry.second = value;
                replaced = true;
            }
        }
        if (!replaced)
            entries.emplace_back(name, value);
    }
    std::vector<std::string> environment;
    environment.reserve(entries.size());
    for (const auto &[name, value] : entries)
        environment.push_back(name + "=" + value);
    return environment;
}

bool LaunchEnvironment::replace(LaunchState &state)
{
    for (const auto &[name, value] : state.policy.env) {
        if (name.empty() || name.find('=') != std::string::npos)
            return state.fail(SandboxExit::Environment, "\"" + name + "\" is not a valid environment variable name");
    }
    // Secrets named in the policy come from the launcher's environment (never from the
    // policy file); a name that is not set is left out.
    for (const std::string &name : state.policy.passEnv) {
        if (const char *value = ::getenv(name.c_str()))
            state.policy.env.emplace_back(name, value);
    }
    // The launcher's own environment is the studio's: drop it, so nothing of it can
    // reach the child by accident (execve gets an explicit list anyway).
    if (::clearenv() != 0)
        return state.fail(SandboxExit::Environment, "clearenv failed");
    state.environment = build(state.policy);
    return true;
}
