// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// toolstudio-bench-peer: the tools bridge's limit on this machine, for `toolstudio-bench
// bridge` and tests/benchmarks/mcpclientbench.py. A minimal peer for a round-trip script:
// plain C++ and POSIX, one thread, blocking read()/write() on the same socketpair framing
// the studio uses (one JSON object per '\n'-terminated line, the script's end on fd 3), no
// event loop, no thread hop, no Qt, no sandbox, no validation, no journal. Anything the
// studio does per call shows as its distance from this peer.
//
//   toolstudio-bench-peer <reply value JSON> <interpreter> <script>
//   toolstudio-bench-peer --relay <server program> [<server argument>...] -- <interpreter> <script>
//
// Starts `<interpreter> <script>` with the socket on fd 3 (the environment is this
// process's: TOOLSTUDIO_BRIDGE_FD, PYTHONPATH, ... are set by the caller) and answers
// every call line with {"type":"result","id":<its id>,"value":<reply value JSON>} (a line
// without an id, the wait hint, is read and not answered, as the studio does). With
// --relay, the answer comes from an MCP server on stdio instead, as the studio's MCP
// client gets it: the server is started and initialized (2025-06-18) first, each call
// line becomes a `tools/call` of the tool named after the call's "SERVER__" prefix with
// the call's args as its arguments, and the JSON-RPC result is the reply's value — the
// same I/O as a script calling an MCP tool through the studio, with none of its work.
// The script's stdout and stderr are this process's (the server's stderr too). Exits
// with the script's exit status (128 + signal if it was killed), or 70 when the peer
// itself fails.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

/// The string value of `key` (e.g. "\"id\":\"") in `line` — the shims write "id" and
/// "tool" before "args", without escapes; empty when there is none.
std::string stringMember(const std::string &line, const char *key)
{
    const std::size_t at = line.find(key);
    if (at == std::string::npos)
        return {};
    const std::size_t from = at + std::strlen(key);
    const std::size_t to = line.find('"', from);
    return to == std::string::npos ? std::string() : line.substr(from, to - from);
}

/// The JSON value that starts at `from` (an object or array), up to its matching bracket.
std::string bracketedValue(const std::string &line, std::size_t from)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = from; i < line.size(); ++i) {
        const char c = line[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return line.substr(from, i - from + 1);
        }
    }
    return {};
}

/// Reads '\n'-terminated lines from a file descriptor, blocking.
class LineReader
{
public:
    explicit LineReader(int fd)
        : m_fd(fd)
    {}

    /// The next line without its '\n'; false at the end of the stream.
    bool next(std::string *line)
    {
        for (;;) {
            const std::size_t newline = m_buffer.find('\n', m_start);
            if (newline != std::string::npos) {
                line->assign(m_buffer, m_start, newline - m_start);
                m_start = newline + 1;
                return true;
            }
            m_buffer.erase(0, m_start);
            m_start = 0;
            char chunk[65536];
            const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            m_buffer.append(chunk, std::size_t(n));
        }
    }

    /// Whether a whole line is already read (next() returns it without reading).
    bool hasLine() const { return m_buffer.find('\n', m_start) != std::string::npos; }

private:
    int m_fd;
    std::string m_buffer;
    std::size_t m_start = 0;
};

/// An MCP server on stdio, initialized, answering tools/call one at a time.
class McpServer
{
public:
    bool start(char **argv)
    {
        int toServer[2], fromServer[2];
        if (::pipe2(toServer, O_CLOEXEC) != 0 || ::pipe2(fromServer, O_CLOEXEC) != 0)
            return false;
        m_pid = ::fork();
        if (m_pid < 0)
            return false;
        if (m_pid == 0) {
            if (::dup2(toServer[0], 0) != 0 || ::dup2(fromServer[1], 1) != 1)
                ::_exit(71);
            ::execvp(argv[0], argv);
            ::_exit(72);
        }
        ::close(toServer[0]);
        ::close(fromServer[1]);
        m_in = toServer[1];
        m_out = std::make_unique<LineReader>(fromServer[0]);
        const std::string initialize
            = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
              R"("capabilities":{},"clientInfo":{"name":"toolstudio-bench-peer","version":"1"}}})";
        return !response(initialize, 0).empty()
            && writeAll(m_in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    }

    /// The result of tools/call `name` with `arguments` (raw JSON); empty when it failed.
    std::string call(const std::string &name, const std::string &arguments)
    {
        ++m_lastId;
        return response(R"({"jsonrpc":"2.0","id":)" + std::to_string(m_lastId)
                            + R"(,"method":"tools/call","params":{"name":")" + name + R"(","arguments":)" + arguments
                            + "}}",
                        m_lastId);
    }

    ~McpServer()
    {
        if (m_in >= 0)
            ::close(m_in);
        if (m_pid > 0)
            ::waitpid(m_pid, nullptr, 0);
    }

private:
    /// Sends `request` and returns the "result" of the response with `id`, skipping the
    /// server's notifications and requests.
    std::string response(const std::string &request, long id)
    {
        if (!writeAll(m_in, request + "\n"))
            return {};
        const std::string idMember = "\"id\":" + std::to_string(id);
        std::string line;
        while (m_out->next(&line)) {
            const std::size_t at = line.find(idMember);
            if (at == std::string::npos || line.find("\"method\"") != std::string::npos)
                continue;
            const char after = at + idMember.size() < line.size() ? line[at + idMember.size()] : '}';
            if (after != ',' && after != '}')
                continue;
            const std::size_t result = line.find("\"result\":");
            return result == std::string::npos ? std::string() : bracketedValue(line, result + 9);
        }
        return {};
    }

    pid_t m_pid = -1;
    int m_in = -1;
    std::unique_ptr<LineReader> m_out;
    long m_lastId = 0;
};

} // namespace

int main(int argc, char **argv)
{
    std::string replyValue;
    McpServer server;
    bool relay = false;
    int script = 2; // argv index of <interpreter>
    if (argc > 1 && std::strcmp(argv[1], "--relay") == 0) {
        int separator = 2;
        while (separator < argc && std::strcmp(argv[separator], "--") != 0)
            ++separator;
        if (separator == 2 || separator + 3 != argc) {
            std::fprintf(stderr, "usage: %s --relay <server program> [<argument>...] -- <interpreter> <script>\n",
                         argv[0]);
            return 64;
        }
        argv[separator] = nullptr; // ends the server's argv
        if (!server.start(argv + 2)) {
            std::fprintf(stderr, "toolstudio-bench-peer: the MCP server %s did not initialize\n", argv[2]);
            return 70;
        }
        relay = true;
        script = separator + 1;
    } else if (argc == 4) {
        replyValue = argv[1];
    } else {
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
        char *const args[] = {argv[script], argv[script + 1], nullptr};
        ::execv(argv[script], args);
        ::_exit(72);
    }
    ::close(pair[1]);
    const int fd = pair[0];
    const std::string prefix = "{\"type\":\"result\",\"id\":\"";
    LineReader lines(fd);
    std::string line, replies;
    while (lines.next(&line)) {
        // A line without an id (the wait hint, {"type":"wait"}) wants no reply.
        if (const std::string id = stringMember(line, "\"id\":\""); !id.empty()) {
            std::string value = replyValue;
            if (relay) {
                const std::string tool = stringMember(line, "\"tool\":\"");
                const std::size_t args = line.find("\"args\":");
                const std::size_t serverPrefix = tool.find("__");
                value = server.call(serverPrefix == std::string::npos ? tool : tool.substr(serverPrefix + 2),
                                    args == std::string::npos ? std::string("{}") : bracketedValue(line, args + 7));
                if (value.empty()) {
                    std::fprintf(stderr, "toolstudio-bench-peer: the MCP server did not answer tools/call %s\n",
                                 tool.c_str());
                    break;
                }
            }
            replies += prefix + id + "\",\"value\":" + value + "}\n";
        }
        // Replies to the lines of one read go out in one write, as the studio's do.
        if (lines.hasLine() || replies.empty())
            continue;
        if (!writeAll(fd, replies))
            break;
        replies.clear();
    }
    ::close(fd);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
