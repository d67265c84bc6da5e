// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "procfs.h"

#include "posixutil.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Procfs {

namespace {

/// The whole-number entries of `path`; with `skipOwnFd`, not the fd the listing itself
/// holds open (for /proc/self/fd).
bool listNumbers(const char *path, bool skipOwnFd, std::vector<int> *numbers)
{
    DIR *dir = ::opendir(path);
    if (!dir)
        return false;
    numbers->clear();
    while (const dirent *entry = ::readdir(dir)) {
        int number = -1;
        if (PosixUtil::parseInt(entry->d_name, &number) && !(skipOwnFd && number == ::dirfd(dir)))
            numbers->push_back(number);
    }
    ::closedir(dir);
    return true;
}

} // namespace

bool listPids(std::vector<pid_t> *pids)
{
    std::vector<int> numbers;
    if (!listNumbers("/proc", false, &numbers))
        return false;
    pids->assign(numbers.begin(), numbers.end());
    return true;
}

namespace {

bool readStatFile(const std::string &path, ProcessStat *stat)
{
    std::string line;
    if (!PosixUtil::readFile(path, 64 * 1024, &line))
        return false;
    // "pid (comm) state ppid pgrp …": fields[0] is field 3 (state), fields[2] field 5.
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos || close + 2 > line.size())
        return false;
    std::vector<std::string> fields;
    std::size_t start = close + 2;
    for (;;) {
        const std::size_t end = line.find(' ', start);
        fields.push_back(line.substr(start, end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    if (fields.size() < 3)
        return false;
    stat->state = fields[0].empty() ? '?' : fields[0][0];
    stat->processGroup = pid_t(std::strtoll(fields[2].c_str(), nullptr, 10));
    stat->session = fields.size() < 4 ? 0 : pid_t(std::strtoll(fields[3].c_str(), nullptr, 10));
    stat->startTicks = fields.size() < 20 ? -1 : std::strtoll(fields[19].c_str(), nullptr, 10);
    return true;
}

} // namespace

bool readStat(pid_t pid, ProcessStat *stat)
{
    return readStatFile("/proc/" + std::to_string(pid) + "/stat", stat);
}

bool readTaskStat(pid_t tgid, pid_t tid, ProcessStat *stat)
{
    return readStatFile("/proc/" + std::to_string(tgid) + "/task/" + std::to_string(tid) + "/stat", stat);
}

std::optional<bool> groupHasLiveMembers(pid_t group)
{
    std::vector<pid_t> pids;
    if (!listPids(&pids))
        return std::nullopt;
    for (pid_t pid : pids) {
        ProcessStat stat;
        if (readStat(pid, &stat) && stat.processGroup == group && !stat.isZombie())
            return true;
    }
    return false;
}

long countTasksOfUser(uid_t uid)
{
    std::vector<pid_t> pids;
    if (!listPids(&pids))
        return -1;
    long total = 0;
    for (pid_t pid : pids) {
        const std::string dir = "/proc/" + std::to_string(pid);
        // /proc/<pid> belongs to the task's effective uid: skip the other users'
        // processes without reading their status (the scan is on every run's start).
        struct stat owner = {};
        if (::stat(dir.c_str(), &owner) == -1 || owner.st_uid != uid)
            continue;
        std::string status;
        if (!PosixUtil::readFile(dir + "/status", 64 * 1024, &status))
            continue; // exited meanwhile
        const std::size_t uidAt = status.find("\nUid:");
        if (uidAt == std::string::npos || std::strtoul(status.c_str() + uidAt + 5, nullptr, 10) != uid)
            continue;
        const std::size_t threadsAt = status.find("\nThreads:");
        total += threadsAt == std::string::npos
            ? 1
            : std::max(1L, std::strtol(status.c_str() + threadsAt + 9, nullptr, 10));
    }
    return total;
}

bool listOwnFds(std::vector<int> *fds)
{
    return listNumbers("/proc/self/fd", true, fds);
}

std::string pathOfFd(int fd)
{
    std::string path(PATH_MAX, '\0');
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t length = ::readlink(link.c_str(), path.data(), path.size() - 1);
    if (length <= 0)
        return {};
    path.resize(std::size_t(length));
    return path;
}

} // namespace Procfs
