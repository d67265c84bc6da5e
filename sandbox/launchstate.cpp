// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchstate.h"

#include <pwd.h>
#include <unistd.h>

bool LaunchState::fail(int exitStatus, std::string reason)
{
    failure = {exitStatus, std::move(reason)};
    return false;
}

std::string LaunchState::userLabel() const
{
    const uid_t uid = ::getuid();
    std::string name = sandboxUserName;
    if (name.empty()) {
        if (const passwd *pw = ::getpwuid(uid))
            name = pw->pw_name;
    }
    return "uid " + std::to_string(uid) + (name.empty() ? std::string() : " (" + name + ")");
}
