// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// JobSlot: work on a pool thread, the result handed back queued on the GUI thread,
// stale results (an older job, a deleted receiver, cancel()) dropped.
#include "project/jobslot.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <memory>

class tst_JobSlot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resultArrivesQueuedOnTheGuiThread()
    {
        JobSlot slot;
        QObject receiver;
        QThread *workThread = nullptr;
        QThread *doneThread = nullptr;
        int result = 0;
        const quint64 id = slot.schedule(
            &receiver,
            [&workThread] {
                workThread = QThread::currentThread();
                return 42;
            },
            [&](int value) {
                doneThread = QThread::currentThread();
                result = value;
            });
        QCOMPARE(id, quint64(1));
        QCOMPARE(slot.currentId(), quint64(1));
        QCOMPARE(result, 0); // never from inside schedule()
        QTRY_COMPARE(result, 42);
        QCOMPARE(doneThread, QThread::currentThread());
        QVERIFY(workThread != QThread::currentThread());
    }

    void anOlderJobsResultIsDropped()
    {
        JobSlot slot;
        QObject receiver;
        auto started = std::make_shared<QSemaphore>();
        auto release = std::make_shared<QSemaphore>();
        QStringList delivered;
        slot.schedule(
            &receiver,
            [started, release] {
                started->release();
                release->acquire(); // holds the first job until the second is scheduled
                return QStringLiteral("old");
            },
            [&delivered](const QString &value) { delivered << value; });
        QVERIFY(started->tryAcquire(1, 5000)); // it runs: only its result can be dropped
        const quint64 second = slot.schedule(
            &receiver, [] { return QStringLiteral("new"); },
            [&delivered](const QString &value) { delivered << value; });
        QCOMPARE(second, quint64(2));
        release->release();
        QTRY_COMPARE(delivered, QStringList{QStringLiteral("new")});
        QTest::qWait(100); // the old job's result, had it been handed back, would be here now
        QCOMPARE(delivered, QStringList{QStringLiteral("new")});
    }

    void aDeletedReceiverGetsNothing()
    {
        JobSlot slot;
        auto receiver = std::make_unique<QObject>();
        auto release = std::make_shared<QSemaphore>();
        auto finished = std::make_shared<QSemaphore>();
        bool delivered = false;
        slot.schedule(
            receiver.get(),
            [release, finished] {
                release->acquire();
                finished->release();
                return 1;
            },
            [&delivered](int) { delivered = true; });
        receiver.reset();
        release->release();
        QVERIFY(finished->tryAcquire(1, 5000));
        QTest::qWait(100);
        QVERIFY(!delivered);
    }

    void cancelDropsTheResultAndTheSlotMayDieFirst()
    {
        auto started = std::make_shared<QSemaphore>();
        auto release = std::make_shared<QSemaphore>();
        auto finished = std::make_shared<QSemaphore>();
        bool delivered = false;
        QObject receiver;
        {
            JobSlot slot;
            slot.schedule(
                &receiver,
                [started, release, finished] {
                    started->release();
                    release->acquire();
                    finished->release();
                    return 1;
                },
                [&delivered](int) { delivered = true; });
            QVERIFY(started->tryAcquire(1, 5000));
            slot.cancel();
            QCOMPARE(slot.currentId(), quint64(2));
        } // the slot dies while its job waits: nothing blocks here
        release->release();
        QVERIFY(finished->tryAcquire(1, 5000));
        QTest::qWait(100);
        QVERIFY(!delivered);
    }

    // A slot of its own pool runs its work there, not on the global pool's threads.
    void theWorkRunsOnThePoolGiven()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        JobSlot slot(&pool);
        QObject receiver;
        QThreadPool *ranOn = nullptr;
        int result = 0;
        slot.schedule(
            &receiver,
            [&ranOn, &pool] {
                ranOn = pool.activeThreadCount() == 1 ? &pool : nullptr;
                return 7;
            },
            [&result](int value) { result = value; });
        QTRY_COMPARE(result, 7);
        QCOMPARE(ranOn, &pool);
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_JobSlot)
#include "tst_jobslot.moc"
