// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "workdirfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

WorkDirFile::Result refuse(WorkDirFile::Refusal refusal, std::string message)
{
    WorkDirFile::Result result;
    result.refusal = refusal;
    result.message = std::move(message);
    return result;
}

/// The path as it may be quoted in a message (control characters and bad bytes escaped).
std::string quoted(std::string_view path)
{
    std::string text = "\"";
    const bool utf8 = WorkDirFile::isValidUtf8(path);
    for (unsigned char c : path.substr(0, 200)) {
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\' || (c >= 0x80 && !utf8)) {
            static const char hex[] = "0123456789abcdef";
            text += "\\x";
            text += hex[c >> 4];
            text += hex[c & 15];
        } else {
            text += char(c);
        }
    }
    return text + (path.size() > 200 ? "…\"" : "\"");
}

} // namespace

const char *WorkDirFile::code(Refusal refusal)
{
    switch (refusal) {
    case Refusal::None:
        return "";
    case Refusal::Empty:
        return "path_empty";
    case Refusal::NulByte:
        return "path_nul_byte";
    case Refusal::BadUtf8:
        return "path_bad_utf8";
    case Refusal::Absolute:
        return "path_absolute";
    case Refusal::Traversal:
        return "path_traversal";
    case Refusal::Symlink:
        return "path_symlink";
    case Refusal::NotFound:
        return "path_not_found";
    case Refusal::NotRegular:
        return "path_not_regular";
    case Refusal::HardLink:
        return "path_hard_link";
    case Refusal::OpenFailed:
        return "path_open_failed";
    }
    return "";
}

bool WorkDirFile::isValidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        std::size_t length;
        char32_t value;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            length = 2, value = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            length = 3, value = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            length = 4, value = c & 0x07;
        } else {
            return false;
        }
        if (i + length > text.size())
            return false;
        for (std::size_t k = 1; k < length; ++k) {
            const unsigned char next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xc0) != 0x80)
                return false;
            value = (value << 6) | (next & 0x3f);
        }
        const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (value < smallest[length] || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
            return false;
        i += length;
    }
    return true;
}

WorkDirFile::Result WorkDirFile::open(const std::string &workDir, std::string_view path)
{
    const int dir = ::open(workDir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir == -1)
        return refuse(Refusal::OpenFailed, "cannot open the run's work dir " + workDir + ": " + std::strerror(errno));
    Result result = openBeneath(dir, path);
    ::close(dir);
    return result;
}

WorkDirFile::Result WorkDirFile::openBeneath(int workDirFd, std::string_view path)
{
    const std::string name = quoted(path);
    const std::string what
        = "; name a regular file the script wrote in its work dir, relative to it (e.g. \"out/report.csv\")";
    if (path.empty())
        return refuse(Refusal::Empty, "the path is empty" + what);
    if (path.find('\0') != std::string_view::npos)
        return refuse(Refusal::NulByte, name + " contains a NUL byte" + what);
    if (!isValidUtf8(path))
        return refuse(Refusal::BadUtf8, name + " is not valid UTF-8" + what);
    if (path.front() == '/')
        return refuse(Refusal::Absolute, name + " is an absolute path" + what);
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t end = path.find('/', start);
        if (end == std::string_view::npos)
            end = path.size();
        if (path.substr(start, end - start) == "..")
            return refuse(Refusal::Traversal, name + " leaves the work dir (\"..\")" + what);
        start = end + 1;
    }

    const std::string text(path);
    open_how how = {};
    how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    int fd;
    do {
        fd = int(::syscall(SYS_openat2, workDirFd, text.c_str(), &how, sizeof how));
    } while (fd == -1 && (errno == EINTR || errno == EAGAIN));
    if (fd == -1) {
        const int error = errno;
        switch (error) {
        case ELOOP:
            return refuse(Refusal::Symlink, name + " is or passes through a symbolic link" + what);
        case EXDEV:
            return refuse(Refusal::Traversal, name + " resolves outside the work dir" + what);
        case ENOENT:
        case ENOTDIR:
            return refuse(Refusal::NotFound, name + " does not exist in the work dir" + what);
        case ENOSYS:
            return refuse(Refusal::OpenFailed,
                          "cannot open " + name + " safely: this kernel has no openat2 (Linux 5.6 or later needed)");
        default:
            return refuse(Refusal::OpenFailed, "cannot open " + name + ": " + std::strerror(error));
        }
    }
    struct stat info = {};
    if (::fstat(fd, &info) == -1) {
        const int error = errno;
        ::close(fd);
        return refuse(Refusal::OpenFailed, "cannot stat " + name + ": " + std::strerror(error));
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        return refuse(Refusal::NotRegular, name + " is not a regular file" + what);
    }
    if (info.st_nlink != 1) {
        ::close(fd);
        return refuse(Refusal::HardLink,
                      name + " has " + std::to_string(info.st_nlink)
                          + " hard links (it may share its contents with a file outside the work dir)" + what);
    }
    // Regular files ignore O_NONBLOCK for reads; clear it for the reader anyway.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    Result result;
    result.fd = fd;
    return result;
}
