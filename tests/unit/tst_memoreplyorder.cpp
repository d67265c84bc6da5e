// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memoreplyorder.h"

#include <QtTest>

// The order in which the memoized replies of a replay go out (docs/steps.md
// "Completion order"): the hold rule and the gap rule, on recorded runs written by hand.
class TestMemoReplyOrder : public QObject
{
    Q_OBJECT

private:
    static Step recorded(qint64 queuedAt, qint64 endedAt, StepStatus status = StepStatus::Succeeded)
    {
        Step step;
        step.status = status;
        step.queuedAt = queuedAt;
        step.endedAt = endedAt;
        return step;
    }
    static std::string takeId(MemoReplyOrder &order) { return order.take().id; }

private Q_SLOTS:
    void emptyUntilAReplyIsQueued()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1010)});
        QCOMPARE(order.next(false), MemoReplyOrder::State::Empty);
        QVERIFY(order.empty());
    }

    // Two calls made together; B (index 1) completed first in the recorded run. The
    // reply to A waits until the script has made B, then B's reply goes first.
    void aRaceReplaysWithTheRecordedWinner()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1050), recorded(1001, 1020)});
        order.add(0, "a", "reply-a");
        QCOMPARE(order.next(false), MemoReplyOrder::State::Held);
        order.add(1, "b", "reply-b");
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
        QCOMPARE(takeId(order), std::string("b"));
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
        QCOMPARE(takeId(order), std::string("a"));
        QVERIFY(order.empty());
    }

    // A reply waits only for calls that completed before it in the recorded run: B,
    // made together with A but completed after it, is not waited for.
    void waitsOnlyForCallsThatCompletedEarlier()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1050), recorded(1001, 1060)});
        order.add(0, "a", "reply-a");
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
        QCOMPARE(takeId(order), std::string("a"));
    }

    // A cancelled or unfinished recorded step cannot be memoized, so nothing waits for it.
    void cancelledStepsAreNotWaitedFor()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1050), recorded(1001, 1020, StepStatus::Cancelled)});
        order.add(0, "a", "reply-a");
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
    }

    // A diverged script never makes the awaited call: next(true) lets the held reply go.
    void allReleasesAHeldReply()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1050), recorded(1001, 1020)});
        order.add(0, "a", "reply-a");
        QCOMPARE(order.next(false), MemoReplyOrder::State::Held);
        QCOMPARE(order.next(true), MemoReplyOrder::State::Ready);
        QCOMPARE(takeId(order), std::string("a"));
    }

    // The gap rule: a reply whose call was in flight when the previous one completed,
    // and that completed in a later millisecond, wants a gap; calls made one after
    // another, or completing in the same millisecond, never wait.
    void gapOnlyWhereTheRecordedScriptCouldTellRepliesApart_data()
    {
        QTest::addColumn<qint64>("secondQueuedAt");
        QTest::addColumn<qint64>("secondEndedAt");
        QTest::addColumn<bool>("gap");
        QTest::newRow("in flight, completed later") << qint64(1001) << qint64(1030) << true;
        QTest::newRow("in flight, same millisecond") << qint64(1001) << qint64(1020) << false;
        QTest::newRow("made after the first completed") << qint64(1021) << qint64(1030) << false;
        QTest::newRow("made at the first's completion") << qint64(1020) << qint64(1030) << false;
    }
    void gapOnlyWhereTheRecordedScriptCouldTellRepliesApart()
    {
        QFETCH(qint64, secondQueuedAt);
        QFETCH(qint64, secondEndedAt);
        QFETCH(bool, gap);
        MemoReplyOrder order;
        order.reset({recorded(1000, 1020), recorded(secondQueuedAt, secondEndedAt)});
        order.add(0, "a", "reply-a");
        order.add(1, "b", "reply-b");
        QVERIFY(!order.wantsGap()); // nothing taken yet
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
        QCOMPARE(takeId(order), std::string("a"));
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
        QCOMPARE(order.wantsGap(), gap);
        QCOMPARE(takeId(order), std::string("b"));
    }

    // Equal completion times go in arrival order; the reply keeps its line.
    void equalCompletionTimesKeepArrivalOrder()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1020), recorded(1000, 1020), recorded(1000, 1020)});
        order.add(2, "c", "reply-c");
        order.add(0, "a", "reply-a");
        order.add(1, "b", "reply-b");
        const MemoReplyOrder::Reply first = order.take();
        QCOMPARE(first.id, std::string("c"));
        QCOMPARE(first.line, std::string("reply-c"));
        QCOMPARE(takeId(order), std::string("a"));
        QCOMPARE(takeId(order), std::string("b"));
    }

    // A call outside the plan (a new call in a rerun) goes at once, never held.
    void aCallOutsideThePlanIsNotHeld()
    {
        MemoReplyOrder order;
        order.reset({recorded(1000, 1050), recorded(1001, 1020)});
        order.add(-1, "new", "reply-new");
        QCOMPARE(order.next(false), MemoReplyOrder::State::Ready);
        QCOMPARE(takeId(order), std::string("new"));
    }
};

QTEST_GUILESS_MAIN(TestMemoReplyOrder)
#include "tst_memoreplyorder.moc"
