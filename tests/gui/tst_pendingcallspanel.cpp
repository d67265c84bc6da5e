// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Pending Calls dock's list (PendingCallsPanel): as tall as its rows — no empty
// space below them, no row cut at the bottom, no row's height lost to a horizontal
// scroll bar — up to MaxVisibleRows, then it scrolls; the rest of the dock goes to the
// answer below. Calls are opened on the panel directly: no run is needed.
#include "run/runcontroller.h"
#include "ui/answerpane.h"
#include "ui/pendingcallspanel.h"

#include <QListWidget>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardPaths>
#include <QTest>

namespace {

/// Call `sequence` of a manual tool, waiting for a person, with long arguments.
Step waitingCall(int sequence)
{
    Step step;
    step.runId = QStringLiteral("run1");
    step.callId = QStringLiteral("c%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QStringLiteral("render_report");
    step.status = StepStatus::Waiting;
    step.maxAttempts = 1;
    step.args = {{"title", "A report whose title is far longer than the dock is wide, on purpose"}};
    Attempt attempt;
    attempt.number = 1;
    attempt.startedAt = 1000;
    step.attempts.push_back(attempt);
    return step;
}

} // namespace

class TstPendingCallsPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void listIsAsTallAsItsRows()
    {
        RunController run;
        PendingCallsPanel panel(&run);
        panel.resize(420, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QListWidget *list = panel.list();
        auto *scroll = panel.findChild<QScrollArea *>();
        auto *splitter = panel.findChild<QSplitter *>();
        QVERIFY(scroll && splitter);

        const auto check = [&](int calls, int shownRows) {
            QCOMPARE(list->count(), calls);
            const int row = list->sizeHintForRow(0);
            QVERIFY(row > 0);
            QTRY_COMPARE(list->height(), shownRows * row + 2 * list->frameWidth());
            QWidget *top = list->parentWidget();
            // Laid out again (the list's new height reaches the splitter posted).
            QTRY_COMPARE(top->height(), top->sizeHint().height());
            QCOMPARE(list->viewport()->height(), shownRows * row);
            QVERIFY(!list->horizontalScrollBar()->isVisible());
            QCOMPARE(list->verticalScrollBar()->isVisible(), calls > shownRows);
            // The last shown row ends at the viewport's foot: not cut, no gap below.
            QCOMPARE(list->visualItemRect(list->item(shownRows - 1)).bottom() + 1, list->viewport()->height());
            // The splitter gives the rest to the answer.
            QCOMPARE(top->height() + splitter->handleWidth() + scroll->height(), splitter->height());
        };

        for (int i = 1; i <= 3; ++i)
            panel.callOpened(waitingCall(i));
        check(3, 3);
        panel.callClosed(QStringLiteral("c2"));
        panel.callClosed(QStringLiteral("c3"));
        check(1, 1);
        for (int i = 4; i <= 12; ++i)
            panel.callOpened(waitingCall(i));
        check(10, PendingCallsPanel::MaxVisibleRows);
    }

    // attack42 B2: the panel tells a changed question by its identity (serial, server,
    // request id), not by its JSON dumped on every tick: the same question keeps what is
    // typed, another is shown anew.
    void aChangedQuestionIsShownAnew()
    {
        RunController run;
        PendingCallsPanel panel(&run);
        Step step = waitingCall(1);
        step.attempts.back().question = nlohmann::json{
            {"kind", "sampling"},       {"server", "s"}, {"method", "sampling/createMessage"}, {"request_id", 7},
            {"message", "user: first"}, {"serial", 1}};
        panel.callOpened(step);
        AnswerPane *pane = panel.answerPane();
        QCOMPARE(pane->question().value("message", std::string()), std::string("user: first"));
        pane->resultEdit()->setPlainText(QStringLiteral("draft"));
        panel.callOpened(step); // as a tick: the same question
        QCOMPARE(pane->resultEdit()->toPlainText(), QStringLiteral("draft"));
        (*step.attempts.back().question)["serial"] = 2;
        (*step.attempts.back().question)["request_id"] = 8;
        (*step.attempts.back().question)["message"] = "user: second";
        panel.callOpened(step);
        QCOMPARE(pane->question().value("message", std::string()), std::string("user: second"));
    }
};

QTEST_MAIN(TstPendingCallsPanel)
#include "tst_pendingcallspanel.moc"
