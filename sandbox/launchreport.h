// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// `toolstudio-sandbox --report`. Plain C++/POSIX: no Qt.
namespace LaunchReport {

/// What this kernel lets the sandbox enforce: seccomp, policy events, the Landlock ABI
/// and its features, the user switch, limits, the process budget, known limits.
std::string text();

} // namespace LaunchReport
