// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI thread never waits (issue 18, item 2): while the run thread is busy (each
// call of the busy tool keeps it validating for 2 s), the window's event loop keeps
// turning — no gap over 1 s between ticks of a 10 ms timer — while a trace over the
// run's thousands of journaled steps is scrolled, a held call is continued (step mode)
// and a manual call is answered.
#include "busyrun.h"
#include "run/runcontroller.h"
#include "trustedproject.h"
#include "ui/mainwindow.h"
#include "ui/runcommands.h"
#include "ui/stepmodeactions.h"
#include "windowfixture.h"

#include <QAction>
#include <QTest>

namespace {

/// The generous bound of the issue: no event (no gap between ticks) over 1 s.
constexpr double MaxGapMs = 1000;

} // namespace

class TstBusyRun
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

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
        m_window->runCommands()->runAction()->trigger();
        // The fast phase: thousands of steps journaled, then the gate.
        QTRY_VERIFY_WITH_TIMEOUT(BusyRun::hasPending(*m_window, QStringLiteral("gate")), 4 * RunTimeoutMs);
        const QString runId = m_window->pendingPanel()->pendingCalls().first().runId;
        if (action == QLatin1String("continue"))
            m_window->stepModeActions()->stepModeAction()->setChecked(true); // holds `ask` before it runs
        QVERIFY(BusyRun::answer(*m_window, QStringLiteral("gate"), QStringLiteral("true")));
        QVERIFY(BusyRun::waitForAFreshBusyCall(*m_window, RunTimeoutMs));

        BusyRun::EventLoopWatch watch;
        if (action == QLatin1String("scroll")) {
            // The trace of this run from the journal (the window shows the live run; a
            // run opened from the journal is a second trace view), scrolled top to
            // bottom while the run thread validates: every page is read off the GUI thread.
            BusyRun::JournalTrace trace;
            QVERIFY(trace.open(dir, runId));
            QVERIFY2(trace.model.stepCount() >= BusyRun::FastSteps,
                     qPrintable(QString::number(trace.model.stepCount())));
            QVERIFY(BusyRun::waitForAFreshBusyCall(*m_window, RunTimeoutMs));
            watch.start();
            trace.scrollThrough();
            watch.stop();
            // The last rows came from the loader thread, real rows, not placeholders.
            QTRY_VERIFY_WITH_TIMEOUT(trace.model.isLoaded(trace.model.stepCount() - 1), 10000);
        } else if (action == QLatin1String("continue")) {
            QTRY_VERIFY_WITH_TIMEOUT(m_window->stepModeActions()->continueAction()->isEnabled(), RunTimeoutMs);
            QVERIFY(BusyRun::waitForAFreshBusyCall(*m_window, RunTimeoutMs));
            watch.start();
            m_window->stepModeActions()->continueAction()->trigger();
            QTest::qWait(1500);
            watch.stop();
            QTRY_VERIFY_WITH_TIMEOUT(BusyRun::hasPending(*m_window, QStringLiteral("ask")), RunTimeoutMs);
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(BusyRun::hasPending(*m_window, QStringLiteral("ask")), RunTimeoutMs);
            QVERIFY(BusyRun::waitForAFreshBusyCall(*m_window, RunTimeoutMs));
            watch.start();
            QVERIFY(BusyRun::answer(*m_window, QStringLiteral("ask"), QStringLiteral("\"yes\"")));
            QTest::qWait(1500);
            watch.stop();
            QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->toPlainText().contains(QLatin1String("answered yes")),
                                     RunTimeoutMs);
        }
        QVERIFY2(watch.ticks() > 10, qPrintable(QString::number(watch.ticks())));
        qInfo("%s: largest gap between 10 ms ticks %.1f ms (busy calls so far: %d)", qPrintable(action),
              watch.worstGapMs(), BusyRun::busyCalls(*m_window));
        QVERIFY2(watch.worstGapMs() < MaxGapMs,
                 qPrintable(QStringLiteral("the event loop stood still for %1 ms").arg(watch.worstGapMs(), 0, 'f', 1)));
    }
};

QTEST_MAIN(TstBusyRun)
#include "tst_busyrun.moc"
