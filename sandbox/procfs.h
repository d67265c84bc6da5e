// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

/// The one reader of /proc (proc(5)) for the launcher and the studio. Qt-free, no
/// threads: toolstudio-sandbox links it too.
namespace Procfs {

/// What /proc/<pid>/stat says that the sandbox and the studio need.
struct ProcessStat
{
    char state = '?';          ///< field 3: R, S, D, Z (zombie), X (dead), …
    pid_t processGroup = 0;    ///< field 5
    pid_t session = 0;         ///< field 6
    long long startTicks = -1; ///< field 22: start time in clock ticks since boot; -1 if absent

    bool isZombie() const { return state == 'Z' || state == 'X'; }
};

/// The process ids /proc lists now. False with errno set when /proc cannot be opened.
bool listPids(std::vector<pid_t> *pids);

/// Reads /proc/<pid>/stat. False when the process is gone or the line has fewer than
/// five fields. The command name (field 2) may hold spaces and ')': the fields are
/// counted after the last ')'.
bool readStat(pid_t pid, ProcessStat *stat);
/// The same for thread `tid` of process `tgid` (/proc/<tgid>/task/<tid>/stat): false
/// also when `tid` is not a thread of `tgid`.
bool readTaskStat(pid_t tgid, pid_t tid, ProcessStat *stat);

/// True when a process of group `group` is running (zombies do not count: they cannot
/// act, and kill(-group, 0) would count them until they are reaped). nullopt when /proc
/// cannot be listed: the caller decides what "cannot tell" means.
std::optional<bool> groupHasLiveMembers(pid_t group);

/// Number of tasks (threads included, as RLIMIT_NPROC counts them) whose real uid is
/// `uid`, from /proc/<pid>/status. -1 with errno set when /proc cannot be read.
long countTasksOfUser(uid_t uid);

/// The fds open in this process, from /proc/self/fd (the listing's own fd left out).
/// False with errno set when /proc/self/fd cannot be opened.
bool listOwnFds(std::vector<int> *fds);

/// The path /proc/self/fd/<fd> links to. Empty with errno set when it cannot be read.
std::string pathOfFd(int fd);

} // namespace Procfs
