// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The journal's schema: files of older versions migrated (their rows read back, live
// runs of a dead studio suspended), and the trace's indexes kept with the runs: the
// by-tool rows of runs that are not live (step_tools), the partial status indexes.
#include "journal/journal.h"
#include "journal/journalreader.h"
#include "journaledattempt.h"
#include "journalsamples.h"
#include "rawsqlite.h"

#include <QTemporaryDir>
#include <QTest>

class TestJournalSchema : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void migratesVersion1AndSuspendsOrphans()
    {
        // A journal as version 1 wrote it, with a run that was live when its studio died.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        rawExec(
            path,
            {
                QStringLiteral(
                    "CREATE TABLE runs (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL DEFAULT '', script_path TEXT NOT NULL DEFAULT '',"
                    " status TEXT NOT NULL, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " exit_code INTEGER NOT NULL DEFAULT -1, error TEXT NOT NULL DEFAULT '')"),
                QStringLiteral(
                    "CREATE TABLE steps (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,"
                    " call_id TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL, idempotency_key TEXT NOT NULL,"
                    " status TEXT NOT NULL, max_attempts INTEGER NOT NULL, result TEXT, error TEXT,"
                    " queued_at INTEGER NOT NULL DEFAULT 0, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " next_attempt_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, sequence))"),
                QStringLiteral(
                    "CREATE TABLE attempts (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, number INTEGER NOT NULL,"
                    " started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0, succeeded INTEGER NOT NULL DEFAULT 0,"
                    " error TEXT, output BLOB, PRIMARY KEY (run_id, sequence, number),"
                    " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE)"),
                QStringLiteral(
                    "CREATE TABLE output (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, stream INTEGER NOT NULL,"
                    " seq INTEGER NOT NULL, chunk BLOB NOT NULL, PRIMARY KEY (run_id, stream, seq))"),
                QStringLiteral(
                    "INSERT INTO runs (id, status, started_at) VALUES ('old-live', 'waiting', 1), ('old-done', 'completed', 2)"),
                QStringLiteral(
                    "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts)"
                    " VALUES ('old-live', 1, 'c1', 'ask', '{\"q\":1}', 'old-live:1', 'waiting', 1)"),
                QStringLiteral("INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded, error)"
                               " VALUES ('old-live', 1, 1, 10, 20, 0, '{\"code\":\"timeout\",\"message\":\"late\"}'),"
                               " ('old-live', 1, 2, 30, 0, 0, NULL)"),
                QStringLiteral("PRAGMA application_id = 1414744625"),
                QStringLiteral("PRAGMA user_version = 1"),
            });
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 10);
        // Version 3: the trace's filter indexes (docs/trace.md "Indexes"); version 6 moved
        // steps_by_tool into step_tools, filled for runs that are not live.
        QCOMPARE(rawValue(path,
                          QStringLiteral("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master"
                                         " WHERE type = 'index' AND name IN ('steps_by_tool', 'steps_failed',"
                                         " 'steps_waiting', 'attempts_failed') ORDER BY name)"))
                     .toString(),
                 QStringLiteral("attempts_failed steps_failed steps_waiting"));
        // old-live was live in the file: it has no tool rows (it is suspended now, by the
        // open, not by recordRun), so its tool filter scans.
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM step_tools")).toInt(), 0);
        QCOMPARE(
            rawValue(path, QStringLiteral("SELECT group_concat(id || '=' || tools_indexed, ' ') FROM runs")).toString(),
            QStringLiteral("old-live=0 old-done=1"));
        QCOMPARE(journal.suspendedOnOpen(), QStringList{QStringLiteral("old-live")});
        QCOMPARE(journal.run(QStringLiteral("old-live"))->status, RunStatus::Suspended);
        QCOMPARE(journal.run(QStringLiteral("old-done"))->status, RunStatus::Completed);
        QCOMPARE(runKindName(journal.run(QStringLiteral("old-live"))->kind), QStringLiteral("run"));
        const auto steps = journal.steps(QStringLiteral("old-live"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].status, StepStatus::Waiting); // the open call stays open for Resume
        QVERIFY(steps[0].argsHash.isEmpty());
        // Version 4: steps and attempts WITHOUT ROWID, their rows copied over.
        QCOMPARE(steps[0].args.dump(), std::string("{\"q\":1}"));
        QCOMPARE(steps[0].attempts.size(), std::size_t(2));
        QCOMPARE(steps[0].attempts[0].error->codeName(), QStringLiteral("timeout"));
        QCOMPARE(steps[0].attempts[1].startedAt, qint64(30));
        QCOMPARE(rawValue(path,
                          QStringLiteral("SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                                         " AND name IN ('steps', 'attempts') AND sql LIKE '%WITHOUT ROWID'"))
                     .toInt(),
                 2);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v3'")).toInt(),
                 0);
        const auto events = journal.events(QStringLiteral("old-live"));
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(policyEventKindName(events[0].kind), QStringLiteral("suspended"));
    }

    void migratesVersion4()
    {
        // A journal as version 4 wrote it: its steps keep their attempt rows, new steps fold.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        rawExec(
            path,
            {
                QStringLiteral(
                    "CREATE TABLE runs (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL DEFAULT '', script_path TEXT NOT NULL DEFAULT '',"
                    " status TEXT NOT NULL, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " exit_code INTEGER NOT NULL DEFAULT -1, error TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL DEFAULT 'run',"
                    " source_run TEXT NOT NULL DEFAULT '', owner_pid INTEGER NOT NULL DEFAULT 0, owner_start INTEGER NOT NULL DEFAULT 0)"),
                QStringLiteral(
                    "CREATE TABLE steps (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,"
                    " call_id TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL, idempotency_key TEXT NOT NULL,"
                    " status TEXT NOT NULL, max_attempts INTEGER NOT NULL, result TEXT, error TEXT,"
                    " queued_at INTEGER NOT NULL DEFAULT 0, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " next_attempt_at INTEGER NOT NULL DEFAULT 0, args_hash TEXT NOT NULL DEFAULT '', original_args TEXT,"
                    " divergence TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, sequence)) WITHOUT ROWID"),
                QStringLiteral(
                    "CREATE TABLE attempts (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, number INTEGER NOT NULL,"
                    " started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0, succeeded INTEGER NOT NULL DEFAULT 0,"
                    " error TEXT, output BLOB, PRIMARY KEY (run_id, sequence, number),"
                    " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE) WITHOUT ROWID"),
                QStringLiteral(
                    "CREATE TABLE output (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, stream INTEGER NOT NULL,"
                    " seq INTEGER NOT NULL, chunk BLOB NOT NULL, PRIMARY KEY (run_id, stream, seq))"),
                QStringLiteral(
                    "CREATE TABLE policy_events (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, sequence INTEGER NOT NULL DEFAULT 0,"
                    " at INTEGER NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '{}')"),
                QStringLiteral(
                    "CREATE TABLE pending_answers (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, call_id TEXT NOT NULL,"
                    " attempt INTEGER NOT NULL, answer TEXT NOT NULL, created_at INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'new',"
                    " reason TEXT NOT NULL DEFAULT '', handled_at INTEGER NOT NULL DEFAULT 0)"),
                QStringLiteral("CREATE INDEX steps_by_tool ON steps (run_id, tool, sequence)"),
                QStringLiteral("INSERT INTO runs (id, status, started_at) VALUES ('old', 'completed', 1)"),
                QStringLiteral(
                    "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
                    " started_at, ended_at) VALUES ('old', 1, 'c1', 'echo', '{}', 'old:1', 'succeeded', 3, '1', 10, 20)"),
                QStringLiteral("INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded)"
                               " VALUES ('old', 1, 1, 10, 20, 1)"),
                QStringLiteral("PRAGMA application_id = 1414744625"),
                QStringLiteral("PRAGMA user_version = 4"),
            });
        {
            // The trace's reader never migrates: on the version 4 file it reads the rows.
            JournalReader reader;
            QVERIFY2(reader.open(path), qPrintable(reader.lastError()));
            const auto summaries = reader.summaries(QStringLiteral("old"), 1, 1);
            QCOMPARE(summaries.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts[0].endedAt, qint64(20));
            const auto step = reader.step(QStringLiteral("old"), 1);
            QVERIFY(step);
            QCOMPARE(step->attempts.size(), std::size_t(1));
            // Before schema 10 no time a person took was kept: the bar has no waiting segment.
            QCOMPARE(step->heldAt, qint64(0));
            QVERIFY(step->attempts[0].personWaits.empty());
            std::vector<std::pair<int, StepSpan::Segment>> segments;
            const auto spans = reader.spans(QStringLiteral("old"), &segments);
            QCOMPARE(spans.size(), std::size_t(1));
            QCOMPARE(spans[0].start, qint64(10));
            QCOMPARE(segments.size(), std::size_t(0));
        }
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 10);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT attempt_ended_at FROM steps")).toLongLong(), qint64(0));
        // Version 6: the ended run's by-tool rows, steps_by_tool gone.
        QCOMPARE(
            rawValue(path,
                     QStringLiteral("SELECT group_concat(run_id || ' ' || tool || ' ' || sequence) FROM step_tools"))
                .toString(),
            QStringLiteral("old echo 1"));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT tools_indexed FROM runs")).toInt(), 1);
        QCOMPARE(
            rawValue(path, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'steps_by_tool'")).toInt(),
            0);
        const auto old = journal.steps(QStringLiteral("old"));
        QCOMPARE(old.size(), std::size_t(1));
        QCOMPARE(old[0].attempts.size(), std::size_t(1)); // its row, not a folded copy as well
        QCOMPARE(old[0].attempts[0].endedAt, qint64(20));

        // The old run's step written again (a resume): its row is replaced by the fold.
        Step again = old[0];
        again.runId = QStringLiteral("old");
        again.sequence = 1;
        QVERIFY2(journal.recordStep(again), qPrintable(journal.lastError()));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 0);
        QCOMPARE(journal.steps(QStringLiteral("old"))[0].attempts.size(), std::size_t(1));
        QCOMPARE(journal.steps(QStringLiteral("old"))[0].attempts[0].endedAt, qint64(20));
    }

    void toolIndexFollowsTheRun()
    {
        // Schema 6: a step's commit writes no by-tool row; the run's rows are written when
        // it stops being live and dropped when it goes live again. The trace's filter by
        // tool gives the same answer either way.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        RunRecord run = sampleRun();
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        const auto record = [&](int sequence, const char *tool) {
            Step step = sampleStep();
            step.sequence = sequence;
            step.callId = QStringLiteral("c%1").arg(sequence);
            step.tool = QString::fromLatin1(tool);
            step.attempts.resize(1);
            step.attempts[0] = journaledAttempt(1, step.startedAt, step.endedAt, true);
            return journal.recordStep(step);
        };
        QVERIFY(record(1, "echo"));
        QVERIFY(record(2, "other"));
        QVERIFY(record(3, "echo"));
        const auto toolRows = [&] { return rawValue(path, QStringLiteral("SELECT count(*) FROM step_tools")).toInt(); };
        const auto indexed = [&] { return rawValue(path, QStringLiteral("SELECT tools_indexed FROM runs")).toInt(); };
        JournalReader reader;
        QVERIFY(reader.open(path));
        StepQuery echo;
        echo.tool = QStringLiteral("echo");
        StepQuery late;
        late.tool = QStringLiteral("late");
        const QStringList echoOther{QStringLiteral("echo"), QStringLiteral("other")};
        QCOMPARE(toolRows(), 0); // live: nothing per commit
        QCOMPARE(reader.tools(QStringLiteral("run-1")), echoOther);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), (std::vector<int>{1, 3}));

        run.status = RunStatus::Completed;
        QVERIFY2(journal.recordRun(run), qPrintable(journal.lastError()));
        // Ending the run does not wait for its rows: the next checkpoint() writes them.
        QCOMPARE(toolRows(), 0);
        QCOMPARE(indexed(), 0);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), (std::vector<int>{1, 3}));
        QVERIFY2(journal.checkpoint(), qPrintable(journal.lastError()));
        QCOMPARE(toolRows(), 3);
        QCOMPARE(indexed(), 1);
        QCOMPARE(reader.tools(QStringLiteral("run-1")), echoOther);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), (std::vector<int>{1, 3}));

        // A step written after the run ended (an import, a late write): the rows are
        // incomplete, so they go and the filter scans until the run is indexed again.
        QVERIFY(record(4, "late"));
        QCOMPARE(indexed(), 0);
        QCOMPARE(toolRows(), 0);
        QCOMPARE(reader.tools(QStringLiteral("run-1")),
                 (QStringList{QStringLiteral("echo"), QStringLiteral("late"), QStringLiteral("other")}));
        QCOMPARE(reader.matching(QStringLiteral("run-1"), late), std::vector<int>{4});
        QVERIFY(journal.recordRun(run));
        QVERIFY(journal.checkpoint());
        QCOMPARE(toolRows(), 4);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), late), std::vector<int>{4});

        // Resumed: live again, its rows go (a divergent call may change a step's tool).
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        QCOMPARE(indexed(), 0);
        QCOMPARE(toolRows(), 0);
        QVERIFY(record(3, "other"));
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), std::vector<int>{1});
        run.status = RunStatus::Suspended; // not live either
        QVERIFY(journal.recordRun(run));
        QCOMPARE(toolRows(), 0);
        QVERIFY(journal.open(path)); // closes the file first: the rows are written then
        QCOMPARE(toolRows(), 4);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), std::vector<int>{1});
        QCOMPARE(reader.tools(QStringLiteral("run-1")),
                 (QStringList{QStringLiteral("echo"), QStringLiteral("late"), QStringLiteral("other")}));
    }

    void combinedFiltersWithAndWithoutToolRows()
    {
        // Tool + failed / pending / text: the same rows whether the run has its
        // step_tools rows (ended) or not (live, or a crash left it 'running'); the status
        // lists come from the partial indexes steps_failed, steps_waiting, attempts_failed.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        RunRecord run = sampleRun();
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        const auto record
            = [&](int sequence, const char *tool, StepStatus status, bool failedAttempt, const char *result) {
                  Step step = sampleStep(); // attempt 1 failed, attempt 2 succeeded
                  step.sequence = sequence;
                  step.callId = QStringLiteral("c%1").arg(sequence);
                  step.tool = QString::fromLatin1(tool);
                  step.status = status;
                  step.result = nlohmann::json(result);
                  if (status == StepStatus::Failed) {
                      step.result.reset();
                      step.error = step.attempts[0].error;
                  }
                  if (!failedAttempt)
                      step.attempts = {step.attempts[1]};
                  if (status == StepStatus::Waiting) {
                      step.result.reset();
                      step.endedAt = 0;
                      step.attempts = {journaledAttempt(1, step.startedAt, 0, false)};
                  }
                  return journal.recordStep(step);
              };
        QVERIFY(record(1, "echo", StepStatus::Succeeded, false, "plain"));
        QVERIFY(record(2, "other", StepStatus::Failed, true, ""));
        QVERIFY(record(3, "echo", StepStatus::Failed, true, ""));
        QVERIFY(record(4, "echo", StepStatus::Succeeded, true, "needle after a retry"));
        QVERIFY(record(5, "echo", StepStatus::Waiting, false, ""));
        QVERIFY(record(6, "other", StepStatus::Waiting, false, ""));
        QVERIFY(record(7, "echo", StepStatus::Succeeded, false, "needle"));
        QVERIFY(record(8, "other", StepStatus::Succeeded, false, "needle"));
        JournalReader reader;
        QVERIFY(reader.open(path));
        const auto rows = [&](const char *tool, StepQuery::Status status, const char *text) {
            return reader.matching(QStringLiteral("run-1"),
                                   StepQuery{QString::fromLatin1(tool), status, QString::fromLatin1(text)});
        };
        const auto check = [&] {
            QCOMPARE(rows("echo", StepQuery::Status::FailedOnly, ""), std::vector<int>{3});
            QCOMPARE(rows("echo", StepQuery::Status::HadFailures, ""), (std::vector<int>{3, 4}));
            QCOMPARE(rows("other", StepQuery::Status::FailedOnly, ""), std::vector<int>{2});
            QCOMPARE(rows("", StepQuery::Status::FailedOnly, ""), (std::vector<int>{2, 3}));
            QCOMPARE(rows("", StepQuery::Status::HadFailures, ""), (std::vector<int>{2, 3, 4}));
            QCOMPARE(rows("echo", StepQuery::Status::PendingOnly, ""), std::vector<int>{5});
            QCOMPARE(rows("", StepQuery::Status::PendingOnly, ""), (std::vector<int>{5, 6}));
            QCOMPARE(rows("echo", StepQuery::Status::All, "NEEDLE"), (std::vector<int>{4, 7}));
            QCOMPARE(rows("other", StepQuery::Status::All, "needle"), std::vector<int>{8});
            QCOMPARE(rows("echo", StepQuery::Status::FailedOnly, "needle"), std::vector<int>{});
            QCOMPARE(rows("echo", StepQuery::Status::HadFailures, "needle"), std::vector<int>{4});
            QCOMPARE(rows("echo", StepQuery::Status::PendingOnly, "needle"), std::vector<int>{});
            QCOMPARE(rows("echo", StepQuery::Status::All, ""), (std::vector<int>{1, 3, 4, 5, 7}));
        };
        const auto toolRows = [&] { return rawValue(path, QStringLiteral("SELECT count(*) FROM step_tools")).toInt(); };
        QCOMPARE(toolRows(), 0); // live, as a crashed run left 'running' stays
        check();
        if (QTest::currentTestFailed())
            return;
        run.status = RunStatus::Failed;
        QVERIFY(journal.recordRun(run));
        QVERIFY(journal.checkpoint());
        QCOMPARE(toolRows(), 8);
        check();
    }
};

QTEST_GUILESS_MAIN(TestJournalSchema)
#include "tst_journalschema.moc"
