// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// JobSlot: work on a worker thread, the result queued back to the context's thread,
// stale results (superseded, cancelled, context gone) dropped.

#include "jobs/jobslot.h"

#include <QElapsedTimer>
#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

class TestJobSlot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resultArrivesOnTheContextsThread();
    void newerJobDropsTheOlderResult();
    void cancelDropsTheResult();
    void destroyedContextIsNeverCalled();
};

void TestJobSlot::resultArrivesOnTheContextsThread()
{
    JobSlot slot;
    QObject context;
    QThread *workThread = nullptr;
    QThread *doneThread = nullptr;
    int result = 0;
    slot.schedule(
        &context,
        [&workThread] {
            workThread = QThread::currentThread();
            return 6 * 7;
        },
        [&](int value) {
            doneThread = QThread::currentThread();
            result = value;
        });
    QVERIFY(slot.busy());
    QCOMPARE(result, 0); // queued: never inside schedule()
    QTRY_COMPARE(result, 42);
    QCOMPARE(doneThread, QThread::currentThread());
    QVERIFY(workThread != nullptr);
    QVERIFY(workThread != QThread::currentThread());
    QVERIFY(!slot.busy());
    QCOMPARE(slot.latestId(), quint64(1));
}

void TestJobSlot::newerJobDropsTheOlderResult()
{
    JobSlot slot;
    QObject context;
    QSemaphore releaseFirst;
    QStringList delivered;
    const quint64 first = slot.schedule(
        &context,
        [&releaseFirst] {
            releaseFirst.acquire(); // finishes after the second job
            return QStringLiteral("first");
        },
        [&delivered](const QString &value) { delivered << value; });
    const quint64 second = slot.schedule(
        &context, [] { return QStringLiteral("second"); }, [&delivered](const QString &value) { delivered << value; });
    QCOMPARE(first, quint64(1));
    QCOMPARE(second, quint64(2));
    QTRY_COMPARE(delivered, QStringList{QStringLiteral("second")});
    releaseFirst.release();
    QVERIFY(JobSlot::pool()->waitForDone(5000));
    QTest::qWait(50); // the first job's hand-back, had it not been dropped
    QCOMPARE(delivered, QStringList{QStringLiteral("second")});
    QVERIFY(!slot.busy());
}

void TestJobSlot::cancelDropsTheResult()
{
    JobSlot slot;
    QObject context;
    QSemaphore release;
    int calls = 0;
    slot.schedule(
        &context,
        [&release] {
            release.acquire();
            return 1;
        },
        [&calls](int) { ++calls; });
    slot.cancel();
    QVERIFY(!slot.busy());
    release.release();
    QVERIFY(JobSlot::pool()->waitForDone(5000));
    QTest::qWait(50);
    QCOMPARE(calls, 0);
}

void TestJobSlot::destroyedContextIsNeverCalled()
{
    JobSlot slot;
    auto context = std::make_unique<QObject>();
    QSemaphore release;
    std::atomic<bool> workRan = false;
    int calls = 0;
    slot.schedule(
        context.get(),
        [&release, &workRan] {
            release.acquire();
            workRan = true;
            return 1;
        },
        [&calls](int) { ++calls; });
    context.reset(); // the window closed while the job runs
    release.release();
    QVERIFY(JobSlot::pool()->waitForDone(5000));
    QVERIFY(workRan);
    QTest::qWait(50);
    QCOMPARE(calls, 0);

    // The slot is still usable with a new context.
    QObject next;
    slot.schedule(
        &next, [] { return 2; }, [&calls](int value) { calls = value; });
    QTRY_COMPARE(calls, 2);
}

QTEST_GUILESS_MAIN(TestJobSlot)
#include "tst_jobslot.moc"
