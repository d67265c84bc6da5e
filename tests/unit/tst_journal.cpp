// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The journal's file: opened, written and read back (runs, steps and their attempts,
// output, pending answers, events), what it refuses to open, and whose live runs an
// open leaves alone. Older files migrated: tst_journalschema; the commit path through
// the durable tail: tst_journaltail; a retried step's attempt rows: tst_journalattempts.
#include "journal/journal.h"
#include "journal/journalreader.h"
#include "journal/journalrows.h"
#include "journaledattempt.h"
#include "journalsamples.h"
#include "rawsqlite.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

#include <memory>

class TestJournal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral(".toolstudio/journal.sqlite")); // parent created on open
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        QVERIFY(journal.isOpen());
        QCOMPARE(journal.path(), path);

        QVERIFY2(journal.recordRun(sampleRun()), qPrintable(journal.lastError()));
        QVERIFY2(journal.recordStep(sampleStep()), qPrintable(journal.lastError()));
        QVERIFY(journal.appendOutput(QStringLiteral("run-1"), 1, "100 USD = "));
        QVERIFY(journal.appendOutput(QStringLiteral("run-1"), 2, "warning\n"));
        QVERIFY(journal.appendOutput(QStringLiteral("run-1"), 1, "92.0 EUR\n"));

        const auto run = journal.run(QStringLiteral("run-1"));
        QVERIFY(run);
        QCOMPARE(run->projectDir, QStringLiteral("/home/ada/exchange-rate"));
        QCOMPARE(run->scriptPath, QStringLiteral("/home/ada/exchange-rate/scripts/main.py"));
        QCOMPARE(run->status, RunStatus::Completed);
        QCOMPARE(run->startedAt, qint64(1700000000000));
        QCOMPARE(run->endedAt, qint64(1700000001500));
        QCOMPARE(run->exitCode, 0);
        QVERIFY(!journal.run(QStringLiteral("run-2")));

        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        const Step &step = steps.front();
        QCOMPARE(step.callId, QStringLiteral("c1"));
        QCOMPARE(step.sequence, 1);
        QCOMPARE(step.tool, QStringLiteral("get_exchange_rate"));
        QCOMPARE(step.args.dump(), std::string("{\"base\":\"USD\",\"quote\":\"EUR\"}"));
        QCOMPARE(step.idempotencyKey, QStringLiteral("run-1:1"));
        QCOMPARE(step.status, StepStatus::Succeeded);
        QCOMPARE(step.maxAttempts, 3);
        QVERIFY(step.result);
        QCOMPARE(step.result->dump(), std::string("0.92"));
        QVERIFY(!step.error);
        QCOMPARE(step.queuedAt, qint64(1700000000100));
        QCOMPARE(step.startedAt, qint64(1700000000101));
        QCOMPARE(step.endedAt, qint64(1700000000900));
        QCOMPARE(step.attemptsText(), QStringLiteral("2/3"));

        QCOMPARE(step.attempts.size(), std::size_t(2));
        QCOMPARE(step.attempts[0].number, 1);
        QVERIFY(!step.attempts[0].succeeded);
        QVERIFY(step.attempts[0].error);
        QCOMPARE(step.attempts[0].error->codeName(), QStringLiteral("tool_failed"));
        QCOMPARE(step.attempts[0].error->message, std::string("rate service down"));
        QVERIFY(step.attempts[0].error->retryable);
        QCOMPARE(step.attempts[0].output, QByteArray("traceback\n\x00\xff binary", 20));
        QCOMPARE(step.attempts[0].endedAt, qint64(1700000000200));
        QCOMPARE(step.attempts[1].number, 2);
        QVERIFY(step.attempts[1].succeeded);
        QVERIFY(!step.attempts[1].error);

        QCOMPARE(journal.output(QStringLiteral("run-1"), 1), QByteArray("100 USD = 92.0 EUR\n"));
        QCOMPARE(journal.output(QStringLiteral("run-1"), 2), QByteArray("warning\n"));
    }

    void recordStepReplaces()
    {
        // A step is recorded many times as it runs; the last write wins, attempts included.
        QTemporaryDir dir;
        Journal journal;
        QVERIFY(journal.open(dir.filePath(QStringLiteral("j.sqlite"))));
        Step step = sampleStep();
        QVERIFY(journal.recordStep(step)); // no recordRun first: a minimal run row is created
        step.status = StepStatus::Failed;
        step.result.reset();
        StepError error;
        error.code = ErrorCode::InvalidArguments;
        error.message = "invalid arguments for 'get_exchange_rate' at /quote: required property is missing";
        error.details = {{"pointer", "/quote"}};
        step.error = error;
        step.attempts.resize(1);
        QVERIFY(journal.recordStep(step));

        const auto steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].status, StepStatus::Failed);
        QVERIFY(!steps[0].result);
        QVERIFY(steps[0].error);
        QCOMPARE(steps[0].error->codeName(), QStringLiteral("invalid_arguments"));
        QCOMPARE(steps[0].error->details.value("pointer", std::string()), std::string("/quote"));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        const auto run = journal.run(QStringLiteral("run-1"));
        QVERIFY(run);
        QCOMPARE(run->status, RunStatus::Running);
        QCOMPARE(journal.runs().size(), std::size_t(1));
    }

    void reopen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            QVERIFY(journal.recordRun(sampleRun()));
            QVERIFY(journal.recordStep(sampleStep()));
            RunRecord second = sampleRun();
            second.id = QStringLiteral("run-2");
            second.startedAt += 5000;
            second.status = RunStatus::Suspended;
            second.error = QStringLiteral("the studio was closed while a call waited");
            QVERIFY(journal.recordRun(second));
        }
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        const auto runs = journal.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].id, QStringLiteral("run-1"));
        QCOMPARE(runs[1].id, QStringLiteral("run-2"));
        QCOMPARE(runs[1].status, RunStatus::Suspended);
        QCOMPARE(runs[1].error, QStringLiteral("the studio was closed while a call waited"));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(1));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).front().attempts.size(), std::size_t(2));

        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 10);
        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
    }

    // A new journal and its WAL are the user's only: they hold every call's arguments
    // and results (attack26 F6).
    void newJournalIsPrivate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        QVERIFY(journal.recordRun(sampleRun()));
        const QFileDevice::Permissions owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
        QCOMPARE(QFile::permissions(path) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser), owner);
        QCOMPARE(QFile::permissions(path + QStringLiteral("-wal")) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 owner);
    }

    void twoJournalsOnOneFile()
    {
        // The write-ahead check in tst_stepengine reads through a second Journal.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal writer;
        Journal reader;
        QVERIFY(writer.open(path));
        QVERIFY(reader.open(path));
        QVERIFY(writer.recordStep(sampleStep()));
        QCOMPARE(reader.steps(QStringLiteral("run-1")).size(), std::size_t(1));
    }

    void refusesOtherFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        QTest::newRow("text file") << QByteArray("this is not a database, just some notes\n").repeated(200)
                                   << QStringLiteral("not a Tool Studio journal (file is not a database)");
        QTest::newRow("a folder") << QByteArray() << QStringLiteral("not a file");
    }

    void refusesOtherFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.sqlite"));
        if (content.isEmpty()) {
            QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("notes.sqlite")));
        } else {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
        }
        Journal journal;
        QString error;
        QVERIFY(!journal.open(path, &error));
        QCOMPARE(error, path + QStringLiteral(": ") + reason);
        QCOMPARE(journal.lastError(), error);
        QVERIFY(!journal.isOpen());
        QVERIFY(!journal.recordRun(sampleRun()));
        if (!content.isEmpty()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), content); // untouched
        }
    }

    void refusesAnotherProgramsDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("other.sqlite"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("CREATE TABLE contacts (name TEXT)")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        Journal journal;
        QString error;
        QVERIFY(!journal.open(path, &error));
        QCOMPARE(error, path + QStringLiteral(": an SQLite database, but not a Tool Studio journal"));
    }

    void refusesNewerVersion()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
        }
        QVERIFY(rawValue(path, QStringLiteral("PRAGMA user_version = 11")).isNull());
        Journal journal;
        QString error;
        QVERIFY(!journal.open(path, &error));
        QCOMPARE(error,
                 path
                     + QStringLiteral(
                         ": journal version 11 is newer than this Tool Studio supports (10); update Tool Studio"));
    }

    void liveRunIsNotSuspended_data()
    {
        QTest::addColumn<bool>("ownerAlive");
        QTest::addColumn<QString>("status");
        QTest::newRow("owner is this process") << true << QStringLiteral("running");
        QTest::newRow("owner is gone") << false << QStringLiteral("suspended");
    }

    void liveRunIsNotSuspended()
    {
        QFETCH(bool, ownerAlive);
        QFETCH(QString, status);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            RunRecord run = sampleRun();
            run.status = RunStatus::Running;
            QVERIFY(journal.recordRun(run));
            QCOMPARE(journal.run(run.id)->ownerPid, Journal::selfPid());
        }
        if (!ownerAlive) // a pid that cannot exist (pid_max is at most 2^22)
            rawExec(path, {QStringLiteral("UPDATE runs SET owner_pid = 99999999")});
        Journal reader; // e.g. `toolstudio answer` in another process, or the window
        QVERIFY(reader.open(path));
        QCOMPARE(runStatusName(reader.run(QStringLiteral("run-1"))->status), status);
    }

    void batchCommitIsAtomic()
    {
        QTemporaryDir dir;
        Journal journal;
        QVERIFY(journal.open(dir.filePath(QStringLiteral("journal.sqlite"))));
        Step a = sampleStep();
        Step b = sampleStep();
        b.sequence = 2;
        b.callId = QStringLiteral("c2");
        PolicyEvent event{
            QStringLiteral("run-1"), 2, 1700000000000, PolicyEventKind::RetryScheduled, {{"delay_ms", 500}}};
        QVERIFY(journal.commit({&a, &b}, {event, event}));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(journal.events(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(journal.events(QStringLiteral("run-1"))[0].detail.dump(), std::string("{\"delay_ms\":500}"));

        // One bad step (two attempts numbered 1) rolls back the whole batch.
        Step c = sampleStep();
        c.sequence = 3;
        c.attempts[1].number = 1;
        Step d = sampleStep();
        d.sequence = 4;
        QVERIFY(!journal.commit({&d, &c}, {event}));
        QVERIFY(journal.lastError().contains(QStringLiteral("recording step 3")));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(journal.events(QStringLiteral("run-1")).size(), std::size_t(2));
    }

    void pendingAnswers()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal writer;
        QVERIFY(writer.open(path));
        PendingAnswer answer;
        answer.runId = QStringLiteral("run-1");
        answer.callId = QStringLiteral("c3");
        answer.attempt = 2;
        answer.answer.isError = true;
        answer.answer.message = QStringLiteral("printer on fire");
        answer.answer.retryable = true;
        answer.createdAt = 1700000000000;
        const qint64 id = writer.addPendingAnswer(answer);
        QVERIFY(id > 0);

        Journal runner;
        QVERIFY(runner.open(path));
        const auto fresh = runner.newPendingAnswers(QStringLiteral("run-1"));
        QCOMPARE(fresh.size(), std::size_t(1));
        QCOMPARE(fresh[0].callId, QStringLiteral("c3"));
        QCOMPARE(fresh[0].attempt, 2);
        QVERIFY(fresh[0].answer.isError);
        QCOMPARE(fresh[0].answer.message, QStringLiteral("printer on fire"));
        QVERIFY(fresh[0].answer.retryable);
        QVERIFY(runner.resolvePendingAnswer(id, false,
                                            QStringLiteral("answer is for attempt 2 but the call is at attempt 3")));
        QVERIFY(!runner.resolvePendingAnswer(id, true, QString())); // resolved once
        QVERIFY(runner.newPendingAnswers(QStringLiteral("run-1")).empty());
        QCOMPARE(writer.pendingAnswer(id)->state, QStringLiteral("refused"));
        QCOMPARE(writer.pendingAnswer(id)->reason,
                 QStringLiteral("answer is for attempt 2 but the call is at attempt 3"));
    }

    void foldsASingleSuccessfulAttempt()
    {
        // Schema 5: a step whose one attempt succeeded at once has no attempts row; it
        // reads back with that attempt, exactly.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        Step step = sampleStep();
        step.attempts.erase(step.attempts.begin());
        step.attempts[0].number = 1;
        step.attempts[0].startedAt = step.startedAt;
        QVERIFY2(journal.recordStep(step), qPrintable(journal.lastError()));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 0);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT attempt_ended_at FROM steps")).toLongLong(),
                 qint64(1700000000900));
        const auto steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        const Attempt &attempt = steps[0].attempts[0];
        QCOMPARE(attempt.number, 1);
        QCOMPARE(attempt.startedAt, qint64(1700000000101));
        QCOMPARE(attempt.endedAt, qint64(1700000000900));
        QVERIFY(attempt.succeeded);
        QVERIFY(!attempt.error);
        QVERIFY(attempt.output.isEmpty());
        QCOMPARE(steps[0].attemptsText(), QStringLiteral("1/3"));
        {
            JournalReader reader;
            QVERIFY(reader.open(path));
            const auto summaries = reader.summaries(QStringLiteral("run-1"), 1, 1);
            QCOMPARE(summaries.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts[0].startedAt, qint64(1700000000101));
            QCOMPARE(summaries[0].attempts[0].endedAt, qint64(1700000000900));
            QVERIFY(summaries[0].attempts[0].succeeded);
            QCOMPARE(reader.step(QStringLiteral("run-1"), 1)->attempts.size(), std::size_t(1));
        }

        // Not folded: output to keep, an attempt that started after the step did, a
        // failed one. Each keeps its row.
        Step withOutput = step;
        withOutput.sequence = 2;
        withOutput.attempts[0].output = "stderr line\n";
        Step later = step;
        later.sequence = 3;
        later.attempts[0].startedAt = step.startedAt + 5;
        Step failed = step;
        failed.sequence = 4;
        failed.status = StepStatus::Failed;
        failed.attempts[0].succeeded = false;
        QVERIFY2(journal.commit({&withOutput, &later, &failed}, {}), qPrintable(journal.lastError()));
        QCOMPARE(
            rawValue(path,
                     QStringLiteral(
                         "SELECT group_concat(sequence, ' ') FROM (SELECT sequence FROM attempts ORDER BY sequence)"))
                .toString(),
            QStringLiteral("2 3 4"));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM steps WHERE attempt_ended_at > 0")).toInt(), 1);
        const auto all = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(all.size(), std::size_t(4));
        QCOMPARE(all[1].attempts.size(), std::size_t(1));
        QCOMPARE(all[1].attempts[0].output, QByteArray("stderr line\n"));
        QCOMPARE(all[2].attempts[0].startedAt, step.startedAt + 5);
        QVERIFY(!all[3].attempts[0].succeeded);
    }

    /// A resumed run keeps its rows: the reopened call keeps its recorded sequence under
    /// the id the resumed script gave it, which an older row of the run may also have.
    /// sequenceOf names the newest row with the id (latest queued), not the highest sequence.
    void protocolExchangeSurvivesReopen()
    {
        // An MCP attempt's JSON-RPC exchange (the Protocol tab): journaled with its
        // attempt, read back the same by the journal and by a reader after a reopen. An
        // attempt that succeeded at once is not folded into its step when it has one.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Step step = sampleStep();
        step.attempts.erase(step.attempts.begin());
        step.attempts.front().number = 1;
        step.attempts.front().startedAt = step.startedAt;
        const nlohmann::json exchange
            = {{"startedAt", 1700000000101},
               {"messages",
                {{{"direction", "sent"},
                  {"offsetMs", 0},
                  {"message", {{"id", 7}, {"jsonrpc", "2.0"}, {"method", "tools/call"}, {"params", {{"name", "x"}}}}}},
                 {{"direction", "received"},
                  {"offsetMs", 12},
                  {"kind", "result"},
                  {"id", 7},
                  {"bytes", 70000},
                  {"head", "[1,2"}}}},
               {"omittedMessages", 3},
               {"omittedBytes", 420}};
        step.attempts.front().protocol = exchange;
        Step plain = step;
        plain.sequence = 2;
        plain.callId = QStringLiteral("c2");
        plain.attempts.front().protocol = nullptr;
        {
            Journal journal;
            QVERIFY(journal.open(path));
            QVERIFY2(journal.commit({&step, &plain}, {}), qPrintable(journal.lastError()));
        }
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 1);
        Journal journal;
        QVERIFY(journal.open(path));
        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(2));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts[0].protocol.dump(), exchange.dump());
        QVERIFY(steps[1].attempts[0].protocol.is_null());
        JournalReader reader;
        QVERIFY(reader.open(path));
        const auto read = reader.step(QStringLiteral("run-1"), 1);
        QVERIFY(read);
        QCOMPARE(read->attempts.size(), std::size_t(1));
        QCOMPARE(read->attempts[0].protocol.dump(), exchange.dump());
    }

    void personWaitsSurviveReopen()
    {
        // The times a person was waited for (the timeline's waiting segments): a manual
        // call answered after 36.2 s (0.4 s ran after the answer), held by step mode
        // for 5 s before; an MCP call that asked two questions in one attempt. Written,
        // read back by the journal and by the trace's reader after a reopen, and given
        // to the timeline as segments. Such an attempt is never folded into its step.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        constexpr qint64 t = 1700000000000;
        Step manual;
        manual.runId = QStringLiteral("run-1");
        manual.callId = QStringLiteral("c1");
        manual.sequence = 1;
        manual.tool = QStringLiteral("approve_refund");
        manual.status = StepStatus::Succeeded;
        manual.heldAt = t;
        manual.queuedAt = manual.startedAt = t + 5000;
        manual.endedAt = t + 41600;
        Attempt answered;
        answered.number = 1;
        answered.startedAt = t + 5000;
        answered.endedAt = t + 41600;
        answered.succeeded = true;
        answered.personWaits = {{t + 5000, t + 41200}};
        manual.attempts = {answered};
        manual.result = true;
        Step mcp = manual;
        mcp.callId = QStringLiteral("c2");
        mcp.sequence = 2;
        mcp.tool = QStringLiteral("everything.trigger-elicitation");
        mcp.heldAt = 0;
        mcp.attempts.front().personWaits = {{t + 5100, t + 6100}, {t + 7000, t + 9500}};
        {
            Journal journal;
            QVERIFY(journal.open(path));
            QVERIFY2(journal.commit({&manual, &mcp}, {}), qPrintable(journal.lastError()));
        }
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 2);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT person_waits FROM attempts WHERE sequence = 2")).toString(),
                 QStringLiteral("[[1700000005100,1700000006100],[1700000007000,1700000009500]]"));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT held_at FROM steps WHERE sequence = 1")).toLongLong(), t);

        Journal journal;
        QVERIFY(journal.open(path));
        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(2));
        QCOMPARE(steps[0].heldAt, t);
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts[0].personWaits, answered.personWaits);
        QCOMPARE(steps[0].waitedMs(), qint64(36200));
        QCOMPARE(steps[1].heldAt, qint64(0));
        QCOMPARE(steps[1].attempts[0].personWaits, mcp.attempts.front().personWaits);

        JournalReader reader;
        QVERIFY(reader.open(path));
        const auto read = reader.step(QStringLiteral("run-1"), 2);
        QVERIFY(read);
        QCOMPARE(read->attempts[0].personWaits, mcp.attempts.front().personWaits);
        const std::vector<StepSummary> rows = reader.summaries(QStringLiteral("run-1"), 1, 2);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].heldAt, t);
        QCOMPARE(rows[0].attempts[0].waitedMs(0), qint64(36200));
        QCOMPARE(rows[0].attempts[0].ranMs(0), qint64(400));
        QCOMPARE(rows[1].attempts[0].waitedMs(0), qint64(3500));
        QCOMPARE(rows[1].attempts[0].ranMs(0), qint64(33100));

        std::vector<std::pair<int, StepSpan::Segment>> segments;
        const std::vector<StepSpan> spans = reader.spans(QStringLiteral("run-1"), &segments);
        QCOMPARE(spans.size(), std::size_t(2));
        QCOMPARE(spans[0].start, t); // the hold starts the bar
        QCOMPARE(spans[1].start, t + 5000);
        const auto segment = [](const std::pair<int, StepSpan::Segment> &s) {
            return std::tuple(s.first, s.second.start, s.second.end, s.second.waiting);
        };
        QCOMPARE(segments.size(), std::size_t(4));
        QCOMPARE(segment(segments[0]), std::tuple(1, t, t + 5000, true));
        QCOMPARE(segment(segments[1]), std::tuple(1, t + 5000, t + 41200, true));
        QCOMPARE(segment(segments[2]), std::tuple(2, t + 5100, t + 6100, true));
        QCOMPARE(segment(segments[3]), std::tuple(2, t + 7000, t + 9500, true));
    }

    void personWaitsOfBrokenText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("waits");
        QTest::newRow("pairs") << QStringLiteral("[[10,20],[30,0]]") << 2;
        QTest::newRow("not JSON") << QStringLiteral("[[10,") << 0;
        QTest::newRow("not pairs") << QStringLiteral("[[10],[10,20,30],{\"a\":1}]") << 0;
        QTest::newRow("answered before asked") << QStringLiteral("[[20,10],[5,6]]") << 1;
        QTest::newRow("not a number") << QStringLiteral("[[\"10\",20]]") << 0;
    }

    void personWaitsOfBrokenText()
    {
        // A file written by a broken or newer studio: fewer waits, never a wrong one.
        QFETCH(QString, text);
        QFETCH(int, waits);
        QCOMPARE(int(JournalRows::readPersonWaits(text).size()), waits);
    }

    void waitedTimeOfAbsurdTimesIsSaturated()
    {
        // Times from an imported run file are the file's to choose: a wait as long as
        // qint64 allows, twice, in two attempts, sums to the largest value, never
        // overflows (UBSan) or turns negative.
        constexpr qint64 most = std::numeric_limits<qint64>::max();
        Step step = sampleStep();
        step.attempts.resize(2);
        for (Attempt &attempt : step.attempts) {
            attempt.startedAt = 1;
            attempt.endedAt = most;
            attempt.personWaits = {{1, most}, {1, most}};
        }
        QCOMPARE(step.waitedMs(), most);
        QCOMPARE(waitedMs(step.attempts[0].personWaits, 1, most), most);
        QCOMPARE(waitedMs({{10, 20}, {30, 0}}, 0, 100), qint64(10 + 70));
    }

    void sequenceOfTheNewestRowWithACallId()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        Step reopened = sampleStep();
        reopened.callId = QStringLiteral("7");
        reopened.queuedAt = 1700000005000; // pending again from the resume
        Step old = sampleStep();
        old.sequence = 2;
        old.callId = QStringLiteral("7"); // memoized on resume: its recorded row, kept as it was
        old.queuedAt = 1700000000300;
        Step other = sampleStep();
        other.sequence = 3;
        other.callId = QStringLiteral("8");
        QVERIFY2(journal.commit({&reopened, &old, &other}, {}), qPrintable(journal.lastError()));
        JournalReader reader;
        QVERIFY(reader.open(path));
        QCOMPARE(reader.sequenceOf(QStringLiteral("run-1"), QStringLiteral("7")), 1);
        QCOMPARE(reader.sequenceOf(QStringLiteral("run-1"), QStringLiteral("8")), 3);
        QCOMPARE(reader.sequenceOf(QStringLiteral("run-1"), QStringLiteral("9")), 0);
    }

    void foldedAttemptReplacesEarlierRows_data()
    {
        QTest::addColumn<bool>("sameJournal");
        QTest::newRow("written by this journal") << true;
        QTest::newRow("written by an earlier process (resume)") << false;
    }

    void foldedAttemptReplacesEarlierRows()
    {
        // A step recorded while its attempt runs (a row in attempts), then final with the
        // attempt folded: the row goes, and the step has exactly one attempt.
        QFETCH(bool, sameJournal);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Step step = sampleStep();
        step.attempts.resize(1);
        step.attempts[0] = journaledAttempt(1, step.startedAt, 0, false);
        step.status = StepStatus::Running;
        step.result.reset();
        auto first = std::make_unique<Journal>();
        QVERIFY(first->open(path));
        QVERIFY(first->recordStep(step));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 1);
        if (!sameJournal) {
            first.reset();
            first = std::make_unique<Journal>();
            QVERIFY(first->open(path));
        }
        step.status = StepStatus::Succeeded;
        step.result = nlohmann::json(1);
        step.attempts[0].endedAt = step.endedAt;
        step.attempts[0].succeeded = true;
        QVERIFY2(first->recordStep(step), qPrintable(first->lastError()));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 0);
        const auto steps = first->steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts[0].endedAt, step.endedAt);
        QVERIFY(steps[0].attempts[0].succeeded);

        // And back: a retry after all (the step written again with two attempts).
        step.attempts.push_back(journaledAttempt(2, step.endedAt + 1, step.endedAt + 2, true));
        step.attempts[0].succeeded = false;
        QVERIFY(first->recordStep(step));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 2);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT attempt_ended_at FROM steps")).toLongLong(), qint64(0));
        QCOMPARE(first->steps(QStringLiteral("run-1"))[0].attempts.size(), std::size_t(2));
    }

    void statusNames()
    {
        QCOMPARE(stepStatusName(StepStatus::Memoized), QStringLiteral("memoized"));
        QCOMPARE(runStatusName(RunStatus::TimedOut), QStringLiteral("timed_out"));
        QCOMPARE(stepStatusFromName(QStringLiteral("retrying")), std::optional<StepStatus>(StepStatus::Retrying));
        QCOMPARE(runStatusFromName(QStringLiteral("suspended")), std::optional<RunStatus>(RunStatus::Suspended));
        QVERIFY(!stepStatusFromName(QStringLiteral("done")));
        QVERIFY(isFinal(StepStatus::Cancelled));
        QVERIFY(!isFinal(StepStatus::Waiting));
        QVERIFY(!isFinal(RunStatus::Suspended));
    }
};

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
