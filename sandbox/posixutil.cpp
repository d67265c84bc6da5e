// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "posixutil.h"

#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace PosixUtil {

std::string errnoText(int error)
{
    return std::strerror(error);
}

namespace {

/// Reads `fd` to its end into `contents` and closes it; EFBIG past `maxBytes`.
bool readAndClose(int fd, std::size_t maxBytes, std::string *contents)
{
    contents->clear();
    char buffer[8192];
    for (;;) {
        const ssize_t n = retry([&] { return ::read(fd, buffer, sizeof buffer); });
        if (n == -1) {
            const int error = errno;
            ::close(fd);
            errno = error;
            return false;
        }
        if (n == 0)
            break;
        contents->append(buffer, std::size_t(n));
        if (contents->size() > maxBytes) {
            ::close(fd);
            errno = EFBIG;
            return false;
        }
    }
    ::close(fd);
    return true;
}

} // namespace

bool readFile(const std::string &path, std::size_t maxBytes, std::string *contents)
{
    const int fd = retry([&] { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); });
    if (fd == -1)
        return false;
    return readAndClose(fd, maxBytes, contents);
}

bool readRegularFile(const std::string &path, std::size_t maxBytes, std::string *contents)
{
    const int fd = retry([&] { return ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); });
    if (fd == -1)
        return false;
    struct stat info = {};
    int error = 0;
    if (::fstat(fd, &info) == -1)
        error = errno;
    else if (!S_ISREG(info.st_mode))
        error = EINVAL;
    else if (std::size_t(info.st_size) > maxBytes)
        error = EFBIG;
    if (error != 0) {
        ::close(fd);
        errno = error;
        return false;
    }
    // Still stops past maxBytes should the file grow meanwhile.
    return readAndClose(fd, maxBytes, contents);
}

bool writeAll(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = retry([&] { return ::write(fd, text.data(), text.size()); });
        if (n <= 0)
            return false;
        text.remove_prefix(std::size_t(n));
    }
    return true;
}

bool parseInt(std::string_view text, int *value)
{
    int parsed = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (ec != std::errc() || end != text.data() + text.size())
        return false;
    *value = parsed;
    return true;
}

} // namespace PosixUtil
