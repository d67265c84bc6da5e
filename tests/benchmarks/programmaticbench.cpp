// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio-bench-programmatic [ROUNDS]`: one round trip of seed 003's API (one tool
// call, Python) through `toolstudio serve`'s ProgrammaticApi, where the sandboxed
// process stays alive while the client works, against the page's default "replay"
// mode, where every round trip re-executes the program in a fresh sandboxed
// interpreter with the results so far filled in (emulated here as a POST /v1/exec of
// the same program with those results, on the same server). Goal: at least 10x.
#include "httpserver.h"
#include "programmaticapi.h"

#include <httplib.h>

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr int Port = 38753;

using Clock = std::chrono::steady_clock;

nlohmann::json postJson(httplib::Client &client, const char *path, const nlohmann::json &body)
{
    const auto reply = client.Post(path, body.dump(), "application/json");
    if (!reply)
        return nlohmann::json();
    return nlohmann::json::parse(reply->body, nullptr, false);
}

/// The studio: one session, `rounds` continuations; mean ms per continuation.
double liveRoundTripMs(httplib::Client &client, int rounds)
{
    const std::string code = "for i in range(" + std::to_string(rounds) + "):\n    step(i=i)\nprint('done')\n";
    nlohmann::json reply = postJson(client, "/v1/exec/programmatic", {{"code", code}, {"tools", {{{"name", "step"}}}}});
    const auto start = Clock::now();
    for (int i = 0; i < rounds; ++i) {
        if (reply.value("status", "") != "tool_call_required") {
            std::fprintf(stderr, "live round %d: %s\n", i, reply.dump().c_str());
            return -1;
        }
        nlohmann::json result = {{"call_id", reply["tool_calls"][0]["id"]}, {"result", i}};
        nlohmann::json body = {{"session_id", reply["session_id"]},
                               {"continuation_token", reply["continuation_token"]},
                               {"tool_results", nlohmann::json::array({result})}};
        reply = postJson(client, "/v1/exec/programmatic", body);
    }
    const auto elapsed = Clock::now() - start;
    if (reply.value("stdout", "") != "done\n") {
        std::fprintf(stderr, "live: %s\n", reply.dump().c_str());
        return -1;
    }
    return std::chrono::duration<double, std::milli>(elapsed).count() / rounds;
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

} // namespace

int main(int argc, char *argv[])
{
    qputenv("TOOLSTUDIO_SANDBOX", TOOLSTUDIO_SANDBOX_PATH);
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
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
    double live = 0;
    double replay = 0;
    std::thread client([&] {
        httplib::Client http("127.0.0.1", Port);
        http.set_keep_alive(true);
        http.set_tcp_nodelay(true);
        http.set_read_timeout(120, 0);
        liveRoundTripMs(http, 3); // warm up: the page cache, the first sandbox
        live = liveRoundTripMs(http, rounds);
        replay = replayRoundTripMs(http, rounds);
        QMetaObject::invokeMethod(&app, &QCoreApplication::quit, Qt::QueuedConnection);
    });
    app.exec();
    client.join();
    server.stop();
    std::printf("| seed 003 round trip (one tool call, Python, %d rounds) | live sandboxed process %.1f ms | "
                "replay mode (fresh sandboxed interpreter per round trip) %.1f ms | ratio %.1fx (goal >= 10x) |\n",
                rounds, live, replay, replay / live);
    return live > 0 && replay > 0 ? 0 : 1;
}
