// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The two clocks of a run (issue 5 item 6, docs/steps.md): the run clock, counted
// against limits.run_timeout_seconds, stands still while a call waits for a person
// (a pending manual call, a call held in step mode); the wait clock counts that time.

#include "enginefixture.h"
#include "project/project.h"
#include "run/runcontroller.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

class TestRunClocks : public QObject
{
    Q_OBJECT

private:
    /// While a person is awaited, the run clock is frozen and the wait clock runs.
    void checkPausedWhileWaiting(RunController &controller)
    {
        const qint64 run1 = controller.runClockMs();
        const qint64 wait1 = controller.waitClockMs();
        QTest::qWait(600);
        const qint64 run2 = controller.runClockMs();
        const qint64 wait2 = controller.waitClockMs();
        QCOMPARE(run2, run1);
        QVERIFY2(wait2 - wait1 >= 550, qPrintable(QStringLiteral("wait clock %1 → %2 ms").arg(wait1).arg(wait2)));
    }

private Q_SLOTS:
    void personAwaitedPausesTheRunClock_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<bool>("stepMode");
        QTest::newRow("pending manual call") << QStringLiteral("render-report") << false;
        QTest::newRow("call held in step mode") << QStringLiteral("exchange-rate") << true;
    }

    void personAwaitedPausesTheRunClock()
    {
        QFETCH(QString, example);
        QFETCH(bool, stepMode);
        const auto project = loadExample(example);
        QVERIFY(project);
        QTemporaryDir journalDir;
        RunController controller;
        controller.setJournalPath(journalDir.filePath(QStringLiteral("journal.sqlite")));
        controller.setStepMode(stepMode);
        QSignalSpy waiting(&controller, stepMode ? &RunController::stepPaused : &RunController::pendingCallOpened);
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY(controller.start(*project, QString()));
        QCOMPARE(controller.waitClockMs(), 0);
        QVERIFY(waiting.wait(20000));
        QCOMPARE(controller.status(), RunStatus::Waiting);
        checkPausedWhileWaiting(controller);
        const qint64 waited = controller.waitClockMs();

        const Step step = waiting.at(0).at(0).value<Step>();
        QString reason;
        if (stepMode) {
            QVERIFY2(controller.continueStepAndWait(step.callId, &reason), qPrintable(reason));
        } else {
            ManualAnswer answer;
            answer.result = "https://reports.example.com/q3";
            QVERIFY2(controller.answerAndWait(step.callId, 1, answer, &reason), qPrintable(reason));
        }
        QVERIFY(finished.wait(20000));
        QCOMPARE(controller.record().status, RunStatus::Completed);
        // Once nobody is awaited the wait clock stops: it keeps what it counted, and the
        // two clocks together never exceed the run's wall time.
        const qint64 finalWait = controller.waitClockMs();
        QVERIFY2(finalWait >= waited, qPrintable(QStringLiteral("%1 < %2").arg(finalWait).arg(waited)));
        QTest::qWait(200);
        QCOMPARE(controller.waitClockMs(), finalWait);
        const qint64 wall = controller.record().endedAt - controller.record().startedAt;
        QVERIFY2(
            controller.runClockMs() + finalWait <= wall + 5,
            qPrintable(
                QStringLiteral("run %1 + wait %2 > wall %3").arg(controller.runClockMs()).arg(finalWait).arg(wall)));
    }
};

QTEST_GUILESS_MAIN(TestRunClocks)
#include "tst_runclocks.moc"
