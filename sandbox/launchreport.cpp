// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchreport.h"

#include "landlock.h"
#include "launchcommandline.h"
#include "pidscgroup.h"
#include "processisolation.h"
#include "sandboxpolicy.h"
#include "seccompfilter.h"

#include <cstdlib>
#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

std::string LaunchReport::text()
{
    std::string text = "toolstudio-sandbox --report\n";
    utsname host = {};
    if (::uname(&host) == 0)
        text += std::string("kernel: ") + host.sysname + " " + host.release + " " + host.machine + "\n";

    const bool filters = SeccompFilter::kernelHasFilters();
    text += std::string("seccomp: ") + (filters ? "enforced" : "NOT AVAILABLE (runs fail)")
        + " - allow-list for python3, bash and node; unlisted calls fail with ENOSYS "
          "(TOOLSTUDIO_SECCOMP_KILL_UNLISTED=1: killed); foreign ABIs (x32, int 0x80) killed; network, ptrace, "
          "mount, namespaces, bpf, io_uring, memfd_create, SysV IPC, setsid/setpgid, setuid family refused\n";
    text += "file metadata: chmod/fchmod/fchmodat/fchmodat2 and utime/utimes/utimensat/futimesat are performed by "
            "the studio (seccomp user notification) only on files beneath the run's work dir owned by the sandbox "
            "user, refused (EPERM, policy event) elsewhere and refused entirely without a studio (run by hand); "
            "chown family refused (EPERM); setxattr/removexattr families refused (EOPNOTSUPP); open/openat with "
            "O_PATH refused (EPERM) unless with O_DIRECTORY, openat2 ENOSYS\n";
    text += "file watching: NOT AVAILABLE - inotify_init/init1/add_watch/rm_watch and fanotify_init/mark fail with "
            "ENOSYS (node fs.watch throws ENOSYS; use polling: fs.watchFile, watchdog's PollingObserver); "
            "fcntl F_NOTIFY EPERM\n";
    text += "priority: setpriority and ioprio_set only on the caller's own process or process group (who = 0); "
            "PRIO_USER, other pids and groups EPERM; a pre-warmed launcher whose nice value or work dir mode/owner "
            "changed while it waited refuses to start the run (the studio starts it cold)\n";
    text += std::string("policy events: ")
        + (SeccompFilter::kernelHasUserNotification() ? "reported (seccomp user notification)"
                                                      : "not available (plain errno, no event)")
        + " - network, ptrace, mount/namespace calls, signals to the studio, mode/time changes outside the work dir; "
          "the first 20 of each system call recorded one by one, the rest counted in one summary per call\n";

    std::string why;
    const int offered = Landlock::abiVersion(&why);
    const char *capText = std::getenv(Landlock::AbiCapVariable);
    const int abiCap = capText ? Landlock::parseAbiCap(capText) : 0;
    const int abi = Landlock::cappedAbi(offered, abiCap > 0 ? abiCap : 0);
    if (capText && abiCap < 0)
        text += std::string("landlock cap: ") + Landlock::AbiCapVariable + "=" + capText
            + " is not an ABI number: runs fail at the landlock step\n";
    if (abi > 0) {
        text += "landlock: ABI " + std::to_string(abi)
            + (abi < offered ? " (the kernel offers " + std::to_string(offered) + ", capped by "
                       + Landlock::AbiCapVariable + "=" + capText + "; a policy's landlock_abi_max caps a run too)"
                             : std::string(" (the best the kernel offers; cap it with ") + Landlock::AbiCapVariable
                       + "=N or --landlock-abi N)")
            + "\n";
        for (const std::string &line : Landlock::describeFeatures(abi))
            text += "  " + line + "\n";
    } else {
        text += "landlock: NOT AVAILABLE - " + why + "; runs are refused unless seccomp-only mode is opted in\n";
    }

    const std::string sandboxUser = LaunchCommandLine::configuredUser();
    if (::geteuid() == 0) {
        const passwd *nobody = ::getpwnam(sandboxUser.c_str());
        text += "user: started as root, scripts run as " + sandboxUser
            + (nobody ? " (uid " + std::to_string(nobody->pw_uid) + ")" : std::string(" (NOT FOUND: runs fail)"))
            + " in a pids cgroup, else as a run uid of their own (see processes), no capabilities, no "
              "supplementary groups\n";
    } else {
        text += "user: scripts run as uid " + std::to_string(::getuid()) + ", no new privileges\n";
    }
    text += "run data: the policy comes from the studio as a sealed memfd (--policy-fd), or from a file of uid "
        + std::to_string(::getuid()) + " not writable by group or others; it may name only the configured sandbox user "
        + sandboxUser
        + " (TOOLSTUDIO_SANDBOX_USER); as root the work dir is handed over only through a path without "
          "symlinks whose directories no other user can change, and made 0700, its run folder 0710 for the sandbox "
          "user's group; umask 077\n";
    const SandboxLimits limits;
    text += "limits: core files 0; CPU " + std::to_string(limits.cpuSeconds) + " s (run timeout + 5 s); memory "
        + std::to_string(limits.dataBytes >> 20) + " MiB (RLIMIT_DATA; node also --max-old-space-size); file size "
        + std::to_string(limits.fileSizeBytes >> 20) + " MiB; open files " + std::to_string(limits.openFiles)
        + "; locked memory 0; message queues 0\n";
    // How a run's tasks are kept apart from other runs' (ProcessIsolation), in the
    // launcher's order: what the studio's runs get, then what runs get without a cgroup.
    const std::string budget = std::to_string(limits.extraProcesses);
    const std::string cap = std::to_string(limits.extraProcesses + 1) + " (" + budget + " + the interpreter)";
    std::string fallback;
    if (::geteuid() == 0) {
        std::string why;
        const std::string locks = ProcessIsolation::lockDirectory(&why);
        fallback = locks.empty()
            ? "shared - RLIMIT_NPROC = the sandbox user's tasks + " + budget
                + ", SHARED by that user's concurrent runs (a fork bomb in one can starve another): " + why
            : "run_uid - a uid of its own per run from " + std::to_string(ProcessIsolation::FirstRunUid) + "-"
                + std::to_string(ProcessIsolation::FirstRunUid + ProcessIsolation::RunUidCount - 1) + " (flock in "
                + locks + "), RLIMIT_NPROC " + cap + ", work dir 0700 owned by it";
    } else if (const std::string why = ProcessIsolation::userNamespaceUnavailable(); why.empty()) {
        fallback = "user_namespace - a user namespace of its own per run (uid " + std::to_string(::getuid())
            + " mapped to itself), RLIMIT_NPROC " + cap + " counted in it";
    } else {
        fallback = "shared - RLIMIT_NPROC = the user's tasks + " + budget
            + ", SHARED by that user's concurrent runs (a fork bomb in one can starve another): " + why;
    }
    const PidsCgroup::Probe cgroups = PidsCgroup::probe();
    if (!cgroups.parent.empty())
        text += "processes: pids_cgroup - each run started by the studio gets its own pids cgroup (cgroup v"
            + std::to_string(cgroups.version) + ", under " + cgroups.parent + ") with pids.max " + cap
            + ", removed after the run\n";
    else
        text += "processes: " + fallback + " (" + cgroups.why + ")\n";
    text += "processes without a cgroup (runs by hand): " + fallback + "\n";
    // The run's memory (issue 16 class 4): all its tasks together, where a memory
    // cgroup can be made (SandboxProcess::startMemoryCgroup), else each process alone.
    const std::string mib = std::to_string(limits.dataBytes >> 20) + " MiB";
    const PidsCgroup::Probe memory = PidsCgroup::probe("memory");
    if (memory.version == 1 || (memory.version == 2 && cgroups.version == 2))
        text += "memory: memory_cgroup - each run started by the studio: its tasks together at most " + mib
            + " (cgroup v" + std::to_string(memory.version) + ", under " + memory.parent
            + "); the kernel kills a task at the bound and the run fails with \"memory limit\"; each process also "
              "RLIMIT_DATA "
            + mib + "; runs by hand: per process only\n";
    else
        text += "memory: per_process - RLIMIT_DATA " + mib
            + " on each process alone; the run's tasks together are NOT bounded ("
            + (memory.version == 2 ? "cgroup v2 memory controller without a pids cgroup" : memory.why) + ")\n";
    text += "run: timeout 300 s (paused while a call waits for a person), then the process group is killed and "
            "confirmed gone; stdout and stderr 10 MiB each, then truncated with a notice\n";
    text += "environment: PATH, HOME=TMPDIR=work dir, LANG/LC_ALL, PYTHONIOENCODING, shim paths, "
            "TOOLSTUDIO_BRIDGE_FD=3; fds 0-3 only\n";
    text += "disk: per_run - each run started by the studio: its work dir's files together at most the project's "
            "limits.work_dir_mb (default 1024 MiB; allocated blocks, at least 1 KiB per entry), summed by the studio "
            "through directory fds every 100 ms (longer when a walk is slow); over it, or with less than 64 MiB free "
            "on the file system, the run is killed, fails with \"disk limit\" and its files are removed; the "
            "overshoot is what the run writes between two walks; each file also RLIMIT_FSIZE min("
        + std::to_string(limits.fileSizeBytes >> 20)
        + " MiB, the run's limit) (EFBIG); runs by hand: RLIMIT_FSIZE on each file only\n";
    text += "known limits: a script can stat any path and read metadata (stat, readlink, getxattr, listxattr: "
            "Landlock does not restrict them); "
            "/proc is readable as a tree (no mount namespace with a fresh procfs yet): /proc/net/* (the network "
            "namespace's sockets), /proc/locks, /proc/<pid>/cmdline and status of every process, "
            "/proc/sys/kernel/random/boot_id, and /etc/machine-id (/etc is read-only granted) are readable, while "
            "other processes' mem, environ, fd and maps are refused (Landlock's ptrace rule); "
            "the work dir is not executable for execve, but a file written there can still be run through the "
            "dynamic loader (/lib64/ld-linux-x86-64.so.2 ./binary) or loaded with dlopen/mmap(PROT_EXEC): Landlock's "
            "execute right governs execve only and seccomp cannot see which file an mmap maps; "
            "brokered mode/time changes need the caller to own the file and refuse hard-linked files (nlink > 1) "
            "even inside the work dir\n";
    text += "trusted code (tool worker, command tools; profile tool_worker): the same Landlock file rules plus the "
            "project read-only and its scratch dir and .toolstudio/tool-data read-write; seccomp "
        + std::string(filters ? "enforced" : "NOT AVAILABLE (tools fail to start)")
        + " - a deny-list: ptrace family, mount/namespace calls, bpf, perf_event_open, userfaultfd, keyctl family, "
          "io_uring, kexec, modules, inotify/fanotify, chown family, xattr changes, TIOCSTI/TIOCLINUX, personality "
          "changes, signals to -1 and the studio refused, every other call allowed (mode/time changes too: a "
          "residual); environment: the allow-list plus the project's secrets only; as root: nobody, reading a copy "
          "of the project; memory 2048 MiB (RLIMIT_DATA); a stuck Python attempt restarts the worker\n";
    text += "tools network: on by default (every socket family); a project with \"sandbox\": {\"tools_network\": "
            "false}: seccomp refuses sockets of every family but AF_UNIX (TCP, UDP, raw, netlink; EAFNOSUPPORT)"
        + (abi >= 4 ? " and Landlock ABI " + std::to_string(abi) + " refuses TCP bind/connect too"
                    : std::string(", alone: Landlock ") + (abi > 0 ? "ABI " + std::to_string(abi) : "(none)")
                   + " has no TCP rules (ABI 4)")
        + "; AF_UNIX stays (named sockets the uid may write are reachable)\n";
    return text;
}
