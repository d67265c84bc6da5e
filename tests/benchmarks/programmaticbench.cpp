// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio-bench-programmatic [ROUNDS] [--live-only]`: one round trip of seed 003's API (one tool
// call, Python) through `toolstudio serve`'s ProgrammaticApi, where the sandboxed
// process stays alive while the client works, against the page's default "replay"
// mode, where every round trip re-executes the program in a fresh sandboxed
// interpreter with the results so far filled in (emulated here as a POST /v1/exec of
// the same program with those results, on the same server). Goal: at least 10x.
// Second row: the same round trips against a bare single-threaded cpp-httplib server
// (the library under HttpServer) that answers each recorded request with the studio's
// recorded reply: the same HTTP exchanges and sizes, no sandbox, no engine. Goal: at
// most 2x. That row times the tool-call round trips (a continuation answered by the
// program's next call); the last continuation, which ends the program and records its
// run, is shown on its own. --live-only leaves the replay row out (rounds <= 100: the
// run's call budget). Third row: the same echo whose handler also hands each request to a
// bare python3 over pipes and waits for the next call it writes — the limit doing the
// same I/O as the studio's round trip (HTTP and a Python turn), which the echo alone is not.
#include "httpserver.h"
#include "programmaticapi.h"

#include <httplib.h>

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int Port = 38753;
constexpr int EchoPort = 38754;

using Clock = std::chrono::steady_clock;

nlohmann::json postJson(httplib::Client &client, const char *path, const nlohmann::json &body)
{
    const auto reply = client.Post(path, body.dump(), "application/json");
    if (!reply)
        return nlohmann::json();
    return nlohmann::json::parse(reply->body, nullptr, false);
}

/// One continuation's HTTP exchange as the client saw it: request and reply bodies.
struct Exchange
{
    std::string request;
    std::string reply;
};

/// The live session's figures: every continuation (the last one ends the program), and
/// the tool-call round trips alone (each continuation answered by the next call).
struct LiveTimes
{
    double meanMs = -1;     ///< all `rounds` continuations, the program's end included
    double toolMeanUs = -1; ///< the continuations answered with tool_call_required
    double toolMedianUs = -1;
    double endMs = -1; ///< the last continuation: the program ends, its run is recorded
};

/// The studio: one session, `rounds` continuations. The exchange of each continuation
/// answered by the next call is appended to `exchanges` when given.
LiveTimes liveRoundTrips(httplib::Client &client, int rounds, std::vector<Exchange> *exchanges = nullptr)
{
    const std::string code = "for i in range(" + std::to_string(rounds) + "):\n    step(i=i)\nprint('done')\n";
    nlohmann::json reply = postJson(client, "/v1/exec/programmatic", {{"code", code}, {"tools", {{{"name", "step"}}}}});
    std::vector<double> toolUs;
    LiveTimes times;
    const auto start = Clock::now();
    for (int i = 0; i < rounds; ++i) {
        if (reply.value("status", "") != "tool_call_required") {
            std::fprintf(stderr, "live round %d: %s\n", i, reply.dump().c_str());
            return {};
        }
        nlohmann::json result = {{"call_id", reply["tool_calls"][0]["id"]}, {"result", i}};
        nlohmann::json body = {{"session_id", reply["session_id"]},
                               {"continuation_token", reply["continuation_token"]},
                               {"tool_results", nlohmann::json::array({result})}};
        const std::string request = body.dump();
        const auto sent = Clock::now();
        const auto answer = client.Post("/v1/exec/programmatic", request, "application/json");
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - sent).count();
        reply = answer ? nlohmann::json::parse(answer->body, nullptr, false) : nlohmann::json();
        if (i + 1 < rounds) {
            toolUs.push_back(us);
            if (exchanges && answer)
                exchanges->push_back({request, answer->body});
        } else {
            times.endMs = us / 1000;
        }
    }
    const auto elapsed = Clock::now() - start;
    if (reply.value("stdout", "") != "done\n") {
        std::fprintf(stderr, "live: %s\n", reply.dump().c_str());
        return {};
    }
    times.meanMs = std::chrono::duration<double, std::milli>(elapsed).count() / rounds;
    if (!toolUs.empty()) {
        double sum = 0;
        for (const double us : toolUs)
            sum += us;
        times.toolMeanUs = sum / toolUs.size();
        std::sort(toolUs.begin(), toolUs.end());
        times.toolMedianUs = toolUs[toolUs.size() / 2];
    }
    return times;
}

/// Replay mode: round k runs the program afresh with results 0..k-1 filled in, up to
/// its call k (where it stops, as the page's server stops it to ask for the result).
double replayRoundTripMs(httplib::Client &client, int rounds)
{
    const auto start = Clock::now();
    for (int k = 0; k < rounds; ++k) {
        const std::string code = "import sys\nKNOWN = list(range(" + std::to_string(k)
            + "))\ndef step(i):\n    if i < len(KNOWN):\n        return KNOWN[i]\n    print('call', i)\n"
              "    sys.exit(0)\nfor i in range("
            + std::to_string(rounds) + "):\n    step(i=i)\nprint('done')\n";
        const nlohmann::json reply = postJson(client, "/v1/exec", {{"code", code}});
        if (reply.value("stdout", "") != "call " + std::to_string(k) + "\n") {
            std::fprintf(stderr, "replay round %d: %s\n", k, reply.dump().c_str());
            return -1;
        }
    }
    const auto elapsed = Clock::now() - start;
    return std::chrono::duration<double, std::milli>(elapsed).count() / rounds;
}

/// A bare python3 (no sandbox, no shim) that, for each request line on its stdin, takes
/// the tool result out of it and writes the program's next call as a line: the Python
/// turn of a round trip (a result in, a call out, one pipe each way), nothing else.
class PythonTurn
{
public:
    bool start()
    {
        int in[2];
        int out[2];
        if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
            return false;
        m_pid = fork();
        if (m_pid == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            execlp("python3", "python3", "-c",
                   "import json, sys\n"
                   "for line in sys.stdin:\n"
                   "    i = json.loads(line)['tool_results'][0]['result']\n"
                   "    sys.stdout.write(json.dumps({'name': 'step', 'arguments': {'i': i + 1}}) + '\\n')\n"
                   "    sys.stdout.flush()\n",
                   static_cast<char *>(nullptr));
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        m_in = in[1];
        m_out = out[0];
        return m_pid > 0;
    }
    ~PythonTurn()
    {
        if (m_in >= 0)
            close(m_in);
        if (m_out >= 0)
            close(m_out);
        if (m_pid > 0)
            waitpid(m_pid, nullptr, 0);
    }
    /// Sends `line` and returns the line the program answers with ("" if it is gone).
    std::string turn(const std::string &line)
    {
        const std::string sent = line + '\n';
        if (write(m_in, sent.data(), sent.size()) != ssize_t(sent.size()))
            return {};
        std::string answer;
        char c = 0;
        while (read(m_out, &c, 1) == 1 && c != '\n')
            answer += c;
        return answer;
    }

private:
    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
};

/// The bare echo: the recorded exchanges replayed against a single-threaded cpp-httplib
/// server that answers request k with recorded reply k; mean ms per round trip, and the
/// median in `medianUs`. With `python`, the handler first hands the request to it and
/// waits for its answer (the same I/O as the studio's round trip, without sandbox,
/// bridge framing, engine or journal).
double echoRoundTripMs(double *medianUs, const std::vector<Exchange> &exchanges, PythonTurn *python = nullptr)
{
    httplib::Server echo;
    echo.set_tcp_nodelay(true); // as HttpServer does
    echo.new_task_queue = [] { return new httplib::ThreadPool(1); };
    std::atomic<size_t> next = 0;
    echo.Post("/v1/exec/programmatic", [&](const httplib::Request &req, httplib::Response &res) {
        if (python && python->turn(req.body).empty()) {
            res.status = 500;
            return;
        }
        res.set_content(exchanges[next++ % exchanges.size()].reply, "application/json");
    });
    if (!echo.bind_to_port("127.0.0.1", EchoPort)) {
        std::fprintf(stderr, "port %d is in use\n", EchoPort);
        return -1;
    }
    std::thread serverThread([&echo] { echo.listen_after_bind(); });
    httplib::Client client("127.0.0.1", EchoPort);
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    double ms = 0;
    std::vector<double> us;
    for (int pass = 0; pass < 2; ++pass) { // the first pass warms up: connection, caches
        next = 0;
        us.clear();
        const auto start = Clock::now();
        for (const Exchange &exchange : exchanges) {
            const auto sent = Clock::now();
            const auto reply = client.Post("/v1/exec/programmatic", exchange.request, "application/json");
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
            if (!reply || reply->body.size() != exchange.reply.size()) {
                std::fprintf(stderr, "echo round trip failed\n");
                ms = -1;
                break;
            }
        }
        if (ms < 0)
            break;
        ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count() / exchanges.size();
    }
    echo.stop();
    serverThread.join();
    std::sort(us.begin(), us.end());
    *medianUs = us.empty() ? -1 : us[us.size() / 2];
    return ms;
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("TOOLSTUDIO_SANDBOX", TOOLSTUDIO_SANDBOX_PATH);
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
    // --live-only: no replay row (profiling the live round trip; a run allows 100 calls).
    const bool liveOnly = argc > 2 && std::string(argv[2]) == "--live-only";
    QTemporaryDir dir;
    Project project;
    project.name = QStringLiteral("bench");
    project.dir = dir.path();
    ProgrammaticApi api(project, ProgrammaticLimits{});
    HttpServer server;
    api.install(server);
    HttpServerConfig config;
    config.port = Port;
    config.replyTimeoutSeconds = ProgrammaticApi::longestReplySeconds();
    QString error;
    if (!server.listen(config, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    LiveTimes live;
    double replay = 0;
    std::vector<Exchange> exchanges;
    std::thread client([&] {
        httplib::Client http("127.0.0.1", Port);
        http.set_keep_alive(true);
        http.set_tcp_nodelay(true);
        http.set_read_timeout(120, 0);
        liveRoundTrips(http, 3); // warm up: the page cache, the first sandbox
        live = liveRoundTrips(http, rounds, &exchanges);
        replay = liveOnly ? 0 : replayRoundTripMs(http, rounds);
        QMetaObject::invokeMethod(&app, &QCoreApplication::quit, Qt::QueuedConnection);
    });
    app.exec();
    client.join();
    server.stop();
    double echoMedianUs = -1;
    const double echo
        = !exchanges.empty() && exchanges.size() == size_t(rounds - 1) ? echoRoundTripMs(&echoMedianUs, exchanges) : -1;
    size_t requestBytes = 0;
    size_t replyBytes = 0;
    for (const Exchange &exchange : exchanges) {
        requestBytes += exchange.request.size();
        replyBytes += exchange.reply.size();
    }
    double pythonMedianUs = -1;
    double python = -1;
    if (echo > 0) {
        PythonTurn turn;
        python = turn.start() ? echoRoundTripMs(&pythonMedianUs, exchanges, &turn) : -1;
    }
    const size_t n = exchanges.empty() ? 1 : exchanges.size();
    if (!liveOnly)
        std::printf("| seed 003 round trip (one tool call, Python, %d rounds) | live sandboxed process %.1f ms | "
                    "replay mode (fresh sandboxed interpreter per round trip) %.1f ms | ratio %.1fx (goal >= 10x) |\n",
                    rounds, live.meanMs, replay, replay / live.meanMs);
    // The tool-call round trips: each continuation answered by the program's next call.
    // The last continuation (the program ends, its run is recorded) is not one; it is
    // shown on its own.
    const double liveUs = live.toolMeanUs;
    std::printf("| seed 003 tool-call round trip (%zu of them: %zu-byte request, %zu-byte reply on average) | "
                "toolstudio serve %.0f us mean, %.0f us median (answered on the script's wait hint) | bare "
                "single-threaded cpp-httplib echo %.0f us mean, %.0f us median | ratio %.1fx (goal <= 2x: %s) | "
                "the last continuation (program end) %.1f ms |\n",
                exchanges.size(), requestBytes / n, replyBytes / n, liveUs, live.toolMedianUs, echo * 1000,
                echoMedianUs, liveUs / (echo * 1000), liveUs / (echo * 1000) <= 2 ? "met" : "missed", live.endMs);
    // The limit doing the same I/O: the echo, and a bare Python turn per round trip.
    std::printf("| seed 003 tool-call round trip, the limit with the program's turn | toolstudio serve %.0f us mean, "
                "%.0f us median | echo + a bare python3 over pipes taking the result and making the next call "
                "%.0f us mean, %.0f us median | ratio %.1fx (medians %.1fx) |\n",
                liveUs, live.toolMedianUs, python * 1000, pythonMedianUs, liveUs / (python * 1000),
                live.toolMedianUs / pythonMedianUs);
    return live.meanMs > 0 && liveUs > 0 && (replay > 0 || liveOnly) && echo > 0 && python > 0 ? 0 : 1;
}
