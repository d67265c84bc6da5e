// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandboxpolicy.h"

#include <string>
#include <vector>

struct LaunchState;

/// The child's environment (SANDBOX.md step 6): an allow-list, nothing of the
/// launcher's own. Plain C++/POSIX.
namespace LaunchEnvironment {

/// The child's environment as "NAME=value" entries: PATH, HOME and TMPDIR (= the
/// work dir), LANG and LC_ALL (= policy.lang), PYTHONIOENCODING=utf-8,
/// PYTHONDONTWRITEBYTECODE=1, TOOLSTUDIO_BRIDGE_FD=3 when there is a bridge, then
/// policy.env (which may override the ones before).
std::vector<std::string> build(const SandboxPolicy &policy);

/// Checks policy.env's names, clears the launcher's own environment and puts build()'s
/// into state.environment (for execve). Fails with SandboxExit::Environment.
bool replace(LaunchState &state);

} // namespace LaunchEnvironment
