// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pidscgroup.h"

#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr char RunPrefix[] = "toolstudio-run-";

bool readSmallFile(const std::string &path, std::string *contents)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd == -1)
        return false;
    contents->clear();
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0 || (n == -1 && errno == EINTR)) {
        if (n > 0)
            contents->append(buffer, std::size_t(n));
        if (contents->size() > 1024 * 1024)
            break;
    }
    const int error = errno;
    ::close(fd);
    errno = error;
    return n == 0;
}

/// Writes `text` to an existing cgroup file (one write: cgroupfs takes one value per write).
bool writeCgroupFile(const std::string &path, const std::string &text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd == -1)
        return false;
    ssize_t n;
    do {
        n = ::write(fd, text.data(), text.size());
    } while (n == -1 && errno == EINTR);
    const int error = errno;
    ::close(fd);
    errno = error;
    return n == ssize_t(text.size());
}

bool hasWord(const std::string &list, const std::string &word, char separator)
{
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t end = list.find(separator, start);
        if (end == std::string::npos)
            end = list.size();
        if (list.compare(start, end - start, word) == 0)
            return true;
        start = end + 1;
    }
    return false;
}

/// Mount point and root of the first mount of `type` ("cgroup2", or "cgroup" whose
/// super options name `option`).
bool findMount(const std::string &mountinfo, const std::string &type, const std::string &option,
               std::string *mountPoint, std::string *root)
{
    std::istringstream lines(mountinfo);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t dash = line.find(" - ");
        if (dash == std::string::npos)
            continue;
        std::istringstream before(line.substr(0, dash)), after(line.substr(dash + 3));
        std::string id, parent, device, mountRoot, point, fsType, source, superOptions;
        before >> id >> parent >> device >> mountRoot >> point;
        after >> fsType >> source >> superOptions;
        if (fsType != type || (!option.empty() && !hasWord(superOptions, option, ',')))
            continue;
        *mountPoint = point;
        *root = mountRoot;
        return true;
    }
    return false;
}

/// This process's path in the v2 hierarchy, or in the v1 hierarchy of `controller`.
bool ownCgroup(const std::string &cgroups, bool v2, std::string *path, const std::string &controller = "pids")
{
    std::istringstream lines(cgroups);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t first = line.find(':');
        const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos)
            continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        if (v2 ? (line.compare(0, first, "0") == 0 && controllers.empty()) : hasWord(controllers, controller, ',')) {
            *path = line.substr(second + 1);
            return true;
        }
    }
    return false;
}

/// The directory of `own` (a path in the hierarchy) under a mount of it.
std::string directoryOf(const std::string &mountPoint, const std::string &mountRoot, std::string own)
{
    if (mountRoot != "/") {
        if (own.compare(0, mountRoot.size(), mountRoot) != 0)
            return {};
        own.erase(0, mountRoot.size());
    }
    if (own == "/")
        own.clear();
    return mountPoint + own;
}

bool pidAlive(pid_t pid)
{
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

/// Removes the run cgroups of studios that are gone (killed or crashed before their
/// cleanup), with the tasks still in them: a daemon that double-forked out of its run's
/// or its MCP server's session dies once another studio starts (attack35).
void removeLeftovers(const std::string &parent)
{
    DIR *dir = ::opendir(parent.c_str());
    if (!dir)
        return;
    constexpr std::size_t prefixLength = sizeof RunPrefix - 1;
    while (const dirent *entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name.compare(0, prefixLength, RunPrefix) != 0)
            continue;
        int pid = 0;
        const char *start = name.c_str() + prefixLength;
        const auto [end, ec] = std::from_chars(start, name.c_str() + name.size(), pid);
        if (ec != std::errc() || *end != '-' || pid <= 0 || pidAlive(pid_t(pid)))
            continue;
        const std::string path = parent + "/" + name;
        PidsCgroup::killAll(path);
        ::rmdir(path.c_str()); // fails (EBUSY) while a killed task is not yet reaped: next time
    }
    ::closedir(dir);
}

} // namespace

namespace PidsCgroup {

Probe probe()
{
    return probe("pids");
}

Probe probe(const std::string &controller)
{
    Probe result;
    std::string mountinfo, cgroups;
    if (!readSmallFile("/proc/self/mountinfo", &mountinfo) || !readSmallFile("/proc/self/cgroup", &cgroups)) {
        result.why = std::string("cannot read /proc/self/mountinfo or /proc/self/cgroup: ") + std::strerror(errno);
        return result;
    }
    std::string point, root, own, reasons;
    // cgroup v2: a child of our own cgroup, with the controller enabled for children.
    if (findMount(mountinfo, "cgroup2", {}, &point, &root) && ownCgroup(cgroups, true, &own)) {
        const std::string dir = directoryOf(point, root, own);
        std::string available, enabled;
        if (dir.empty() || !readSmallFile(dir + "/cgroup.controllers", &available)) {
            reasons = "cgroup v2: the studio's cgroup cannot be read";
        } else if (!hasWord(available.substr(0, available.find('\n')), controller, ' ')) {
            reasons = "cgroup v2: no " + controller + " controller in " + dir;
        } else if (::access(dir.c_str(), W_OK) != 0) {
            reasons = "cgroup v2: " + dir + " is not writable (not delegated)";
        } else {
            readSmallFile(dir + "/cgroup.subtree_control", &enabled);
            std::istringstream words(enabled);
            std::string word;
            bool on = false;
            while (words >> word)
                on = on || word == controller;
            if (on || writeCgroupFile(dir + "/cgroup.subtree_control", "+" + controller)) {
                result.parent = dir;
                result.version = 2;
                return result;
            }
            reasons = "cgroup v2: cannot enable " + controller + " for children of " + dir + " (" + std::strerror(errno)
                + ")";
        }
    }
    // cgroup v1: the controller's hierarchy.
    if (findMount(mountinfo, "cgroup", controller, &point, &root) && ownCgroup(cgroups, false, &own, controller)) {
        const std::string dir = directoryOf(point, root, own);
        if (!dir.empty() && ::access(dir.c_str(), W_OK) == 0) {
            result.parent = dir;
            result.version = 1;
            return result;
        }
        reasons += std::string(reasons.empty() ? "" : "; ") + "cgroup v1: " + (dir.empty() ? point : dir)
            + " is not writable";
    } else {
        reasons += std::string(reasons.empty() ? "" : "; ") + "cgroup v1: no " + controller + " hierarchy mounted";
    }
    result.why = "no writable " + controller + " cgroup (" + reasons + ")";
    return result;
}

std::string create(const Probe &probe, std::uint64_t maxTasks, std::string *error)
{
    return create(probe, "pids.max", std::to_string(maxTasks), error);
}

std::string create(const Probe &probe, const std::string &limitFile, const std::string &limit, std::string *error)
{
    if (probe.parent.empty()) {
        *error = probe.why;
        return {};
    }
    static std::atomic<int> counter{0};
    static std::atomic<bool> cleaned{false};
    if (!cleaned.exchange(true))
        removeLeftovers(probe.parent);
    const std::string path
        = probe.parent + "/" + RunPrefix + std::to_string(::getpid()) + "-" + std::to_string(++counter);
    if (::mkdir(path.c_str(), 0755) == -1) {
        *error = "cannot create the run's cgroup " + path + ": " + std::strerror(errno);
        return {};
    }
    if (!setLimit(path, limitFile, limit, error)) {
        ::rmdir(path.c_str());
        return {};
    }
    return path;
}

bool setLimit(const std::string &path, const std::string &file, const std::string &value, std::string *error)
{
    if (writeCgroupFile(path + "/" + file, value))
        return true;
    *error = "cannot set " + file + " of " + path + ": " + std::strerror(errno);
    return false;
}

std::uint64_t oomKills(const std::string &path)
{
    // v2 memory.events, v1 memory.oom_control (Linux ≥ 4.13): "oom_kill N".
    std::string text;
    if (!readSmallFile(path + "/memory.events", &text) && !readSmallFile(path + "/memory.oom_control", &text))
        return 0;
    std::istringstream lines(text);
    std::string key;
    std::uint64_t value = 0;
    while (lines >> key >> value) {
        if (key == "oom_kill")
            return value;
    }
    return 0;
}

bool join(const std::string &path, std::string *error)
{
    if (!isRunCgroupPath(path)) {
        *error = "\"" + path + "\" is not a run cgroup (/sys/fs/cgroup/…/toolstudio-run-*)";
        return false;
    }
    if (!writeCgroupFile(path + "/cgroup.procs", std::to_string(::getpid()))) {
        *error = "cannot join the run's cgroup " + path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

bool isRunCgroupPath(const std::string &path)
{
    constexpr char root[] = "/sys/fs/cgroup/";
    if (path.compare(0, sizeof root - 1, root) != 0 || path.find('\0') != std::string::npos)
        return false;
    std::size_t start = 1;
    std::string last;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos)
            end = path.size();
        last = path.substr(start, end - start);
        if (last.empty() || last == "." || last == "..")
            return false;
        start = end + 1;
    }
    return last.compare(0, sizeof RunPrefix - 1, RunPrefix) == 0;
}

std::vector<pid_t> members(const std::string &path)
{
    std::vector<pid_t> pids;
    std::string text;
    if (!readSmallFile(path + "/cgroup.procs", &text))
        return pids;
    std::istringstream lines(text);
    long pid = 0;
    while (lines >> pid) {
        if (pid > 0)
            pids.push_back(pid_t(pid));
    }
    return pids;
}

bool killAll(const std::string &path)
{
    // cgroup.kill (v2, Linux 5.14) kills every member at once, also those forking meanwhile.
    if (::access((path + "/cgroup.kill").c_str(), W_OK) == 0)
        writeCgroupFile(path + "/cgroup.kill", "1");
    for (int round = 0; round < 100; ++round) {
        const std::vector<pid_t> pids = members(path);
        if (pids.empty())
            return true;
        for (pid_t pid : pids)
            ::kill(pid, SIGKILL);
        ::usleep(round < 10 ? 1000 : 10000);
    }
    return members(path).empty();
}

bool remove(const std::string &path, std::string *error)
{
    if (path.empty() || ::rmdir(path.c_str()) == 0 || errno == ENOENT)
        return true;
    if (error)
        *error = "cannot remove the run's cgroup " + path + ": " + std::strerror(errno);
    return false;
}

} // namespace PidsCgroup
