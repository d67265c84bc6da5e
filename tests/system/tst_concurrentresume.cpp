// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Durability with concurrent calls (issue 17 part 1): a script that keeps many calls in
// flight (asyncio.gather, Promise.all) is SIGKILLed mid-run and resumed; a finished one
// is replayed; a race replays with its recorded winner. Calls are matched by their
// identity (tool, arguments, number of identical calls before), not arrival order
// (docs/steps.md "Call identity").

#include "clirunner.h"
#include "journal/journal.h"
#include "testfiles.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <map>

#include <csignal>

namespace {

constexpr int Jobs = 120; // two calls each: 240 calls in flight together

/// A mock tool answering `result` after a delay drawn from `random` (1–30 ms); every
/// 16th attempt fails retryably first, so some calls are retried. `properties` named:
/// a Node call's one object argument is then its keyword arguments.
nlohmann::json mockTool(const char *name, const char *result, QRandomGenerator &random,
                        const nlohmann::json &properties)
{
    nlohmann::json sequence = nlohmann::json::array();
    for (int i = 0; i < 400; ++i) {
        const double delay = (1 + random.bounded(30)) / 1000.0;
        if (i % 16 == 5)
            sequence.push_back({{"error", "busy"}, {"retryable", true}, {"delay_seconds", delay}});
        else
            sequence.push_back({{"result", result}, {"delay_seconds", delay}});
    }
    return {{"name", name},
            {"input_schema", {{"type", "object"}, {"properties", properties}}},
            {"handler", {{"kind", "mock"}, {"sequence", sequence}}}};
}

/// A project with mock tools `fetch` and `process` and `script` as its script. Each job
/// fetches, then processes what it fetched: the second calls arrive in the order the
/// first ones complete, which differs from run to run.
void writeProject(const QString &dir, const QString &script, const QByteArray &text, quint32 seed = 1)
{
    QRandomGenerator random(seed);
    const nlohmann::json manifest
        = {{"name", "concurrent"},
           {"default_script", "main"},
           {"scripts", {{{"name", "main"}, {"path", script.toStdString()}}}},
           {"limits", {{"max_calls", 5000}, {"run_timeout_seconds", 600}}},
           {"retry", {{"max_attempts", 6}, {"initial_backoff_seconds", 0.005}, {"factor", 1}, {"jitter", 0}}},
           {"tools",
            {mockTool("fetch", "f", random, {{"i", {{"type", "integer"}}}}),
             mockTool("process", "p", random, {{"i", {{"type", "integer"}}}, {"a", {{"type", "string"}}}}),
             {{"name", "slow"},
              {"input_schema", {{"type", "object"}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"result", "slow"}, {"delay_seconds", 2.0}}}}}}},
             {{"name", "fast"},
              {"input_schema", {{"type", "object"}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"result", "fast"}, {"delay_seconds", 0.02}}}}}}},
             {{"name", "note"},
              {"input_schema", {{"type", "object"}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"result", "noted"}}}}}}}}}};
    QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(manifest.dump(1))));
    QVERIFY(writeFile(dir + QLatin1Char('/') + script, text));
}

const QByteArray GatherPy = "import asyncio, sys\n"
                            "from toolstudio import tools\n"
                            "async def job(i):\n"
                            "    a = await tools.fetch(i=i)\n"
                            "    b = await tools.process(i=i, a=a)\n"
                            "    print('job', i, file=sys.stderr, flush=True)\n"
                            "    return f'{i} {a} {b}'\n"
                            "async def main():\n"
                            "    for line in await asyncio.gather(*(job(i) for i in range(JOBS))):\n"
                            "        print(line)\n"
                            "    print('done', flush=True)\n"
                            "asyncio.run(main())\n";

const QByteArray PromiseAllJs = "const { tools } = require('toolstudio');\n"
                                "async function job(i) {\n"
                                "  const a = await tools.fetch({ i });\n"
                                "  const b = await tools.process({ i, a });\n"
                                "  console.error('job', i);\n"
                                "  return `${i} ${a} ${b}`;\n"
                                "}\n"
                                "(async () => {\n"
                                "  const lines = await Promise.all([...Array(JOBS).keys()].map(job));\n"
                                "  console.log(lines.join('\\n'));\n"
                                "  console.log('done');\n"
                                "})();\n";

QByteArray withJobs(QByteArray script, int jobs)
{
    return script.replace("JOBS", QByteArray::number(jobs));
}

int countStatus(const std::vector<nlohmann::json> &steps, const char *status)
{
    return int(std::count_if(steps.cbegin(), steps.cend(),
                             [status](const nlohmann::json &step) { return step.value("status", "") == status; }));
}

QString journalPath(const QString &dir)
{
    return dir + QStringLiteral("/.toolstudio/journal.sqlite");
}

/// "tool args" of a step: what its identity is made of (arguments are unique per job).
QString callOf(const Step &step)
{
    return step.tool + QLatin1Char(' ') + QString::fromStdString(step.args.dump());
}

/// `toolstudio run DIR --json` to its end: the run's id and its stdout as the journal keeps it.
std::pair<QString, QByteArray> runToEnd(const QString &dir)
{
    const CommandResult result = toolstudio({QStringLiteral("run"), dir, QStringLiteral("--json")});
    if (result.exitCode != 0)
        qWarning("%s", result.err.constData());
    const auto runs = jsonEvents(result.out, "run");
    const QString runId = runs.empty() ? QString() : QString::fromStdString(runs.front().value("id", ""));
    Journal journal;
    if (!journal.open(journalPath(dir)))
        return {runId, {}};
    return {runId, journal.output(runId, 1)};
}

} // namespace

class TestConcurrentResume : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedConcurrentRunResumes_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<quint32>("seed");
        for (quint32 seed : {1u, 2u, 3u})
            QTest::newRow(qPrintable(QStringLiteral("asyncio.gather, seed %1").arg(seed)))
                << QStringLiteral("scripts/main.py") << withJobs(GatherPy, Jobs) << seed;
        for (quint32 seed : {4u, 5u})
            QTest::newRow(qPrintable(QStringLiteral("Promise.all, seed %1").arg(seed)))
                << QStringLiteral("scripts/main.js") << withJobs(PromiseAllJs, Jobs) << seed;
    }

    // SIGKILL once a seeded number of jobs finished; resume memoizes every step that
    // was final in the journal at the kill, keeps every key, and prints what an
    // uninterrupted run prints.
    void killedConcurrentRunResumes()
    {
        QFETCH(QString, script);
        QFETCH(QByteArray, text);
        QFETCH(quint32, seed);
        QTemporaryDir dir;
        writeProject(dir.path(), script, text, seed);
        const auto [referenceRun, expected] = runToEnd(dir.path());
        QVERIFY(!referenceRun.isEmpty());
        QVERIFY2(expected.endsWith("done\n"), expected.right(200).constData());
        QVERIFY(expected.contains("0 f p\n") && expected.contains(QByteArray::number(Jobs - 1) + " f p\n"));

        const int killAfter = int(QRandomGenerator(seed).bounded(10, Jobs - 10));
        QProcess studio;
        studio.setProgram(toolstudioBinary());
        studio.setArguments(withTrust({QStringLiteral("run"), dir.path(), QStringLiteral("--json")}));
        studio.setStandardInputFile(QProcess::nullDevice());
        studio.start();
        QVERIFY(studio.waitForStarted());
        // The script's stderr comes as `output` events: "job i" once job i got both replies.
        QByteArray out;
        while (out.count("job ") < killAfter && studio.state() == QProcess::Running) {
            studio.waitForReadyRead(50);
            out += studio.readAllStandardOutput();
        }
        ::kill(pid_t(studio.processId()), SIGKILL);
        QVERIFY(studio.waitForFinished(5000));
        out += studio.readAllStandardOutput();
        QVERIFY2(out.count("job ") >= killAfter, out.right(300).constData());
        const auto runs = jsonEvents(out, "run");
        QVERIFY(!runs.empty());
        const QString runId = QString::fromStdString(runs.front().value("id", ""));

        // What the journal holds at the kill: the acknowledged (final) steps and every key.
        int acknowledged = 0;
        std::map<QString, QString> keyBefore;
        {
            Journal journal;
            QVERIFY(journal.open(journalPath(dir.path())));
            QCOMPARE(journal.run(runId)->status, RunStatus::Suspended);
            for (const Step &step : journal.steps(runId)) {
                acknowledged += isFinal(step.status) ? 1 : 0;
                keyBefore[callOf(step)] = step.idempotencyKey;
            }
        }
        QVERIFY(acknowledged >= killAfter * 2);

        const CommandResult resumed
            = toolstudio({QStringLiteral("resume"), dir.path(), runId, QStringLiteral("--json")});
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        const auto steps = jsonEvents(resumed.out, "step");
        QCOMPARE(countStatus(steps, "memoized"), acknowledged);
        QVERIFY2(!resumed.err.contains("divergence"), resumed.err.constData());

        Journal journal;
        QVERIFY(journal.open(journalPath(dir.path())));
        QCOMPARE(journal.run(runId)->status, RunStatus::Completed);
        QCOMPARE(journal.output(runId, 1), expected);
        const auto recorded = journal.steps(runId);
        QCOMPARE(int(recorded.size()), 2 * Jobs); // each step once, under its own number
        QSet<QString> keys;
        for (const Step &step : recorded) {
            QCOMPARE(step.status, StepStatus::Succeeded);
            keys.insert(step.idempotencyKey);
            const auto before = keyBefore.find(callOf(step));
            if (before != keyBefore.end())
                QCOMPARE(step.idempotencyKey, before->second);
        }
        QCOMPARE(int(keys.size()), 2 * Jobs); // distinct calls never share a key
        QCOMPARE(recorded.back().sequence, 2 * Jobs);
    }

    // A finished concurrent run replays with every call memoized and the same output.
    void replayOfConcurrentRunMemoizesAll()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("scripts/main.py"), withJobs(GatherPy, Jobs));
        const auto [runId, expected] = runToEnd(dir.path());
        QVERIFY(!runId.isEmpty());
        const CommandResult replay
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        const auto steps = jsonEvents(replay.out, "step");
        QCOMPARE(int(steps.size()), 2 * Jobs);
        QCOMPARE(countStatus(steps, "memoized"), 2 * Jobs);
        const auto runs = jsonEvents(replay.out, "run");
        QVERIFY(!runs.empty());
        Journal journal;
        QVERIFY(journal.open(journalPath(dir.path())));
        QCOMPARE(journal.output(QString::fromStdString(runs.front().value("id", "")), 1), expected);
    }

    // Two calls made together race; the replay delivers the memoized replies in the
    // recorded completion order, so the script sees the same winner.
    void raceReplaysWithTheSameWinner()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("scripts/main.py"),
                     "import asyncio\n"
                     "from toolstudio import tools\n"
                     "async def main():\n"
                     "    slow, fast = tools.slow(), tools.fast()\n"
                     "    done, pending = await asyncio.wait({slow, fast}, return_when=asyncio.FIRST_COMPLETED)\n"
                     "    print('winner', 'slow' if slow in done else 'fast', flush=True)\n"
                     "    await asyncio.gather(*pending)\n"
                     "asyncio.run(main())\n");
        const auto [runId, expected] = runToEnd(dir.path());
        QCOMPARE(expected, QByteArray("winner fast\n"));
        const CommandResult replay
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        QCOMPARE(countStatus(jsonEvents(replay.out, "step"), "memoized"), 2);
        const auto runs = jsonEvents(replay.out, "run");
        QVERIFY(!runs.empty());
        Journal journal;
        QVERIFY(journal.open(journalPath(dir.path())));
        QCOMPARE(journal.output(QString::fromStdString(runs.front().value("id", "")), 1), QByteArray("winner fast\n"));
    }

    // The recorded run made `fast` 1.3 s after `slow` and saw it finish first (slow took
    // 2 s). The replay holds slow's memoized reply for a call the script has not made
    // yet for at most 1 s (MemoHoldMs), so here the script sees slow finish first: a
    // script whose arguments depend on completion order diverges, and the message says
    // why.
    void argumentsFromCompletionOrderDiverge()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("scripts/main.py"),
                     "import asyncio\n"
                     "from toolstudio import tools\n"
                     "async def main():\n"
                     "    slow = tools.slow()\n"
                     "    await asyncio.sleep(1.3)\n"
                     "    fast = tools.fast()\n"
                     "    done, pending = await asyncio.wait({slow, fast}, return_when=asyncio.FIRST_COMPLETED)\n"
                     "    winner = 'slow' if slow in done else 'fast'\n"
                     "    await asyncio.gather(*pending)\n"
                     "    print(await tools.note(winner=winner), flush=True)\n"
                     "asyncio.run(main())\n");
        const auto [runId, expected] = runToEnd(dir.path());
        QCOMPARE(expected, QByteArray("noted\n"));
        const CommandResult replay
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        QVERIFY2(replay.err.contains(
                     "divergence at step 3: step 3: expected note({\"winner\":\"fast\"}), got "
                     "note({\"winner\":\"slow\"}); no recorded call has this tool and these arguments. Calls are "
                     "matched by tool, arguments and the number of identical calls before them, not by arrival order, "
                     "so a script whose arguments depend on completion order (or on time, randomness or changed input) "
                     "diverges"),
                 replay.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestConcurrentResume)
#include "tst_concurrentresume.moc"
