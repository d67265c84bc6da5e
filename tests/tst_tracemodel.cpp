// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracefiltermodel.h"
#include "tracemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace {

Step makeStep(int sequence, const QString &tool, StepStatus status = StepStatus::Running)
{
    Step step;
    step.runId = QStringLiteral("run1");
    step.callId = QStringLiteral("call-%1").arg(sequence);
    step.sequence = sequence;
    step.tool = tool;
    step.args = {{"base", "USD"}, {"quote", "EUR"}};
    step.idempotencyKey = QStringLiteral("run1:%1").arg(sequence);
    step.status = status;
    step.maxAttempts = 3;
    step.queuedAt = 1000;
    step.startedAt = 1000;
    return step;
}

Attempt makeAttempt(int number, qint64 start, qint64 end, bool succeeded)
{
    Attempt attempt;
    attempt.number = number;
    attempt.startedAt = start;
    attempt.endedAt = end;
    attempt.succeeded = succeeded;
    if (end > 0 && !succeeded) {
        BridgeError error;
        error.code = "tool_failed";
        error.message = "upstream busy";
        error.retryable = true;
        attempt.error = error;
    }
    return attempt;
}

QString text(const QAbstractItemModel &model, int row, int column, const QModelIndex &parent = {})
{
    return model.index(row, column, parent).data(Qt::DisplayRole).toString();
}

} // namespace

class TstTraceModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_model = std::make_unique<TraceModel>();
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
    }

    void headers()
    {
        QCOMPARE(m_model->columnCount(), int(TraceModel::NUM_COLUMNS));
        QCOMPARE(m_model->headerData(TraceModel::Tool, Qt::Horizontal).toString(), QStringLiteral("Tool"));
        QCOMPARE(m_model->headerData(TraceModel::Attempts, Qt::Horizontal).toString(), QStringLiteral("Attempts"));
        QCOMPARE(m_model->headerData(TraceModel::Summary, Qt::Horizontal).toString(), QStringLiteral("Result"));
    }

    void addedStepsAppearAfterTheBatch()
    {
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        m_model->addStep(makeStep(1, QStringLiteral("get_exchange_rate")));
        QCOMPARE(m_model->rowCount(), 0); // queued, not shown yet
        QCOMPARE(m_model->queuedCount(), 1);
        QTRY_COMPARE(m_model->rowCount(), 1);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(text(*m_model, 0, TraceModel::Sequence), QStringLiteral("1"));
        QCOMPARE(text(*m_model, 0, TraceModel::Tool), QStringLiteral("get_exchange_rate"));
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("running"));
        QCOMPARE(text(*m_model, 0, TraceModel::Attempts), QStringLiteral("0/3"));
        QCOMPARE(m_model->index(0, 0).data(TraceModel::CallIdRole).toString(), QStringLiteral("call-1"));
        QCOMPARE(m_model->index(0, 0).data(TraceModel::StatusRole).toInt(), int(StepStatus::Running));
    }

    void burstIsInsertedInOneBatch()
    {
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        for (int i = 1; i <= 500; ++i)
            m_model->addStep(makeStep(i, QStringLiteral("tool_%1").arg(i)));
        QTRY_COMPARE(m_model->rowCount(), 500);
        QCOMPARE(inserted.count(), 1);
        const QList<QVariant> args = inserted.first();
        QCOMPARE(args.at(1).toInt(), 0);
        QCOMPARE(args.at(2).toInt(), 499);
        QCOMPARE(text(*m_model, 499, TraceModel::Tool), QStringLiteral("tool_500"));
        QCOMPARE(text(*m_model, 499, TraceModel::Sequence), QStringLiteral("500"));

        // A second burst is a second batch appended after the first.
        for (int i = 501; i <= 510; ++i)
            m_model->addStep(makeStep(i, QStringLiteral("tool_%1").arg(i)));
        m_model->flush();
        QCOMPARE(m_model->rowCount(), 510);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.last().at(1).toInt(), 500);
        QCOMPARE(inserted.last().at(2).toInt(), 509);
    }

    void updateOfAQueuedStepIsNotLost()
    {
        Step step = makeStep(1, QStringLiteral("get_exchange_rate"));
        m_model->addStep(step);
        step.status = StepStatus::Succeeded;
        step.attempts.push_back(makeAttempt(1, 1000, 1400, true));
        step.result = 0.92;
        step.endedAt = 1400;
        m_model->updateStep(step);
        m_model->flush();
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), QStringLiteral("0.92"));
        QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 1);
    }

    void updateChangesTheRowAndAddsAttempts()
    {
        Step step = makeStep(1, QStringLiteral("flaky"));
        step.attempts.push_back(makeAttempt(1, 1000, 0, false));
        m_model->addStep(step);
        m_model->flush();
        const QModelIndex parent = m_model->index(0, 0);
        QCOMPARE(m_model->rowCount(parent), 1);
        QCOMPARE(text(*m_model, 0, TraceModel::Status, parent), QStringLiteral("running"));

        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);

        // Attempt 1 fails, attempt 2 is under way: retrying.
        step.attempts[0] = makeAttempt(1, 1000, 1100, false);
        step.status = StepStatus::Retrying;
        step.attempts.push_back(makeAttempt(2, 1600, 0, false));
        m_model->updateStep(step);
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.first().at(0).value<QModelIndex>(), parent);
        QVERIFY(changed.count() >= 1);
        QCOMPARE(m_model->rowCount(parent), 2);
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("retrying"));
        QCOMPARE(text(*m_model, 0, TraceModel::Attempts), QStringLiteral("2/3"));
        QCOMPARE(text(*m_model, 0, TraceModel::Status, parent), QStringLiteral("failed"));
        QCOMPARE(text(*m_model, 0, TraceModel::Summary, parent), QStringLiteral("tool_failed: upstream busy"));
        QCOMPARE(text(*m_model, 0, TraceModel::Duration, parent), QStringLiteral("100 ms"));
        QCOMPARE(text(*m_model, 1, TraceModel::Status, parent), QStringLiteral("running"));
        QCOMPARE(text(*m_model, 1, TraceModel::Sequence, parent), QStringLiteral("attempt 2"));
        QCOMPARE(m_model->index(1, 0, parent).data(TraceModel::AttemptNumberRole).toInt(), 2);
        QCOMPARE(m_model->index(1, 0, parent).data(TraceModel::IsAttemptRole).toBool(), true);
        QCOMPARE(m_model->index(1, 0, parent).data(TraceModel::CallIdRole).toString(), QStringLiteral("call-1"));
        // While retrying, the summary explains why.
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), QStringLiteral("tool_failed: upstream busy"));

        // Attempt 3 succeeds.
        step.attempts[1] = makeAttempt(2, 1600, 1700, false);
        step.attempts.push_back(makeAttempt(3, 2700, 2750, true));
        step.status = StepStatus::Succeeded;
        step.result = nlohmann::json{{"rate", 0.92}};
        step.endedAt = 2750;
        m_model->updateStep(step);
        QCOMPARE(m_model->rowCount(parent), 3);
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(text(*m_model, 0, TraceModel::Attempts), QStringLiteral("3/3"));
        QCOMPARE(text(*m_model, 0, TraceModel::Duration), QStringLiteral("1.8 s"));
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), QStringLiteral("{\"rate\":0.92}"));
        QCOMPARE(text(*m_model, 2, TraceModel::Status, parent), QStringLiteral("succeeded"));
        QCOMPARE(text(*m_model, 2, TraceModel::Summary, parent), QStringLiteral("{\"rate\":0.92}"));
        QCOMPARE(m_model->index(0, 0).data(TraceModel::ResultJsonRole).toString(), QStringLiteral("{\"rate\":0.92}"));
    }

    void summaryShowsResultsAsJson_data()
    {
        QTest::addColumn<QString>("resultJson");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("0");
        QTest::newRow("false") << QStringLiteral("false") << QStringLiteral("false");
        QTest::newRow("null") << QStringLiteral("null") << QStringLiteral("null");
        QTest::newRow("empty string") << QStringLiteral("\"\"") << QStringLiteral("\"\"");
        QTest::newRow("empty array") << QStringLiteral("[]") << QStringLiteral("[]");
        QTest::newRow("empty object") << QStringLiteral("{}") << QStringLiteral("{}");
        QTest::newRow("number") << QStringLiteral("0.92") << QStringLiteral("0.92");
        QTest::newRow("url") << QStringLiteral("\"https://example.org/r.pdf\"")
                             << QStringLiteral("\"https://example.org/r.pdf\"");
        QTest::newRow("unicode") << QStringLiteral("\"Gr\\u00fc\\u00dfe\"") << QStringLiteral("\"Grüße\"");
    }

    void summaryShowsResultsAsJson()
    {
        QFETCH(QString, resultJson);
        QFETCH(QString, expected);
        // A manual tool's answer: even a falsy result is a result, never "waiting".
        Step step = makeStep(1, QStringLiteral("render_report"), StepStatus::Succeeded);
        step.attempts.push_back(makeAttempt(1, 1000, 1300, true));
        step.result = nlohmann::json::parse(resultJson.toStdString());
        step.endedAt = 1300;
        m_model->addStep(step);
        m_model->flush();
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), expected);
        QCOMPARE(text(*m_model, 0, TraceModel::Duration), QStringLiteral("300 ms"));
    }

    void waitingAndErrorSummaries()
    {
        Step waiting = makeStep(1, QStringLiteral("render_report"), StepStatus::Waiting);
        waiting.attempts.push_back(makeAttempt(1, 1000, 0, false));
        m_model->addStep(waiting);

        Step failed = makeStep(2, QStringLiteral("nope"), StepStatus::Failed);
        BridgeError error;
        error.code = "unknown_tool";
        error.message = "no tool named nope";
        failed.error = error;
        failed.endedAt = 1001;
        m_model->addStep(failed);
        m_model->flush();

        QCOMPARE(m_model->rowCount(), 2);
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("waiting"));
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), QStringLiteral("waiting for an answer"));
        QCOMPARE(text(*m_model, 0, TraceModel::Duration), QString());
        QCOMPARE(text(*m_model, 0, TraceModel::Status, m_model->index(0, 0)), QStringLiteral("waiting"));
        QCOMPARE(text(*m_model, 1, TraceModel::Status), QStringLiteral("failed"));
        QCOMPARE(text(*m_model, 1, TraceModel::Attempts), QStringLiteral("0/3"));
        QCOMPARE(text(*m_model, 1, TraceModel::Summary), QStringLiteral("unknown_tool: no tool named nope"));
        QCOMPARE(m_model->index(1, 0).data(TraceModel::ErrorCodeRole).toString(), QStringLiteral("unknown_tool"));
        QVERIFY(m_model->index(1, 0).data(TraceModel::ResultJsonRole).isNull());

        // The answer arrives: the result replaces "waiting for an answer".
        waiting.status = StepStatus::Succeeded;
        waiting.attempts[0].endedAt = 5000;
        waiting.attempts[0].succeeded = true;
        waiting.result = nlohmann::json(nullptr);
        waiting.endedAt = 5000;
        m_model->updateStep(waiting);
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), QStringLiteral("null"));
        QCOMPARE(text(*m_model, 0, TraceModel::Duration), QStringLiteral("4.0 s"));
    }

    void lookupByCallId()
    {
        m_model->addStep(makeStep(1, QStringLiteral("a")));
        QVERIFY(m_model->stepByCallId(QStringLiteral("call-1"))); // queued steps too
        QVERIFY(!m_model->indexForCallId(QStringLiteral("call-1")).isValid());
        m_model->flush();
        QCOMPARE(m_model->indexForCallId(QStringLiteral("call-1")).row(), 0);
        QVERIFY(!m_model->stepByCallId(QStringLiteral("call-9")));
        // Adding a known call id again updates it instead of duplicating it.
        Step again = makeStep(1, QStringLiteral("a"), StepStatus::Cancelled);
        m_model->addStep(again);
        m_model->flush();
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("cancelled"));
    }

    void clearEmptiesModelAndQueue()
    {
        m_model->addStep(makeStep(1, QStringLiteral("a")));
        m_model->flush();
        m_model->addStep(makeStep(2, QStringLiteral("b")));
        m_model->clear();
        QCOMPARE(m_model->rowCount(), 0);
        QCOMPARE(m_model->queuedCount(), 0);
        QTest::qWait(2 * TraceModel::BatchIntervalMs);
        QCOMPARE(m_model->rowCount(), 0);
        QVERIFY(!m_model->stepByCallId(QStringLiteral("call-1")));
    }

    void durationTexts_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("expected");
        QTest::newRow("0") << qint64(0) << QStringLiteral("0 ms");
        QTest::newRow("999") << qint64(999) << QStringLiteral("999 ms");
        QTest::newRow("400ms") << qint64(1400) << QStringLiteral("1.4 s");
        QTest::newRow("59.9") << qint64(59940) << QStringLiteral("59.9 s");
        QTest::newRow("minutes") << qint64(63000) << QStringLiteral("1 min 3 s");
    }

    // Filtering: rows of steps (tool, status) and what each filter keeps, by sequence.
    void filterKeepsMatchingSteps_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<int>("status");
        QTest::addColumn<QList<int>>("expected");
        const int all = int(TraceFilterModel::StatusFilter::All);
        QTest::newRow("nothing") << QString() << QString() << all << QList<int>{1, 2, 3, 4, 5};
        QTest::newRow("tool") << QString() << QStringLiteral("render_report") << all << QList<int>{2, 5};
        QTest::newRow("text in tool") << QStringLiteral("RATE") << QString() << all << QList<int>{1, 3, 4};
        QTest::newRow("text in result") << QStringLiteral("0.92") << QString() << all << QList<int>{1};
        QTest::newRow("text in error") << QStringLiteral("busy") << QString() << all << QList<int>{3, 4};
        QTest::newRow("call id") << QStringLiteral("call-5") << QString() << all << QList<int>{5};
        QTest::newRow("failed only") << QString() << QString() << int(TraceFilterModel::StatusFilter::FailedOnly)
                                     << QList<int>{3, 4};
        QTest::newRow("pending only") << QString() << QString() << int(TraceFilterModel::StatusFilter::PendingOnly)
                                      << QList<int>{2};
        QTest::newRow("tool and failed") << QString() << QStringLiteral("render_report")
                                         << int(TraceFilterModel::StatusFilter::FailedOnly) << QList<int>{};
    }

    void filterKeepsMatchingSteps()
    {
        QFETCH(QString, text);
        QFETCH(QString, tool);
        QFETCH(int, status);
        QFETCH(QList<int>, expected);
        TraceFilterModel filter;
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setTraceModel(m_model.get());
        addFilterFixture();
        filter.setText(text);
        filter.setTool(tool);
        filter.setStatusFilter(TraceFilterModel::StatusFilter(status));
        QList<int> shown;
        for (int row = 0; row < filter.rowCount(); ++row)
            shown.append(filter.index(row, 0).data(TraceModel::SequenceRole).toInt());
        QCOMPARE(shown, expected);
        // Attempt rows follow their step.
        if (expected.contains(4)) {
            const QModelIndex step4 = filter.index(int(expected.indexOf(4)), 0);
            QCOMPARE(filter.rowCount(step4), 2);
        }
    }

    void jumpToNextPendingAndFailed()
    {
        TraceFilterModel filter;
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setTraceModel(m_model.get());
        addFilterFixture();
        const auto seq = [](const QModelIndex &index) { return index.data(TraceModel::SequenceRole).toInt(); };
        QModelIndex at = filter.nextStep({}, StepStatus::Failed);
        QCOMPARE(seq(at), 3);
        at = filter.nextStep(at, StepStatus::Failed);
        QCOMPARE(seq(at), 4);
        at = filter.nextStep(at, StepStatus::Failed); // wraps around
        QCOMPARE(seq(at), 3);
        // From an attempt row: the next step after the attempt's step.
        const QModelIndex attempt = filter.index(0, 0, filter.index(3, 0));
        QCOMPARE(seq(filter.nextStep(attempt, StepStatus::Failed)), 3);
        QCOMPARE(seq(filter.nextStep(filter.index(2, 0), StepStatus::Failed, TraceFilterModel::Direction::Backward)),
                 4);
        QCOMPARE(seq(filter.nextStep({}, StepStatus::Waiting)), 2);
        QCOMPARE(seq(filter.nextStep(filter.index(1, 0), StepStatus::Waiting)), 2); // the only one
        // Hidden steps are not jumped to.
        filter.setTool(QStringLiteral("get_exchange_rate"));
        QVERIFY(!filter.nextStep({}, StepStatus::Waiting).isValid());
    }

    // Falsy results through the filter too: shown as values, found by their text.
    void falsyResultsThroughTheFilter_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("null") << QStringLiteral("null");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("empty string") << QStringLiteral("\"\"");
        QTest::newRow("false") << QStringLiteral("false");
        QTest::newRow("empty array") << QStringLiteral("[]");
        QTest::newRow("empty object") << QStringLiteral("{}");
    }

    void falsyResultsThroughTheFilter()
    {
        QFETCH(QString, json);
        TraceFilterModel filter;
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setTraceModel(m_model.get());
        Step step = makeStep(1, QStringLiteral("ask_human"), StepStatus::Succeeded);
        step.result = nlohmann::json::parse(json.toStdString());
        step.attempts.push_back(makeAttempt(1, 1000, 1500, true));
        step.endedAt = 1500;
        m_model->addStep(step);
        m_model->flush();
        QCOMPARE(text(filter, 0, TraceModel::Summary), json);
        QCOMPARE(text(filter, 0, TraceModel::Status), QStringLiteral("succeeded"));
        filter.setStatusFilter(TraceFilterModel::StatusFilter::PendingOnly);
        QCOMPARE(filter.rowCount(), 0);
    }

    void durationTexts()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, expected);
        QCOMPARE(TraceModel::durationText(ms), expected);
    }

private:
    // 1 get_exchange_rate succeeded 0.92; 2 render_report waiting; 3 get_exchange_rate
    // failed (busy); 4 get_exchange_rate retrying after a failed attempt, now running
    // again; 5 render_report succeeded.
    void addFilterFixture()
    {
        Step s1 = makeStep(1, QStringLiteral("get_exchange_rate"), StepStatus::Succeeded);
        s1.result = 0.92;
        s1.attempts.push_back(makeAttempt(1, 1000, 1010, true));
        Step s2 = makeStep(2, QStringLiteral("render_report"), StepStatus::Waiting);
        s2.attempts.push_back(makeAttempt(1, 1000, 0, false));
        Step s3 = makeStep(3, QStringLiteral("get_exchange_rate"), StepStatus::Failed);
        s3.attempts.push_back(makeAttempt(1, 1000, 1010, false));
        s3.error = s3.attempts.back().error;
        Step s4 = makeStep(4, QStringLiteral("get_exchange_rate"), StepStatus::Running);
        s4.attempts.push_back(makeAttempt(1, 1000, 1010, false));
        s4.attempts.push_back(makeAttempt(2, 1600, 0, false));
        Step s5 = makeStep(5, QStringLiteral("render_report"), StepStatus::Succeeded);
        s5.result = "https://example.org/r.pdf";
        s5.attempts.push_back(makeAttempt(1, 1000, 1010, true));
        for (const Step &s : {s1, s2, s3, s4, s5})
            m_model->addStep(s);
        m_model->flush();
    }

    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

QTEST_GUILESS_MAIN(TstTraceModel)
#include "tst_tracemodel.moc"
