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

std::string interpreterPrefix(const std::string &program)
{
    char resolved[PATH_MAX];
    if (!::realpath(program.c_str(), resolved))
        return {};
    std::string path = resolved;
    // <prefix>/bin/<name>: the prefix holds the interpreter's library (lib/python3.x,
    // lib/node_modules). Anything else: the binary's own directory.
    const std::size_t slash = path.rfind('/');
    std::string dir = slash == 0 ? std::string("/") : path.substr(0, slash);
    const std::size_t parent = dir.rfind('/');
    if (parent != std::string::npos && dir.substr(parent + 1) == "bin" && parent > 0)
        return dir.substr(0, parent);
    return dir;
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
        return abi >= needed ? std::string("enforced") : "not available (needs ABI " + std::to_string(needed) + ")";
    };
    return {
        "file system (ABI 1): " + state(1)
            + " - read+execute /usr /bin /sbin /lib* /opt, the interpreter prefix and the shim dir; read-only /etc "
              "/proc /sys/devices/system/cpu /dev/{zero,urandom,random}; /dev/null read-write; the work dir "
              "read-write, not executable; nothing else",
        "links and renames across directories (ABI 2): " + state(2) + " - only inside the work dir",
        "truncate (ABI 3): " + state(3),
        "TCP bind/connect (ABI 4): " + state(4) + " - no port allowed",
        "device ioctl (ABI 5): " + state(5) + " - none allowed on devices opened in the sandbox",
        "scoping (ABI 6): " + state(6) + " - no signals to the studio, no abstract unix sockets outside the run",
    };
}

} // namespace Landlock
