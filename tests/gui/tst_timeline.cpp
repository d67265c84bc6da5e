// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journal.h"
#include "stepstatuscolors.h"
#include "timelinewidget.h"
#include "tracemodel.h"

#include <QDateTime>
#include <QDir>
#include <QHelpEvent>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

namespace {

// A step of `tool` from `start` to `end` (ms), one attempt per [start, end) pair.
Step makeStep(int sequence, const QList<std::pair<qint64, qint64>> &attempts, StepStatus status = StepStatus::Succeeded)
{
    Step step;
    step.runId = QStringLiteral("run1");
    step.callId = QStringLiteral("call-%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QStringLiteral("get_exchange_rate");
    step.status = status;
    step.maxAttempts = 3;
    step.queuedAt = attempts.front().first;
    step.startedAt = attempts.front().first;
    step.endedAt = attempts.back().second;
    int number = 0;
    for (const auto &[start, end] : attempts) {
        Attempt a;
        a.number = ++number;
        a.startedAt = start;
        a.endedAt = end;
        a.succeeded = number == int(attempts.size()) && status == StepStatus::Succeeded;
        step.attempts.push_back(a);
    }
    return step;
}

/// A step still running its one attempt, with `progress` as its last progress line.
Step runningStep(const QString &progress)
{
    Step step = makeStep(1, {{1000, 1000}}, StepStatus::Running);
    step.endedAt = 0;
    step.attempts.back().endedAt = 0;
    step.attempts.back().progress = progress;
    return step;
}

/// A manual tool's call answered by hand: its one attempt from 1000 to 37600 ms waited
/// for a person until 37200 (36.2 s), then ran 0.4 s with the answer.
Step answeredPendingCall()
{
    Step step = makeStep(1, {{1000, 37600}});
    step.tool = QStringLiteral("approve_refund");
    step.attempts.back().personWaits = {{1000, 37200}};
    return step;
}

QString msText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss.zzz"));
}

/// The share of `rect`'s pixels in `image` that have `colour`.
double shareOf(const QImage &image, const QRectF &rect, const QColor &colour)
{
    int hits = 0;
    int all = 0;
    const QRect r = rect.toAlignedRect().intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x, ++all)
            hits += image.pixelColor(x, y) == colour ? 1 : 0;
    return all > 0 ? double(hits) / all : 0.0;
}

/// `timeline` 1000 × 120 px on `model`, showing `fromMs`–`toMs`.
void showRange(TimelineWidget &timeline, TraceModel &model, qint64 fromMs, qint64 toMs)
{
    timeline.resize(1000, 120);
    timeline.setTraceModel(&model);
    timeline.setViewRange(fromMs, toMs);
}

} // namespace

class TstTimeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overlappingCallsGetTheirOwnLanes()
    {
        TraceModel model;
        // 1 and 2 overlap; 3 starts after 1 ended and reuses lane 0; 4 overlaps 2 and 3.
        model.addStep(makeStep(1, {{1000, 1100}}));
        model.addStep(makeStep(2, {{1050, 1300}}));
        model.addStep(makeStep(3, {{1150, 1200}}));
        model.addStep(makeStep(4, {{1160, 1250}}));
        model.flush();
        TimelineWidget timeline;
        timeline.resize(1000, 120);
        timeline.setTraceModel(&model);
        QCOMPARE(timeline.laneCount(), 3);
        QCOMPARE(timeline.laneOf(QStringLiteral("call-1")), 0);
        QCOMPARE(timeline.laneOf(QStringLiteral("call-2")), 1);
        QCOMPARE(timeline.laneOf(QStringLiteral("call-3")), 0);
        QCOMPARE(timeline.laneOf(QStringLiteral("call-4")), 2);
    }

    void hitTestingAndSelection()
    {
        TraceModel model;
        model.addStep(makeStep(1, {{1000, 1100}, {1400, 1500}}, StepStatus::Succeeded));
        model.addStep(makeStep(2, {{1050, 1300}}, StepStatus::Failed));
        model.flush();
        TimelineWidget timeline;
        showRange(timeline, model, 1000, 2000); // 1 ms per pixel
        const QRectF bar1 = timeline.barRect(QStringLiteral("call-1"));
        QCOMPARE(bar1.left(), 0.0);
        QCOMPARE(bar1.width(), 500.0);
        QCOMPARE(bar1.top(), double(TimelineWidget::AxisHeight + 2));
        // Inside an attempt, and inside the back-off gap between attempts: the same step.
        QCOMPARE(timeline.stepAt(QPoint(50, int(bar1.center().y())))->callId, QStringLiteral("call-1"));
        QCOMPARE(timeline.stepAt(QPoint(250, int(bar1.center().y())))->callId, QStringLiteral("call-1"));
        QVERIFY(!timeline.stepAt(QPoint(700, int(bar1.center().y()))));
        const QRectF bar2 = timeline.barRect(QStringLiteral("call-2"));
        QCOMPARE(timeline.stepAt(bar2.center().toPoint())->callId, QStringLiteral("call-2"));
        QVERIFY(!timeline.stepAt(QPoint(10, 5))); // the axis

        QSignalSpy selected(&timeline, &TimelineWidget::stepSelected);
        QTest::mouseClick(&timeline, Qt::LeftButton, {}, bar2.center().toPoint());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toString(), QStringLiteral("call-2"));
        QCOMPARE(timeline.selectedCallId(), QStringLiteral("call-2"));
        // Clicking empty space selects nothing new.
        QTest::mouseClick(&timeline, Qt::LeftButton, {}, QPoint(900, int(bar1.center().y())));
        QCOMPARE(selected.count(), 1);
    }

    void wheelZoomsAroundTheCursor()
    {
        TraceModel model;
        model.addStep(makeStep(1, {{1000, 2000}}));
        model.flush();
        TimelineWidget timeline;
        showRange(timeline, model, 1000, 2000);
        QWheelEvent wheel(QPointF(500, 40), timeline.mapToGlobal(QPointF(500, 40)), {}, QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&timeline, &wheel);
        QCOMPARE(timeline.viewStart(), qint64(1100));
        QCOMPARE(timeline.viewEnd(), qint64(1900));
    }

    // 100 000 back-to-back 1 ms steps in 1000 px: at most a bar per pixel is painted.
    void paintingSkipsWhatFallsOnTheSamePixel()
    {
        TraceModel model;
        for (int i = 0; i < 100000; ++i)
            model.addStep(makeStep(i + 1, {{1000 + i, 1000 + i + 1}}));
        model.flush();
        TimelineWidget timeline;
        timeline.resize(1000, 120);
        timeline.setTraceModel(&model);
        QCOMPARE(timeline.laneCount(), 1);
        timeline.setViewRange(1000, 101000);
        timeline.grab();
        QVERIFY2(timeline.lastPaintedBars() <= 1001, qPrintable(QString::number(timeline.lastPaintedBars())));
        QVERIFY(timeline.lastPaintedBars() >= 900);
        timeline.setViewRange(1000, 1100); // zoomed in: every step is wide enough
        timeline.grab();
        QCOMPARE(timeline.lastPaintedBars(), 100);
    }

    // One table holds both colours of a status: the timeline paints its bars in the
    // lighter one, the trace its icons and error text in the darker one.
    void barsAndTraceTextTakeTheirStatusColours()
    {
        const QList<std::tuple<StepStatus, QColor, QColor>> expected = {
            {StepStatus::Queued, QColor(0x8a, 0x8a, 0x8a), QColor(0x9e, 0x9e, 0x9e)},
            {StepStatus::Running, QColor(0x1e, 0x88, 0xe5), QColor(0x1e, 0x88, 0xe5)},
            {StepStatus::Retrying, QColor(0xfb, 0x8c, 0x00), QColor(0xfb, 0x8c, 0x00)},
            {StepStatus::Waiting, QColor(0x8e, 0x24, 0xaa), QColor(0x8e, 0x24, 0xaa)},
            {StepStatus::Succeeded, QColor(0x2e, 0x7d, 0x32), QColor(0x43, 0xa0, 0x47)},
            {StepStatus::Failed, QColor(0xc6, 0x28, 0x28), QColor(0xe5, 0x39, 0x35)},
            {StepStatus::Memoized, QColor(0x00, 0x83, 0x8f), QColor(0x00, 0x89, 0x7b)},
            {StepStatus::Cancelled, QColor(0x61, 0x61, 0x61), QColor(0x75, 0x75, 0x75)},
        };
        for (const auto &[status, trace, bar] : expected) {
            QCOMPARE(stepStatusColor(status, StatusColorUse::Trace), trace);
            QCOMPARE(stepStatusColor(status, StatusColorUse::Timeline), bar);
        }

        TraceModel model;
        model.addStep(makeStep(1, {{1000, 1100}}, StepStatus::Succeeded));
        Step failed = makeStep(2, {{1200, 1300}}, StepStatus::Failed);
        StepError error;
        error.code = ErrorCode::UnknownTool;
        error.message = "no tool named nope";
        failed.error = error;
        model.addStep(failed);
        model.flush();
        QCOMPARE(model.index(1, TraceModel::Summary).data(Qt::ForegroundRole).value<QColor>(),
                 QColor(0xc6, 0x28, 0x28));
        TimelineWidget timeline;
        showRange(timeline, model, 1000, 1300);
        const QImage image = timeline.grab().toImage();
        const QPoint ok = timeline.barRect(QStringLiteral("call-1")).center().toPoint();
        const QPoint bad = timeline.barRect(QStringLiteral("call-2")).center().toPoint();
        QCOMPARE(image.pixelColor(ok), QColor(0x43, 0xa0, 0x47));
        QCOMPARE(image.pixelColor(bad), QColor(0xe5, 0x39, 0x35));
    }

    // A running step's progress line ("3/4 …", an MCP server's notifications/progress):
    // three quarters of the bar's foot dark, the rest the bar's own colour.
    void runningStepShowsItsProgress()
    {
        TraceModel model;
        Step step = runningStep(QStringLiteral("3/4 Copying files"));
        model.addStep(step);
        model.flush();
        TimelineWidget timeline;
        showRange(timeline, model, 900, 3000);
        const QRectF bar = timeline.barRect(QStringLiteral("call-1"));
        QVERIFY(bar.width() > 200);
        const QImage image = timeline.grab().toImage();
        const int foot = int(bar.bottom()) - 1;
        const QColor running(0x1e, 0x88, 0xe5);
        QVERIFY(image.pixelColor(QPointF(bar.left() + bar.width() * 0.5, foot).toPoint()) != running);
        QCOMPARE(image.pixelColor(QPointF(bar.left() + bar.width() * 0.9, foot).toPoint()), running);

        // Without a total there is no share to draw: the foot keeps the bar's colour.
        step.attempts.back().progress = QStringLiteral("7 Copying files");
        model.updateStep(step);
        model.flush();
        const QImage noTotal = timeline.grab().toImage();
        QCOMPARE(noTotal.pixelColor(QPointF(bar.left() + bar.width() * 0.5, foot).toPoint()), running);
    }

    // The tooltip of a running step follows its progress while the mouse rests on the
    // bar (no new tooltip event comes while it does not move).
    void runningStepsToolTipFollowsItsProgress()
    {
        TraceModel model;
        Step step = runningStep(QStringLiteral("1/4 Copying files"));
        model.addStep(step);
        model.flush();
        TimelineWidget timeline;
        showRange(timeline, model, 900, 3000);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        const QPoint at = timeline.barRect(QStringLiteral("call-1")).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, at, timeline.mapToGlobal(at));
        QCoreApplication::sendEvent(&timeline, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().endsWith(QStringLiteral("\nprogress: 1/4 Copying files")),
                 qPrintable(QToolTip::text()));
        step.attempts.back().progress = QStringLiteral("3/4 Copying files");
        model.updateStep(step);
        model.flush();
        QVERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().endsWith(QStringLiteral("\nprogress: 3/4 Copying files")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    // A pending call answered by hand (issue: 36 s spent waiting drawn green, as if the
    // tool had run 36 s): the wait stays a segment of its own, hatched in the waiting
    // colour, after the answer too; the 0.4 s it ran after is the success colour; the
    // tooltip says which is which.
    void answeredPendingCallShowsItsWaitApart()
    {
        TraceModel model;
        Step step = answeredPendingCall();
        // While it waits: the wait is open, drawn to the end of the view.
        step.status = StepStatus::Waiting;
        step.endedAt = 0;
        step.attempts.back().endedAt = 0;
        step.attempts.back().succeeded = false;
        step.attempts.back().personWaits = {{1000, 0}};
        model.addStep(step);
        model.flush();
        TimelineWidget timeline;
        showRange(timeline, model, 0, 40000); // 40 ms a pixel
        const double y = TimelineWidget::AxisHeight + 2;
        QCOMPARE(timeline.waitRects(QStringLiteral("call-1")), QList<QRectF>{QRectF(25, y, 975, 14)});

        model.updateStep(answeredPendingCall());
        model.flush();
        QCOMPARE(timeline.barRect(QStringLiteral("call-1")), QRectF(25, y, 915, 14));
        QCOMPARE(timeline.waitRects(QStringLiteral("call-1")), QList<QRectF>{QRectF(25, y, 905, 14)});
        const QImage image = timeline.grab().toImage();
        const QColor waiting(0x8e, 0x24, 0xaa);
        const QColor succeeded(0x43, 0xa0, 0x47);
        // The wait: the waiting colour under a lighter hatch, no green in it, but for the
        // bar's foot, which keeps the outcome's colour under the wait.
        const QRectF wait(25, y, 905, 14 - TimelineWidget::OutcomeFoot);
        QVERIFY2(shareOf(image, wait, waiting) > 0.6, qPrintable(QString::number(shareOf(image, wait, waiting))));
        QCOMPARE(shareOf(image, wait, succeeded), 0.0);
        QCOMPARE(shareOf(image, QRectF(25, y + 14 - TimelineWidget::OutcomeFoot, 905, TimelineWidget::OutcomeFoot),
                         succeeded),
                 1.0);
        // The 0.4 s it ran: 930 to 940 px, green.
        QCOMPARE(shareOf(image, QRectF(930, y, 10, 14), succeeded), 1.0);
        // The trace's attempt row says it in its Duration tooltip.
        const QModelIndex stepRow = model.index(0, 0);
        QCOMPARE(model.rowCount(stepRow), 1);
        QCOMPARE(model.index(0, TraceModel::Duration, stepRow).data().toString(), QStringLiteral("36.6 s"));
        QCOMPARE(model.index(0, TraceModel::Duration, stepRow).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("ran 400 ms, waited for a person 36.2 s"));

        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        const QPoint at(500, int(y) + 7);
        QHelpEvent help(QEvent::ToolTip, at, timeline.mapToGlobal(at));
        QCoreApplication::sendEvent(&timeline, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(),
                 QStringLiteral("#1 approve_refund — %1\nqueued %2\nattempt 1: %2 – %3 (ran 400 ms, waited for a "
                                "person 36.2 s)\nended %3, 36600 ms in all")
                     .arg(TraceModel::statusText(StepStatus::Succeeded), msText(1000), msText(37600)));
        QToolTip::hideText();
    }

    // A step held by step mode from 1000 until a person continued it at 6000: the hold
    // starts the bar and is its waiting segment; the attempt after it ran 400 ms.
    void stepModeHoldIsAWaitBeforeTheAttempt()
    {
        TraceModel model;
        Step step = makeStep(1, {{6000, 6400}});
        step.heldAt = 1000;
        model.addStep(step);
        model.flush();
        TimelineWidget timeline;
        showRange(timeline, model, 0, 10000); // 10 ms a pixel
        const double y = TimelineWidget::AxisHeight + 2;
        QCOMPARE(timeline.barRect(QStringLiteral("call-1")), QRectF(100, y, 540, 14));
        QCOMPARE(timeline.waitRects(QStringLiteral("call-1")), QList<QRectF>{QRectF(100, y, 500, 14)});
        const std::optional<StepSummary> s = timeline.stepAt(QPoint(300, int(y) + 7));
        QVERIFY(s);
        QCOMPARE(s->heldAt, qint64(1000));
    }

    // Reopened from the journal (Runs, `toolstudio` opening a project): the same
    // segments as live — an answered call's wait, a step-mode hold, an MCP call's two
    // questions in a retried step's second attempt.
    void journalRunKeepsItsWaits()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Step manual = answeredPendingCall();
        Step held = makeStep(2, {{6000, 6400}});
        held.heldAt = 1000;
        Step asked = makeStep(3, {{2000, 3000}, {4000, 20000}});
        asked.attempts.back().personWaits = {{5000, 8000}, {10000, 18000}};
        {
            Journal journal;
            QVERIFY(journal.open(path));
            QVERIFY(journal.commit({&manual, &held, &asked}, {}));
        }
        TraceModel model;
        QVERIFY(model.openRun(path, QStringLiteral("run1")));
        TimelineWidget timeline;
        timeline.resize(1000, 120);
        QSignalSpy loaded(&timeline, &TimelineWidget::loaded);
        timeline.setTraceModel(&model);
        QVERIFY(loaded.wait(10000));
        timeline.setViewRange(0, 40000);
        const auto lane = [&](const QString &callId) {
            return TimelineWidget::AxisHeight + timeline.laneOf(callId) * TimelineWidget::LaneHeight + 2.0;
        };
        QCOMPARE(timeline.waitRects(QStringLiteral("call-1")),
                 QList<QRectF>{QRectF(25, lane(QStringLiteral("call-1")), 905, 14)});
        QCOMPARE(timeline.barRect(QStringLiteral("call-2")).left(), 25.0);
        QCOMPARE(timeline.waitRects(QStringLiteral("call-2")),
                 QList<QRectF>{QRectF(25, lane(QStringLiteral("call-2")), 125, 14)});
        const double y3 = lane(QStringLiteral("call-3"));
        QCOMPARE(timeline.waitRects(QStringLiteral("call-3")),
                 (QList<QRectF>{QRectF(125, y3, 75, 14), QRectF(250, y3, 200, 14)}));
        // The tooltip reads the same row from the journal.
        QTRY_VERIFY_WITH_TIMEOUT(timeline.stepAt(QPoint(300, int(y3) + 7)), 10000);
        const StepSummary s = *timeline.stepAt(QPoint(300, int(y3) + 7));
        QCOMPARE(s.attempts.size(), std::size_t(2));
        QCOMPARE(s.attempts[1].waitedMs(0), qint64(11000));
        QCOMPARE(s.attempts[1].ranMs(0), qint64(5000));
    }

    // A screenshot of the timeline with an answered pending call among other calls, for
    // a person to look at (as tst_firststeps' window screenshots): written to
    // build/tests/screenshots/timeline-answered-pending-call.png.
    void answeredPendingCallScreenshot()
    {
        TraceModel model;
        model.addStep(makeStep(1, {{1000, 2200}}));
        Step manual = answeredPendingCall();
        manual.sequence = 2;
        manual.callId = QStringLiteral("call-2");
        manual.queuedAt = manual.startedAt = manual.attempts.front().startedAt = 2300;
        manual.endedAt = manual.attempts.front().endedAt = 38600;
        manual.attempts.back().personWaits = {{2300, 38200}};
        model.addStep(manual);
        Step held = makeStep(3, {{10000, 10900}});
        held.heldAt = 3500;
        model.addStep(held);
        Step asked = makeStep(4, {{11500, 13000}, {14000, 31000}});
        asked.tool = QStringLiteral("everything.trigger-elicitation");
        asked.attempts.back().personWaits = {{15000, 27000}};
        model.addStep(asked);
        model.addStep(makeStep(5, {{39000, 40500}}));
        model.flush();
        TimelineWidget timeline;
        timeline.resize(900, TimelineWidget::AxisHeight + 4 * TimelineWidget::LaneHeight + 4);
        timeline.setTraceModel(&model);
        timeline.fit();
        const QString out = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(out));
        const QPixmap shot = timeline.grab();
        QCOMPARE(shot.size(), timeline.size());
        QVERIFY(shot.save(out + QStringLiteral("/timeline-answered-pending-call.png")));
    }

    // A tick near the right edge has its label left of its line, whole: nothing of it
    // runs past the edge, where it was cut.
    void lastTickLabelIsNotCutAtTheRightEdge()
    {
        TraceModel model;
        model.addStep(makeStep(1, {{1000, 1900}}));
        model.flush();
        TimelineWidget timeline;
        timeline.resize(1000, 120);
        timeline.setTraceModel(&model);
        // 1 ms per pixel, ticks every 100 ms from the first step's start: at x = 80,
        // 180, …, 980; the last one's label ("900 ms") does not fit right of x = 980.
        timeline.setViewRange(920, 1920);
        const QImage image = timeline.grab().toImage();
        const QRgb base = timeline.palette().color(QPalette::Base).rgb();
        // Ink in the axis band (above the grid lines) between columns [from, to).
        const auto inked = [&](int from, int to) {
            for (int x = from; x < to; ++x)
                for (int y = 0; y < TimelineWidget::AxisHeight - 4; ++y)
                    if (image.pixel(x, y) != base)
                        return true;
            return false;
        };
        QVERIFY(!inked(981, image.width())); // nothing right of the last tick line
        QVERIFY(inked(930, 979));            // its label, left of it
        QVERIFY(inked(882, 930));            // the label before it, right of its line at 880
    }

    // No steps yet: the placeholder alone, no axis grid line or label drawn through it.
    void emptyTimelineShowsOnlyThePlaceholder()
    {
        TraceModel model;
        TimelineWidget timeline;
        timeline.resize(600, 120);
        timeline.setTraceModel(&model);
        QCOMPARE(timeline.laneCount(), 0);
        const QImage image = timeline.grab().toImage();
        const QRgb grid = timeline.palette().color(QPalette::Mid).rgb();
        // A grid line is a column of the Mid colour down most of the widget.
        const auto gridLines = [grid](const QImage &img) {
            int lines = 0;
            for (int x = 0; x < img.width(); ++x) {
                int run = 0;
                for (int y = 0; y < img.height(); ++y)
                    run += img.pixel(x, y) == grid ? 1 : 0;
                lines += run > img.height() / 2 ? 1 : 0;
            }
            return lines;
        };
        QCOMPARE(gridLines(image), 0);
        // With a step the axis is drawn.
        model.addStep(makeStep(1, {{1000, 1500}}));
        model.flush();
        QCOMPARE(timeline.laneCount(), 1);
        QVERIFY(gridLines(timeline.grab().toImage()) > 0);
    }

    // A run opened from the journal is read in the background, then laid out the same
    // way: 1 000 back-to-back steps, step 5 retried once (its back-off gap kept).
    void journalRunIsReadInTheBackground()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            std::vector<Step> steps;
            for (int i = 1; i <= 1000; ++i) {
                const qint64 t = 1000 + 10 * qint64(i);
                steps.push_back(i == 5 ? makeStep(i, {{t, t + 2}, {t + 6, t + 9}}) : makeStep(i, {{t, t + 9}}));
            }
            steps[9].status = StepStatus::Failed;
            std::vector<const Step *> pointers;
            for (const Step &s : steps)
                pointers.push_back(&s);
            QVERIFY(journal.commit(pointers, {}));
        }
        TraceModel model;
        QVERIFY(model.openRun(path, QStringLiteral("run1")));
        TimelineWidget timeline;
        timeline.resize(1000, 120);
        QSignalSpy loaded(&timeline, &TimelineWidget::loaded);
        timeline.setTraceModel(&model);
        QVERIFY(timeline.isLoading());
        QVERIFY(loaded.wait(10000));
        QVERIFY(!timeline.isLoading());
        QCOMPARE(timeline.laneCount(), 1);
        timeline.setViewRange(1050, 1070); // 50 px per ms around step 5
        const QRectF bar5 = timeline.barRect(QStringLiteral("call-5"));
        QCOMPARE(bar5.left(), 0.0);
        QCOMPARE(bar5.width(), 450.0);
        // The trace's page is read by its loader thread: the first look asks for it.
        QTRY_VERIFY_WITH_TIMEOUT(timeline.stepAt(QPoint(200, int(bar5.center().y()))), 10000);
        QCOMPARE(timeline.stepAt(QPoint(200, int(bar5.center().y())))->callId, QStringLiteral("call-5")); // in the gap
        QCOMPARE(timeline.stepAt(QPoint(600, int(bar5.center().y())))->sequence, 6);
        QCOMPARE(timeline.stepAt(QPoint(600, int(bar5.center().y())))->tool, QStringLiteral("get_exchange_rate"));
        timeline.setViewRange(1000, 11100);
        timeline.grab();
        QVERIFY2(timeline.lastPaintedBars() <= 1001, qPrintable(QString::number(timeline.lastPaintedBars())));
        QVERIFY(timeline.lastPaintedBars() >= 900);
    }
};

QTEST_MAIN(TstTimeline)
#include "tst_timeline.moc"
