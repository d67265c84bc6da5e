// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandboxpolicy.h"

#include <string>

/// toolstudio-sandbox's command line (nsjail's cmdline.cc): the options and the policy
/// file, turned into a SandboxPolicy. Applies nothing but the status channel (below).
/// Plain C++/POSIX: no Qt.
namespace LaunchCommandLine {

/// What the command line asks for.
enum class Request { Run, Help, Report, Invalid };

/// Parses `toolstudio-sandbox --policy FILE` or `--policy-fd N` (the policy file or fd
/// must be a regular file of the launcher's uid, not writable by group or others; its
/// run_as_user must be configuredUser()),
/// `toolstudio-sandbox [--workdir DIR] [--bridge-fd N] [--user NAME] [--] PROGRAM ARGS...`
/// or `--help`. For Run, fills `policy` (reading FILE); for Invalid, `error` says
/// why. Without --workdir the current directory is the work dir, except as root,
/// where --workdir is required (the work dir is handed to the sandbox user).
/// A --status-fd (or the policy's status_fd) becomes the StatusChannel as soon as it
/// is read, so that even a usage error after it reaches the studio.
Request parse(int argc, char **argv, SandboxPolicy *policy, std::string *error);

/// The sandbox user a policy may name (run_as_user): TOOLSTUDIO_SANDBOX_USER in the
/// launcher's environment (the studio's, which no other user can change), else "nobody".
std::string configuredUser();

/// The --help text.
std::string usage();

} // namespace LaunchCommandLine
