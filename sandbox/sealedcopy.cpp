// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "sealedcopy.h"

#include "posixutil.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U // Linux ≥ 6.3
#endif

using PosixUtil::errnoText;

int SealedCopy::of(int fd, const std::string &name, std::string *error)
{
    const auto fail = [error](const char *step, int copyFd) {
        const int saved = errno;
        *error = std::string(step) + " failed: " + errnoText(saved);
        if (copyFd >= 0)
            ::close(copyFd);
        return -1;
    };
    struct stat info = {};
    if (::fstat(fd, &info) == -1)
        return fail("fstat", -1);
    // Not executable where the kernel can say so; older kernels refuse the flag.
    int copy = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
    if (copy == -1 && errno == EINVAL)
        copy = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (copy == -1)
        return fail("memfd_create", -1);
    // The size when called: a file the script is still growing is cut there.
    off_t offset = 0;
    while (offset < info.st_size) {
        const ssize_t sent = ::sendfile(copy, fd, &offset, std::size_t(info.st_size - offset));
        if (sent == -1 && errno == EINTR)
            continue;
        if (sent == -1)
            return fail("copying the file (sendfile)", copy);
        if (sent == 0)
            break; // shrunk meanwhile: what was there
    }
    if (::fcntl(copy, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) == -1)
        return fail("sealing the copy (F_ADD_SEALS)", copy);
    if (::lseek(copy, 0, SEEK_SET) == -1)
        return fail("lseek", copy);
    return copy;
}
