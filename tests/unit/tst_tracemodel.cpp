// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journal.h"
#include "project/durationtext.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "tracepageloader.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
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
        StepError error;
        error.code = ErrorCode::ToolFailed;
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

// A journal-backed row is read by the loader thread: shown (which asks for its page),
// then waited for.
bool waitLoaded(TraceModel &model, int row)
{
    const int ordinal = model.ordinalOfRow(row);
    model.index(row, 0).data();
    return QTest::qWaitFor([&] { return model.isLoaded(ordinal); }, 10000);
}

// A journal with `count` finished steps of run "run1": tool_0/1/2 in turn; every 100th
// step failed after two attempts; step 300 waiting for an answer; step 7 diverged.
// Events: a retry for step 5, and a run-wide one between steps 10 and 11.
QString writeJournal(const QTemporaryDir &dir, int count)
{
    const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
    Journal journal;
    if (!journal.open(path))
        return {};
    RunRecord run;
    run.id = QStringLiteral("run1");
    run.status = RunStatus::Completed;
    run.startedAt = 1000;
    run.endedAt = 1000 + 10 * count;
    journal.recordRun(run);
    std::vector<Step> steps;
    for (int i = 1; i <= count; ++i) {
        Step s = makeStep(i, QStringLiteral("tool_%1").arg((i - 1) % 3), StepStatus::Succeeded);
        s.args = {{"n", i}};
        s.queuedAt = s.startedAt = 1000 + 10 * i;
        s.endedAt = s.queuedAt + 5;
        if (i % 100 == 0) {
            s.status = StepStatus::Failed;
            s.attempts.push_back(makeAttempt(1, s.startedAt, s.startedAt + 1, false));
            s.attempts.push_back(makeAttempt(2, s.startedAt + 2, s.endedAt, false));
            s.error = s.attempts.back().error;
        } else if (i == 300 - 1) {
            s.status = StepStatus::Waiting;
            s.endedAt = 0;
            s.attempts.push_back(makeAttempt(1, s.startedAt, 0, false));
        } else {
            s.attempts.push_back(makeAttempt(1, s.startedAt, s.endedAt, true));
            s.result = nlohmann::json{{"value", i}};
        }
        if (i == 7)
            s.divergence = QStringLiteral("expected tool_0, got tool_1");
        steps.push_back(std::move(s));
    }
    std::vector<const Step *> pointers;
    for (const Step &s : steps)
        pointers.push_back(&s);
    journal.commit(
        pointers,
        {{QStringLiteral("run1"), 5, 1060, PolicyEventKind::RetryScheduled, {{"attempt", 2}, {"delay_ms", 500}}},
         {QStringLiteral("run1"),
          0,
          1000 + 10 * 10 + 7,
          PolicyEventKind::SandboxRefused,
          {{"syscall", "connect"}, {"text", "connect(AF_INET, 93.184.216.34:443) refused"}}}});
    return path;
}

} // namespace

class TstTraceModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_model = std::make_unique<TraceModel>();
        m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(),
                                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
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

    // A running MCP call's progress: the Status cell shows its start (elided to the
    // column), its tooltip the whole line.
    void statusTooltipShowsTheWholeProgress()
    {
        Step step = makeStep(1, QStringLiteral("files__copy"));
        Attempt attempt = makeAttempt(1, 1000, 0, false);
        const QString progress = QStringLiteral("3/10 Copying reports/2026/quarterly-summary-final.pdf to the archive");
        attempt.progress = progress;
        step.attempts.push_back(attempt);
        m_model->addStep(step);
        m_model->flush();
        QCOMPARE(text(*m_model, 0, TraceModel::Status),
                 QStringLiteral("running · ") + progress.left(59) + QChar(0x2026));
        QCOMPARE(m_model->index(0, TraceModel::Status).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Progress: ") + progress + QStringLiteral("\nCall id: call-1"));
        // Ended: no progress, the call id alone.
        step.status = StepStatus::Succeeded;
        step.attempts[0] = makeAttempt(1, 1000, 1400, true);
        step.endedAt = 1400;
        m_model->updateStep(step);
        m_model->flush();
        QCOMPARE(m_model->index(0, TraceModel::Status).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Call id: call-1"));
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
        QCOMPARE(text(*m_model, 1, TraceModel::Tool, parent), QStringLiteral("attempt 2"));
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
        StepError error;
        error.code = ErrorCode::UnknownTool;
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
        // 3 ended failed; 4 failed its first attempt and is retrying.
        QTest::newRow("failed only") << QString() << QString() << int(TraceFilterModel::StatusFilter::FailedOnly)
                                     << QList<int>{3};
        QTest::newRow("had failures") << QString() << QString() << int(TraceFilterModel::StatusFilter::HadFailures)
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
        // Failed: ended failed (3), not 4, which is retrying after a failed attempt.
        QModelIndex at = filter.nextStep({}, StepStatus::Failed);
        QCOMPARE(seq(at), 3);
        at = filter.nextStep(at, StepStatus::Failed); // wraps around
        QCOMPARE(seq(at), 3);
        // From an attempt row: the next step after the attempt's step.
        const QModelIndex attempt = filter.index(0, 0, filter.index(3, 0));
        QCOMPARE(seq(filter.nextStep(attempt, StepStatus::Failed)), 3);
        QCOMPARE(seq(filter.nextStep(filter.index(4, 0), StepStatus::Failed, TraceFilterModel::Direction::Backward)),
                 3);
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
        QCOMPARE(durationText(ms), expected);
    }

    // Issue 20: German numbers beside German sizes; the command line's Plain style keeps '.'.
    void durationTextsFollowTheLocale()
    {
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        QCOMPARE(durationText(4100), QStringLiteral("4,1 s"));
        QCOMPARE(durationText(900, DurationStyle::Seconds), QStringLiteral("0,9 s"));
        QCOMPARE(durationText(2500, DurationStyle::Plain), QStringLiteral("2.50 s"));
        QCOMPARE(decimalSeconds(2500), QStringLiteral("2.5"));
        QLocale::setDefault(before);
        QCOMPARE(durationText(4100), QStringLiteral("4.1 s"));
    }

    // A finished run from the journal: rows fetched in pages, events between steps.
    void journalRunIsShownWithoutLoadingIt()
    {
        QTemporaryDir dir;
        const QString path = writeJournal(dir, 600);
        QVERIFY(!path.isEmpty());
        QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
        QString error;
        QVERIFY2(m_model->openRun(path, QStringLiteral("run1"), &error), qPrintable(error));
        QCOMPARE(reset.count(), 1);
        QVERIFY(m_model->isJournalBacked());
        QCOMPARE(m_model->stepCount(), 600);
        QCOMPARE(m_model->eventCount(), 2);
        QCOMPARE(m_model->rowCount(), 602);
        QCOMPARE(m_model->tools(),
                 (QStringList{QStringLiteral("tool_0"), QStringLiteral("tool_1"), QStringLiteral("tool_2")}));

        // Steps 1-5, the retry event of step 5, steps 6-10, the run-wide event, 11…
        QVERIFY(waitLoaded(*m_model, 4));
        QCOMPARE(text(*m_model, 4, TraceModel::Sequence), QStringLiteral("5"));
        QCOMPARE(m_model->index(5, 0).data(TraceModel::RowKindRole).toInt(), int(TraceModel::RowKind::Event));
        QCOMPARE(text(*m_model, 5, TraceModel::Sequence), QStringLiteral("#5"));
        QCOMPARE(m_model->index(5, TraceModel::Sequence).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("An event of step #5"));
        QCOMPARE(text(*m_model, 5, TraceModel::Tool), QStringLiteral("retry_scheduled"));
        QCOMPARE(text(*m_model, 5, TraceModel::Summary), QStringLiteral("{\"attempt\":2,\"delay_ms\":500}"));
        QCOMPARE(m_model->rowCount(m_model->index(5, 0)), 0);
        QCOMPARE(text(*m_model, 6, TraceModel::Sequence), QStringLiteral("6"));
        QCOMPARE(text(*m_model, 11, TraceModel::Sequence), QStringLiteral("run"));
        QCOMPARE(text(*m_model, 11, TraceModel::Summary),
                 QStringLiteral("connect(AF_INET, 93.184.216.34:443) refused"));
        QCOMPARE(text(*m_model, 12, TraceModel::Sequence), QStringLiteral("11"));

        // Light rows: summary, attempts as children, across page boundaries.
        QVERIFY(waitLoaded(*m_model, 601));
        QCOMPARE(text(*m_model, 601, TraceModel::Sequence), QStringLiteral("600"));
        QCOMPARE(text(*m_model, 601, TraceModel::Status), QStringLiteral("failed"));
        QCOMPARE(text(*m_model, 601, TraceModel::Attempts), QStringLiteral("2/3"));
        QCOMPARE(text(*m_model, 601, TraceModel::Summary), QStringLiteral("tool_failed: upstream busy"));
        const QModelIndex failedStep = m_model->index(601, 0);
        QCOMPARE(m_model->rowCount(failedStep), 2);
        QCOMPARE(text(*m_model, 1, TraceModel::Tool, failedStep), QStringLiteral("attempt 2"));
        QCOMPARE(m_model->parent(m_model->index(1, 0, failedStep)), failedStep);
        const int row258 = m_model->indexForCallId(QStringLiteral("call-258")).row();
        QCOMPARE(row258, 259);
        QVERIFY(waitLoaded(*m_model, row258));
        QCOMPARE(text(*m_model, row258, TraceModel::Summary), QStringLiteral("{\"value\":258}"));
        QCOMPARE(text(*m_model, row258, TraceModel::Duration), QStringLiteral("5 ms"));
        const int waiting = m_model->indexForCallId(QStringLiteral("call-299")).row();
        QCOMPARE(text(*m_model, waiting, TraceModel::Summary), QStringLiteral("waiting for an answer"));
        const QModelIndex diverged = m_model->indexForCallId(QStringLiteral("call-7"));
        QCOMPARE(diverged.data(TraceModel::DivergenceRole).toString(), QStringLiteral("expected tool_0, got tool_1"));
        QCOMPARE(diverged.data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Replay diverged here: expected tool_0, got tool_1"));
        QVERIFY(m_model->index(0, 0).data(TraceModel::DivergenceRole).toString().isEmpty());

        // The inspector's step is read whole, with its arguments.
        const std::optional<Step> full = m_model->fullStep(QStringLiteral("call-258"));
        QVERIFY(full);
        QCOMPARE(QString::fromStdString(full->args.dump()), QStringLiteral("{\"n\":258}"));
        QCOMPARE(QString::fromStdString(full->result->dump()), QStringLiteral("{\"value\":258}"));
        QCOMPARE(m_model->stepByCallId(QStringLiteral("call-600"))->status, StepStatus::Failed);
        QVERIFY(!m_model->stepByCallId(QStringLiteral("call-601")));

        // A new live step leaves journal mode: the trace starts over.
        m_model->addStep(makeStep(1, QStringLiteral("live")));
        m_model->flush();
        QVERIFY(!m_model->isJournalBacked());
        QCOMPARE(m_model->rowCount(), 1);
    }

    void journalRunFilterAndJump_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("firstSequence");
        const int all = int(TraceFilterModel::StatusFilter::All);
        QTest::newRow("nothing") << QString() << QString() << all << 602 << 1;
        QTest::newRow("tool") << QString() << QStringLiteral("tool_1") << all << 200 << 2;
        QTest::newRow("failed only") << QString() << QString() << int(TraceFilterModel::StatusFilter::FailedOnly) << 6
                                     << 100;
        QTest::newRow("pending only") << QString() << QString() << int(TraceFilterModel::StatusFilter::PendingOnly) << 1
                                      << 299;
        QTest::newRow("tool and failed") << QString() << QStringLiteral("tool_0")
                                         << int(TraceFilterModel::StatusFilter::FailedOnly) << 2 << 100;
        QTest::newRow("text in result") << QStringLiteral("\"value\":42}") << QString() << all << 1 << 42;
        QTest::newRow("text in error") << QStringLiteral("BUSY") << QString() << all << 6 << 100;
        QTest::newRow("call id") << QStringLiteral("call-59") << QString() << all << 11 << 59;
        QTest::newRow("text, no match") << QStringLiteral("100%") << QString() << all << 0 << 0;
    }

    void journalRunFilterAndJump()
    {
        QFETCH(QString, text);
        QFETCH(QString, tool);
        QFETCH(int, status);
        QFETCH(int, rows);
        QFETCH(int, firstSequence);
        QTemporaryDir dir;
        const QString path = writeJournal(dir, 600);
        TraceFilterModel filter;
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setTraceModel(m_model.get());
        QVERIFY(m_model->openRun(path, QStringLiteral("run1")));
        QSignalSpy removed(&filter, &QAbstractItemModel::rowsRemoved);
        filter.setText(text);
        filter.setTool(tool);
        filter.setStatusFilter(TraceFilterModel::StatusFilter(status));
        QCOMPARE(filter.rowCount(), rows);
        QCOMPARE(removed.count(), 0); // one layout change, never row by row
        if (rows > 0)
            QCOMPARE(filter.index(0, 0).data(TraceModel::SequenceRole).toInt(), firstSequence);
    }

    void journalRunJumpToNextFailedAndPending()
    {
        QTemporaryDir dir;
        const QString path = writeJournal(dir, 600);
        TraceFilterModel filter;
        filter.setTraceModel(m_model.get());
        QVERIFY(m_model->openRun(path, QStringLiteral("run1")));
        const auto seq = [](const QModelIndex &index) { return index.data(TraceModel::SequenceRole).toInt(); };
        QModelIndex at = filter.nextStep({}, StepStatus::Failed);
        QCOMPARE(seq(at), 100);
        at = filter.nextStep(at, StepStatus::Failed);
        QCOMPARE(seq(at), 200);
        QCOMPARE(seq(filter.nextStep(filter.index(601, 0), StepStatus::Failed)), 100); // wraps around
        QCOMPARE(seq(filter.nextStep({}, StepStatus::Failed, TraceFilterModel::Direction::Backward)), 600);
        QCOMPARE(seq(filter.nextStep(filter.index(5, 0), StepStatus::Failed)), 100); // from an event row
        QCOMPARE(seq(filter.nextStep({}, StepStatus::Waiting)), 299);
        // Hidden steps are not jumped to.
        filter.setTool(QStringLiteral("tool_0"));
        QVERIFY(!filter.nextStep({}, StepStatus::Waiting).isValid()); // 299 is tool_1
        QCOMPARE(seq(filter.nextStep({}, StepStatus::Failed)), 100);
        QCOMPARE(seq(filter.nextStep(filter.mapFromSource(m_model->indexForCallId(QStringLiteral("call-100"))),
                                     StepStatus::Failed)),
                 400);
    }

    // Falsy results read from the journal are values too, never "waiting".
    void journalFalsyResults_data() { falsyResultsThroughTheFilter_data(); }

    void journalFalsyResults()
    {
        QFETCH(QString, json);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            Step step = makeStep(1, QStringLiteral("ask_human"), StepStatus::Succeeded);
            step.result = nlohmann::json::parse(json.toStdString());
            step.attempts.push_back(makeAttempt(1, 1000, 1500, true));
            step.endedAt = 1500;
            QVERIFY(journal.recordStep(step));
        }
        QVERIFY(m_model->openRun(path, QStringLiteral("run1")));
        QVERIFY(waitLoaded(*m_model, 0));
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), json);
        QCOMPARE(text(*m_model, 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(m_model->index(0, 0).data(TraceModel::ResultJsonRole).toString(), json);
        QCOMPARE(text(*m_model, 0, TraceModel::Summary, m_model->index(0, 0)), json);
    }

    // The GUI thread never reads a page (issue 18): a row not read yet shows its
    // sequence and "loading…" at once, without attempt rows; the loader thread's page
    // comes back as dataChanged and the attempt rows are inserted.
    void journalRowsArriveFromTheLoaderThread()
    {
        m_tester.reset(); // it counts every step's attempts (see the next test for a page then)
        QTemporaryDir dir;
        const QString path = writeJournal(dir, 600);
        QVERIFY(m_model->openRun(path, QStringLiteral("run1")));
        const int row = m_model->indexForCallId(QStringLiteral("call-500")).row();
        QCOMPARE(row, 501);
        QVERIFY(!m_model->isLoaded(500));
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QCOMPARE(text(*m_model, row, TraceModel::Sequence), QStringLiteral("500"));
        QCOMPARE(text(*m_model, row, TraceModel::Status), QStringLiteral("loading…"));
        QCOMPARE(text(*m_model, row, TraceModel::Summary), QStringLiteral("…"));
        QCOMPARE(m_model->index(row, 0).data(TraceModel::SequenceRole).toInt(), 500);
        QVERIFY(m_model->index(row, 0).data(TraceModel::CallIdRole).toString().isEmpty());
        QCOMPARE(m_model->rowCount(m_model->index(row, 0)), 0);
        QVERIFY(m_model->hasChildren(m_model->index(row, 0)));
        QVERIFY(m_model->canFetchMore(m_model->index(row, 0)));

        QTRY_VERIFY_WITH_TIMEOUT(m_model->isLoaded(500), 10000);
        QVERIFY(changed.count() >= 1);
        // Page 1 (steps 257-512): rows 258…513 in the model, one range.
        const auto pageChanged = [&] {
            for (const QList<QVariant> &args : changed) {
                const auto from = args.at(0).value<QModelIndex>();
                const auto to = args.at(1).value<QModelIndex>();
                if (!from.parent().isValid() && from.row() <= row && to.row() >= row)
                    return true;
            }
            return false;
        };
        QVERIFY(pageChanged());
        QCOMPARE(text(*m_model, row, TraceModel::Status), QStringLiteral("failed"));
        QCOMPARE(text(*m_model, row, TraceModel::Tool), QStringLiteral("tool_1"));
        QCOMPARE(m_model->index(row, 0).data(TraceModel::CallIdRole).toString(), QStringLiteral("call-500"));
        QCOMPARE(m_model->rowCount(m_model->index(row, 0)), 2); // two attempts, inserted
        QVERIFY(!m_model->canFetchMore(m_model->index(row, 0)));
        QVERIFY(std::any_of(inserted.begin(), inserted.end(), [&](const QList<QVariant> &args) {
            return args.at(0).value<QModelIndex>() == m_model->index(row, 0) && args.at(1).toInt() == 0
                && args.at(2).toInt() == 1;
        }));
        QCOMPARE(text(*m_model, 1, TraceModel::Tool, m_model->index(row, 0)), QStringLiteral("attempt 2"));
        // Only the step a view had counted got an insert; the others' rows were set quietly.
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(m_model->rowCount(m_model->index(row - 1, 0)), 1);
    }

    // A page under many counted steps: one layout change, the tester's checks hold.
    void aPageUnderManyCountedStepsIsOneLayoutChange()
    {
        QTemporaryDir dir;
        const QString path = writeJournal(dir, 300);
        QVERIFY(m_model->openRun(path, QStringLiteral("run1"))); // the tester counts every step
        QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QVERIFY(waitLoaded(*m_model, 0));
        QVERIFY(waitLoaded(*m_model, 301));
        QCOMPARE(layout.count(), 2);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 1);
        QCOMPARE(m_model->rowCount(m_model->indexForCallId(QStringLiteral("call-200"))), 2);
    }

    // A page read for a run no longer shown is dropped: the rows are the new run's.
    void aNewRunDropsPagesOfTheOldOne()
    {
        QTemporaryDir first;
        QTemporaryDir second;
        const QString oldPath = writeJournal(first, 600);
        const QString newPath = second.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(newPath));
            for (int i = 1; i <= 3; ++i) {
                Step step = makeStep(i, QStringLiteral("fresh"), StepStatus::Succeeded);
                step.result = i;
                step.attempts.push_back(makeAttempt(1, 1000, 1001, true));
                QVERIFY(journal.recordStep(step));
            }
        }
        QVERIFY(m_model->openRun(oldPath, QStringLiteral("run1")));
        m_model->index(0, 0).data(); // page 0 of the old run asked for
        QVERIFY(m_model->openRun(newPath, QStringLiteral("run1")));
        QCOMPARE(m_model->stepCount(), 3);
        QVERIFY(waitLoaded(*m_model, 0));
        QTest::qWait(50); // the old page, had it been delivered, would have landed by now
        QCOMPARE(text(*m_model, 0, TraceModel::Tool), QStringLiteral("fresh"));
        QCOMPARE(text(*m_model, 2, TraceModel::Summary), QStringLiteral("3"));
        QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 1);
        // clear() drops what is on its way too.
        m_model->clear();
        QTest::qWait(50);
        QCOMPARE(m_model->rowCount(), 0);
    }

    // The loader reads the newest request first and drops the oldest past MaxQueued:
    // pages scrolled past during a fast scroll are never read.
    void theLoaderReadsWhatIsInViewAndDropsTheRest()
    {
        QTemporaryDir dir;
        const QString path = writeJournal(dir, 2600); // 11 pages of 256
        TracePageLoader loader;
        loader.open(path, QStringLiteral("run1"));
        std::vector<int> pages;
        QObject::connect(&loader, &TracePageLoader::pageLoaded, &loader,
                         [&](int page, const std::vector<StepSummary> &rows) {
                             pages.push_back(page);
                             QCOMPARE(rows.front().sequence, page == 100 ? 1 : page * 256 + 1);
                         });
        // A long read first (every step as one "page"), so that the ten requests below
        // queue up behind it as a fast scroll's would.
        loader.request(100, 1, 2600);
        for (int page = 0; page < 10; ++page)
            loader.request(page, page * 256 + 1, page * 256 + 256);
        QVERIFY(loader.isRequested(9));
        QVERIFY(!loader.isRequested(5)); // pushed out at once
        QTRY_VERIFY_WITH_TIMEOUT(!loader.isRequested(9) && !loader.isRequested(6), 10000);
        QTest::qWait(100);
        // The four newest, newest first (after the long read, unless it was pushed out
        // before it started); the pages scrolled past were never read.
        std::vector<int> read = pages;
        read.erase(std::remove(read.begin(), read.end(), 100), read.end());
        QCOMPARE(read, (std::vector<int>{9, 8, 7, 6}));
        const auto at = [&](int page) { return std::find(pages.begin(), pages.end(), page) - pages.begin(); };
        // A page asked for again is read again; after close() nothing is delivered.
        loader.request(2, 2 * 256 + 1, 3 * 256);
        QTRY_VERIFY_WITH_TIMEOUT(at(2) < qsizetype(pages.size()), 10000);
        loader.request(3, 3 * 256 + 1, 4 * 256);
        loader.close();
        const size_t before = pages.size();
        QTest::qWait(200);
        QCOMPARE(pages.size(), before);
    }

    void openingAMissingJournalFailsWithTheReason()
    {
        QString error;
        QVERIFY(!m_model->openRun(QStringLiteral("/nonexistent/journal.sqlite"), QStringLiteral("run1"), &error));
        QCOMPARE(error, QStringLiteral("/nonexistent/journal.sqlite: no such journal"));
        QVERIFY(!m_model->isJournalBacked());
        QCOMPARE(m_model->rowCount(), 0);
    }

    // RunController::stepsUpdated batches: new steps in one insert, the rest in place.
    void applyStepsInsertsNewOnesInOneBatch()
    {
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QList<Step> batch;
        for (int i = 1; i <= 3; ++i)
            batch.append(makeStep(i, QStringLiteral("t")));
        m_model->applySteps(batch);
        QCOMPARE(m_model->rowCount(), 3);
        QCOMPARE(inserted.count(), 1);

        Step second = makeStep(2, QStringLiteral("t"), StepStatus::Succeeded);
        second.attempts.push_back(makeAttempt(1, 1000, 1020, true));
        second.result = nlohmann::json::array();
        second.endedAt = 1020;
        m_model->applySteps({second, makeStep(4, QStringLiteral("u")), makeStep(5, QStringLiteral("u"))});
        QCOMPARE(m_model->rowCount(), 5);
        QCOMPARE(inserted.count(), 3); // the attempt row of step 2, then steps 4-5 together
        QCOMPARE(inserted.last().at(1).toInt(), 3);
        QCOMPARE(inserted.last().at(2).toInt(), 4);
        QCOMPARE(text(*m_model, 1, TraceModel::Summary), QStringLiteral("[]"));
        QCOMPARE(text(*m_model, 1, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(m_model->tools(), (QStringList{QStringLiteral("t"), QStringLiteral("u")}));
    }

    // Past ImmediateInsertRows steps new rows wait for the paced flush; updates of
    // rows already shown apply at once, and a queued step keeps its latest state.
    void applyStepsPacesInsertsOfALongRun()
    {
        QList<Step> batch;
        for (int i = 1; i <= TraceModel::ImmediateInsertRows; ++i)
            batch.append(makeStep(i, QStringLiteral("t")));
        m_model->applySteps(batch);
        QCOMPARE(m_model->rowCount(), TraceModel::ImmediateInsertRows);

        const int next = TraceModel::ImmediateInsertRows + 1;
        Step first = makeStep(1, QStringLiteral("t"), StepStatus::Succeeded);
        first.result = nlohmann::json(0);
        first.endedAt = 1010;
        m_model->applySteps({first, makeStep(next, QStringLiteral("t"))});
        QCOMPARE(m_model->rowCount(), TraceModel::ImmediateInsertRows); // step `next` queued
        QCOMPARE(text(*m_model, 0, TraceModel::Summary), QStringLiteral("0"));
        m_model->applySteps({makeStep(next, QStringLiteral("t"), StepStatus::Failed)});
        QVERIFY(!m_model->indexForCallId(QStringLiteral("call-%1").arg(next)).isValid());

        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), next, TraceModel::MaxBatchIntervalMs * 4);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(text(*m_model, next - 1, TraceModel::Status), QStringLiteral("failed"));
    }

    // The live trace's key → ordinal index grows by new generations (4096, 8192, …),
    // never by rehashing: every key stays found across the boundaries.
    void ordinalIndexGrowsByGenerations()
    {
        OrdinalIndex<QString> index;
        QCOMPARE(index.value(QStringLiteral("c0")), -1);
        for (int i = 0; i < 4096; ++i)
            index.insert(QStringLiteral("c%1").arg(i), i);
        QCOMPARE(index.generationCount(), 1);
        index.insert(QStringLiteral("c4096"), 4096);
        QCOMPARE(index.generationCount(), 2);
        for (int i = 4097; i < 4096 + 8192 + 1; ++i)
            index.insert(QStringLiteral("c%1").arg(i), i);
        QCOMPARE(index.generationCount(), 3); // 4096 + 8192 full, one in the third
        QCOMPARE(index.size(), 4096 + 8192 + 1);
        QCOMPARE(index.value(QStringLiteral("c0")), 0);
        QCOMPARE(index.value(QStringLiteral("c4095")), 4095);
        QCOMPARE(index.value(QStringLiteral("c4096")), 4096);
        QCOMPARE(index.value(QStringLiteral("c12288")), 12288);
        QCOMPARE(index.value(QStringLiteral("c12289"), -7), -7);
        QVERIFY(index.contains(QStringLiteral("c12287")));
        index.clear();
        QCOMPARE(index.size(), 0);
        QVERIFY(!index.contains(QStringLiteral("c0")));
        index.insert(QStringLiteral("c0"), 3);
        QCOMPARE(index.value(QStringLiteral("c0")), 3);
        QCOMPARE(index.generationCount(), 1);
    }

    // A live run past the first generation of its indexes (4096 steps): updates by
    // sequence and by call id still reach the right row, also in the first generation.
    void liveRunFindsStepsAcrossIndexGenerations()
    {
        constexpr int Steps = 5000;
        for (int first = 1; first <= Steps; first += 1000) {
            QList<Step> batch;
            for (int i = first; i < first + 1000; ++i)
                batch.append(makeStep(i, QStringLiteral("t")));
            m_model->applySteps(batch);
            m_model->flush();
        }
        QCOMPARE(m_model->rowCount(), Steps);
        Step early = makeStep(7, QStringLiteral("t"), StepStatus::Failed);
        early.endedAt = 1010;
        Step late = makeStep(4999, QStringLiteral("t"), StepStatus::Succeeded);
        late.result = nlohmann::json(false);
        late.endedAt = 1010;
        m_model->applySteps({early, late});
        QCOMPARE(m_model->rowCount(), Steps);
        QCOMPARE(text(*m_model, 6, TraceModel::Status), QStringLiteral("failed"));
        QCOMPARE(text(*m_model, 4998, TraceModel::Summary), QStringLiteral("false"));
        QCOMPARE(m_model->indexForCallId(QStringLiteral("call-4500")).row(), 4499);
        QCOMPARE(m_model->ordinalOfSequence(4097), 4096);
        QCOMPARE(m_model->ordinalOfSequence(Steps + 1), -1);
        Step updated = makeStep(4500, QStringLiteral("u"), StepStatus::Waiting);
        m_model->updateStep(updated);
        QCOMPARE(m_model->rowCount(), Steps);
        QCOMPARE(text(*m_model, 4499, TraceModel::Tool), QStringLiteral("u"));
        QCOMPARE(m_model->nextOrdinal(-1, StepQuery::Status::FailedOnly, true), 6);
    }

    // The filter proxy answers hasChildren from the source: attempts are never filtered.
    void filterReportsChildrenOfTheSource()
    {
        Step retried = makeStep(1, QStringLiteral("t"), StepStatus::Retrying);
        retried.attempts.push_back(makeAttempt(1, 1000, 1010, false));
        m_model->applySteps({retried, makeStep(2, QStringLiteral("t"))});
        TraceFilterModel filter;
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setTraceModel(m_model.get());
        QVERIFY(filter.hasChildren(filter.index(0, 0)));
        QVERIFY(!filter.hasChildren(filter.index(1, 0)));
        QVERIFY(filter.hasChildren());
        QCOMPARE(filter.rowCount(filter.index(0, 0)), 1);
        // Flags without mapping: the model's, for steps and attempts alike.
        const Qt::ItemFlags rowFlags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
        QCOMPARE(m_model->flags(m_model->index(0, TraceModel::Tool)), rowFlags);
        QCOMPARE(filter.flags(filter.index(1, TraceModel::Tool)), rowFlags);
        QCOMPARE(filter.flags(filter.index(0, 0, filter.index(0, 0))), rowFlags);
        QCOMPARE(filter.flags(QModelIndex()), Qt::ItemFlags());
    }

    // Live policy events: a row after the step they concern; run-wide ones at the end.
    void liveEventsSitAfterTheirStep()
    {
        QList<Step> batch;
        for (int i = 1; i <= 3; ++i)
            batch.append(makeStep(i, QStringLiteral("t")));
        m_model->applySteps(batch);
        m_model->addEvent({QStringLiteral("run1"), 1, 1100, PolicyEventKind::RetryScheduled, {{"attempt", 2}}});
        m_model->addEvent(
            {QStringLiteral("run1"), 0, 1200, PolicyEventKind::SandboxRefused, {{"text", "ptrace refused"}}});
        QCOMPARE(m_model->rowCount(), 5);
        QCOMPARE(text(*m_model, 1, TraceModel::Tool), QStringLiteral("retry_scheduled"));
        QCOMPARE(text(*m_model, 2, TraceModel::Sequence), QStringLiteral("2"));
        QCOMPARE(text(*m_model, 4, TraceModel::Summary), QStringLiteral("ptrace refused"));
        QVERIFY(!m_model->step(1));
        m_model->applySteps({makeStep(4, QStringLiteral("t"))});
        QCOMPARE(text(*m_model, 5, TraceModel::Sequence), QStringLiteral("4"));
        QCOMPARE(m_model->indexForCallId(QStringLiteral("call-4")).row(), 5);
        // A filter hides events; the whole trace shows them again.
        TraceFilterModel filter;
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setTraceModel(m_model.get());
        QCOMPARE(filter.rowCount(), 6);
        filter.setTool(QStringLiteral("t"));
        QCOMPARE(filter.rowCount(), 4);
        filter.setTool({});
        QCOMPARE(filter.rowCount(), 6);
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
