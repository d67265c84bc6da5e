// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "clirunner.h"
#include "engine/stepengine.h"
#include "exchange/traceexport.h"
#include "journal/journal.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

RunRecord makeRun()
{
    RunRecord run;
    run.id = QStringLiteral("run-export-1");
    run.scriptPath = QStringLiteral("scripts/main.py");
    run.status = RunStatus::Completed;
    run.startedAt = 1000;
    run.endedAt = 3000;
    run.exitCode = 0;
    return run;
}

// Step 1: two attempts (the first failed, back-off 1200–1400); step 2 overlaps it.
std::vector<Step> makeSteps()
{
    Step s1;
    s1.runId = QStringLiteral("run-export-1");
    s1.callId = QStringLiteral("c1");
    s1.sequence = 1;
    s1.tool = QStringLiteral("get_exchange_rate");
    s1.args = {{"base", "USD"}};
    s1.idempotencyKey = QStringLiteral("run-export-1:1");
    s1.status = StepStatus::Succeeded;
    s1.maxAttempts = 3;
    s1.queuedAt = 1100;
    s1.startedAt = 1100;
    s1.endedAt = 1500;
    s1.result = 0;
    Attempt a1;
    a1.number = 1;
    a1.startedAt = 1100;
    a1.endedAt = 1200;
    StepError busy;
    busy.code = ErrorCode::ToolFailed;
    busy.message = "busy";
    busy.retryable = true;
    a1.error = busy;
    Attempt a2;
    a2.number = 2;
    a2.startedAt = 1400;
    a2.endedAt = 1500;
    a2.succeeded = true;
    s1.attempts = {a1, a2};
    Step s2 = s1;
    s2.callId = QStringLiteral("c2");
    s2.sequence = 2;
    s2.idempotencyKey = QStringLiteral("run-export-1:2");
    s2.queuedAt = s2.startedAt = 1150;
    s2.endedAt = 1250;
    s2.result = false;
    Attempt only;
    only.number = 1;
    only.startedAt = 1150;
    only.endedAt = 1250;
    only.succeeded = true;
    s2.attempts = {only};
    return {s1, s2};
}

} // namespace

class TstTraceExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void runJsonHasTheDocumentedShape()
    {
        const nlohmann::json j = TraceExport::runJson(makeRun(), makeSteps(), {}, "out\n", "");
        QCOMPARE(j["format"].dump(), nlohmann::json("toolstudio-run").dump());
        QCOMPARE(j["version"].dump(), nlohmann::json(1).dump());
        QCOMPARE(j["run"]["status"].dump(), nlohmann::json("completed").dump());
        QCOMPARE(j["steps"].size(), size_t(2));
        QCOMPARE(j["steps"][0]["result"].dump(), nlohmann::json(0).dump());
        QCOMPARE(j["steps"][0]["has_result"].dump(), nlohmann::json(true).dump());
        QCOMPARE(j["steps"][1]["result"].dump(), nlohmann::json(false).dump());
        QCOMPARE(j["steps"][0]["attempts"][0]["error"]["code"].dump(), nlohmann::json("tool_failed").dump());
        QCOMPARE(j["steps"][0]["attempts"][1]["error"].dump(), nlohmann::json(nullptr).dump());
        QCOMPARE(j["steps"][0]["idempotency_key"].dump(), nlohmann::json("run-export-1:1").dump());
        QCOMPARE(j["output"]["stdout"].dump(), nlohmann::json("out\n").dump());
    }

    // Import (File ▸ Import Run…): export then import gives the same run and steps.
    void runJsonRoundTrip()
    {
        std::vector<Step> steps = makeSteps();
        steps[1].result = std::nullopt; // no result: has_result false, not a null result
        StepError declined;
        declined.code = ErrorCode::ToolFailed;
        declined.message = "declined \u00e9";
        declined.details = {{"traceback", "line 3"}};
        steps[1].error = declined;
        steps[1].status = StepStatus::Failed;
        steps[1].originalArgs = nlohmann::json{{"base", "EUR"}};
        steps[1].divergence = QStringLiteral("expected get_exchange_rate");
        steps[1].attempts[0].output = "stderr of the handler\n";
        PolicyEvent event;
        event.runId = QStringLiteral("run-export-1");
        event.sequence = 1;
        event.at = 1200;
        event.kind = PolicyEventKind::RetryScheduled;
        event.detail = {{"delay_ms", 200}};
        const nlohmann::json exported = TraceExport::runJson(makeRun(), steps, {event}, "out\n", "err\n");
        QString error;
        const auto imported = TraceExport::readRunJson(QByteArray::fromStdString(exported.dump(2)), &error);
        QVERIFY2(imported, qPrintable(error));
        QCOMPARE(imported->steps.size(), std::size_t(2));
        QCOMPARE(imported->steps[0].callId, QStringLiteral("c1"));
        QCOMPARE(imported->steps[0].result->dump(), std::string("0"));
        QVERIFY(!imported->steps[1].result.has_value());
        QCOMPARE(imported->steps[1].error->message, std::string("declined \u00e9"));
        QCOMPARE(imported->steps[1].attempts[0].output, QByteArray("stderr of the handler\n"));
        QCOMPARE(imported->stdoutText, QByteArray("out\n"));
        // Everything the export holds comes back: exporting the import gives the same text.
        QCOMPARE(TraceExport::runJson(imported->run, imported->steps, imported->events, imported->stdoutText,
                                      imported->stderrText)
                     .dump(2),
                 exported.dump(2));
    }

    void importRefusesMalformedFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json")
            << QByteArray("{\n  \"format\": tool\n}")
            << QStringLiteral(
                   "line 2, column 14: not valid JSON: syntax error while parsing value - invalid literal; last read: '\"format\": to'");
        QTest::newRow("other format") << QByteArray("{\"traceEvents\": []}") << QStringLiteral("format: missing");
        QTest::newRow("chrome export")
            << QByteArray("{\"format\": \"chrome\", \"version\": 1}")
            << QStringLiteral("format: \"chrome\" is not a Tool Studio run export (expected \"toolstudio-run\")");
        QTest::newRow("newer version") << QByteArray("{\"format\": \"toolstudio-run\", \"version\": 2}")
                                       << QStringLiteral(
                                              "version: version 2 is not supported: this Tool Studio reads version 1 "
                                              "(export the run again with this version)");
        const QByteArray head = "{\"format\": \"toolstudio-run\", \"version\": 1, \"run\": {\"id\": \"r\", "
                                "\"status\": \"completed\", \"started_at\": 5}, \"steps\": ";
        QTest::newRow("bad step status")
            << head + "[{\"call_id\": \"c1\", \"sequence\": 1, \"tool\": \"t\", \"status\": \"done\", \"args\": {}}]}"
            << QStringLiteral(
                   "steps[0].status: unknown step status \"done\" (one of queued, running, retrying, waiting, "
                   "succeeded, failed, memoized, cancelled)");
        QTest::newRow("time as text") << head
                + "[{\"call_id\": \"c1\", \"sequence\": 1, \"tool\": \"t\", \"status\": \"queued\", \"args\": {}, "
                  "\"attempts\": [{\"number\": 1, \"started_at\": \"noon\"}]}]}"
                                      << QStringLiteral(
                                             "steps[0].attempts[0].started_at: expected an integer, found \"noon\"");
        QTest::newRow("missing tool") << head + "[{\"call_id\": \"c1\", \"sequence\": 1}]}"
                                      << QStringLiteral("steps[0].tool: missing");
        QTest::newRow("steps not an array") << head + "{}}" << QStringLiteral("steps: expected an array, found object");
    }

    void importRefusesMalformedFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QString reason;
        QVERIFY(!TraceExport::readRunJson(text, &reason));
        QCOMPARE(reason, error);
    }

    void chromeTraceHasSlotsAttemptsAndMicroseconds()
    {
        const nlohmann::json j = TraceExport::chromeTrace(makeRun(), makeSteps(), {});
        const nlohmann::json &events = j["traceEvents"];
        // process name, 2 slot names, step 1 + 2 attempts, step 2 + 1 attempt
        QCOMPARE(events.size(), size_t(8));
        QCOMPARE(events[1]["args"]["name"].dump(), nlohmann::json("call slot 1").dump());
        QCOMPARE(events[2]["args"]["name"].dump(), nlohmann::json("call slot 2").dump());
        QCOMPARE(events[3]["name"].dump(), nlohmann::json("get_exchange_rate").dump());
        QCOMPARE(events[3]["ph"].dump(), nlohmann::json("X").dump());
        QCOMPARE(events[3]["tid"].dump(), nlohmann::json(1).dump());
        QCOMPARE(events[3]["ts"].dump(), nlohmann::json(100000).dump()); // 100 ms after the run started, in µs
        QCOMPARE(events[3]["dur"].dump(), nlohmann::json(400000).dump());
        QCOMPARE(events[4]["name"].dump(), nlohmann::json("attempt 1").dump());
        QCOMPARE(events[4]["args"]["error"].dump(), nlohmann::json("tool_failed: busy").dump());
        QCOMPARE(events[5]["ts"].dump(), nlohmann::json(400000).dump());
        QCOMPARE(events[6]["tid"].dump(), nlohmann::json(2).dump()); // step 2 overlaps step 1: the second slot
        QCOMPARE(TraceExport::lanes(makeSteps()), (std::vector<int>{0, 1}));
    }

    // Issue 17: a replayed run's steps are instantaneous at the moment they were served,
    // inside that run's own span; the recorded timing stays available (recorded_*).
    // The recorded run here is from 1970 (makeRun: ms 1000–3000): before the fix the
    // memoized steps kept those times, so the Chrome trace of the replay had ts of
    // about −1.7e15 µs and the timeline a 56-year span.
    void replayedRunUsesItsOwnTimes()
    {
        if (qEnvironmentVariable("TOOLSTUDIO_BINARY").isEmpty())
            QSKIP("TOOLSTUDIO_BINARY is not set (run through CTest)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDir().mkpath(dir.filePath(QStringLiteral("scripts")));
        QFile script(dir.filePath(QStringLiteral("scripts/main.py")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("from toolstudio import tools\n"
                     "print(tools.get_exchange_rate(base='USD'), tools.get_exchange_rate(base='USD'))\n");
        script.close();
        QFile manifest(dir.filePath(QStringLiteral("toolstudio.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write(R"({"name": "export", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [{"name": "get_exchange_rate", "input_schema": {"type": "object"},
             "handler": {"kind": "mock", "sequence": [{"result": 7}]}}]})");
        manifest.close();
        {
            Journal journal;
            QVERIFY(journal.open(dir.filePath(QStringLiteral(".toolstudio/journal.sqlite"))));
            RunRecord run = makeRun();
            run.projectDir = dir.path();
            run.scriptPath = script.fileName();
            QVERIFY(journal.recordRun(run));
            for (Step step : makeSteps()) {
                step.argsHash = StepEngine::argsHash(step.args);
                QVERIFY(journal.recordStep(step));
            }
        }
        const CommandResult replay = toolstudio(
            {QStringLiteral("replay"), dir.path(), QStringLiteral("run-export-1"), QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        const QList<QByteArray> lines = replay.out.trimmed().split('\n');
        const QString id = QString::fromStdString(nlohmann::json::parse(lines.first().toStdString())["id"]);
        QVERIFY(!id.isEmpty());

        const CommandResult json = toolstudio({QStringLiteral("trace"), QStringLiteral("export"), dir.path(), id,
                                               QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const nlohmann::json exported = nlohmann::json::parse(json.out.toStdString());
        const qint64 runStart = exported["run"]["started_at"], runEnd = exported["run"]["ended_at"];
        QVERIFY(runStart > 1700000000000); // this run's own clock, not the recorded one
        QVERIFY(runEnd >= runStart);
        QCOMPARE(exported["steps"].size(), size_t(2));
        const qint64 recorded[2][2] = {{1100, 1500}, {1150, 1250}}; // first attempt start, step end
        for (std::size_t i = 0; i < 2; ++i) {
            const nlohmann::json &step = exported["steps"][i];
            QCOMPARE(step["status"].dump(), nlohmann::json("memoized").dump());
            const qint64 served = step["queued_at"];
            QVERIFY(served >= runStart && served <= runEnd);
            QCOMPARE(qint64(step["started_at"]), served);
            QCOMPARE(qint64(step["ended_at"]), served);
            QCOMPARE(step["attempts"].size(), i == 0 ? size_t(2) : size_t(1));
            for (const nlohmann::json &attempt : step["attempts"]) {
                QCOMPARE(qint64(attempt["started_at"]), served);
                QCOMPARE(qint64(attempt["ended_at"]), served);
            }
            QCOMPARE(qint64(step["recorded_started_at"]), recorded[i][0]);
            QCOMPARE(qint64(step["recorded_ended_at"]), recorded[i][1]);
        }

        const CommandResult chrome = toolstudio({QStringLiteral("trace"), QStringLiteral("export"), dir.path(), id,
                                                 QStringLiteral("--format"), QStringLiteral("chrome")});
        QCOMPARE(chrome.exitCode, 0);
        const nlohmann::json trace = nlohmann::json::parse(chrome.out.toStdString());
        int spans = 0;
        for (const nlohmann::json &event : trace["traceEvents"]) {
            if (event["ph"] != "X")
                continue;
            ++spans;
            const qint64 ts = event["ts"], dur = event["dur"];
            QVERIFY2(ts >= 0 && ts + dur <= (runEnd - runStart) * 1000, event.dump().c_str());
            if (event["cat"] == "step")
                QCOMPARE(qint64(event["args"]["recorded_duration_ms"]), event["args"]["sequence"] == 1 ? 400 : 100);
        }
        QCOMPARE(spans, 5); // two steps, three attempts
    }

    void headlessCommandExportsFromTheJournal_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("firstKey");
        QTest::newRow("json") << QStringLiteral("json") << QStringLiteral("format");
        QTest::newRow("chrome") << QStringLiteral("chrome") << QStringLiteral("traceEvents");
    }

    void headlessCommandExportsFromTheJournal()
    {
        QFETCH(QString, format);
        QFETCH(QString, firstKey);
        const QString binary = qEnvironmentVariable("TOOLSTUDIO_BINARY");
        if (binary.isEmpty())
            QSKIP("TOOLSTUDIO_BINARY is not set (run through CTest)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile manifest(dir.filePath(QStringLiteral("toolstudio.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\"name\": \"export\", \"tools\": [], \"scripts\": []}\n");
        manifest.close();
        {
            Journal journal;
            QVERIFY(journal.open(dir.filePath(QStringLiteral(".toolstudio/journal.sqlite"))));
            QVERIFY(journal.recordRun(makeRun()));
            for (const Step &step : makeSteps())
                QVERIFY(journal.recordStep(step));
        }
        QProcess process;
        process.start(binary,
                      {QStringLiteral("trace"), QStringLiteral("export"), dir.path(), QStringLiteral("run-export-1"),
                       QStringLiteral("--format"), format});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        const nlohmann::json out = nlohmann::json::parse(process.readAllStandardOutput().toStdString());
        QVERIFY(out.contains(firstKey.toStdString()));
        if (format == QLatin1String("json")) {
            QCOMPARE(out["steps"].size(), size_t(2));
            QCOMPARE(out["steps"][1]["result"].dump(), nlohmann::json(false).dump());
        }

        process.start(binary,
                      {QStringLiteral("trace"), QStringLiteral("export"), dir.path(), QStringLiteral("no-such-run"),
                       QStringLiteral("--format"), format});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 2);
        QCOMPARE(QString::fromUtf8(process.readAllStandardError()).trimmed(),
                 QStringLiteral("toolstudio trace: no run no-such-run in the journal"));
    }
};

QTEST_GUILESS_MAIN(TstTraceExport)
#include "tst_traceexport.moc"
