// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// toolstudio-bench-peer: the tools bridge's limit on this machine, for `toolstudio-bench
// bridge`. A minimal peer for a round-trip script: plain C++ and POSIX, one thread,
// blocking read()/write() on the same socketpair framing the studio uses (one JSON
// object per '\n'-terminated line, the script's end on fd 3), no event loop, no thread
// hop, no Qt, no sandbox, no validation, no journal. Anything the studio does per call
// shows as its distance from this peer.
//
//   toolstudio-bench-peer <reply value JSON> <interpreter> <script>
//
// Starts `<interpreter> <script>` with the socket on fd 3 (the environment is this
// process's: TOOLSTUDIO_BRIDGE_FD, PYTHONPATH, ... are set by the caller) and answers
// every call line with {"type":"result","id":<its id>,"value":<reply value JSON>} (a line
// without an id, the wait hint, is read and not answered, as the studio does). The
// script's stdout and stderr are this process's. Exits with the script's exit status
// (128 + signal if it was killed), or 70 when the peer itself fails.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

bool writeAll(int fd, const std::string &bytes)
{
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += std::size_t(n);
    }
    return true;
}

/// The string value of the line's "id" member (the shims write it before "args", without
/// escapes); empty when there is none.
std::string callId(const std::string &buffer, std::size_t start, std::size_t end)
{
    static const char Key[] = "\"id\":\"";
    const std::size_t key = buffer.find(Key, start);
    if (key == std::string::npos || key >= end)
        return {};
    const std::size_t from = key + sizeof Key - 1;
    const std::size_t to = buffer.find('"', from);
    return to == std::string::npos || to > end ? std::string() : buffer.substr(from, to - from);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s <reply value JSON> <interpreter> <script>\n", argv[0]);
        return 64;
    }
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        std::fprintf(stderr, "toolstudio-bench-peer: socketpair: %s\n", std::strerror(errno));
        return 70;
    }
    const pid_t child = ::fork();
    if (child < 0) {
        std::fprintf(stderr, "toolstudio-bench-peer: fork: %s\n", std::strerror(errno));
        return 70;
    }
    if (child == 0) {
        // dup2 clears FD_CLOEXEC on fd 3; everything else of ours closes at exec.
        if (::dup2(pair[1], 3) != 3)
            ::_exit(71);
        char *const args[] = {argv[2], argv[3], nullptr};
        ::execv(argv[2], args);
        ::_exit(72);
    }
    ::close(pair[1]);
    const int fd = pair[0];
    const std::string prefix = "{\"type\":\"result\",\"id\":\"";
    const std::string suffix = std::string("\",\"value\":") + argv[1] + "}\n";
    std::string buffer, reply;
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        buffer.append(chunk, std::size_t(n));
        std::size_t start = 0, newline;
        reply.clear();
        while ((newline = buffer.find('\n', start)) != std::string::npos) {
            // A line without an id (the wait hint, {"type":"wait"}) wants no reply.
            if (const std::string id = callId(buffer, start, newline); !id.empty())
                reply += prefix + id + suffix;
            start = newline + 1;
        }
        buffer.erase(0, start);
        if (!reply.empty() && !writeAll(fd, reply))
            break;
    }
    ::close(fd);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
