// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tool Studio benchmarks: each figure with the method used to get it. Wall-clock
// times on this machine, measured with QElapsedTimer (monotonic clock) around the
// real RunController, sandbox launcher and Python shim.

#include "bulkjournal.h"
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "project/project.h"
#include "project/schemavalidator.h"
#include "run/runcontroller.h"
#include "run/warmlauncher.h"
#include "sandboxprocess.h"
#include "trustedproject.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>

#include <QDirIterator>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <tuple>
#include <unistd.h>
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
  "limits": {"max_calls": )"
        + QByteArray::number(maxCalls) + R"(},
  "tools": [{"name": "echo", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
             "handler": {"kind": "mock", "sequence": [{"result": {"ok": true}}]}}]
})";
    writeFile(dir.path() + QStringLiteral("/toolstudio.json"), manifest);
    ProjectError error;
    auto project = loadTrusted(dir.path(), &error);
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

// --- tools bridge round trips (issue 4) ---------------------------------------------

/// Each script makes N sequential echo calls, timing each one itself, and prints
/// "<median µs> <calls per second>". The same script runs against the studio and
/// against toolstudio-bench-peer (limitOutput()).
const char *const RoundTripPython = "import time\nfrom toolstudio import tools\nN = 2000\nts = []\n"
                                    "for i in range(N):\n    t = time.perf_counter_ns()\n    tools.echo(n=i)\n"
                                    "    ts.append(time.perf_counter_ns() - t)\n"
                                    "ts.sort()\nprint(ts[N // 2] / 1000, N / (sum(ts) / 1e9))\n";
const char *const RoundTripNode
    = "const { tools } = require('toolstudio');\n(async () => {\n  const N = 2000, ts = [];\n"
      "  for (let i = 0; i < N; ++i) {\n    const t = process.hrtime.bigint();\n"
      "    await tools.echo({ n: i });\n    ts.push(Number(process.hrtime.bigint() - t));\n  }\n"
      "  ts.sort((a, b) => a - b);\n  console.log(ts[N >> 1] / 1000, N / (ts.reduce((a, b) => a + b, 0) / 1e9));\n})();\n";
const char *const RoundTripBash
    = "N=300; ts=()\nfor ((i = 0; i < N; ++i)); do\n  t0=${EPOCHREALTIME/./}\n"
      "  tool echo n:=$i >/dev/null\n  t1=${EPOCHREALTIME/./}\n  ts+=($((10#$t1 - 10#$t0)))\ndone\n"
      "sorted=($(printf '%s\\n' \"${ts[@]}\" | sort -n)); total=0\n"
      "for x in \"${ts[@]}\"; do total=$((total + x)); done\n"
      "echo \"${sorted[$((N / 2))]} $((N * 1000000 / total))\"\n";

/// The round-trip script for `suffix` ("py", "js", "sh") with `calls` timed calls. With
/// `warmUp` > 0 the script first makes that many calls of the same tool untimed (the same
/// text runs against the studio and the echo, so both sides get the same warm-up); with 0
/// it is the text above unchanged. Node needs it: V8 optimises the shim and the loop only
/// after ~2000 calls (docs/bridge.md "Speed").
QByteArray roundTripScript(const QString &suffix, int calls, int warmUp)
{
    const QByteArray n = QByteArray::number(calls), w = QByteArray::number(warmUp);
    if (suffix == QLatin1String("js"))
        return QByteArray(RoundTripNode)
            .replace("const N = 2000, ts = [];\n",
                     "const N = " + n + ", ts = [];\n"
                         + (warmUp > 0 ? "  for (let i = 0; i < " + w
                                    + "; ++i)\n"
                                      "    await tools.echo({ n: i });\n"
                                       : QByteArray()));
    if (suffix == QLatin1String("sh"))
        return QByteArray(RoundTripBash)
            .replace("N=300; ts=()\n",
                     "N=" + n + "; ts=()\n"
                         + (warmUp > 0 ? "for ((i = 0; i < " + w
                                    + "; ++i)); do "
                                      "tool echo n:=$i >/dev/null; done\n"
                                       : QByteArray()));
    return QByteArray(RoundTripPython)
        .replace("N = 2000\nts = []\n",
                 "N = " + n + "\nts = []\n"
                     + (warmUp > 0 ? "for i in range(" + w + "):\n    tools.echo(n=i)\n" : QByteArray()));
}

/// The Python round-trip script calling the exchange-rate example's tool with valid
/// arguments (both patterns matched) instead of `echo`.
QByteArray exchangeRateScript(int calls, int warmUp)
{
    return roundTripScript(QStringLiteral("py"), calls, warmUp)
        .replace("tools.echo(n=i)", "tools.get_exchange_rate(base=\"EUR\", quote=\"USD\")");
}

/// A project with the mock `echo` tool and scripts/main.<suffix>.
Project makeLanguageProject(const QTemporaryDir &dir, const QString &suffix, const QByteArray &script, int maxCalls)
{
    makeProject(dir, "", maxCalls);
    const QString path = QStringLiteral("scripts/main.") + suffix;
    writeFile(dir.filePath(path), script);
    QFile manifest(dir.filePath(QStringLiteral("toolstudio.json")));
    manifest.open(QIODevice::ReadOnly);
    QByteArray text = manifest.readAll().replace("scripts/main.py", path.toUtf8());
    manifest.close();
    writeFile(dir.filePath(QStringLiteral("toolstudio.json")), text);
    ProjectError error;
    auto project = loadTrusted(dir.path(), &error);
    if (!project) {
        std::fprintf(stderr, "bench project invalid: %s\n", qPrintable(error.toString()));
        std::exit(1);
    }
    return *project;
}

/// Runs the project's default script through the studio (journal on); its stdout.
/// `busyMs` > 0: the main (GUI) thread is kept busy meanwhile, blocked `busyMs` at a
/// time with a short gap, like a window stuck painting (issue 4 item 8).
QByteArray studioOutput(const Project &project, const QString &journal, int busyMs = 0)
{
    QTimer busy;
    if (busyMs > 0) {
        busy.setInterval(1);
        QObject::connect(&busy, &QTimer::timeout, &busy, [busyMs] {
            QElapsedTimer blocked;
            blocked.start();
            while (blocked.elapsed() < busyMs) {}
        });
        busy.start();
    }
    RunController controller;
    controller.setJournalPath(journal);
    QByteArray out;
    QEventLoop loop;
    QObject::connect(&controller, &RunController::outputReceived, &loop, [&](int stream, const QByteArray &chunk) {
        if (stream == 1)
            out += chunk;
        else
            std::fwrite(chunk.constData(), 1, std::size_t(chunk.size()), stderr);
    });
    QObject::connect(&controller, &RunController::finished, &loop, [&](const RunRecord &run) {
        if (run.status != RunStatus::Completed)
            std::fprintf(stderr, "run failed: %s\n", qPrintable(run.error));
        loop.quit();
    });
    QString error;
    if (!controller.start(project, QString(), &error)) {
        std::fprintf(stderr, "cannot start: %s\n", qPrintable(error));
        std::exit(1);
    }
    loop.exec();
    return out;
}

/// The machine's limit: the same script and shim against toolstudio-bench-peer
/// (limitpeer.cpp: one thread, blocking read/write on the socketpair, no event loop, no
/// Qt), which answers every call with {"type":"result","id":…,"value":`replyValue`}; no
/// sandbox, no engine, no journal. Returns the script's stdout.
QByteArray limitOutput(const QString &runtimeDir, const QString &suffix, const QByteArray &script,
                       const QByteArray &replyValue = R"({"ok":true})")
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("main.") + suffix);
    writeFile(path, script);
    QProcessEnvironment env;
    env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("TOOLSTUDIO_BRIDGE_FD"), QStringLiteral("3"));
    env.insert(QStringLiteral("PYTHONPATH"), runtimeDir + QStringLiteral("/python"));
    env.insert(QStringLiteral("NODE_PATH"), runtimeDir + QStringLiteral("/node"));
    env.insert(QStringLiteral("BASH_ENV"), runtimeDir + QStringLiteral("/bash/toolstudio.sh"));
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(QStringLiteral(TOOLSTUDIO_BENCH_PEER_PATH),
                  {QString::fromUtf8(replyValue),
                   suffix == QLatin1String("py")       ? QStringLiteral("/usr/bin/python3")
                       : suffix == QLatin1String("js") ? QStringLiteral("/usr/bin/node")
                                                       : QStringLiteral("/bin/bash"),
                   path});
    process.waitForFinished(300000);
    return process.readAllStandardOutput();
}

/// The exchange-rate example's tool as shipped (resources/examples/exchange-rate: its
/// input_schema with two `pattern`s and additionalProperties false, its output_schema,
/// its mock handler), with the given Python script as scripts/main.py and max_calls
/// raised to `maxCalls` (the only change to the manifest).
Project makeExchangeRateProject(const QTemporaryDir &dir, const QByteArray &script, int maxCalls)
{
    QFile shipped(QStringLiteral(TOOLSTUDIO_EXAMPLES_DIR "/exchange-rate/toolstudio.json"));
    if (!shipped.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(shipped.fileName()));
        std::exit(1);
    }
    QByteArray manifest = shipped.readAll();
    manifest.replace("\"default_script\": \"main\",",
                     "\"default_script\": \"main\", \"limits\": {\"max_calls\": " + QByteArray::number(maxCalls)
                         + "},");
    QDir().mkpath(dir.filePath(QStringLiteral("scripts")));
    writeFile(dir.filePath(QStringLiteral("scripts/main.py")), script);
    writeFile(dir.filePath(QStringLiteral("toolstudio.json")), manifest);
    ProjectError error;
    auto project = loadTrusted(dir.path(), &error);
    if (!project || project->limits.maxCalls != maxCalls) {
        std::fprintf(stderr, "exchange-rate bench project invalid: %s\n", qPrintable(error.toString()));
        std::exit(1);
    }
    return *project;
}

/// CPU time of this process (user + system, every thread) in µs: the studio's side of
/// a run (the script and the sandbox are other processes).
double processCpuUs()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// "median µs/call, calls/s" from a round-trip script's "<median> <rate>" line.
QString roundTripFigure(const QByteArray &out, double *median)
{
    const QList<QByteArray> parts = out.trimmed().split(' ');
    *median = parts.size() == 2 ? parts[0].toDouble() : 0;
    if (parts.size() != 2)
        return QStringLiteral("failed: ") + QString::fromUtf8(out);
    return QStringLiteral("%1 µs/call, %2 calls/s")
        .arg(parts[0].toDouble(), 0, 'f', 1)
        .arg(parts[1].toDouble(), 0, 'f', 0);
}

long peakRssKiB()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/// The shims (the :/runtime resources, registered by main()) written under `dir`, for
/// limitOutput().
void extractRuntime(const QString &dir)
{
    QDirIterator it(QStringLiteral(":/runtime"), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString resource = it.next();
        const QString target = dir + resource.mid(int(qstrlen(":/runtime")));
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile in(resource);
        in.open(QIODevice::ReadOnly);
        writeFile(target, in.readAll());
    }
}

/// Replay of a `calls`-step run (issue 17): a sequential Python script is recorded once,
/// then replayed (every call memoized from the journal) and timed from
/// RunController::startReplay() to finished(). The limit: the same script and shim
/// against toolstudio-bench-peer, which answers each of the same bridge lines from
/// memory (no sandbox, engine or journal), timed from process start to exit. The script
/// prints the seconds its own call loop took, on both sides. The peer is the floor of
/// the same bridge I/O (one thread, blocking socketpair reads and writes, the same shim);
/// what the studio adds beyond it is the sandbox's start, reading the recorded steps and
/// writing the replay's rows, and its per-call engine work: the ratio shows all of it.
std::vector<Row> replayBenchmark(int calls)
{
    QTemporaryDir dir;
    const QByteArray script = "import time\nfrom toolstudio import tools\nt = time.perf_counter()\nfor i in range("
        + QByteArray::number(calls) + "):\n    tools.echo(n=i)\nprint(f'{time.perf_counter() - t:.3f}')\n";
    const Project project = makeProject(dir, script, calls);
    const QString journal = dir.path() + QStringLiteral("/journal.sqlite");
    QString recordedRun;
    {
        RunController controller;
        controller.setJournalPath(journal);
        QEventLoop loop;
        QObject::connect(&controller, &RunController::finished, &loop, [&](const RunRecord &run) {
            recordedRun = run.id;
            loop.quit();
        });
        controller.start(project, QString());
        loop.exec();
    }
    QTemporaryDir runtime;
    extractRuntime(runtime.path());
    // Studio and peer alternate for three rounds (the machine's load reaches both
    // alike); each side's figure is its middle round by time.
    struct Round
    {
        double seconds = 0;
        QByteArray loop; ///< the script's own figure for its call loop
        int memoized = 0;
    };
    std::vector<Round> studio, peer;
    QStringList ratios;
    for (int round = 0; round < 3; ++round) {
        RunController replay;
        replay.setJournalPath(journal);
        QEventLoop loop;
        Round s;
        // Counted from the batched feed, as the window and `toolstudio replay` see steps
        // (a per-step signal would cost a thread hop per step).
        QObject::connect(&replay, &RunController::stepsUpdated, &loop, [&](const QList<Step> &steps) {
            for (const Step &step : steps)
                s.memoized += step.status == StepStatus::Memoized ? 1 : 0;
        });
        QObject::connect(&replay, &RunController::outputReceived, &loop, [&](int stream, const QByteArray &chunk) {
            if (stream == 1)
                s.loop += chunk;
        });
        QObject::connect(&replay, &RunController::finished, &loop, [&](const RunRecord &) { loop.quit(); });
        QElapsedTimer clock;
        clock.start();
        QString error;
        if (!replay.startReplay(project, recordedRun, &error))
            std::fprintf(stderr, "replay failed: %s\n", qPrintable(error));
        else
            loop.exec();
        s.seconds = double(clock.nsecsElapsed()) / 1e9;
        Round p;
        clock.restart();
        p.loop = limitOutput(runtime.path(), QStringLiteral("py"), script);
        p.seconds = double(clock.nsecsElapsed()) / 1e9;
        ratios << QString::number(p.seconds > 0 ? s.seconds / p.seconds : 0, 'f', 2);
        studio.push_back(s);
        peer.push_back(p);
    }
    const auto middle = [](std::vector<Round> rounds) {
        std::sort(rounds.begin(), rounds.end(), [](const Round &a, const Round &b) { return a.seconds < b.seconds; });
        return rounds[rounds.size() / 2];
    };
    const Round s = middle(studio), p = middle(peer);
    return {{QStringLiteral("replay of a %1-step run").arg(calls),
             QStringLiteral("%1 s to the end (%2 memoized; script's loop %3 s)")
                 .arg(s.seconds, 0, 'f', 2)
                 .arg(s.memoized)
                 .arg(QString::fromUtf8(s.loop.trimmed())),
             QStringLiteral("RunController::startReplay() to finished(): loading the steps, the sandbox, the "
                            "script, every call answered from the journal; middle of 3 rounds")},
            {QStringLiteral("replay of a %1-step run vs limit peer").arg(calls),
             QStringLiteral("studio %1 s / limit peer %2 s = ratio %3 (peer's script loop %4 s; ratio by round: "
                            "%5); goal < 1 s for the studio: %6")
                 .arg(s.seconds, 0, 'f', 2)
                 .arg(p.seconds, 0, 'f', 2)
                 .arg(p.seconds > 0 ? s.seconds / p.seconds : 0, 0, 'f', 2)
                 .arg(QString::fromUtf8(p.loop.trimmed()))
                 .arg(ratios.join(QStringLiteral(", ")))
                 .arg(calls == 10000 ? (s.seconds < 1.0 ? QStringLiteral("met") : QStringLiteral("not met"))
                                     : QStringLiteral("applies to 10 000 steps")),
             QStringLiteral("same script and shim against toolstudio-bench-peer answering from memory, process start "
                            "to exit; ratio = studio / peer, middle rounds; the rounds alternate studio and peer")}};
}

} // namespace

// Sandbox start-up: the bare interpreter vs the same command through the sandbox,
// alternated in one loop so all see the same machine load; medians of each.
//  - bare:   QProcess start → finished() of the interpreter (stdout read from a pipe);
//  - cold:   SandboxProcess::start() → finished() (what a run does today: the run's
//            pids cgroup, policy file, launcher exec, user switch as root, rlimits,
//            Landlock, seccomp, then execve of the interpreter);
//  - warm:   a pre-warmed launcher (policy.waitForGo) that already applied all of
//            that: go() → finished(), i.e. execve of the interpreter under the
//            filters and its run. The launcher's own set-up is not counted here.
// CPU: utime + stime of the waited-for child (getrusage(RUSAGE_CHILDREN) deltas;
// for warm minus the launcher's /proc/<pid>/schedstat run time before go()).
static void startupBenchmark(std::vector<Row> *rows, const std::optional<QString> &only)
{
    {
        QTemporaryDir work(QStringLiteral("/tmp/toolstudio-bench-XXXXXX"));
        QFile::setPermissions(work.path(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                  | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
        const struct
        {
            const char *label;
            QStringList command;
        } interpreters[] = {
            {"python3 print(1)",
             {QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), QStringLiteral("print(1)")}},
            {"bash echo 1", {QStringLiteral("/bin/bash"), QStringLiteral("-c"), QStringLiteral("echo 1")}},
            {"node console.log(1)",
             {QStringLiteral("/usr/bin/node"), QStringLiteral("-e"), QStringLiteral("console.log(1)")}},
        };
        const auto childCpuNs = [] {
            rusage usage = {};
            ::getrusage(RUSAGE_CHILDREN, &usage);
            return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e9
                + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e3;
        };
        struct Sample
        {
            double wallNs = 0;
            double cpuNs = 0;
        };
        // Bare runs the same way as the sandboxed ones: output through a pipe, the end
        // noticed by the event loop (QProcess::finished), not by a blocking wait.
        const auto bareOnce = [&](const QStringList &command) {
            QProcess process;
            QEventLoop loop;
            QObject::connect(&process, &QProcess::readyReadStandardOutput, &loop,
                             [&] { process.readAllStandardOutput(); });
            QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
            const double cpu = childCpuNs();
            QElapsedTimer clock;
            clock.start();
            process.start(command.first(), command.mid(1));
            if (process.state() != QProcess::NotRunning)
                loop.exec();
            return Sample{double(clock.nsecsElapsed()), childCpuNs() - cpu};
        };
        int runNumber = 0;
        const auto sandboxedOnce = [&](const QStringList &command, bool warm) {
            const QString runDir = work.filePath(QStringLiteral("run-%1").arg(++runNumber));
            QDir().mkpath(runDir + QStringLiteral("/work"));
            SandboxPolicy policy;
            policy.workDir = (runDir + QStringLiteral("/work")).toStdString();
            for (const QString &arg : command)
                policy.argv.push_back(arg.toStdString());
            policy.waitForGo = warm;
            SandboxProcess process;
            QEventLoop loop;
            bool finished = false;
            QObject::connect(&process, &SandboxProcess::finished, &loop, [&] {
                finished = true;
                loop.quit();
            });
            QObject::connect(&process, &SandboxProcess::ready, &loop, &QEventLoop::quit);
            const double cpu = childCpuNs();
            QElapsedTimer clock;
            clock.start();
            process.start(policy, 1 << 20);
            double before = 0;
            if (warm) {
                while (!process.isReady() && !finished)
                    loop.exec();
                QFile schedstat(QStringLiteral("/proc/%1/schedstat").arg(process.pid()));
                if (schedstat.open(QIODevice::ReadOnly))
                    before = schedstat.readAll().split(' ').value(0).toDouble();
                clock.restart();
                process.go();
            }
            while (!finished)
                loop.exec();
            const double wall = double(clock.nsecsElapsed());
            process.killGroup();
            QDir(runDir).removeRecursively();
            return Sample{wall, childCpuNs() - cpu - before};
        };
        for (const auto &interpreter : interpreters) {
            if (!QFileInfo(interpreter.command.first()).isExecutable()
                || (only && !interpreter.command.first().endsWith(*only)))
                continue;
            constexpr int Runs = 31;
            std::vector<double> wall[3], cpu[3]; // bare, cold, warm
            for (int i = 0; i < Runs; ++i) {
                const Sample samples[3] = {bareOnce(interpreter.command), sandboxedOnce(interpreter.command, false),
                                           sandboxedOnce(interpreter.command, true)};
                for (int k = 0; k < 3; ++k) {
                    wall[k].push_back(samples[k].wallNs);
                    cpu[k].push_back(samples[k].cpuNs);
                }
            }
            for (int k = 0; k < 3; ++k) {
                std::sort(wall[k].begin(), wall[k].end());
                std::sort(cpu[k].begin(), cpu[k].end());
            }
            const auto figure = [&](int k) {
                return QStringLiteral("CPU %1 (%2 vs %3), wall %4 (%5 vs %6)")
                    .arg(cpu[k][Runs / 2] / cpu[0][Runs / 2], 0, 'f', 2)
                    .arg(ms(cpu[k][Runs / 2]), ms(cpu[0][Runs / 2]))
                    .arg(wall[k][Runs / 2] / wall[0][Runs / 2], 0, 'f', 2)
                    .arg(ms(wall[k][Runs / 2]), ms(wall[0][Runs / 2]));
            };
            rows->push_back(
                {QStringLiteral("start-up %1: cold sandbox / bare (median of %2)")
                     .arg(QLatin1String(interpreter.label))
                     .arg(Runs),
                 figure(1),
                 QStringLiteral(
                     "SandboxProcess::start() to finished(), full launcher set-up; bare = QProcess start to finished()")});
            rows->push_back({QStringLiteral("start-up %1: warm sandbox / bare (median of %2)")
                                 .arg(QLatin1String(interpreter.label))
                                 .arg(Runs),
                             figure(2),
                             QStringLiteral("pre-warmed launcher (policy applied, waiting): go() to finished(); "
                                            "target <= 1.10 for python3 and bash")});
        }
    }
}

// A real run's start-up: RunController::start() to the script's first stdout chunk
// (journal on; the run folder, shims, run thread, bridge, sandbox, and for python3 the
// shim's import by sitecustomize), cold and on a pre-warmed launcher
// (WarmLauncher, prepared after the previous run and ready before the clock starts:
// its set-up happens while the studio is idle and is not counted), against the bare
// interpreter running the same script file (QProcess start to its first stdout chunk), alternated
// in one loop so all three see the same machine load; medians.
static void runStartupBenchmark(std::vector<Row> *rows, const std::optional<QString> &only)
{
    const struct
    {
        const char *label;
        QString interpreter;
        QString suffix;
        QByteArray script;
    } languages[] = {
        {"python3 print(1)", QStringLiteral("/usr/bin/python3"), QStringLiteral("py"), "print(1)\n"},
        {"bash echo 1", QStringLiteral("/bin/bash"), QStringLiteral("sh"), "echo 1\n"},
    };
    for (const auto &language : languages) {
        if (!QFileInfo(language.interpreter).isExecutable() || (only && !language.interpreter.endsWith(*only)))
            continue;
        QTemporaryDir dir;
        const Project project = makeLanguageProject(dir, language.suffix, language.script, 10);
        const QString journal = dir.filePath(QStringLiteral("journal.sqlite"));
        const auto bareOnce = [&] {
            QProcess process;
            QEventLoop loop;
            QElapsedTimer clock;
            double firstOutput = -1;
            QObject::connect(&process, &QProcess::readyReadStandardOutput, &loop, [&] {
                if (firstOutput < 0)
                    firstOutput = double(clock.nsecsElapsed());
                process.readAllStandardOutput();
            });
            QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
            clock.start();
            process.start(language.interpreter, {dir.filePath(QStringLiteral("scripts/main.") + language.suffix)});
            if (process.state() != QProcess::NotRunning)
                loop.exec();
            return firstOutput;
        };
        const auto runOnce = [&](RunController &controller) {
            QEventLoop loop;
            bool done = false;
            QElapsedTimer clock;
            double firstOutput = -1;
            const auto output = QObject::connect(&controller, &RunController::outputReceived, &loop, [&](int stream) {
                if (stream == 1 && firstOutput < 0)
                    firstOutput = double(clock.nsecsElapsed());
            });
            const auto connection = QObject::connect(&controller, &RunController::finished, &loop, [&] {
                done = true;
                loop.quit();
            });
            clock.start();
            QString error;
            if (!controller.start(project, QString(), &error)) {
                std::fprintf(stderr, "cannot start: %s\n", qPrintable(error));
                std::exit(1);
            }
            while (!done)
                loop.exec();
            QObject::disconnect(connection);
            QObject::disconnect(output);
            return firstOutput;
        };
        RunController cold;
        cold.setJournalPath(journal);
        cold.warmLauncher()->setEnabled(false);
        RunController warm;
        warm.setJournalPath(journal);
        warm.warmLauncher()->setEnabled(true);
        runOnce(warm); // the first run is cold; it prepares the next
        constexpr int Runs = 21;
        std::vector<double> wall[3]; // bare, cold, warm
        int warmStarts = 0;
        for (int i = 0; i < Runs; ++i) {
            wall[0].push_back(bareOnce());
            wall[1].push_back(runOnce(cold));
            // Idle time between runs: the launcher for the next run gets ready (not timed).
            QElapsedTimer idle;
            idle.start();
            while (!warm.warmLauncher()->isReady() && idle.elapsed() < 5000)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
            warmStarts += warm.warmLauncher()->isReady() ? 1 : 0;
            wall[2].push_back(runOnce(warm));
        }
        for (auto &samples : wall)
            std::sort(samples.begin(), samples.end());
        const auto figure = [&](int k) {
            return QStringLiteral("%1 (%2 vs %3)")
                .arg(wall[k][Runs / 2] / wall[0][Runs / 2], 0, 'f', 2)
                .arg(ms(wall[k][Runs / 2]), ms(wall[0][Runs / 2]));
        };
        rows->push_back(
            {QStringLiteral("run start-up %1: cold run / bare (median of %2)")
                 .arg(QLatin1String(language.label))
                 .arg(Runs),
             figure(1),
             QStringLiteral("RunController::start() to the first stdout chunk, journal on, TOOLSTUDIO_PREWARM=0; "
                            "bare = interpreter + script file, QProcess start to first stdout")});
        rows->push_back(
            {QStringLiteral("run start-up %1: warm run / bare (median of %2)")
                 .arg(QLatin1String(language.label))
                 .arg(Runs),
             figure(2) + QStringLiteral(", %1/%2 runs on a pre-warmed launcher").arg(warmStarts).arg(Runs),
             QStringLiteral("the same on the launcher prepared after the previous run (its set-up while idle "
                            "is not counted); target <= 1.10 for python3 and bash")});
    }
}

/// toolstudio-bench validate [N]: the per-call cost of checking the exchange-rate
/// example's tool call as the engine does (input_schema compiled once, then validate()
/// of {"base": "USD", "quote": "EUR"}, and output_schema of 0.92); median of 7 batches.
static int validateBenchmark(int calls)
{
    QFile file(QStringLiteral(TOOLSTUDIO_EXAMPLES_DIR "/exchange-rate/toolstudio.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(file.fileName()));
        return 1;
    }
    const nlohmann::json manifest = nlohmann::json::parse(file.readAll().toStdString());
    const nlohmann::json &tool = manifest.at("tools").at(0);
    const auto input = SchemaValidator::compile(tool.at("input_schema"));
    const auto output = SchemaValidator::compile(tool.at("output_schema"));
    if (!input || !output)
        return 1;
    const nlohmann::json args = {{"base", "USD"}, {"quote", "EUR"}};
    const nlohmann::json result = 0.92;
    auto batch = [&](const nlohmann::json &value, const SchemaValidator &validator) {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < calls; ++i)
            if (validator.validate(value))
                std::abort();
        return double(timer.nsecsElapsed()) / 1000.0 / calls;
    };
    for (const auto &[name, value, validator] : {std::tuple{"input_schema, valid args", &args, input.get()},
                                                 std::tuple{"output_schema, valid result", &result, output.get()}}) {
        std::vector<double> samples;
        for (int i = 0; i < 7; ++i)
            samples.push_back(batch(*value, *validator));
        std::sort(samples.begin(), samples.end());
        std::printf("exchange-rate %-28s %.3f µs/call (median of 7 x %d; min %.3f, max %.3f)\n", name, samples[3],
                    calls, samples.front(), samples.back());
    }
    return 0;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Q_INIT_RESOURCE(runtime); // outside any namespace (extractRuntime)
    qputenv("TOOLSTUDIO_SANDBOX", TOOLSTUDIO_SANDBOX_PATH);
    std::vector<Row> rows;
    // toolstudio-bench bridge: only the tools-bridge round trips (sequential, and 10 000
    // in parallel) and the journal's cost.
    const bool bridgeOnly = argc > 1 && qstrcmp(argv[1], "bridge") == 0;
    // --warm-up W (bridge, bridge-loop): every round-trip script first makes W untimed
    // calls, on the studio and the echo side alike (roundTripScript).
    int warmUp = 0;
    QList<QByteArray> positional;
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--warm-up") == 0 && i + 1 < argc)
            warmUp = std::max(0, std::atoi(argv[++i]));
        else
            positional << QByteArray(argv[i]);
    }
    if (!positional.isEmpty() && positional[0] == "validate")
        return validateBenchmark(positional.size() > 1 ? std::max(1, positional[1].toInt()) : 100000);
    if (!positional.isEmpty() && positional[0] == "replay") {
        // toolstudio-bench replay [N]: only the replay rows (N calls, default 10 000).
        const int calls = positional.size() > 1 ? std::max(1, positional[1].toInt()) : 10000;
        for (const Row &row : replayBenchmark(calls))
            std::printf("%-44s | %-60s | %s\n", qPrintable(row.name), qPrintable(row.value), qPrintable(row.method));
        return 0;
    }
    if (!positional.isEmpty() && positional[0] == "bridge-loop") {
        // toolstudio-bench bridge-loop [N] [py|js|xr] [--warm-up W]: only the studio row of
        // Python (the default), Node or Python calling the exchange-rate example's tool
        // (xr) with N timed calls (default 20 000), for `perf
        // record` / `strace -c` of the studio's side; the CPU figure is per call made
        // (N + W).
        const int calls = positional.size() > 1 ? std::max(1, positional[1].toInt()) : 20000;
        const QString suffix
            = positional.size() > 2 && positional[2] == "js" ? QStringLiteral("js") : QStringLiteral("py");
        const bool exchangeRate = positional.size() > 2 && positional[2] == "xr";
        QTemporaryDir dir;
        const Project project = exchangeRate
            ? makeExchangeRateProject(dir, exchangeRateScript(calls, warmUp), calls + warmUp)
            : makeLanguageProject(dir, suffix, roundTripScript(suffix, calls, warmUp), calls + warmUp);
        double median = 0;
        const double cpuBefore = processCpuUs();
        const QByteArray out = studioOutput(project, dir.filePath(QStringLiteral("journal.sqlite")));
        const double cpu = processCpuUs() - cpuBefore;
        std::printf("%s; studio CPU %.1f µs/call (all its threads, run start to end)\n",
                    qPrintable(roundTripFigure(out, &median)), cpu / (calls + warmUp));
        return 0;
    }
    if (argc > 1 && !bridgeOnly) { // toolstudio-bench python3|bash|node: only that interpreter's start-up rows
        startupBenchmark(&rows, QString::fromLocal8Bit(argv[1]));
        runStartupBenchmark(&rows, QString::fromLocal8Bit(argv[1]));
        for (const Row &row : rows)
            std::printf("%-52s | %-62s | %s\n", qPrintable(row.name), qPrintable(row.value), qPrintable(row.method));
        return 0;
    }

    if (!bridgeOnly) {
        QTemporaryDir dir;
        const Project project = makeProject(dir, "print('ready', flush=True)\n", 100);
        constexpr int Runs = 10;
        std::vector<double> samples;
        for (int i = 0; i < Runs; ++i)
            samples.push_back(double(timeRun(project, dir.path() + QStringLiteral("/journal.sqlite")).firstOutputNs));
        std::sort(samples.begin(), samples.end());
        rows.push_back(
            {QStringLiteral("run start → first script output (median of %1)").arg(Runs),
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

    {
        // Shims extracted from the resources once, for the echo side.
        QTemporaryDir runtime;
        extractRuntime(runtime.path());
        // The last row times the exchange-rate example's tool as shipped (two `pattern`s,
        // additionalProperties, an output_schema) instead of the schema-less mock `echo`.
        const struct
        {
            const char *language;
            QString suffix;
            int calls;
            bool exchangeRate;
        } languages[] = {{"Python", QStringLiteral("py"), 2000, false},
                         {"Node", QStringLiteral("js"), 2000, false},
                         {"Bash", QStringLiteral("sh"), 300, false},
                         {"Python exchange-rate", QStringLiteral("py"), 2000, true}};
        const QString warmUpNote
            = warmUp > 0 ? QStringLiteral(", after %1 untimed warm-up calls").arg(warmUp) : QString();
        // Studio and echo alternate for RoundTripRounds rounds, so a change in the
        // machine's load during the benchmark reaches both sides alike; each side's
        // figure is the middle round (by median), the ratio is of those two.
        constexpr int RoundTripRounds = 3;
        for (const auto &language : languages) {
            struct Round
            {
                QString figure;
                double median = 0;
            };
            std::vector<Round> studio, echo;
            QStringList ratios;
            const QByteArray script = language.exchangeRate ? exchangeRateScript(language.calls, warmUp)
                                                            : roundTripScript(language.suffix, language.calls, warmUp);
            for (int round = 0; round < RoundTripRounds; ++round) {
                QTemporaryDir dir;
                const Project project = language.exchangeRate
                    ? makeExchangeRateProject(dir, script, language.calls + warmUp)
                    : makeLanguageProject(dir, language.suffix, script, language.calls + warmUp);
                Round s, e;
                s.figure
                    = roundTripFigure(studioOutput(project, dir.filePath(QStringLiteral("journal.sqlite"))), &s.median);
                e.figure = roundTripFigure(limitOutput(runtime.path(), language.suffix, script,
                                                       language.exchangeRate ? "0.92" : R"({"ok":true})"),
                                           &e.median);
                ratios << QString::number(e.median > 0 ? s.median / e.median : 0, 'f', 2);
                studio.push_back(s);
                echo.push_back(e);
            }
            const auto middle = [](std::vector<Round> rounds) {
                std::sort(rounds.begin(), rounds.end(),
                          [](const Round &a, const Round &b) { return a.median < b.median; });
                return rounds[rounds.size() / 2];
            };
            const Round s = middle(studio), e = middle(echo);
            rows.push_back(
                {(language.exchangeRate ? QStringLiteral("%1 tool as shipped, studio (journal on)")
                                        : QStringLiteral("%1 sequential mock call, studio (journal on)"))
                     .arg(QLatin1String(language.language)),
                 s.figure,
                 QStringLiteral("%1 calls timed by the script itself (median; rate = calls / sum); middle of %2 rounds")
                         .arg(language.calls)
                         .arg(RoundTripRounds)
                     + warmUpNote});
            rows.push_back(
                {QStringLiteral("%1 same client vs limit peer").arg(QLatin1String(language.language)),
                 e.figure
                     + QStringLiteral(" → ratio %1 (rounds: %2)")
                           .arg(e.median > 0 ? s.median / e.median : 0, 0, 'f', 2)
                           .arg(ratios.join(QStringLiteral(", "))),
                 QStringLiteral("same shim and script against toolstudio-bench-peer (one thread, blocking read/write, "
                                "no Qt); ratio = studio / peer, middle rounds; the %1 rounds alternate studio and peer")
                     .arg(RoundTripRounds)});
        }
        {
            // Calls are served off the GUI thread: a main thread blocked 20 ms at a time
            // does not slow the round trip.
            QTemporaryDir dir;
            const Project project = makeLanguageProject(
                dir, QStringLiteral("py"), roundTripScript(QStringLiteral("py"), 2000, warmUp), 2000 + warmUp);
            double busyMedian = 0;
            const QString figure = roundTripFigure(
                studioOutput(project, dir.filePath(QStringLiteral("journal.sqlite")), 20), &busyMedian);
            rows.push_back({QStringLiteral("Python sequential mock call, GUI thread busy"), figure,
                            QStringLiteral("as above while the main thread spins 20 ms per 1 ms timer tick")});
        }
    }

    { // also in `bridge` mode: the bridge's parallel figure (issue 4)
        QTemporaryDir dir;
        constexpr int Calls = 10000;
        const Project project
            = makeLanguageProject(dir, QStringLiteral("py"),
                                  "import asyncio, time\nfrom toolstudio import tools\n"
                                  "async def main():\n"
                                  "    return await asyncio.gather(*(tools.echo(n=i) for i in range(10000)))\n"
                                  "t = time.perf_counter()\nresults = asyncio.run(main())\n"
                                  "print(len(results), f'{(time.perf_counter() - t) * 1000:.0f}')\n",
                                  Calls);
        const long before = peakRssKiB();
        const QList<QByteArray> parts
            = studioOutput(project, dir.filePath(QStringLiteral("journal.sqlite"))).trimmed().split(' ');
        const long after = peakRssKiB();
        rows.push_back(
            {QStringLiteral("%1 parallel calls, asyncio.gather (journal on)").arg(Calls),
             parts.size() == 2 ? QStringLiteral("%1 calls in %2 ms; studio peak RSS %3 MiB (before %4 MiB)")
                                     .arg(QString::fromUtf8(parts[0]), QString::fromUtf8(parts[1]))
                                     .arg(after / 1024.0, 0, 'f', 1)
                                     .arg(before / 1024.0, 0, 'f', 1)
                               : QStringLiteral("failed"),
             QStringLiteral("gather start to all results, timed by the script; getrusage(RUSAGE_SELF).ru_maxrss")});
    }

    if (!bridgeOnly) {
        startupBenchmark(&rows, std::nullopt);
        runStartupBenchmark(&rows, std::nullopt);
    }

    // --- Durable steps (issue 5) ---
    {
        // Journal cost: the same 1000-call script, journal on and off, in one process.
        QTemporaryDir dir;
        constexpr int Calls = 1000;
        const Project project = makeProject(dir,
                                            "from toolstudio import tools\n"
                                            "for i in range(1000):\n"
                                            "    tools.echo(n=i)\n",
                                            Calls);
        const RunTiming on = timeRun(project, dir.path() + QStringLiteral("/journal.sqlite"));
        const RunTiming off = timeRun(project, QString());
        const double onRate = on.steps / (std::max<qint64>(on.stepSpanMs, 1) / 1e3);
        const double offRate = off.steps / (std::max<qint64>(off.stepSpanMs, 1) / 1e3);
        rows.push_back(
            {QStringLiteral("journal on / off, %1 sequential calls").arg(Calls),
             QStringLiteral("%1 (%2 vs %3 calls/s)")
                 .arg(onRate / offRate, 0, 'f', 2)
                 .arg(onRate, 0, 'f', 0)
                 .arg(offRate, 0, 'f', 0),
             QStringLiteral("calls/s with the journal over calls/s without (RunController::setJournalPath(\"\")), "
                            "first step queued to last step ended")});
    }
    if (!bridgeOnly) {
        for (Row &row : replayBenchmark(10000))
            rows.push_back(std::move(row));
    }
    if (!bridgeOnly) {
        // Opening a journal of 1 000 000 steps (1000 runs × 1000 steps) until the runs
        // list is there. Filled with one recursive-CTE insert per table.
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/journal.sqlite");
        fillJournal(
            path,
            {QStringLiteral(
                 "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 1000)"
                 " INSERT INTO runs (id, project_dir, script_path, status, started_at, ended_at, exit_code)"
                 " SELECT printf('run-%04d', x), '/p', '/p/scripts/main.py', 'completed', 1700000000000 + x * 1000,"
                 " 1700000000500 + x * 1000, 0 FROM r"),
             QStringLiteral(
                 "WITH RECURSIVE s(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM s LIMIT 1000000)"
                 " INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
                 " queued_at, started_at, ended_at, args_hash)"
                 " SELECT printf('run-%04d', x / 1000 + 1), x % 1000 + 1, 'c' || (x % 1000 + 1), 'echo', '{\"n\":1}',"
                 " printf('run-%04d:%d', x / 1000 + 1, x % 1000 + 1), 'succeeded', 3, '\"ok\"', 1, 2, 3, 'h' FROM s"),
             QStringLiteral("INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded)"
                            " SELECT run_id, sequence, 1, 2, 3, 1 FROM steps")});
        QElapsedTimer clock;
        clock.start();
        Journal journal;
        journal.open(path);
        const auto runs = journal.runs();
        const qint64 openNs = clock.nsecsElapsed();
        rows.push_back(
            {QStringLiteral("open a journal of 1 000 000 steps → runs list"),
             QStringLiteral("%1 (%2 runs listed, %3 steps in the last)")
                 .arg(ms(double(openNs)))
                 .arg(runs.size())
                 .arg(runs.empty() ? 0 : journal.stepCount(runs.back().id)),
             QStringLiteral("Journal::open() (schema check, migrations, orphaned-run check) + Journal::runs(); "
                            "1000 runs × 1000 steps + attempts, file in a temp dir")});
    }

    std::printf("%-52s | %-44s | %s\n", "benchmark", "figure", "method");
    std::printf("%s\n", QByteArray(52 + 3 + 44 + 3 + 40, '-').constData());
    for (const Row &row : rows)
        std::printf("%-52s | %-44s | %s\n", qPrintable(row.name), qPrintable(row.value), qPrintable(row.method));
    return 0;
}
