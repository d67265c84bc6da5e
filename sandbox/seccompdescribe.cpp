// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Naming a refused call for a person (the policy events in the trace): the syscall's
// name and the arguments that matter. The studio's side only (libseccomp resolves
// the numbers).
#include "seccompfilter.h"

#include <seccomp.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>

namespace {

const char *familyName(std::uint64_t family)
{
    switch (family) {
    case AF_UNIX:
        return "AF_UNIX";
    case AF_INET:
        return "AF_INET";
    case AF_INET6:
        return "AF_INET6";
    case AF_NETLINK:
        return "AF_NETLINK";
    case AF_PACKET:
        return "AF_PACKET";
    case AF_VSOCK:
        return "AF_VSOCK";
    case AF_ALG:
        return "AF_ALG";
    case AF_BLUETOOTH:
        return "AF_BLUETOOTH";
    case AF_KEY:
        return "AF_KEY";
    case AF_XDP:
        return "AF_XDP";
    default:
        return nullptr;
    }
}

std::string hex(std::uint64_t value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

} // namespace

namespace SeccompFilter {

std::string syscallName(int nr)
{
    const std::string name = resolvedName(nr);
    return name.empty() ? "syscall " + std::to_string(nr) : name;
}

std::string describeArguments(int nr, const std::uint64_t args[6])
{
    const std::string name = resolvedName(nr);
    if (name == "socket") {
        const char *family = familyName(args[0]);
        std::string type;
        switch (args[1] & 0xF) {
        case SOCK_STREAM:
            type = "SOCK_STREAM";
            break;
        case SOCK_DGRAM:
            type = "SOCK_DGRAM";
            break;
        case SOCK_RAW:
            type = "SOCK_RAW";
            break;
        case SOCK_SEQPACKET:
            type = "SOCK_SEQPACKET";
            break;
        default:
            type = "type " + std::to_string(args[1] & 0xF);
        }
        return (family ? std::string(family) : "family " + std::to_string(args[0])) + ", " + type;
    }
    if (name == "connect" || name == "bind" || name == "listen" || name == "accept" || name == "accept4")
        return "fd " + std::to_string(std::int32_t(args[0]));
    if (name == "kill" || name == "tkill" || name == "rt_sigqueueinfo") {
        const char *signal = args[1] < 65 ? sigabbrev_np(int(args[1])) : nullptr;
        return "pid " + std::to_string(std::int32_t(args[0])) + ", "
            + (signal ? "SIG" + std::string(signal) : "signal " + std::to_string(args[1]));
    }
    if (name == "tgkill" || name == "rt_tgsigqueueinfo") {
        const char *signal = args[2] < 65 ? sigabbrev_np(int(args[2])) : nullptr;
        return "pid " + std::to_string(std::int32_t(args[0])) + ", "
            + (signal ? "SIG" + std::string(signal) : "signal " + std::to_string(args[2]));
    }
    if (name == "ptrace")
        return "request " + std::to_string(args[0]) + ", pid " + std::to_string(std::int32_t(args[1]));
    if (name == "process_vm_readv" || name == "process_vm_writev" || name == "pidfd_open")
        return "pid " + std::to_string(std::int32_t(args[0]));
    if (name == "clone" || name == "unshare")
        return "flags " + hex(args[0] & 0xffffffffu);
    if (name == "setns")
        return "fd " + std::to_string(std::int32_t(args[0])) + ", type " + hex(args[1]);
    return {};
}

} // namespace SeccompFilter
