// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's Pending Calls dock: a manual call answered in its form (and an
// error sent), calls queued, a call held by step mode raising the dock, a run stopped
// while it waits, an answer another answerer beat, and the clocks of calls in flight
// (the budget meters' and the dock's wait clock).
#include "consoleview.h"
#include "mainwindowfixture.h"
#include "run/attemptclocks.h"
#include "run/runcontroller.h"
#include "schemaform.h"
#include "testfiles.h"
#include "tracemodel.h"
#include "ui/answerpane.h"
#include "ui/mainwindow.h"
#include "ui/pendingcallspanel.h"
#include "ui/runcommands.h"
#include "ui/stepmodeactions.h"

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTest>

namespace {

// The text of the front tab in `window`'s dock tab bar that has a tab starting with `tab`.
QString frontTab(const QMainWindow *window, const QString &tab)
{
    const QList<QTabBar *> bars = window->findChildren<QTabBar *>();
    for (QTabBar *bar : bars)
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i).startsWith(tab))
                return bar->tabText(bar->currentIndex());
    return QString();
}

} // namespace

class TstMainWindowPending
    : public QObject
    , protected MainWindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }

    void init() { initWindow(ErrorDialogs::Shown); }

    void cleanup() { closeWindow(); }

    void manualCallIsAnsweredInTheDock()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();

        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);
        AnswerPane *dialog = m_window->pendingPanel()->answerPane();
        QCOMPARE(dialog->tool(), QStringLiteral("render_report"));
        QCOMPARE(dialog->callId(), pendingCalls().first().callId);
        QCOMPARE(dialog->attempt(), 1);
        QTRY_COMPARE(m_window->statusText(), QStringLiteral("Waiting for an answer to render_report"));
        QTRY_COMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("waiting"));
        QVERIFY(m_window->runCommands()->answerAction()->isEnabled());

        // The Pending Calls dock lists the call with its waited time; its tab has a badge.
        QCOMPARE(pendingList()->count(), 1);
        QVERIFY(!pendingList()->isHidden());
        QVERIFY2(pendingList()->item(0)->text().startsWith(QLatin1String("#1 render_report (attempt 1, waiting ")),
                 qPrintable(pendingList()->item(0)->text()));
        QVERIFY(pendingList()->item(0)->text().endsWith(QLatin1String(") {\"topic\":\"Q3 seat growth\"}")));
        QCOMPARE(docks().at(4)->windowTitle(), QStringLiteral("Pending Calls (1)"));

        // The tool has an output_schema (a URI string): the answer is a form, filled
        // by typing into it; the script gets exactly that JSON string.
        QVERIFY(dialog->usesForm());
        QVERIFY(!dialog->resultEdit()->isVisible());
        auto *edit = qobject_cast<QLineEdit *>(dialog->resultForm()->control(QString()));
        QVERIFY(edit);
        // A value the schema refuses: said once, at the field (the pane repeated it below).
        QTest::keyClicks(edit, QStringLiteral("not a url"));
        QVERIFY(!dialog->sendResult());
        QVERIFY2(dialog->problem().startsWith(QLatin1String("(root): does not match the pattern")),
                 qPrintable(dialog->problem()));
        QCOMPARE(dialog->resultForm()->errorAt(QString()), dialog->problem().mid(8));
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("answerProblem"))->isHidden());
        edit->clear();
        QTest::keyClicks(edit, QStringLiteral("https://example.org/report.pdf"));
        QCOMPARE(dialog->resultForm()->value().dump(), std::string("\"https://example.org/report.pdf\""));
        QVERIFY(m_window->runController()->isActive());
        QVERIFY(dialog->problem().isEmpty());
        QVERIFY2(dialog->sendResult(), qPrintable(dialog->problem()));
        QTRY_VERIFY(dialog->callId().isEmpty());
        // The pane shows the call closed with what was sent; nothing more can be typed or sent.
        QTRY_COMPARE(dialog->clockLabel()->text(), QStringLiteral("Answered with \"https://example.org/report.pdf\""));
        QVERIFY2(dialog->headingLabel()->text().startsWith(
                     QStringLiteral("<b>render_report</b> is closed, no longer waiting \u2014 attempt 1 of ")),
                 qPrintable(dialog->headingLabel()->text()));
        QVERIFY(!edit->isEnabled());
        QVERIFY(!dialog->sendResultButton()->isEnabled());
        QVERIFY(!dialog->sendErrorButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        // The 5 s notice "#1 render_report is waiting for an answer" went with the call: it
        // no longer covers "Completed in …" (helper-144's screenshot).
        QCOMPARE(m_window->statusBar()->currentMessage(), QString());
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Summary),
                 QStringLiteral("\"https://example.org/report.pdf\""));
        QTRY_VERIFY(m_window->console()->toPlainText().contains(
            QLatin1String("Report ready: https://example.org/report.pdf\n")));
        QVERIFY(pendingCalls().isEmpty());
        QCOMPARE(pendingList()->count(), 0);
        // No call open, no list: not an empty row above the answered call (nc-shot22).
        QVERIFY(pendingList()->isHidden());
        QCOMPARE(docks().at(4)->windowTitle(), QStringLiteral("Pending Calls"));
        QVERIFY(!m_window->runCommands()->answerAction()->isEnabled());
    }

    void stopCancelsAWaitingRun()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);
        QVERIFY(m_window->runCommands()->stopAction()->isEnabled());
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());

        m_window->runCommands()->stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QTRY_VERIFY(m_window->statusText().startsWith(QLatin1String("Stopped after ")));
        // The list empties; the call stays shown, closed: the waiting line is replaced,
        // its form and Send buttons are disabled.
        QCOMPARE(pendingList()->count(), 0);
        AnswerPane *pane = m_window->pendingPanel()->answerPane();
        QTRY_COMPARE(pane->clockLabel()->text(), QStringLiteral("Closed: the run was stopped before an answer."));
        QVERIFY2(!pane->headingLabel()->text().contains(QLatin1String("is waiting for an answer")),
                 qPrintable(pane->headingLabel()->text()));
        QVERIFY2(pane->headingLabel()->text().startsWith(
                     QStringLiteral("<b>render_report</b> is closed, no longer waiting")),
                 qPrintable(pane->headingLabel()->text()));
        QVERIFY(!pane->resultForm()->control(QString())->isEnabled());
        QVERIFY(!pane->sendResultButton()->isEnabled());
        QVERIFY(!pane->sendErrorButton()->isEnabled());
        QVERIFY(!pane->errorMessageEdit()->isEnabled());
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("cancelled"));
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());
        QVERIFY(!m_window->runCommands()->stopAction()->isEnabled());
    }

    // Step mode (F10): a held call brings the Pending Calls dock forward, and Answer
    // Pending Call… (F6) is enabled for it and shows it with Continue.
    void stepModeHeldCallRaisesTheDock()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        docks().at(3)->raise(); // the Step dock in front, as after opening
        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE(frontTab(m_window.get(), QStringLiteral("Pending Calls")), QStringLiteral("Step"));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();

        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        QCOMPARE(docks().at(4)->windowTitle(), QStringLiteral("Pending Calls (1)"));
        QTRY_COMPARE(frontTab(m_window.get(), QStringLiteral("Pending Calls")), QStringLiteral("Pending Calls (1)"));
        QVERIFY(m_window->runCommands()->answerAction()->isEnabled());

        docks().at(3)->raise();
        QTRY_COMPARE(frontTab(m_window.get(), QStringLiteral("Pending Calls")), QStringLiteral("Step"));
        m_window->runCommands()->answerAction()->trigger();
        QTRY_COMPARE(frontTab(m_window.get(), QStringLiteral("Pending Calls")), QStringLiteral("Pending Calls (1)"));
        QCOMPARE(panel->currentCallId(), panel->heldCalls().first().callId);
        QVERIFY(panel->continueButton()->isEnabled());

        panel->continueButton()->click();
        QTRY_VERIFY(panel->heldCalls().isEmpty());
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    void pendingCallsQueueInTheDock()
    {
        // Two manual calls in flight at once: both listed, the oldest shown first.
        const QString dir = m_scratch->filePath(QStringLiteral("approvals"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/scripts")));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), R"({
  "name": "approvals",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [{
    "name": "approve",
    "description": "A person approves an item.",
    "input_schema": {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]},
    "handler": {"kind": "manual"}
  }]
})"));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"), R"(import asyncio
from toolstudio import tools, ToolError

async def main():
    results = await asyncio.gather(tools.approve(item="a"), tools.approve(item="b"), return_exceptions=True)
    for result in results:
        print(f"error: {result.message}" if isinstance(result, ToolError) else f"ok: {result}")

asyncio.run(main())
)"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();

        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 2, RunTimeoutMs);
        QCOMPARE(m_window->statusText(), QStringLiteral("Waiting for answers to approve and one more call"));
        AnswerPane *dialog = m_window->pendingPanel()->answerPane();
        const Step first = pendingCalls().at(0);
        const Step second = pendingCalls().at(1);
        QCOMPARE(dialog->callId(), first.callId);
        QCOMPARE(pendingList()->count(), 2);

        // Selecting the other call shows it; F6 goes back to the selected one.
        pendingList()->setCurrentRow(1);
        QCOMPARE(dialog->callId(), second.callId);
        pendingList()->setCurrentRow(0);
        QCOMPARE(dialog->callId(), first.callId);
        QVERIFY(m_window->runCommands()->answerAction()->isEnabled());
        m_window->runCommands()->answerAction()->trigger();
        QCOMPARE(dialog->callId(), first.callId);

        // An error needs a message; then it is sent, not retryable.
        QVERIFY(!dialog->sendError());
        QCOMPARE(dialog->problem(), QStringLiteral("Enter the error message the script should see."));
        dialog->errorMessageEdit()->setText(QStringLiteral("rejected by a person"));
        dialog->retryableCheck()->setChecked(false);
        QVERIFY2(dialog->sendError(), qPrintable(dialog->problem()));

        // The other call comes next, in the same pane.
        QTRY_COMPARE(pendingCalls().size(), 1);
        QCOMPARE(dialog->callId(), second.callId);
        QCOMPARE(m_window->statusText(), QStringLiteral("Waiting for an answer to approve"));
        dialog->resultEdit()->setPlainText(QStringLiteral("false"));
        QVERIFY2(dialog->sendResult(), qPrintable(dialog->problem()));

        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const QString console = m_window->console()->toPlainText();
        const QString firstLine = first.args.value("item", "") == "a" ? QStringLiteral("error: rejected by a person")
                                                                      : QStringLiteral("ok: False");
        QVERIFY2(console.contains(firstLine), qPrintable(console));
        TraceModel *trace = m_window->traceModel();
        const QModelIndex firstRow = trace->indexForCallId(first.callId);
        const QModelIndex secondRow = trace->indexForCallId(second.callId);
        QCOMPARE(trace->index(firstRow.row(), TraceModel::Status).data().toString(), QStringLiteral("failed"));
        QCOMPARE(trace->index(firstRow.row(), TraceModel::Summary)
                     .data()
                     .toString()
                     .endsWith(QLatin1String("rejected by a person")),
                 true);
        QCOMPARE(trace->index(secondRow.row(), TraceModel::Status).data().toString(), QStringLiteral("succeeded"));
        QCOMPARE(trace->index(secondRow.row(), TraceModel::Summary).data().toString(), QStringLiteral("false"));
    }

    // Another answerer got there first: the dialog's answer is refused with the reason.
    void staleAnswerIsRefusedWithTheReason()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);
        AnswerPane *dialog = m_window->pendingPanel()->answerPane();
        ManualAnswer first;
        first.result = "https://example.org/first.pdf";
        // Posted (issue 18): the outcome comes back queued.
        bool accepted = false;
        m_window->runController()->answer(dialog->callId(), 1, first, this,
                                          [&accepted](bool ok, const QString &) { accepted = ok; });
        QTRY_VERIFY(accepted);
        // The dock still shows the call, closed and disabled.
        QTRY_COMPARE(dialog->clockLabel()->text(), QStringLiteral("Closed: answered elsewhere."));
        QCOMPARE(dialog->tool(), QStringLiteral("render_report"));
        QVERIFY(!dialog->sendErrorButton()->isEnabled());
        // An answer sent anyway (there is no button for it) is refused with the reason.
        dialog->errorMessageEdit()->setText(QStringLiteral("too late"));
        QSignalSpy refused(dialog, &AnswerPane::answerRefused);
        QVERIFY(dialog->sendError()); // sent; the run's refusal comes back queued
        QTRY_COMPARE(refused.size(), 1);
        QVERIFY2(dialog->problem().startsWith(QLatin1String("The run refused the answer: ")),
                 qPrintable(dialog->problem()));
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QTRY_VERIFY(m_window->console()->toPlainText().contains(
            QLatin1String("Report ready: https://example.org/first.pdf\n")));
    }

    // Issue 8 item 4 end to end: the call appears in the dock, its output_schema form is
    // filled by typing, Ctrl+Return sends, and the script prints exactly that JSON.
    void pendingCallFormInTheDockEndToEnd()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("review"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/scripts")));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), R"({
  "name": "review",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [{
    "name": "review_document",
    "description": "A person reviews a document.",
    "input_schema": {"type": "object", "properties": {"doc": {"type": "string"}}, "required": ["doc"]},
    "output_schema": {"type": "object",
                      "properties": {"approved": {"type": "boolean"}, "pages": {"type": "integer"},
                                     "reviewer": {"type": "string"}},
                      "required": ["approved", "pages", "reviewer"]},
    "handler": {"kind": "manual"},
    "retry": {"attempt_timeout_seconds": 600}
  }]
})"));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"), R"(import json
from toolstudio import tools

answer = tools.review_document(doc="q3.pdf")
print("answer=" + json.dumps(answer, sort_keys=True, separators=(",", ":")))
)"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        m_window->runCommands()->runAction()->trigger();

        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);
        PendingCallsPanel *panel = m_window->pendingPanel();
        AnswerPane *pane = panel->answerPane();
        QVERIFY(pane->isVisible()); // the dock came forward
        QCOMPARE(pane->tool(), QStringLiteral("review_document"));
        QCOMPARE(pane->argumentsView()->toPlainText(), QStringLiteral("{\n  \"doc\": \"q3.pdf\"\n}"));
        QVERIFY2(pane->clockLabel()->text().startsWith(QLatin1String("waited ")),
                 qPrintable(pane->clockLabel()->text()));
        QVERIFY2(pane->clockLabel()->text().endsWith(QLatin1String(" of 10 min 0 s (wait bound)")),
                 qPrintable(pane->clockLabel()->text()));
        QVERIFY(pane->usesForm());

        auto *approved = qobject_cast<QCheckBox *>(pane->resultForm()->control(QStringLiteral("/approved")));
        auto *pages = qobject_cast<QLineEdit *>(pane->resultForm()->control(QStringLiteral("/pages")));
        auto *reviewer = qobject_cast<QLineEdit *>(pane->resultForm()->control(QStringLiteral("/reviewer")));
        QVERIFY(approved && pages && reviewer);
        approved->setFocus();
        QTest::keyClick(approved, Qt::Key_Space);
        QTest::keyClicks(pages, QStringLiteral("12"));
        QTest::keyClicks(reviewer, QStringLiteral("Ada "));
        QTest::sendKeyEvent(QTest::Click, reviewer, Qt::Key_Eacute, QStringLiteral("\u00e9"), Qt::NoModifier);
        QCOMPARE(pane->resultForm()->value().dump(),
                 std::string("{\"approved\":true,\"pages\":12,\"reviewer\":\"Ada \u00e9\"}"));
        reviewer->setFocus();
        QTest::keyClick(reviewer, Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QVERIFY(pane->problem().isEmpty());
        QVERIFY(pane->callId().isEmpty());
        QTRY_VERIFY(m_window->console()->toPlainText().contains(
            // json.dumps escapes non-ASCII: the é arrives as the character, printed as \u00e9.
            QStringLiteral("answer={\"approved\":true,\"pages\":12,\"reviewer\":\"Ada \\u00e9\"}\n")));
        QCOMPARE(docks().at(4)->windowTitle(), QStringLiteral("Pending Calls"));
    }

    // The budget meters' per-call clocks.
    void attemptClocks()
    {
        Step running;
        running.callId = QStringLiteral("c3");
        running.sequence = 3;
        running.tool = QStringLiteral("fetch_page");
        running.status = StepStatus::Running;
        Attempt second;
        second.number = 2;
        second.startedAt = 10000;
        running.attempts = {second};
        QCOMPARE(AttemptClocks::clock(running, 30000, 11200).text,
                 QStringLiteral("#3 fetch_page attempt 2: 1.2\u00a0s of 30.0\u00a0s"));
        QCOMPARE(AttemptClocks::clock(running, 30000, 34000).fraction, 0.8);
        QCOMPARE(AttemptClocks::clock(running, 0, 10500).text,
                 QStringLiteral("#3 fetch_page attempt 2: 500\u00a0ms (no attempt timeout)"));
        Step waiting = running;
        waiting.callId = QStringLiteral("c4");
        waiting.sequence = 4;
        waiting.tool = QStringLiteral("approve");
        waiting.status = StepStatus::Waiting;
        QCOMPARE(AttemptClocks::clock(waiting, 0, 75000).text,
                 QStringLiteral("#4 approve waiting 1\u00a0min\u00a05\u00a0s (no wait bound)"));
        QCOMPARE(AttemptClocks::clock(waiting, 120000, 75000).text,
                 QStringLiteral("#4 approve waiting 1\u00a0min\u00a05\u00a0s of 2\u00a0min\u00a00\u00a0s"));
        // An MCP server asked a person during the call: the attempt timeout is paused.
        Step asking = waiting;
        asking.tool = QStringLiteral("everything__confirm");
        asking.attempts.back().question = nlohmann::json{{"method", "elicitation/create"}};
        const AttemptClocks::Clock askingClock = AttemptClocks::clock(asking, 30000, 16000);
        QCOMPARE(askingClock.text,
                 QStringLiteral("#4 everything__confirm waiting 6.0\u00a0s for a person (attempt timeout paused)"));
        QCOMPARE(askingClock.fraction, 0.0);

        AttemptClocks clocks;
        clocks.update(running);
        clocks.update(waiting);
        QCOMPARE(clocks.count(), 2);
        const QList<AttemptClocks::Clock> shown = clocks.clocks(11000, {}, 1);
        QCOMPARE(shown.size(), 2);
        QCOMPARE(shown[0].text, QStringLiteral("#3 fetch_page attempt 2: 1.0\u00a0s (no attempt timeout)"));
        QCOMPARE(shown[1].text, QStringLiteral("+1 more call(s) in flight"));
        running.status = StepStatus::Succeeded;
        running.attempts[0].endedAt = 11500;
        clocks.update(running);
        QCOMPARE(clocks.count(), 1);
        QCOMPARE(clocks.clocks(11000, {}).at(0).text, QStringLiteral("#4 approve waiting 1.0\u00a0s (no wait bound)"));
    }

    // The wait clock of a call: since its current attempt started, against its bound.
    void pendingWaitClockText()
    {
        Step step;
        step.queuedAt = 1000;
        Attempt attempt;
        attempt.number = 2;
        attempt.startedAt = 5000;
        step.attempts.push_back(attempt);
        QCOMPARE(PendingCallsPanel::waitClockText(step, 0, 17000), QStringLiteral("waited 12.0 s (no wait bound)"));
        QCOMPARE(PendingCallsPanel::waitClockText(step, 300000, 17000),
                 QStringLiteral("waited 12.0 s of 5 min 0 s (wait bound)"));
    }
};

QTEST_MAIN(TstMainWindowPending)
#include "tst_mainwindowpending.moc"
