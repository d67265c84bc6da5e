// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// LiveStepStore (issue 8): the window keeps only the last steps of a live run whole and
// reads older ones from the run's journal.
#include "journal/journal.h"
#include "ui/livestepstore.h"

#include <QTemporaryDir>
#include <QtTest>

namespace {

Step makeStep(int sequence, const QString &note)
{
    Step step;
    step.runId = QStringLiteral("run-1");
    step.callId = QStringLiteral("c%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QStringLiteral("echo");
    step.args = {{"n", sequence}, {"note", note.toStdString()}};
    step.status = StepStatus::Succeeded;
    step.result = nlohmann::json{{"ok", true}};
    step.queuedAt = step.startedAt = 1700000000000 + sequence;
    step.endedAt = step.queuedAt + 1;
    return step;
}

} // namespace

class TstLiveStepStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keepsTheLastStepsAndReadsOlderOnesFromTheJournal()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/journal.sqlite");
        Journal journal;
        QVERIFY(journal.open(path));
        RunRecord run;
        run.id = QStringLiteral("run-1");
        run.startedAt = 1700000000000;
        QVERIFY(journal.recordRun(run));
        const Step first = makeStep(1, QStringLiteral("as journaled"));
        QVERIFY(journal.commit({&first}, {}));

        LiveStepStore store;
        store.reset(path, QStringLiteral("run-1"));
        const int total = LiveStepStore::Capacity + 10;
        for (int sequence = 1; sequence <= total; ++sequence)
            store.update(makeStep(sequence, QStringLiteral("in memory")));
        QCOMPARE(store.keptCount(), LiveStepStore::Capacity);
        // The first ten fell out; #1 comes back from the journal, whole.
        QVERIFY(!store.contains(QStringLiteral("c1")));
        const std::optional<Step> old = store.step(QStringLiteral("c1"));
        QVERIFY(old);
        QCOMPARE(old->sequence, 1);
        QCOMPARE(old->args.dump(), std::string(R"({"n":1,"note":"as journaled"})"));
        // #2 fell out too but was never journaled: unknown, not made up.
        QVERIFY(!store.step(QStringLiteral("c2")));
        const std::optional<Step> last = store.step(QStringLiteral("c%1").arg(total));
        QVERIFY(last);
        QCOMPARE(last->args.dump(), QStringLiteral(R"({"n":%1,"note":"in memory"})").arg(total).toStdString());
        // A change to a kept step replaces it.
        Step changed = makeStep(total, QStringLiteral("changed"));
        store.update(changed);
        QCOMPARE(store.step(changed.callId)->args.dump(), changed.args.dump());
        QCOMPARE(store.keptCount(), LiveStepStore::Capacity);
    }

    void keepAllKeepsEveryStepAndResetForgetsThem()
    {
        LiveStepStore store;
        store.reset();
        store.setKeepAll(true);
        const int total = LiveStepStore::Capacity + 5;
        for (int sequence = 1; sequence <= total; ++sequence)
            store.update(makeStep(sequence, QStringLiteral("imported")));
        QCOMPARE(store.keptCount(), total);
        QVERIFY(store.step(QStringLiteral("c1")));
        store.reset();
        QCOMPARE(store.keptCount(), 0);
        QVERIFY(!store.step(QStringLiteral("c1"))); // no journal to read it from
    }
};

QTEST_MAIN(TstLiveStepStore)
#include "tst_livestepstore.moc"
