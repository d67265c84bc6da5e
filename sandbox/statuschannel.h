// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

/// The launcher's status channel to the studio (SandboxPolicy::statusFd): "landlock N",
/// "listener" (with the policy-event fd), "ready", "failure <status> <step>: <reason>".
/// Only the launcher can write to it (it is close-on-exec), so a script cannot fake a
/// launcher failure. Qt-free; one per process.
namespace StatusChannel {

/// The channel's fd, -1 when there is none.
int fd();
/// Uses `fd` as the channel from now on.
void use(int fd);
/// Uses `fd` and marks it close-on-exec (a --status-fd from the command line).
void adopt(int fd);
/// Sends one message, with `passedFd` attached (SCM_RIGHTS) when ≥ 0. True when there
/// is no channel; false with errno set when the message did not go out whole.
bool send(std::string_view message, int passedFd = -1);

} // namespace StatusChannel
