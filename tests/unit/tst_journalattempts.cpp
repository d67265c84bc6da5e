// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A step written again writes only its new and changed attempt rows (docs/steps.md;
// attack40: every write of a retried step rewrote all its attempts, large Protocol
// records each, so journaling grew with attempts²) — and reads back exactly as written.
#include "journal/journal.h"
#include "journaledattempt.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

constexpr qint64 T0 = 1700000000000;

/// A step retried `attempts` times so far, each failed attempt with `outputBytes` of
/// output; the last one still running.
Step retriedStep(int attempts, qsizetype outputBytes)
{
    Step step;
    step.runId = QStringLiteral("run-1");
    step.callId = QStringLiteral("c1");
    step.sequence = 1;
    step.tool = QStringLiteral("flaky");
    step.args = {{"n", 1}};
    step.idempotencyKey = QStringLiteral("run-1:1");
    step.status = StepStatus::Running;
    step.maxAttempts = 100;
    step.queuedAt = T0;
    step.startedAt = T0 + 1;
    for (int number = 1; number <= attempts; ++number) {
        const bool last = number == attempts;
        StepError error;
        error.code = ErrorCode::Timeout;
        error.message = "attempt timed out";
        error.retryable = true;
        error.attempts = number;
        Attempt attempt = journaledAttempt(number, T0 + 10 * number, last ? 0 : T0 + 10 * number + 5, false,
                                           last ? std::nullopt : std::optional(error));
        if (!last)
            attempt.output = QByteArray(outputBytes, char('a' + number % 26));
        step.attempts.push_back(attempt);
    }
    return step;
}

/// The attempts as another connection sees them: "number:output bytes:protocol bytes" each.
QString attemptRows(const QString &path)
{
    QString rows;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery query(db);
            query.exec(QStringLiteral("SELECT number, length(output), length(protocol), ended_at > 0 FROM attempts"
                                      " WHERE run_id = 'run-1' AND sequence = 1 ORDER BY number"));
            while (query.next())
                rows += QStringLiteral("%1:%2:%3:%4 ")
                            .arg(query.value(0).toInt())
                            .arg(query.value(1).toLongLong())
                            .arg(query.value(2).toLongLong())
                            .arg(query.value(3).toInt() ? QStringLiteral("ended") : QStringLiteral("open"));
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return rows.trimmed();
}

qint64 tailBytes(const Journal &journal)
{
    return QFileInfo(journal.tailPath()).size();
}

} // namespace

class TestJournalAttempts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void retriedStepWritesOnlyNewAttempts()
    {
        // The tail holds each commit's record as written: what a write costs. The group
        // commit puts each into the file before the next (as its 10 ms timer does
        // between a retried step's writes).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(600000, 100000);
        constexpr qsizetype Output = 100000;
        Step step = retriedStep(1, Output);
        QVERIFY(journal.commit({&step}, {}));
        QVERIFY(journal.flush());
        for (int attempts = 2; attempts <= 20; ++attempts) {
            step = retriedStep(attempts, Output);
            const qint64 before = tailBytes(journal);
            QVERIFY2(journal.commit({&step}, {}), qPrintable(journal.lastError()));
            // The attempt that ended (its output) and the new one; not the 18 before them.
            const qint64 grew = tailBytes(journal) - before;
            QVERIFY2(grew > Output && grew < Output + 2000, qPrintable(QString::number(grew)));
            QVERIFY(journal.flush());
        }
        // The same step written again unchanged writes its step row only.
        qint64 before = tailBytes(journal);
        QVERIFY(journal.commit({&step}, {}));
        QVERIFY2(tailBytes(journal) - before < 1000, qPrintable(QString::number(tailBytes(journal) - before)));
        QVERIFY(journal.flush());

        // A late Protocol record fills an ended attempt: that row is written again, whole.
        step.attempts[4].protocol = {{"startedAt", T0}, {"messages", {{{"direction", "sent"}, {"offsetMs", 0}}}}};
        before = tailBytes(journal);
        QVERIFY(journal.commit({&step}, {}));
        qint64 grew = tailBytes(journal) - before;
        QVERIFY2(grew > Output && grew < Output + 2000, qPrintable(QString::number(grew)));

        // Written again before that record is in the file: whole (it might yet be
        // dropped, and this one must not build on it).
        step.attempts[19].output = "late";
        before = tailBytes(journal);
        QVERIFY(journal.commit({&step}, {}));
        grew = tailBytes(journal) - before;
        QVERIFY2(grew > 19 * Output && grew < 19 * Output + 4000, qPrintable(QString::number(grew)));

        QVERIFY(journal.flush());
        const qsizetype protocolBytes = qsizetype(step.attempts[4].protocol.dump().size());
        QString expected;
        for (int number = 1; number <= 19; ++number)
            expected += QStringLiteral("%1:%2:%3:ended ").arg(number).arg(Output).arg(number == 5 ? protocolBytes : 0);
        expected += QStringLiteral("20:4:0:open");
        QCOMPARE(attemptRows(path), expected);
        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts.size(), std::size_t(20));
        QCOMPARE(steps[0].attempts[4].protocol.dump(), step.attempts[4].protocol.dump());
        QCOMPARE(steps[0].attempts[19].endedAt, qint64(0));
    }

    void everyChangeOfAnAttemptIsWritten_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("it ends") << QStringLiteral("end");
        QTest::newRow("its output grows") << QStringLiteral("output");
        QTest::newRow("its Protocol record grows") << QStringLiteral("protocol");
        QTest::newRow("it succeeds") << QStringLiteral("succeed");
    }

    void everyChangeOfAnAttemptIsWritten()
    {
        QFETCH(QString, change);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        Step step = retriedStep(2, 10);
        step.attempts[1].protocol = {{"startedAt", T0}, {"messages", nlohmann::json::array()}};
        QVERIFY(journal.recordStep(step));
        Attempt &open = step.attempts[1];
        if (change == QLatin1String("end")) {
            open.endedAt = T0 + 99;
        } else if (change == QLatin1String("output")) {
            open.output = "still going";
        } else if (change == QLatin1String("protocol")) {
            open.protocol["messages"].push_back({{"direction", "received"}, {"offsetMs", 3}});
        } else {
            open.endedAt = T0 + 99;
            open.succeeded = true;
            step.status = StepStatus::Succeeded;
            step.result = nlohmann::json(2);
        }
        QVERIFY2(journal.recordStep(step), qPrintable(journal.lastError()));
        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts.size(), std::size_t(2));
        const Attempt &read = steps[0].attempts[1];
        QCOMPARE(read.endedAt, open.endedAt);
        QCOMPARE(read.succeeded, open.succeeded);
        QCOMPARE(read.output, open.output);
        QCOMPARE(read.protocol.dump(), open.protocol.dump());
        QCOMPARE(steps[0].attempts[0].output, QByteArray(10, 'b'));
    }

    void fewerAttemptsReplaceAll_data()
    {
        QTest::addColumn<bool>("sameJournal");
        QTest::newRow("written by this journal") << true;
        QTest::newRow("written by an earlier process (resume)") << false;
    }

    void fewerAttemptsReplaceAll()
    {
        // A step's attempts written again as fewer (a resumed run's step reopened): the
        // rows beyond them go; the first write of a resumed run's step replaces all.
        QFETCH(bool, sameJournal);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        auto journal = std::make_unique<Journal>();
        QVERIFY(journal->open(path));
        Step step = retriedStep(4, 10);
        QVERIFY(journal->recordStep(step));
        QCOMPARE(attemptRows(path), QStringLiteral("1:10:0:ended 2:10:0:ended 3:10:0:ended 4:0:0:open"));
        if (!sameJournal) {
            journal = std::make_unique<Journal>();
            QVERIFY(journal->open(path));
        }
        step = retriedStep(2, 7);
        QVERIFY2(journal->recordStep(step), qPrintable(journal->lastError()));
        QCOMPARE(attemptRows(path), QStringLiteral("1:7:0:ended 2:0:0:open"));
        step = retriedStep(3, 7);
        QVERIFY2(journal->recordStep(step), qPrintable(journal->lastError()));
        QCOMPARE(attemptRows(path), QStringLiteral("1:7:0:ended 2:7:0:ended 3:0:0:open"));
    }

    void droppedRecordIsWrittenWholeNextTime()
    {
        // A group commit record SQLite refuses is dropped whole — with it the rows the
        // journal believed written: the step's next write puts all its attempts back.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(600000);
        Step step = retriedStep(1, 10);
        QVERIFY(journal.commit({&step}, {}));
        QVERIFY(journal.flush());
        step = retriedStep(2, 10);
        Step bad = retriedStep(2, 10); // two attempts numbered 1: the attempts table refuses it
        bad.sequence = 2;
        bad.attempts[1].number = 1;
        QVERIFY(journal.commit({&step, &bad}, {}));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("a step commit SQLite refused was "
                                                               "dropped: recording step 2")));
        QVERIFY(!journal.flush());
        QCOMPARE(attemptRows(path), QStringLiteral("1:0:0:open"));
        step = retriedStep(3, 10);
        QVERIFY(journal.commit({&step}, {}));
        QVERIFY2(journal.flush(), qPrintable(journal.lastError()));
        QCOMPARE(attemptRows(path), QStringLiteral("1:10:0:ended 2:10:0:ended 3:0:0:open"));
    }

    void droppedRecordDoesNotLeaveStaleRowsBehindLaterRecords()
    {
        // attack41 F1: a record SQLite refuses is dropped whole; a record of the same
        // step planned after it (before the group commit) must not build on its rows.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(600000, 100000);
        Step step = retriedStep(1, 10); // attempt 1 open
        QVERIFY(journal.commit({&step}, {}));
        QVERIFY(journal.flush());
        step = retriedStep(2, 10); // attempt 1 ended, 2 open
        Step bad = retriedStep(2, 10);
        bad.sequence = 2;
        bad.attempts[1].number = 1; // refused by the attempts table: the record is dropped
        QVERIFY(journal.commit({&step, &bad}, {}));
        step = retriedStep(3, 10); // attempt 2 ended, 3 open: planned before the drop
        QVERIFY(journal.commit({&step}, {}));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("SQLite refused was dropped")));
        QVERIFY(!journal.flush());
        QCOMPARE(attemptRows(path), QStringLiteral("1:10:0:ended 2:10:0:ended 3:0:0:open"));
    }

    void busyWriterDoesNotMakeAcknowledgedWritesConflict()
    {
        // attack41 F2: another process holds the write lock past the busy timeout. What
        // the journal wrote stays known (the records wait in the tail), so the writes
        // made meanwhile do not insert rows the pending ones insert too (a UNIQUE
        // conflict dropped an acknowledged step write when the lock went).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(600000, 100000);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery lock(db);
            QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
            Step step = retriedStep(1, 10); // attempt 1 open (the write-ahead)
            QVERIFY(journal.commit({&step}, {}));
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("deferred")));
            QVERIFY(!journal.flush()); // while the lock is held
            step = retriedStep(2, 10); // attempt 1 ended, 2 open
            QVERIFY(journal.commit({&step}, {}));
            step = retriedStep(3, 10); // attempt 2 ended, 3 open
            QVERIFY(journal.commit({&step}, {}));
            QVERIFY(lock.exec(QStringLiteral("COMMIT")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("locker"));
        QVERIFY2(journal.flush(), qPrintable(journal.lastError()));
        QCOMPARE(attemptRows(path), QStringLiteral("1:10:0:ended 2:10:0:ended 3:0:0:open"));
    }
};

QTEST_GUILESS_MAIN(TestJournalAttempts)
#include "tst_journalattempts.moc"
