// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cerrno>
#include <cstddef>
#include <string>
#include <string_view>

/// Small POSIX helpers of the Qt-free sandbox code (bubblewrap's utils.h): no Qt, no
/// threads, nothing allocated behind the caller's back but std::string.
namespace PosixUtil {

/// strerror(error) as a string, for "what failed: why" messages.
std::string errnoText(int error);

/// Runs `call` again while it fails with EINTR (bubblewrap's TEMP_FAILURE_RETRY).
template<typename Call>
auto retry(Call call)
{
    decltype(call()) rc;
    do {
        rc = call();
    } while (rc == -1 && errno == EINTR);
    return rc;
}

/// Reads a small file whole into `contents`. False with errno set on failure; EFBIG
/// when it holds more than `maxBytes`.
bool readFile(const std::string &path, std::size_t maxBytes, std::string *contents);

/// readFile for a file anyone with the folder may have planted: opened without following
/// a FIFO's wait (O_NONBLOCK) and read only when it is a regular file (errno EINVAL when
/// not: a FIFO, a device, a folder) of at most `maxBytes` by its size (EFBIG) — a sparse
/// or endless file is not read at all.
bool readRegularFile(const std::string &path, std::size_t maxBytes, std::string *contents);

/// Writes all of `text` to `fd`, retrying EINTR and short writes. False on an error or
/// a write of 0 bytes.
bool writeAll(int fd, std::string_view text);

/// A whole decimal number (an fd, a pid, a /proc entry): false unless every character
/// of `text` is part of it and it fits an int.
bool parseInt(std::string_view text, int *value);

} // namespace PosixUtil
