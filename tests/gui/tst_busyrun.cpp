// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI thread never waits (issue 18, item 2): while the run thread is busy (each
// call of the busy tool keeps it validating for 2 s), the window's event loop keeps
// turning — no gap over 1 s between ticks of a 10 ms timer — while a trace over the
// run's thousands of journaled steps is scrolled, a held call is continued (step mode)
// and a manual call is answered.
#include "busyrun.h"
#include "consoleview.h"
#include "run/runcontroller.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "trustedproject.h"
#include "ui/answerpane.h"
#include "ui/mainwindow.h"
#include "ui/pendingcallspanel.h"
#include "ui/stepmodeactions.h"
#include "windowfixture.h"

#include <QAction>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTest>
#include <QTreeView>

namespace {

/// The generous bound of the issue: no event (no gap between ticks) over 1 s.
constexpr double MaxGapMs = 1000;

/// The number N of the script's last "busy N" line (0 before the first).
int busyCalls(MainWindow &window)
{
    const QString text = window.console()->toPlainText();
    int last = 0;
    for (const QRegularExpressionMatch &m : QRegularExpression(QStringLiteral("busy (\\d+)")).globalMatch(text))
        last = m.captured(1).toInt();
    return last;
}

} // namespace

class TstBusyRun
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private:
    /// Answers the open call of `tool` with the raw JSON `json` through the answer pane.
    bool answer(const QString &tool, const QString &json)
    {
        PendingCallsPanel *panel = m_window->pendingPanel();
        for (const Step &step : panel->pendingCalls()) {
            if (step.tool != tool)
                continue;
            if (!panel->selectCall(step.callId))
                return false;
            AnswerPane *pane = panel->answerPane();
            pane->resultEdit()->setPlainText(json);
            pane->sendResultButton()->click();
            return pane->problem().isEmpty();
        }
        return false;
    }

    bool hasPending(const QString &tool) const
    {
        const QList<Step> &calls = m_window->pendingPanel()->pendingCalls();
        return std::any_of(calls.begin(), calls.end(), [&](const Step &s) { return s.tool == tool; });
    }

    /// Waits for the next "busy N" line, then for the call it announces (sent 0.2 s
    /// after the line): the run thread validates it for the next ~1.8 s.
    bool waitForAFreshBusyCall()
    {
        const int before = busyCalls(*m_window);
        if (!QTest::qWaitFor([&] { return busyCalls(*m_window) > before; }, RunTimeoutMs))
            return false;
        QTest::qWait(400);
        return true;
    }

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }

    void init() { initWindow(); }

    void cleanup() { closeWindow(); }

    void guiKeepsTurningWhileTheRunThreadIsBusy_data()
    {
        QTest::addColumn<QString>("action");
        QTest::newRow("trace scroll") << QStringLiteral("scroll");
        // These two wait for run18 (RunController::continueStep/answer posted to the
        // run thread instead of BlockingQueuedConnection): until then the window waits
        // for the validation in progress, up to 2 s.
        QTest::newRow("step decision") << QStringLiteral("continue");
        QTest::newRow("manual answer") << QStringLiteral("answer");
    }

    void guiKeepsTurningWhileTheRunThreadIsBusy()
    {
        QFETCH(QString, action);
        const QString dir = m_scratch->path() + QStringLiteral("/busy");
        QVERIFY(BusyRun::writeProject(dir));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runAction()->trigger();
        // The fast phase: thousands of steps journaled, then the gate.
        QTRY_VERIFY_WITH_TIMEOUT(hasPending(QStringLiteral("gate")), 4 * RunTimeoutMs);
        const QString runId = m_window->pendingPanel()->pendingCalls().first().runId;
        if (action == QLatin1String("continue"))
            m_window->stepModeAction()->setChecked(true); // holds `ask` before it runs
        QVERIFY(answer(QStringLiteral("gate"), QStringLiteral("true")));
        QVERIFY(waitForAFreshBusyCall());

        BusyRun::EventLoopWatch watch;
        if (action == QLatin1String("scroll")) {
            // The trace of this run from the journal (the window shows the live run; a
            // run opened from the journal is a second trace view), scrolled top to
            // bottom while the run thread validates: every page is read off the GUI thread.
            TraceModel trace;
            TraceFilterModel filter;
            filter.setTraceModel(&trace);
            QTreeView view;
            view.setUniformRowHeights(true);
            view.setModel(&filter);
            view.resize(900, 600);
            QVERIFY(trace.openRun(dir + QStringLiteral("/.toolstudio/journal.sqlite"), runId));
            QVERIFY2(trace.stepCount() >= BusyRun::FastSteps, qPrintable(QString::number(trace.stepCount())));
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QVERIFY(waitForAFreshBusyCall());
            watch.start();
            QScrollBar *bar = view.verticalScrollBar();
            for (int k = 0; k <= 40; ++k) {
                bar->setValue(bar->maximum() * k / 40);
                QTest::qWait(40);
            }
            watch.stop();
            // The last rows came from the loader thread, real rows, not placeholders.
            QTRY_VERIFY_WITH_TIMEOUT(trace.isLoaded(trace.stepCount() - 1), 10000);
        } else if (action == QLatin1String("continue")) {
            QTRY_VERIFY_WITH_TIMEOUT(m_window->stepModeActions()->continueAction()->isEnabled(), RunTimeoutMs);
            QVERIFY(waitForAFreshBusyCall());
            watch.start();
            m_window->stepModeActions()->continueAction()->trigger();
            QTest::qWait(1500);
            watch.stop();
            QTRY_VERIFY_WITH_TIMEOUT(hasPending(QStringLiteral("ask")), RunTimeoutMs);
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(hasPending(QStringLiteral("ask")), RunTimeoutMs);
            QVERIFY(waitForAFreshBusyCall());
            watch.start();
            QVERIFY(answer(QStringLiteral("ask"), QStringLiteral("\"yes\"")));
            QTest::qWait(1500);
            watch.stop();
            QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->toPlainText().contains(QLatin1String("answered yes")),
                                     RunTimeoutMs);
        }
        QVERIFY2(watch.ticks() > 10, qPrintable(QString::number(watch.ticks())));
        qInfo("%s: largest gap between 10 ms ticks %.1f ms (busy calls so far: %d)", qPrintable(action),
              watch.worstGapMs(), busyCalls(*m_window));
        QVERIFY2(watch.worstGapMs() < MaxGapMs,
                 qPrintable(QStringLiteral("the event loop stood still for %1 ms").arg(watch.worstGapMs(), 0, 'f', 1)));
    }
};

QTEST_MAIN(TstBusyRun)
#include "tst_busyrun.moc"
