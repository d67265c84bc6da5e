// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Running a suite as an ordinary user when it was started as root (issue 16: the
// battery must hold for an ordinary-user studio too). CTest's `<suite>_user` entries set
// TOOLSTUDIO_TEST_AS_USER=<name>; the suite then re-executes itself through util-linux's
// setpriv as that user, with no supplementary groups and no capabilities, and a home of
// its own (a fresh 0700 folder under /tmp, given to that user).
#pragma once

#include <QDir>
#include <QString>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pwd.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace AsUser {

/// When TOOLSTUDIO_TEST_AS_USER names a user and this process is root: execs
/// `setpriv --reuid --regid --clear-groups --inh-caps=-all -- /proc/self/exe ARGS` as
/// that user and never returns (exits 1 saying why when it cannot). Otherwise returns.
inline void reexecIfAsked(int argc, char **argv)
{
    const char *name = std::getenv("TOOLSTUDIO_TEST_AS_USER");
    if (!name || !*name || ::geteuid() != 0)
        return;
    const passwd *user = ::getpwnam(name);
    if (!user || user->pw_uid == 0) {
        std::fprintf(stderr, "TOOLSTUDIO_TEST_AS_USER=%s: no such unprivileged user; create it or pick another\n",
                     name);
        std::exit(1);
    }
    char home[] = "/tmp/toolstudio-test-home-XXXXXX";
    if (!::mkdtemp(home) || ::chown(home, user->pw_uid, user->pw_gid) != 0) {
        std::fprintf(stderr, "cannot make a home for %s: %s\n", name, std::strerror(errno));
        std::exit(1);
    }
    ::setenv("HOME", home, 1);
    ::unsetenv("XDG_RUNTIME_DIR"); // root's, which the user cannot use
    ::unsetenv("XDG_CACHE_HOME");
    ::unsetenv("XDG_CONFIG_HOME");
    const std::string uid = "--reuid=" + std::to_string(user->pw_uid);
    const std::string gid = "--regid=" + std::to_string(user->pw_gid);
    char self[4096] = {};
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) {
        std::fprintf(stderr, "cannot find this test's executable: %s\n", std::strerror(errno));
        std::exit(1);
    }
    // The user must reach this executable and its build tree: one under root's 0700
    // home is not. Then the suite is skipped (CTest's SKIP_RETURN_CODE 77), saying so.
    for (std::string dir = self; dir.size() > 1;) {
        dir.resize(std::max<std::size_t>(dir.rfind('/'), 1));
        struct stat info = {};
        if (::stat(dir.c_str(), &info) != 0)
            break;
        const bool passable = (info.st_mode & S_IXOTH) || (info.st_uid == user->pw_uid && (info.st_mode & S_IXUSR))
            || (info.st_gid == user->pw_gid && (info.st_mode & S_IXGRP));
        if (!passable) {
            std::fprintf(stderr,
                         "SKIP: %s cannot reach this build tree: %s is mode %03o, owned by uid %u; clone the project "
                         "outside a private home (e.g. under /srv or /tmp) to run the suite as %s\n",
                         name, dir.c_str(), unsigned(info.st_mode & 07777), unsigned(info.st_uid), name);
            std::exit(77);
        }
    }
    std::vector<const char *> args
        = {"setpriv", uid.c_str(), gid.c_str(), "--clear-groups", "--inh-caps=-all", "--", self};
    for (int i = 1; i < argc; ++i)
        args.push_back(argv[i]);
    args.push_back(nullptr);
    std::fprintf(stderr, "running as %s (uid %u) through setpriv\n", name, unsigned(user->pw_uid));
    ::execvp("setpriv", const_cast<char *const *>(args.data()));
    std::fprintf(stderr, "cannot run setpriv (util-linux): %s\n", std::strerror(errno));
    std::exit(1);
}

/// After the suite, as that user: removes the home reexecIfAsked() made.
inline void removeOwnHome()
{
    const QString home = qEnvironmentVariable("HOME");
    if (qEnvironmentVariableIsSet("TOOLSTUDIO_TEST_AS_USER") && ::geteuid() != 0
        && home.startsWith(QLatin1String("/tmp/toolstudio-test-home-")))
        QDir(home).removeRecursively();
}

} // namespace AsUser

/// QTEST_GUILESS_MAIN that first switches to TOOLSTUDIO_TEST_AS_USER when root.
#define TOOLSTUDIO_TEST_MAIN_AS_USER(TestObject) \
    int main(int argc, char **argv) \
    { \
        AsUser::reexecIfAsked(argc, argv); \
        QCoreApplication app(argc, argv); \
        app.setAttribute(Qt::AA_Use96Dpi, true); \
        TestObject tc; \
        QTEST_SET_MAIN_SOURCE_PATH \
        const int status = QTest::qExec(&tc, argc, argv); \
        AsUser::removeOwnHome(); \
        return status; \
    }
