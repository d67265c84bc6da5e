// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio-bench-http [ROUNDS]`: the cost of the studio's HTTP base (issue 22). One
// POST echo round trip (a 100-byte JSON body, one kept-alive connection) through
// HttpServer — Host/Origin checks, the hand-off to the Qt thread and back, the JSON
// reply — against the same echo on a bare cpp-httplib server. Goal: at most 2x.
#include "httpserver.h"

#include <httplib.h>

#include <QCoreApplication>
#include <QTimer>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr int BarePort = 38751;
constexpr int StudioPort = 38752;

/// Median-free mean over `rounds` POSTs to `port`, in microseconds per round trip.
double roundTripMicros(int port, int rounds)
{
    httplib::Client client("127.0.0.1", port);
    client.set_keep_alive(true);
    client.set_tcp_nodelay(true);
    const std::string body
        = R"({"type": "tool.result", "id": "c1", "attempt": 1, "result": {"rate": 0.92, "ok": true}})";
    for (int i = 0; i < 50; ++i) // warm up: connection, thread pool, caches
        client.Post("/echo", body, "application/json");
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) {
        const auto reply = client.Post("/echo", body, "application/json");
        if (!reply || reply->status != 200) {
            std::fprintf(stderr, "round trip %d to port %d failed\n", i, port);
            return -1;
        }
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return std::chrono::duration<double, std::micro>(elapsed).count() / rounds;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;

    httplib::Server bare;
    bare.set_tcp_nodelay(true); // as HttpServer does
    bare.Post("/echo", [](const httplib::Request &req, httplib::Response &res) {
        res.set_content(req.body, "application/json");
    });
    if (!bare.bind_to_port("127.0.0.1", BarePort)) {
        std::fprintf(stderr, "port %d is in use\n", BarePort);
        return 1;
    }
    std::thread bareThread([&bare] { bare.listen_after_bind(); });

    HttpServer studio;
    studio.route("POST", "/echo", "/echo", "Echo.", [](const HttpRequest &request, const HttpResponder &responder) {
        responder.send(200, nlohmann::json::parse(request.body));
    });
    HttpServerConfig config;
    config.port = StudioPort;
    QString error;
    if (!studio.listen(config, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    double bareMicros = 0;
    double studioMicros = 0;
    std::thread client([&] {
        bareMicros = roundTripMicros(BarePort, rounds);
        studioMicros = roundTripMicros(StudioPort, rounds);
        QMetaObject::invokeMethod(&app, &QCoreApplication::quit, Qt::QueuedConnection);
    });
    app.exec();
    client.join();
    studio.stop();
    bare.stop();
    bareThread.join();
    std::printf("| HTTP POST echo round trip (%d rounds, keep-alive) | bare cpp-httplib %.1f us | toolstudio serve's "
                "HttpServer %.1f us | ratio %.2fx (goal <= 2x) |\n",
                rounds, bareMicros, studioMicros, studioMicros / bareMicros);
    return bareMicros > 0 && studioMicros > 0 ? 0 : 1;
}
