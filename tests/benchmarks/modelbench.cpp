// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio-bench-model [ROUNDS]`: what a model step costs over the HTTP request it
// makes (issue 19). One chat request to the local fake server
// (tests/data/models/fakemodelserver.py, scenario "ok", no tools) as a bare
// QNetworkAccessManager POST, against the same request as a model step through the step
// engine — admission, the journal's write-ahead commits, ModelClient, the reply line.
// Goal: a step at most 1.2 × the bare request + 1 ms.
#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "journal/journal.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>

namespace {

const nlohmann::json Messages = nlohmann::json::parse(R"([{"role": "user", "content": "1 EUR in USD?"}])");

/// Mean microseconds of `rounds` bare POSTs of the request ModelClient sends.
double bareMicros(QNetworkAccessManager &network, const QString &url, int rounds)
{
    // A model step streams its reply (docs/models.md "Streaming"): the bare request asks
    // for the same stream, so both read the same bytes.
    const QByteArray body = QByteArray::fromStdString(nlohmann::json{
        {"model", "fake-1"},
        {"messages", Messages},
        {"stream", true},
        {"stream_options", {{"include_usage", true}}}}.dump());
    QElapsedTimer timer;
    for (int i = -20; i < rounds; ++i) { // 20 rounds of warm-up
        if (i == 0)
            timer.start();
        QNetworkRequest request{QUrl(url)};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setRawHeader("Accept", "text/event-stream");
        QNetworkReply *reply = network.post(request, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const QByteArray stream = reply->readAll();
        reply->deleteLater();
        if (!stream.trimmed().endsWith("data: [DONE]")) {
            std::fprintf(stderr, "bare request %d failed\n", i);
            return -1;
        }
    }
    return double(timer.nsecsElapsed()) / 1000.0 / rounds;
}

/// Mean microseconds of `rounds` model steps (journaled) asking the same.
double stepMicros(const QString &baseUrl, const QString &dir, int rounds)
{
    Journal journal;
    if (!journal.open(dir + QStringLiteral("/journal.sqlite"))) {
        std::fprintf(stderr, "journal: %s\n", qPrintable(journal.lastError()));
        return -1;
    }
    RunRecord run;
    run.id = QStringLiteral("bench");
    run.startedAt = QDateTime::currentMSecsSinceEpoch();
    journal.recordRun(run);
    Project project;
    project.name = QStringLiteral("bench");
    project.dir = dir;
    ModelConfig model;
    model.name = QStringLiteral("local");
    model.model = QStringLiteral("fake-1");
    model.baseUrl = baseUrl;
    model.retry.maxAttempts = 1;
    model.retry.attemptTimeoutMs = model.timeoutMs;
    project.models = {model};
    project.limits.maxModelCalls = rounds + 100;
    StepEngine engine(project, run.id, &journal, {});
    QEventLoop loop;
    bool ok = true;
    QObject::connect(&engine, &StepEngine::replyReady, &loop, [&](const std::string &, const std::string &line) {
        ok = line.find("\"type\":\"result\"") != std::string::npos;
        if (!ok)
            std::fprintf(stderr, "model step failed: %s", line.c_str());
        loop.quit();
    });
    QElapsedTimer timer;
    for (int i = -20; i < rounds && ok; ++i) {
        if (i == 0)
            timer.start();
        BridgeCall call;
        call.kind = BridgeCall::Kind::Model;
        call.id = "m" + std::to_string(i + 100);
        call.tool = "local";
        call.args = {{"messages", Messages}, {"tools", "none"}};
        call.argsJson = call.args.dump();
        call.argsBytes = call.argsJson.size();
        engine.submitCall(call);
        loop.exec();
    }
    return ok ? double(timer.nsecsElapsed()) / 1000.0 / rounds : -1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
    QProcess server;
    server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    server.start(QStringLiteral("python3"), {QStringLiteral(TOOLSTUDIO_FAKE_MODEL_SERVER)});
    if (!server.waitForStarted() || !server.waitForReadyRead(20000)) {
        std::fprintf(stderr, "the fake model server did not start\n");
        return 1;
    }
    const QString base = QStringLiteral("http://127.0.0.1:%1/ok").arg(server.readLine().trimmed().toInt());
    QTemporaryDir dir;
    QNetworkAccessManager network;
    const double bare = bareMicros(network, base + QStringLiteral("/chat/completions"), rounds);
    const double step = stepMicros(base, dir.path(), rounds);
    server.kill();
    server.waitForFinished();
    if (bare <= 0 || step <= 0)
        return 1;
    const double goal = 1.2 * bare + 1000.0;
    std::printf("model step vs bare HTTP (fake server, %d rounds): bare %.0f us, step %.0f us, ratio %.2fx, "
                "goal <= 1.2x + 1 ms = %.0f us: %s\n",
                rounds, bare, step, step / bare, goal, step <= goal ? "met" : "MISSED");
    return 0;
}
