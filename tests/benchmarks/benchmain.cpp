// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tool Studio benchmarks: each figure with the method used to get it. Wall-clock
// times on this machine, measured with QElapsedTimer (monotonic clock) around the
// real RunController, sandbox launcher and Python shim.

#include "project.h"
#include "runcontroller.h"
#include "stepengine.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Row
{
    QString name;
    QString value;
    QString method;
};

void writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(data);
}

/// A project with one mock tool `echo(n)` and the given script.
Project makeProject(const QTemporaryDir &dir, const QByteArray &script, int maxCalls)
{
    QDir().mkpath(dir.path() + QStringLiteral("/scripts"));
    writeFile(dir.path() + QStringLiteral("/scripts/main.py"), script);
    const QByteArray manifest = R"({
  "name": "bench", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "limits": {"max_calls": )" + QByteArray::number(maxCalls) + R"(},
  "tools": [{"name": "echo", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
             "handler": {"kind": "mock", "sequence": [{"result": {"ok": true}}]}}]
})";
    writeFile(dir.path() + QStringLiteral("/toolstudio.json"), manifest);
    ProjectError error;
    auto project = Project::load(dir.path(), &error);
    if (!project) {
        std::fprintf(stderr, "bench project invalid: %s\n", qPrintable(error.toString()));
        std::exit(1);
    }
    return *project;
}

struct RunTiming
{
    qint64 firstOutputNs = -1;
    qint64 totalNs = 0;
    bool completed = false;
    int steps = 0;
    qint64 stepSpanMs = 0; ///< first step queued → last step ended
};

RunTiming timeRun(const Project &project, const QString &journal)
{
    RunController controller;
    controller.setJournalPath(journal);
    RunTiming timing;
    QElapsedTimer clock;
    QEventLoop loop;
    QObject::connect(&controller, &RunController::outputReceived, &loop, [&](int stream, const QByteArray &) {
        if (stream == 1 && timing.firstOutputNs < 0)
            timing.firstOutputNs = clock.nsecsElapsed();
    });
    QObject::connect(&controller, &RunController::finished, &loop, [&](const RunRecord &run) {
        timing.totalNs = clock.nsecsElapsed();
        timing.completed = run.status == RunStatus::Completed;
        if (!timing.completed)
            std::fprintf(stderr, "run failed: %s\n", qPrintable(run.error));
        loop.quit();
    });
    clock.start();
    QString error;
    if (!controller.start(project, QString(), &error)) {
        std::fprintf(stderr, "cannot start: %s\n", qPrintable(error));
        std::exit(1);
    }
    loop.exec();
    const auto &steps = controller.engine()->steps();
    timing.steps = int(steps.size());
    if (!steps.empty())
        timing.stepSpanMs = steps.back().endedAt - steps.front().queuedAt;
    return timing;
}

QString ms(double ns)
{
    return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 1);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    qputenv("TOOLSTUDIO_SANDBOX", TOOLSTUDIO_SANDBOX_PATH);
    std::vector<Row> rows;

    {
        QTemporaryDir dir;
        const Project project = makeProject(dir, "print('ready', flush=True)\n", 100);
        constexpr int Runs = 10;
        std::vector<double> samples;
        for (int i = 0; i < Runs; ++i)
            samples.push_back(double(timeRun(project, dir.path() + QStringLiteral("/journal.sqlite")).firstOutputNs));
        std::sort(samples.begin(), samples.end());
        rows.push_back({QStringLiteral("run start → first script output (median of %1)").arg(Runs),
                        ms(samples[Runs / 2]) + QStringLiteral(" (min %1, max %2)").arg(ms(samples.front()), ms(samples.back())),
                        QStringLiteral("RunController::start() to the first stdout chunk; python3 print; journal on")});
    }

    {
        QTemporaryDir dir;
        constexpr int Calls = 1000;
        const Project project = makeProject(dir,
                                            "from toolstudio import tools\n"
                                            "for i in range(1000):\n"
                                            "    tools.echo(n=i)\n"
                                            "print('done', flush=True)\n",
                                            Calls);
        const RunTiming timing = timeRun(project, dir.path() + QStringLiteral("/journal.sqlite"));
        const double callSeconds = std::max<qint64>(timing.stepSpanMs, 1) / 1e3;
        rows.push_back({QStringLiteral("%1 sequential mock calls (journal on)").arg(Calls),
                        QStringLiteral("%1 calls/s (%2 steps in %3 ms; run %4)")
                            .arg(double(timing.steps) / callSeconds, 0, 'f', 0)
                            .arg(timing.steps)
                            .arg(timing.stepSpanMs)
                            .arg(ms(double(timing.totalNs))),
                        QStringLiteral("first step queued to last step ended; each call validated, journaled "
                                       "(committed) and replied before the next")});
    }

    std::printf("%-52s | %-44s | %s\n", "benchmark", "figure", "method");
    std::printf("%s\n", QByteArray(52 + 3 + 44 + 3 + 40, '-').constData());
    for (const Row &row : rows)
        std::printf("%-52s | %-44s | %s\n", qPrintable(row.name), qPrintable(row.value), qPrintable(row.method));
    return 0;
}
