// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "seccompfilter.h"
#include "seccompcalls.h"

#include <seccomp.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

struct FilterContext
{
    scmp_filter_ctx ctx = nullptr;
    ~FilterContext()
    {
        if (ctx)
            seccomp_release(ctx);
    }
};

std::string failure(const std::string &what, int rc)
{
    return what + ": " + std::strerror(rc < 0 ? -rc : rc);
}

using namespace SeccompCalls;

/// `arg`'s low 32 bits equal `value`, whatever the high half holds. The kernel reads
/// int and unsigned int arguments that way; libseccomp's SCMP_Ax_32 macros only cast
/// the datum and still compare all 64 bits, so junk in the high half would slip past.
scmp_arg_cmp low32(unsigned arg, std::uint32_t value)
{
    return scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, value};
}

class RuleBuilder
{
public:
    RuleBuilder(scmp_filter_ctx ctx, std::uint32_t defaultAction)
        : m_ctx(ctx)
        , m_default(defaultAction)
    {}

    /// Adds one rule. A name libseccomp does not know is skipped; one this
    /// architecture lacks (iopl outside x86) is ignored by libseccomp itself.
    void add(std::uint32_t action, const char *name, std::initializer_list<scmp_arg_cmp> conditions = {})
    {
        if (!m_error.empty() || action == m_default)
            return; // libseccomp refuses a rule that repeats the default action
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR)
            return;
        const int rc = seccomp_rule_add_array(m_ctx, action, nr, unsigned(conditions.size()),
                                              conditions.size() ? conditions.begin() : nullptr);
        if (rc < 0)
            m_error = failure(std::string("seccomp_rule_add(") + name + ")", rc);
    }
    const std::string &error() const { return m_error; }

private:
    scmp_filter_ctx m_ctx;
    std::uint32_t m_default;
    std::string m_error;
};

/// Builds every rule. Each syscall has either one unconditional rule or only
/// conditional ones: libseccomp lets an unconditional rule swallow the conditional
/// rules of the same syscall.
std::string addRules(scmp_filter_ctx ctx, std::uint32_t defaultAction, const SeccompFilter::Options &options)
{
    RuleBuilder rules(ctx, defaultAction);
    const auto refuse
        = [&](int error) { return options.notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(std::uint32_t(error)); };
    // Trusted code (docs/sandbox.md "Trusted code"): the default is ALLOW, so every
    // allow rule below is dropped (RuleBuilder) and what is left are the refusals
    // shared with scripts; the script-only ones are skipped.
    const bool script = options.profile == SeccompFilter::Profile::Script;

    for (const char *name : AllowedCalls)
        rules.add(SCMP_ACT_ALLOW, name);
    for (const Refusal &refusal : RefusedCalls)
        rules.add(SCMP_ACT_ERRNO(std::uint32_t(refusal.error)), refusal.name);
    for (const Refusal &refusal : ScriptOnlyRefusals) {
        if (script)
            rules.add(SCMP_ACT_ERRNO(std::uint32_t(refusal.error)), refusal.name);
    }
    for (const Refusal &refusal : NotifiedCalls)
        rules.add(refuse(refusal.error), refusal.name);

    // Network. Trusted code: every socket family (tools call APIs), or with the
    // project's network off only AF_UNIX — UDP too, which Landlock (TCP only) leaves
    // open. A script: no socket of its own at all. Notified, the studio picks the
    // errno; plain, AF_UNIX gets EPERM and every other family EAFNOSUPPORT. The NE
    // rule compares all 64 bits: junk in the high half is refused as a foreign family.
    if (!script) {
        if (!options.network) {
            rules.add(SCMP_ACT_ERRNO(EAFNOSUPPORT), "socket", {SCMP_A0_64(SCMP_CMP_NE, AF_UNIX)});
            rules.add(SCMP_ACT_ERRNO(EAFNOSUPPORT), "socketpair", {SCMP_A0_64(SCMP_CMP_NE, AF_UNIX)});
        }
    } else if (options.notify) {
        for (const Refusal &refusal : NetworkCalls)
            rules.add(SCMP_ACT_NOTIFY, refusal.name);
    } else {
        rules.add(SCMP_ACT_ERRNO(EAFNOSUPPORT), "socket", {SCMP_A0_64(SCMP_CMP_NE, AF_UNIX)});
        rules.add(SCMP_ACT_ERRNO(EPERM), "socket", {low32(0, AF_UNIX)});
        for (const Refusal &refusal : NetworkCalls) {
            if (std::strcmp(refusal.name, "socket") != 0)
                rules.add(SCMP_ACT_ERRNO(std::uint32_t(refusal.error)), refusal.name);
        }
    }
    // socketpair: only AF_UNIX stream and seqpacket pairs (a datagram pair could
    // sendto() any named or abstract socket). The type's low 4 bits are the kind.
    for (unsigned kind = 0; script && kind < 16; ++kind) {
        if (kind == 0)
            rules.add(SCMP_ACT_ERRNO(EAFNOSUPPORT), "socketpair", {SCMP_A0_64(SCMP_CMP_NE, AF_UNIX)});
        const std::uint32_t action
            = (kind == SOCK_STREAM || kind == SOCK_SEQPACKET) ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(EPERM);
        rules.add(action, "socketpair", {low32(0, AF_UNIX), SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xF, kind)});
    }

    // clone: plain fork, vfork and threads; new namespaces (policy events) and
    // CLONE_PARENT (a child the studio would have to reap) are refused. The kernel
    // reads the low 32 bits of the flags.
    std::uint64_t refusedCloneFlags = CLONE_PARENT;
    for (std::uint64_t flag : NamespaceFlags) {
        refusedCloneFlags |= flag;
        rules.add(refuse(EPERM), "clone", {SCMP_A0_64(SCMP_CMP_MASKED_EQ, flag, flag)});
    }
    rules.add(SCMP_ACT_ERRNO(EPERM), "clone", {SCMP_A0_64(SCMP_CMP_MASKED_EQ, CLONE_PARENT, CLONE_PARENT)});
    rules.add(SCMP_ACT_ALLOW, "clone", {SCMP_A0_64(SCMP_CMP_MASKED_EQ, refusedCloneFlags, 0)});

    // Signals only to pids 0..INT_MAX (low 32 bits): -1 would reach every process of
    // the user, -pgid another run's group. Aimed at the studio: a policy event.
    // With notifySignals (no Landlock scoping below ABI 6), every other pid but 0 (its
    // own group) goes to the studio, which lets it through only inside the run.
    // Trusted code may signal its own groups (os.killpg of a child started with
    // start_new_session): only -1 (every process of the uid) and the studio's group.
    for (const char *name : KillCalls) {
        if (options.studioPid > 0)
            rules.add(refuse(EPERM), name, {low32(0, std::uint32_t(options.studioPid))});
        if (!script) {
            rules.add(SCMP_ACT_ERRNO(EPERM), name, {low32(0, 0xffffffffu)});
            if (options.studioPid > 0)
                rules.add(SCMP_ACT_ERRNO(EPERM), name, {low32(0, 0u - std::uint32_t(options.studioPid))});
            continue;
        }
        rules.add(refuse(EPERM), name, {SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0x80000000u, 0x80000000u)});
        if (options.notify && options.legacyLandlock) {
            rules.add(SCMP_ACT_ALLOW, name, {low32(0, 0)});
            rules.add(SCMP_ACT_NOTIFY, name, {SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0x80000000u, 0)});
        } else {
            rules.add(SCMP_ACT_ALLOW, name, {SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0x80000000u, 0)});
        }
    }

    // ioctl: terminal queries and fd flags only; never terminal injection.
    for (std::uint32_t request : AllowedIoctls)
        rules.add(SCMP_ACT_ALLOW, "ioctl", {low32(1, request)});
    for (std::uint32_t request : RefusedIoctls)
        rules.add(SCMP_ACT_ERRNO(EPERM), "ioctl", {low32(1, request)});

    // fcntl: nothing that makes the kernel signal another process (or lease a file).
    for (std::uint32_t command : AllowedFcntls)
        rules.add(SCMP_ACT_ALLOW, "fcntl", {low32(1, command)});
    for (std::uint32_t command : RefusedFcntls)
        rules.add(SCMP_ACT_ERRNO(EPERM), "fcntl", {low32(1, command)});

    // personality: only the query (ADDR_NO_RANDOMIZE / READ_IMPLIES_EXEC are refused).
    rules.add(SCMP_ACT_ALLOW, "personality", {low32(0, PersonalityQuery)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "personality", {SCMP_A0_64(SCMP_CMP_NE, PersonalityQuery)});

    // setpriority / ioprio_set (issue 16, class 4 and the pre-warmed launcher): only
    // the caller's own process or process group (who = 0). PRIO_USER, another pid
    // (the studio, the waiting launcher, the user's processes) or another group:
    // EPERM. `which` and `who` are ints: the low 32 bits.
    for (const std::uint32_t which : {PrioProcess, PrioPgrp})
        rules.add(SCMP_ACT_ALLOW, "setpriority", {low32(0, which), low32(1, 0)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "setpriority", {SCMP_A0_64(SCMP_CMP_GT, PrioPgrp)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "setpriority", {SCMP_A1_64(SCMP_CMP_NE, 0)});
    for (const std::uint32_t which : {IoprioWhoProcess, IoprioWhoPgrp})
        rules.add(SCMP_ACT_ALLOW, "ioprio_set", {low32(0, which), low32(1, 0)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "ioprio_set", {SCMP_A0_64(SCMP_CMP_GT, IoprioWhoPgrp)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "ioprio_set", {SCMP_A0_64(SCMP_CMP_EQ, 0)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "ioprio_set", {SCMP_A1_64(SCMP_CMP_NE, 0)});

    // O_PATH opens are not checked by Landlock: an O_PATH fd reaches any path, and
    // fchownat(fd, "", AT_EMPTY_PATH), fchmodat2, fstatfs … act on it. Refused on
    // open and openat (openat2 is ENOSYS above) — except with O_DIRECTORY, which
    // coreutils 9 (mv, cp, ln, install) uses for its target directory: what such an fd
    // could change is closed by the chown/xattr refusals and by the broker checking the
    // object itself.
    //
    // Below Landlock ABI 3 (legacyLandlock), O_TRUNC is checked by seccomp: Landlock
    // then checks only the open mode, and O_RDONLY | O_TRUNC (or the mode 3) truncates
    // any file the uid may write. Only O_WRONLY or O_RDWR may truncate (Landlock's
    // write right covers them); the rules for one syscall stay disjoint.
    constexpr std::uint64_t PathDirectory = O_PATH | O_DIRECTORY;
    constexpr std::uint64_t Trunc = O_PATH | O_TRUNC | O_ACCMODE;
    // Trusted code keeps O_PATH (its mode and time changes are a residual anyway) but
    // gets the O_TRUNC rules below ABI 3: truncating ~/.bashrc is a write.
    for (const auto &[name, arg] : {std::pair{"open", 1u}, std::pair{"openat", 2u}}) {
        const auto flags = [arg = arg](std::uint64_t mask, std::uint64_t value) {
            return scmp_arg_cmp{arg, SCMP_CMP_MASKED_EQ, mask, value};
        };
        if (script) {
            rules.add(SCMP_ACT_ERRNO(EPERM), name, {flags(PathDirectory, O_PATH)});
            rules.add(SCMP_ACT_ALLOW, name, {flags(PathDirectory, PathDirectory)});
        }
        if (!options.legacyLandlock) {
            rules.add(SCMP_ACT_ALLOW, name, {flags(O_PATH, 0)});
            continue;
        }
        rules.add(SCMP_ACT_ALLOW, name, {flags(O_PATH | O_TRUNC, 0)});
        for (const std::uint64_t mode : {O_WRONLY, O_RDWR})
            rules.add(SCMP_ACT_ALLOW, name, {flags(Trunc, O_TRUNC | mode)});
        for (const std::uint64_t mode : {std::uint64_t(O_RDONLY), std::uint64_t(O_ACCMODE)})
            rules.add(SCMP_ACT_ERRNO(EACCES), name, {flags(Trunc, O_TRUNC | mode)});
    }

    // truncate by path: Landlock governs it from ABI 3 on; below, seccomp refuses it.
    rules.add(options.legacyLandlock ? SCMP_ACT_ERRNO(EACCES) : SCMP_ACT_ALLOW, "truncate");

    // Mode and time changes: brokered by the studio's listener, else refused. Trusted
    // code keeps them (shutil.copy sets the mode by path; docs/sandbox.md residuals).
    for (const char *name : BrokeredCalls) {
        if (script)
            rules.add(options.notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM), name);
    }

    // prlimit64 on itself only (pid 0).
    rules.add(SCMP_ACT_ALLOW, "prlimit64", {SCMP_A0_64(SCMP_CMP_EQ, 0)});
    rules.add(SCMP_ACT_ERRNO(EPERM), "prlimit64", {SCMP_A0_64(SCMP_CMP_NE, 0)});
    return rules.error();
}

} // namespace

namespace SeccompFilter {

std::string resolvedName(int nr)
{
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    if (!name)
        return {};
    std::string result = name;
    std::free(name);
    return result;
}

std::string build(const Options &options, std::vector<sock_filter> *program)
{
    program->clear();
    FilterContext filter;
    // Trusted code runs whatever a project's tools need: a deny-list (allow by default).
    const std::uint32_t defaultAction = options.profile == Profile::ToolWorker ? SCMP_ACT_ALLOW
        : options.unlisted == Unlisted::Kill                                   ? SCMP_ACT_KILL_PROCESS
                                                                               : SCMP_ACT_ERRNO(ENOSYS);
    filter.ctx = seccomp_init(defaultAction);
    if (!filter.ctx)
        return "seccomp_init failed (out of memory)";
    // Real errno values from libseccomp instead of its generic ECANCELED (≥ 2.5).
    seccomp_attr_set(filter.ctx, SCMP_FLTATR_API_SYSRAWRC, 1);
    // A binary search over the syscall numbers instead of a linear chain: every call
    // the script makes runs through this program (libseccomp ≥ 2.5).
    if (int rc = seccomp_attr_set(filter.ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2); rc < 0)
        return failure("seccomp_attr_set(CTL_OPTIMIZE, 2)", rc);

    // Only the native ABI: seccomp_init added just it. libseccomp's x86_64 filter also
    // sends x32 syscall numbers (bit 30 set) to the bad-arch action.
    if (int rc = seccomp_attr_set(filter.ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); rc < 0)
        return failure("seccomp_attr_set(ACT_BADARCH)", rc);
    if (std::string error = addRules(filter.ctx, defaultAction, options); !error.empty())
        return error;

    // libseccomp 2.5 exports to a file descriptor only.
    const int fd = ::memfd_create("toolstudio-seccomp", MFD_CLOEXEC);
    if (fd == -1)
        return failure("memfd_create", errno);
    std::string bytes;
    int rc = seccomp_export_bpf(filter.ctx, fd);
    if (rc >= 0 && ::lseek(fd, 0, SEEK_SET) == 0) {
        char chunk[65536];
        ssize_t n;
        while ((n = ::read(fd, chunk, sizeof chunk)) > 0)
            bytes.append(chunk, std::size_t(n));
        if (n < 0)
            rc = -errno;
    } else if (rc >= 0) {
        rc = -errno;
    }
    ::close(fd);
    if (rc < 0)
        return failure("seccomp_export_bpf", rc);
    if (bytes.empty() || bytes.size() % sizeof(sock_filter) != 0)
        return "seccomp_export_bpf: " + std::to_string(bytes.size()) + " bytes are no BPF program";
    program->resize(bytes.size() / sizeof(sock_filter));
    std::memcpy(program->data(), bytes.data(), bytes.size());
    return {};
}

int refusalErrno(int nr, const std::uint64_t args[6])
{
    const std::string name = resolvedName(nr);
    if (name == "socket")
        return args[0] == AF_UNIX ? EPERM : EAFNOSUPPORT;
    int error = 0;
    const auto find = [&](const auto &table) {
        for (const Refusal &refusal : table) {
            if (error == 0 && name == refusal.name)
                error = refusal.error;
        }
    };
    find(NetworkCalls);
    find(NotifiedCalls);
    find(RefusedCalls);
    find(ScriptOnlyRefusals);
    if (error != 0)
        return error;
    if (name == "clone")
        return EPERM;
    for (const char *kill : KillCalls) {
        if (name == kill)
            return EPERM;
    }
    return 0;
}

} // namespace SeccompFilter
