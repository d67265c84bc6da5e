// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// JournalWatch (the Runs dock, a served project in the window): changed() after any
// commit of another connection, runsChanged() only when a run was added, ended or
// deleted — and neither for a quiet journal.
#include "journal/journal.h"
#include "journal/journalwatch.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

RunRecord run(const QString &id)
{
    RunRecord record;
    record.id = id;
    record.scriptPath = QStringLiteral("scripts/main.py");
    record.status = RunStatus::Running;
    record.startedAt = 1700000000000;
    return record;
}

Step step(const QString &runId, int sequence, StepStatus status)
{
    Step s;
    s.runId = runId;
    s.callId = QStringLiteral("c%1").arg(sequence);
    s.sequence = sequence;
    s.tool = QStringLiteral("echo");
    s.idempotencyKey = QStringLiteral("%1:%2").arg(runId).arg(sequence);
    s.status = status;
    s.queuedAt = 1700000000000 + sequence;
    return s;
}

} // namespace

class TstJournalWatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void commitsOfOthersAreSeenRunsApart()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY2(journal.open(path), qPrintable(journal.lastError()));
        QVERIFY(journal.recordRun(run(QStringLiteral("run-1"))));

        JournalWatch watch;
        QSignalSpy changed(&watch, &JournalWatch::changed);
        QSignalSpy runsChanged(&watch, &JournalWatch::runsChanged);
        watch.watch(path, 10); // the first look is the baseline
        QTest::qWait(60);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(runsChanged.count(), 0);

        // A step of a known run: a commit, no run changed.
        QVERIFY(journal.recordStep(step(QStringLiteral("run-1"), 1, StepStatus::Succeeded)));
        QTRY_COMPARE(changed.count(), 1);
        QTest::qWait(60);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(runsChanged.count(), 0);

        // A new run: both.
        QVERIFY(journal.recordRun(run(QStringLiteral("run-2"))));
        QTRY_COMPARE(runsChanged.count(), 1);
        QCOMPARE(changed.count(), 2);

        // Stopped: nothing more.
        watch.watch(QString());
        QVERIFY(journal.recordRun(run(QStringLiteral("run-3"))));
        QTest::qWait(60);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(runsChanged.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TstJournalWatch)
#include "tst_journalwatch.moc"
