// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "landlock.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// Debian 12's kernel headers stop at ABI 2: the structures and constants up to ABI 7
// are spelled out here (include/uapi/linux/landlock.h of Linux 6.15).
namespace {

#ifndef __NR_landlock_create_ruleset
constexpr long NrCreateRuleset = 444;
constexpr long NrAddRule = 445;
constexpr long NrRestrictSelf = 446;
#else
constexpr long NrCreateRuleset = __NR_landlock_create_ruleset;
constexpr long NrAddRule = __NR_landlock_add_rule;
constexpr long NrRestrictSelf = __NR_landlock_restrict_self;
#endif

struct RulesetAttr
{
    std::uint64_t handledAccessFs;
    std::uint64_t handledAccessNet;
    std::uint64_t scoped;
};

struct __attribute__((packed)) PathBeneathAttr
{
    std::uint64_t allowedAccess;
    std::int32_t parentFd;
};

constexpr std::uint32_t CreateRulesetVersion = 1u << 0;
constexpr int RulePathBeneath = 1;

constexpr std::uint64_t FsExecute = 1ull << 0;
constexpr std::uint64_t FsWriteFile = 1ull << 1;
constexpr std::uint64_t FsReadFile = 1ull << 2;
constexpr std::uint64_t FsReadDir = 1ull << 3;
constexpr std::uint64_t FsRemoveDir = 1ull << 4;
constexpr std::uint64_t FsRemoveFile = 1ull << 5;
constexpr std::uint64_t FsMakeDir = 1ull << 7;
constexpr std::uint64_t FsMakeReg = 1ull << 8;
constexpr std::uint64_t FsMakeFifo = 1ull << 10;
constexpr std::uint64_t FsMakeSym = 1ull << 12;
constexpr std::uint64_t FsRefer = 1ull << 13;    // ABI 2
constexpr std::uint64_t FsTruncate = 1ull << 14; // ABI 3
constexpr std::uint64_t FsIoctlDev = 1ull << 15; // ABI 5
constexpr std::uint64_t NetBindTcp = 1ull << 0;  // ABI 4
constexpr std::uint64_t NetConnectTcp = 1ull << 1;
constexpr std::uint64_t ScopeAbstractUnixSocket = 1ull << 0; // ABI 6
constexpr std::uint64_t ScopeSignal = 1ull << 1;

/// Every file-system right the kernel knows at `abi`.
std::uint64_t handledFs(int abi)
{
    std::uint64_t access = (1ull << 13) - 1; // ABI 1: EXECUTE .. MAKE_SYM
    if (abi >= 2)
        access |= FsRefer;
    if (abi >= 3)
        access |= FsTruncate;
    if (abi >= 5)
        access |= FsIoctlDev;
    return access;
}

std::string errnoText(int error)
{
    return std::strerror(error);
}

} // namespace

namespace Landlock {

int abiVersion(std::string *why)
{
    const long abi = ::syscall(NrCreateRuleset, nullptr, 0, CreateRulesetVersion);
    if (abi >= 1)
        return int(abi);
    if (why) {
        if (errno == ENOSYS)
            *why = "this kernel has no Landlock (built without CONFIG_SECURITY_LANDLOCK)";
        else if (errno == EOPNOTSUPP)
            *why = "Landlock is built into this kernel but not enabled (add landlock to the lsm= boot parameter)";
        else
            *why = "cannot query Landlock: " + errnoText(errno);
    }
    return 0;
}

Rules defaultRules(const std::string &workDir, const std::vector<std::string> &extraReadExecute)
{
    Rules rules;
    rules.readExecute = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"};
    for (const std::string &path : extraReadExecute) {
        if (!path.empty())
            rules.readExecute.push_back(path);
    }
    rules.readOnly = {"/etc", "/proc", "/sys/devices/system/cpu", "/dev/zero", "/dev/urandom", "/dev/random"};
    rules.readWriteFiles = {"/dev/null"};
    rules.workDir = workDir;
    return rules;
}

int parseAbiCap(const std::string &text)
{
    if (text.empty() || text.size() > 2 || text.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    const int cap = std::stoi(text);
    return cap >= 1 ? cap : -1;
}

int cappedAbi(int offered, int cap)
{
    return cap > 0 && offered > cap ? cap : offered;
}

InterpreterGrants interpreterGrants(const std::string &program, const std::vector<std::string> &protectedDirs)
{
    InterpreterGrants grants;
    char resolved[PATH_MAX];
    if (!::realpath(program.c_str(), resolved))
        return grants;
    const std::string file = resolved;
    grants.paths.push_back(file);
    // <prefix>/bin/<name>: the prefix's lib trees hold the interpreter's library
    // (lib/python3.x, lib/node_modules). Anything else: the file alone.
    const std::size_t slash = file.rfind('/');
    const std::string dir = file.substr(0, slash);
    const std::size_t parent = dir.rfind('/');
    if (parent == std::string::npos || parent == 0 || dir.substr(parent + 1) != "bin")
        return grants; // /bin/bash: /lib and /lib64 are system dirs, granted anyway
    const std::string prefix = dir.substr(0, parent);
    const auto within = [](const std::string &path, const std::string &tree) {
        return path == tree
            || (path.size() > tree.size() && path.compare(0, tree.size(), tree) == 0 && path[tree.size()] == '/');
    };
    for (const char *name : {"lib", "lib64"}) {
        const std::string tree = prefix + "/" + name;
        struct stat info = {};
        if (::stat(tree.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
            continue;
        for (const std::string &guarded : protectedDirs) {
            // A tree in a prefix that is or contains the dir: ~/lib for ~/bin/python3 is
            // the user's own folder, not an interpreter's library.
            if (guarded.empty() || !within(guarded, prefix))
                continue;
            grants.paths.clear();
            grants.error = "the interpreter " + file + " would be granted its library tree " + tree + " in " + prefix
                + ", which is or contains " + guarded
                + " (the home, config or cache dir: the sandbox must not reach it); refusing to make it readable. "
                  "Install the interpreter outside the home dir, or set its real location (not a copy or wrapper "
                  "in ~/bin or ~/.local/bin) in Preferences";
            return grants;
        }
        grants.paths.push_back(tree);
    }
    return grants;
}

std::string restrictSelf(int abi, const Rules &rules)
{
    RulesetAttr attr = {};
    attr.handledAccessFs = handledFs(abi);
    std::size_t attrSize = sizeof(std::uint64_t); // ABI 1..3 know only the first field
    if (abi >= 4 && !rules.allowTcp) {
        attr.handledAccessNet = NetBindTcp | NetConnectTcp; // and no rule allows any port
        attrSize = 2 * sizeof(std::uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = ScopeAbstractUnixSocket | ScopeSignal;
        attrSize = sizeof attr; // handledAccessNet stays 0 when TCP is allowed
    }
    const int ruleset = int(::syscall(NrCreateRuleset, &attr, attrSize, 0));
    if (ruleset < 0)
        return "landlock_create_ruleset (ABI " + std::to_string(abi) + ") failed: " + errnoText(errno);

    const std::uint64_t fs = attr.handledAccessFs;
    const std::uint64_t readFile = FsReadFile;
    const std::uint64_t readDir = FsReadDir;
    const std::uint64_t truncate = abi >= 3 ? FsTruncate : 0;
    const std::uint64_t workRights = (FsReadFile | FsReadDir | FsWriteFile | FsRemoveDir | FsRemoveFile | FsMakeDir
                                      | FsMakeReg | FsMakeSym | FsMakeFifo | (abi >= 2 ? FsRefer : 0) | truncate)
        & fs;

    std::string error;
    const auto addPath = [&](const std::string &path, std::uint64_t access, bool required) {
        if (!error.empty())
            return;
        const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
        if (fd < 0) {
            if (required || (errno != ENOENT && errno != ENOTDIR))
                error = "cannot open " + path + " for a Landlock rule: " + errnoText(errno);
            return;
        }
        struct stat info = {};
        if (::fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode))
            access &= FsExecute | FsReadFile | FsWriteFile | truncate | (abi >= 5 ? FsIoctlDev : 0); // file rights only
        PathBeneathAttr rule = {access & fs, fd};
        if (::syscall(NrAddRule, ruleset, RulePathBeneath, &rule, 0) != 0)
            error = "landlock_add_rule(" + path + ") failed: " + errnoText(errno);
        ::close(fd);
    };
    for (const std::string &path : rules.readExecute)
        addPath(path, FsExecute | readFile | readDir, false);
    for (const std::string &path : rules.readOnly)
        addPath(path, readFile | readDir, false);
    for (const std::string &path : rules.readWriteFiles)
        addPath(path, readFile | FsWriteFile | truncate, false);
    if (!rules.workDir.empty())
        addPath(rules.workDir, workRights, true);
    for (const std::string &path : rules.readWrite)
        addPath(path, workRights, false);
    if (!error.empty()) {
        ::close(ruleset);
        return error;
    }
    if (::syscall(NrRestrictSelf, ruleset, 0) != 0) {
        const int restrictError = errno;
        ::close(ruleset);
        return "landlock_restrict_self failed: " + errnoText(restrictError);
    }
    ::close(ruleset);
    return {};
}

std::vector<std::string> describeFeatures(int abi)
{
    const auto state = [abi](int needed) {
        return abi >= needed ? std::string("enforced") : "not used (needs ABI " + std::to_string(needed) + ")";
    };
    return {
        "file system (ABI 1): " + state(1)
            + " - read+execute /usr /bin /sbin /lib* /opt, the interpreter's own file and library trees (never the "
              "home, config or cache dir) and the shim dir; read-only /etc /proc /sys/devices/system/cpu "
              "/dev/{zero,urandom,random}; /dev/null read-write; the work dir read-write, not executable; nothing "
              "else",
        "links and renames across directories (ABI 2): " + state(2) + " - only inside the work dir",
        "truncate (ABI 3): " + state(3)
            + (abi >= 3 ? std::string() : " - a file opened for writing can be truncated wherever write is granted"),
        "TCP bind/connect (ABI 4): " + state(4)
            + (abi >= 4 ? " - no port allowed"
                        : " - seccomp refuses socket() of every family, connect and bind anyway"),
        "device ioctl (ABI 5): " + state(5)
            + (abi >= 5 ? " - none allowed on devices opened in the sandbox"
                        : " - seccomp allows only terminal queries and fd-flag ioctls anyway"),
        "scoping (ABI 6): " + state(6)
            + (abi >= 6 ? " - no signals to the studio or other processes outside the run, no abstract unix sockets "
                          "outside it"
                        : " - signals: the studio checks each one naming another pid (seccomp user notification) "
                          "and refuses targets outside the run's session; RESIDUAL run by hand (no studio): signals "
                          "to other processes of the sandbox uid are not refused (the studio's pid and -1 are); "
                          "abstract unix sockets: seccomp refuses socket() and connect() for every family"),
    };
}

} // namespace Landlock
