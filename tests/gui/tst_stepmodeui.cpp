// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Step mode's four decisions in the window (DESIGN.md "Step mode": continue, answer
// instead, fail, continue to the end) and the Runs dock's row of a resumed run.
#include "consoleview.h"
#include "journal/journal.h"
#include "project/durationtext.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "schemaform.h"
#include "scripteditor.h"
#include "stepinspector.h"
#include "testfiles.h"
#include "tracemodel.h"
#include "trustedproject.h"
#include "ui/answerpane.h"
#include "ui/editmessagesdialog.h"
#include "ui/mainwindow.h"
#include "ui/modelcomposer.h"
#include "ui/pendingcallspanel.h"
#include "ui/runcommands.h"
#include "ui/runspanel.h"
#include "ui/stepmodeactions.h"
#include "ui/tracepanel.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <memory>

namespace {

QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

// The trace's event row of `kind` (step_paused, step_decision, …); its summary text.
QString eventText(const QAbstractItemModel *model, const QString &kind)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, TraceModel::Summary);
        if (index.data(TraceModel::RowKindRole).toInt() == int(TraceModel::RowKind::Event)
            && index.data(TraceModel::EventKindRole).toString() == kind)
            return index.data().toString();
    }
    return QString();
}

/// "; held 43 ms" at the end of a step_decision event's text: how long the call was held,
/// which depends on the machine (heldTimeIsShownBesideTheDecision checks it).
const QRegularExpression HeldSuffix(QStringLiteral("; held [0-9]+([.,][0-9])? (ms|s)$"));

QString withoutHold(QString text)
{
    return text.remove(HeldSuffix);
}

QTreeWidgetItem *runRow(QTreeWidget *view, const QString &runId)
{
    for (int row = 0; row < view->topLevelItemCount(); ++row)
        if (view->topLevelItem(row)->data(0, Qt::UserRole).toString() == runId)
            return view->topLevelItem(row);
    return nullptr;
}

} // namespace

class TstStepModeUi
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }

    void init() { initWindow(); }

    void cleanup() { closeWindow(); }

    // Run ▸ the four decisions, with their shortcuts; disabled until a call is held.
    void actionsInTheRunMenu()
    {
        StepModeActions *actions = m_window->stepModeActions();
        QVERIFY(actions);
        QCOMPARE(actions->continueAction()->shortcut(), QKeySequence(Qt::Key_F7));
        QCOMPARE(actions->answerInsteadAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F7));
        QCOMPARE(actions->failAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F7));
        QCOMPARE(actions->continueToEndAction()->shortcut(), QKeySequence(Qt::Key_F8));
        for (QAction *action : actions->actions()) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
            // The tooltip names the shortcut, in the menu's own spelling.
            const QString key = action->shortcut().toString(QKeySequence::NativeText);
            QVERIFY2(action->toolTip().endsWith(QStringLiteral("(%1)").arg(key)), qPrintable(action->toolTip()));
            QVERIFY2(!action->associatedObjects().isEmpty(), qPrintable(action->text())); // in the Run menu
        }
        QVERIFY(
            m_window->stepModeActions()->stepModeAction()->toolTip().contains(QLatin1String("Continue to End (F8)")));
    }

    // Answer instead: the result goes to the script, the handler never runs (no pending
    // call for the manual tool), a value the output_schema refuses is refused first.
    void answerInsteadSkipsTheHandler()
    {
        const QString dir = copyExample(QStringLiteral("render-report"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        QSignalSpy opened(m_window->runController(), &RunController::pendingCallOpened);
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();

        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        StepModeActions *actions = m_window->stepModeActions();
        QTRY_VERIFY(actions->answerInsteadAction()->isEnabled());
        QVERIFY(actions->continueAction()->isEnabled());
        QVERIFY(panel->continueToEndButton()->isEnabled());
        actions->answerInsteadAction()->trigger();

        AnswerPane *pane = panel->answerPane();
        QVERIFY(pane->isHeld());
        QCOMPARE(pane->callId(), panel->heldCalls().first().callId);
        QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("Answer Instead"));
        QCOMPARE(pane->sendErrorButton()->text(), QStringLiteral("Fail Call"));
        QVERIFY(pane->sendResultButton()->isEnabled());
        QVERIFY2(pane->headingLabel()->text().startsWith(
                     QStringLiteral("<b>render_report</b> is held before it runs (step mode or tool approval)")),
                 qPrintable(pane->headingLabel()->text()));
        auto *edit = qobject_cast<QLineEdit *>(pane->resultForm()->control(QString()));
        QVERIFY(edit);
        QCOMPARE(QApplication::focusWidget(), edit); // Shift+F7 puts the cursor in the form

        // The output_schema wants an http(s) URL: refused, nothing sent, still held.
        QTest::keyClicks(edit, QStringLiteral("ftp://example.org/q3"));
        QVERIFY(!pane->sendResult());
        QVERIFY(!pane->problem().isEmpty());
        QCOMPARE(panel->heldCalls().size(), 1);
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("queued"));

        edit->clear();
        QTest::keyClicks(edit, QStringLiteral("https://example.org/q3.pdf"));
        pane->sendResultButton()->click();
        QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));

        TraceModel *trace = m_window->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(cell(trace, 0, TraceModel::Summary), QStringLiteral("\"https://example.org/q3.pdf\""));
        QCOMPARE(withoutHold(eventText(trace, QStringLiteral("step_decision"))),
                 QStringLiteral("step mode: answered by hand instead, the handler did not run"));
        QTRY_VERIFY(
            m_window->console()->toPlainText().contains(QLatin1String("Report ready: https://example.org/q3.pdf")));
        QCOMPARE(opened.count(), 0); // the manual handler never asked a person
        QTRY_COMPARE(pane->clockLabel()->text(),
                     QStringLiteral("Answered instead with \"https://example.org/q3.pdf\" (the handler did not run)"));
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Fail: an error with code and message, no handler, no retry; the script sees it.
    void failEndsTheCallWithAnError()
    {
        const QString dir = copyExample(QStringLiteral("exchange-rate"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();

        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        QTRY_VERIFY(m_window->stepModeActions()->failAction()->isEnabled());
        m_window->stepModeActions()->failAction()->trigger();
        AnswerPane *pane = panel->answerPane();
        QCOMPARE(QApplication::focusWidget(), pane->errorMessageEdit()); // Ctrl+F7: the message
        QVERIFY(pane->errorCodeCombo()->isVisible());
        QCOMPARE(pane->errorCodeCombo()->currentText(), QStringLiteral("tool_failed"));
        QTest::keyClicks(pane->errorMessageEdit(), QStringLiteral("no rate on a holiday"));
        pane->retryableCheck()->setChecked(true);
        pane->sendErrorButton()->click();
        QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));

        TraceModel *trace = m_window->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Failed")), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Status), QStringLiteral("failed"));
        QCOMPARE(cell(trace, 0, TraceModel::Attempts), QStringLiteral("1/3")); // not retried
        QCOMPARE(trace->index(0, 0).data(TraceModel::ErrorCodeRole).toString(), QStringLiteral("tool_failed"));
        QVERIFY2(cell(trace, 0, TraceModel::Summary).contains(QLatin1String("no rate on a holiday")),
                 qPrintable(cell(trace, 0, TraceModel::Summary)));
        QCOMPARE(withoutHold(eventText(trace, QStringLiteral("step_decision"))),
                 QStringLiteral("step mode: failed by hand, the handler did not run"));
        // The script's uncaught ToolError, with the code and message, on its stderr.
        QTRY_VERIFY2(
            m_window->console()->toPlainText().contains(QLatin1String("ToolError: tool_failed: no rate on a holiday")),
            qPrintable(m_window->console()->toPlainText().right(300)));
        QVERIFY(!m_window->console()->toPlainText().contains(QLatin1String("100 USD")));
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Fail with the code timeout: the engine's injected timeout.
    void failWithTimeoutCode()
    {
        const QString dir = copyExample(QStringLiteral("exchange-rate"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();

        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        AnswerPane *pane = panel->answerPane();
        QTRY_VERIFY(pane->isHeld());
        pane->errorCodeCombo()->setCurrentIndex(pane->errorCodeCombo()->findData(QStringLiteral("timeout")));
        QVERIFY(!pane->errorMessageEdit()->isEnabled()); // the engine says what happened
        QVERIFY2(pane->sendError(), qPrintable(pane->problem()));

        TraceModel *trace = m_window->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Failed")), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Status), QStringLiteral("failed"));
        QCOMPARE(trace->index(0, 0).data(TraceModel::ErrorCodeRole).toString(), QStringLiteral("timeout"));
        QCOMPARE(withoutHold(eventText(trace, QStringLiteral("step_decision"))),
                 QStringLiteral("step mode: timed out by hand, the handler did not run"));
        QTRY_VERIFY2(
            m_window->console()->toPlainText().contains(QLatin1String("ToolError: timeout: timed out by hand")),
            qPrintable(m_window->console()->toPlainText().right(300)));
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Continue (F7) runs the handler: the mock's result.
    void continueRunsTheHandler()
    {
        const QString dir = copyExample(QStringLiteral("exchange-rate"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_window->pendingPanel()->heldCalls().size(), 1, RunTimeoutMs);
        QTRY_VERIFY(m_window->stepModeActions()->continueAction()->isEnabled());
        m_window->stepModeActions()->continueAction()->trigger();

        TraceModel *trace = m_window->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(cell(trace, 0, TraceModel::Summary), QStringLiteral("0.92"));
        // The time it was held is beside the decision, not in the step's duration.
        Journal journal;
        QVERIFY(journal.open(m_window->project()->journalPath()));
        const std::vector<PolicyEvent> events = journal.events(m_window->runController()->record().id);
        const auto decision = std::find_if(events.begin(), events.end(), [](const PolicyEvent &event) {
            return event.kind == PolicyEventKind::StepDecision;
        });
        QVERIFY(decision != events.end());
        QCOMPARE(eventText(trace, QStringLiteral("step_decision")),
                 QStringLiteral("step mode: continued, the handler runs; held %1")
                     .arg(durationText(decision->detail.at("held_ms").get<qint64>())));
        // The Step dock says it too, for the step selected.
        m_window->tracePanel()->selectStep(trace->step(0)->callId);
        const auto *header = m_window->stepInspector()->findChild<QLabel *>(QStringLiteral("stepHeader"));
        QVERIFY(header);
        QVERIFY2(
            header->text().contains(QStringLiteral("Held for a person %1 before it went on (not part of its duration)")
                                        .arg(durationText(decision->detail.at("held_ms").get<qint64>()))),
            qPrintable(header->text()));
        QTRY_VERIFY(m_window->console()->toPlainText().contains(QLatin1String("100 USD = 92.0 EUR")));
        QVERIFY(m_window->stepModeActions()->stepModeAction()->isChecked()); // still in step mode for the next run
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Edit Messages… on a held model step: the dialog refuses messages that cannot be
    // sent and stays open; Ctrl+Return sends the edited ones, the script's kept as the
    // original (docs/models.md "Step semantics").
    void editMessagesOfAHeldModelStep()
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        QCOMPARE(panel->heldCalls().first().tool, QStringLiteral("model:scripted"));
        QVERIFY(panel->selectCall(panel->heldCalls().first().callId));
        auto *button = panel->findChild<QPushButton *>(QStringLiteral("editHeldMessages"));
        QVERIFY(button);
        QVERIFY(button->isVisibleTo(panel));
        button->click();
        auto *dialog = panel->findChild<EditMessagesDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->editor()->text().contains(QLatin1String("\"content\": \"How many USD are 100 EUR?\"")),
                 qPrintable(dialog->editor()->text()));

        dialog->editor()->setText(QStringLiteral("[]"));
        dialog->sendButton()->click();
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->problemLabel()->text(),
                 QStringLiteral("These messages cannot be sent: 'messages' is empty; give at least one user message"));
        dialog->editor()->setText(QStringLiteral("{\"role\": \"user\"}"));
        dialog->sendButton()->click();
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->problemLabel()->text(),
                 QStringLiteral("The messages must be a JSON array ([…]), not {\"role\":\"user\"}."));

        dialog->editor()->setText(QStringLiteral("[{\"role\": \"user\", \"content\": \"100 EUR in USD?\"}]"));
        dialog->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        dialog->editor()->setFocus();
        QTest::keyClick(dialog->editor(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(!dialog || !dialog->isVisible());

        // The model step went and its reply asked for get_exchange_rate, which step mode
        // holds next; Continue to End runs it and the rest. (Continue to End is enabled only
        // while a call is held, so wait for that call rather than for the model's to leave.)
        QTRY_VERIFY_WITH_TIMEOUT(panel->heldCalls().size() == 1
                                     && panel->heldCalls().first().tool == QLatin1String("get_exchange_rate")
                                     && panel->continueToEndButton()->isEnabled(),
                                 RunTimeoutMs);
        panel->continueToEndButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const QString runId = m_window->runController()->record().id;
        ProjectError error;
        const auto project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));
        Journal journal;
        QVERIFY(journal.open(project->journalPath()));
        const std::vector<Step> steps = journal.steps(runId);
        QVERIFY(!steps.empty());
        QCOMPARE(steps.at(0).tool, QStringLiteral("model:scripted"));
        QCOMPARE(steps.at(0).args.at("messages").dump(),
                 std::string(R"([{"content":"100 EUR in USD?","role":"user"}])"));
        QVERIFY(steps.at(0).originalArgs);
        QCOMPARE(steps.at(0).originalArgs->at("messages").dump(),
                 std::string(R"([{"content":"You convert currencies with get_exchange_rate.","role":"system"},)"
                             R"({"content":"How many USD are 100 EUR?","role":"user"}])"));
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Answer Instead on a held model step: the composer a `manual` model's person
    // uses (text, a call of a bound tool with its argument form); the engine checks the
    // reply as that turn's and journals it as the step's result, decided by a person.
    void answerAHeldModelStepInTheComposer()
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        QCOMPARE(panel->heldCalls().first().tool, QStringLiteral("model:scripted"));
        QVERIFY(panel->selectCall(panel->heldCalls().first().callId));
        AnswerPane *pane = panel->answerPane();
        QVERIFY(pane->isHeld());
        QVERIFY(pane->usesComposer());
        ModelComposer *composer = pane->composer();
        QVERIFY(composer->isVisible());
        QVERIFY(!pane->resultEdit()->isVisible());
        QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("Answer Instead"));
        QCOMPARE(composer->conversationView()->toPlainText(),
                 QStringLiteral("system: You convert currencies with get_exchange_rate.\n\n"
                                "user: How many USD are 100 EUR?"));
        QCOMPARE(composer->toolCombo()->count(), 1);
        QCOMPARE(composer->toolCombo()->itemText(0), QStringLiteral("get_exchange_rate"));

        QTest::keyClicks(composer->textEdit(), QStringLiteral("Looking it up."));
        composer->addCallButton()->click();
        QCOMPARE(composer->callForms().size(), 1);
        SchemaForm *form = composer->callForms().first();
        auto *base = qobject_cast<QLineEdit *>(form->control(QStringLiteral("/base")));
        auto *quote = qobject_cast<QLineEdit *>(form->control(QStringLiteral("/quote")));
        QVERIFY(base && quote);
        QTest::keyClicks(base, QStringLiteral("GBP"));
        QTest::keyClicks(quote, QStringLiteral("USD"));
        pane->sendResultButton()->click();
        QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));

        // The script's loop runs the call the person wrote: step mode holds it next.
        QTRY_VERIFY_WITH_TIMEOUT(panel->heldCalls().size() == 1
                                     && panel->heldCalls().first().tool == QLatin1String("get_exchange_rate")
                                     && panel->continueToEndButton()->isEnabled(),
                                 RunTimeoutMs);
        QCOMPARE(panel->heldCalls().first().args.dump(), std::string(R"({"base":"GBP","quote":"USD"})"));
        panel->continueToEndButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const QString runId = m_window->runController()->record().id;
        ProjectError error;
        const auto project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));
        Journal journal;
        QVERIFY(journal.open(project->journalPath()));
        const std::vector<Step> steps = journal.steps(runId);
        QVERIFY(steps.size() >= 2);
        QCOMPARE(steps.at(0).tool, QStringLiteral("model:scripted"));
        QCOMPARE(steps.at(0).status, StepStatus::Succeeded);
        const nlohmann::json call = {{"function",
                                      {{"arguments", nlohmann::json({{"base", "GBP"}, {"quote", "USD"}}).dump()},
                                       {"name", "get_exchange_rate"}}},
                                     {"id", "call_1_1"},
                                     {"type", "function"}};
        const nlohmann::json reply
            = {{"message", {{"content", "Looking it up."}, {"role", "assistant"}, {"tool_calls", {call}}}},
               {"stop_reason", "tool_calls"},
               {"usage", {{"input_tokens", 0}, {"output_tokens", 0}}}};
        QCOMPARE(QString::fromStdString(steps.at(0).result->dump()), QString::fromStdString(reply.dump()));
        QCOMPARE(steps.at(1).tool, QStringLiteral("get_exchange_rate"));
        QCOMPARE(steps.at(1).args.dump(), std::string(R"({"base":"GBP","quote":"USD"})"));
        // Who decided: a person answered instead; the model was not asked.
        const std::vector<PolicyEvent> events = journal.events(runId);
        const auto decision = std::find_if(events.begin(), events.end(), [](const PolicyEvent &event) {
            return event.sequence == 1 && event.kind == PolicyEventKind::StepDecision;
        });
        QVERIFY(decision != events.end());
        QCOMPARE(decision->detail.at("decision").get<std::string>(), std::string("answer"));
        QCOMPARE(decision->detail.at("ok").get<bool>(), true);
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Continue to End (the dock's button, F8): step mode off, the held call runs.
    void continueToEndLeavesStepMode()
    {
        const QString dir = copyExample(QStringLiteral("exchange-rate"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        QTRY_VERIFY(panel->continueToEndButton()->isEnabled());
        panel->continueToEndButton()->click();
        QVERIFY(!m_window->stepModeActions()->stepModeAction()->isChecked());
        QVERIFY(!m_window->runController()->stepMode());

        TraceModel *trace = m_window->traceModel();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(cell(trace, 0, TraceModel::Summary), QStringLiteral("0.92"));
        QCOMPARE(withoutHold(eventText(trace, QStringLiteral("step_decision"))),
                 QStringLiteral("step mode: continued, the handler runs"));
        QTRY_VERIFY(m_window->console()->toPlainText().contains(QLatin1String("100 USD = 92.0 EUR")));
        QVERIFY(panel->heldCalls().isEmpty());
        QVERIFY(!m_window->stepModeActions()->continueToEndAction()->isEnabled());

        // The next run is not held.
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QTRY_COMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("succeeded"));
        QVERIFY(eventText(m_window->traceModel(), QStringLiteral("step_paused")).isEmpty());
    }

    // At 1440x900 in the default layout, a held call's Answer Instead and Fail Call are
    // in view in the Pending Calls dock without scrolling (and so are Send Result and
    // Send Error: the same pane).
    void decisionsInViewAt1440x900()
    {
        m_window->resize(1440, 900);
        const QString dir = copyExample(QStringLiteral("render-report"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        AnswerPane *pane = panel->answerPane();
        QTRY_VERIFY(pane->isHeld());
        auto *scroll = qobject_cast<QScrollArea *>(pane->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QTRY_VERIFY(pane->sendErrorButton()->isVisible());
        for (QWidget *widget :
             {static_cast<QWidget *>(pane->sendResultButton()), static_cast<QWidget *>(pane->sendErrorButton()),
              static_cast<QWidget *>(panel->continueButton()), static_cast<QWidget *>(panel->continueToEndButton())}) {
            // The scroll area settles in a later layout pass (a vertical scroll bar can show
            // for a moment while the form fills), so the check waits for it.
            const auto shown = [&] { return QRect(widget->mapTo(m_window.get(), QPoint(0, 0)), widget->size()); };
            const auto area = [&] {
                return QRect(scroll->viewport()->mapTo(m_window.get(), QPoint(0, 0)), scroll->viewport()->size());
            };
            const auto where = [&] {
                return QStringLiteral("%1 at x %2..%3 y %4..%5, viewport x %6..%7 y %8..%9")
                    .arg(widget->objectName())
                    .arg(shown().left())
                    .arg(shown().right())
                    .arg(shown().top())
                    .arg(shown().bottom())
                    .arg(area().left())
                    .arg(area().right())
                    .arg(area().top())
                    .arg(area().bottom());
            };
            if (scroll->isAncestorOf(widget))
                QTRY_VERIFY2(area().contains(shown()), qPrintable(where()));
            QVERIFY2(m_window->rect().contains(shown()), qPrintable(widget->objectName()));
        }
        QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
    }

    // Resume in the window: the Runs row says the run is live again (waiting), not
    // suspended, and its duration is the status bar's, counted from the resume.
    void runsRowAfterResume()
    {
        const QString dir = copyExample(QStringLiteral("render-report"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        // A run that started 40 s ago and was suspended before its call (the studio
        // that ran it went away).
        const QString runId = QStringLiteral("20260101T000000-5e5e");
        const qint64 startedAt = QDateTime::currentMSecsSinceEpoch() - 40000;
        {
            ProjectError error;
            const auto project = loadTrusted(dir, &error);
            QVERIFY2(project, qPrintable(error.toString()));
            Journal journal;
            QVERIFY(journal.open(project->journalPath()));
            RunRecord run;
            run.id = runId;
            run.projectDir = dir;
            run.scriptPath = project->defaultScriptPath();
            run.status = RunStatus::Suspended;
            run.startedAt = startedAt;
            QVERIFY(journal.recordRun(run));
        }
        QVERIFY(openTrusted(*m_window, dir));
        QTreeWidget *runs = m_window->findChild<QTreeWidget *>(QStringLiteral("runsView"));
        QVERIFY(runs);
        QTreeWidgetItem *row = runRow(runs, runId);
        QVERIFY(row);
        QCOMPARE(row->text(2), QStringLiteral("suspended"));
        QCOMPARE(row->text(4), QString());
        runs->setCurrentItem(row);
        auto *resume = m_window->findChild<QPushButton *>(QStringLiteral("resumeRun"));
        QVERIFY(resume && resume->isEnabled());
        resume->click();

        // Live again: the call waits for a person.
        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);
        QTRY_COMPARE(runRow(runs, runId)->text(2), QStringLiteral("waiting"));
        row = runRow(runs, runId);
        QCOMPARE(runs->topLevelItemCount(), 1); // the same run, not a second row
        QVERIFY2(row->text(4).endsWith(QLatin1String(" s since resume")), qPrintable(row->text(4)));
        QVERIFY2(row->text(4).split(QLatin1Char(' ')).first().toDouble() < 30.0, qPrintable(row->text(4)));
        QVERIFY2(row->toolTip(4).contains(QLatin1String("counts from the latest resume")), qPrintable(row->toolTip(4)));
        QCOMPARE(row->text(3),
                 QDateTime::fromMSecsSinceEpoch(startedAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QVERIFY(!resume->isEnabled());

        AnswerPane *pane = m_window->pendingPanel()->answerPane();
        auto *edit = qobject_cast<QLineEdit *>(pane->resultForm()->control(QString()));
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("https://example.org/q3.pdf"));
        QVERIFY2(pane->sendResult(), qPrintable(pane->problem()));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);

        // Ended: the same seconds as the status bar ("Completed in 0.4 s").
        row = runRow(runs, runId);
        QVERIFY(row);
        QCOMPARE(row->text(2), QStringLiteral("completed"));
        const QString seconds = m_window->statusText().mid(QStringLiteral("Completed in ").size());
        QCOMPARE(row->text(4), seconds.chopped(2) + QStringLiteral(" s since resume"));

        // A studio that did not resume it reads the same from the journal's resumed event
        // (one window per project: this one closes first).
        m_window.reset();
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorDialogsEnabled(false);
        QVERIFY(openTrusted(*m_window, dir));
        QTreeWidgetItem *fromJournal = runRow(m_window->findChild<QTreeWidget *>(QStringLiteral("runsView")), runId);
        QVERIFY(fromJournal);
        QCOMPARE(fromJournal->text(2), QStringLiteral("completed"));
        QVERIFY2(fromJournal->text(4).endsWith(QLatin1String(" s since resume")), qPrintable(fromJournal->text(4)));
        const double journalSeconds = fromJournal->text(4).split(QLatin1Char(' ')).first().toDouble();
        QVERIFY2(journalSeconds >= seconds.chopped(2).toDouble() && journalSeconds < 30.0,
                 qPrintable(fromJournal->text(4)));
    }

    void runsRowCountsFromTheRunsResume()
    {
        // A resume writes two "resumed" events: the run's (sequence 0) when it starts
        // again, and a step's when the replay reaches the call that was waiting. The
        // duration counts from the run's.
        const QString dir = copyExample(QStringLiteral("render-report"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        const QString runId = QStringLiteral("20260101T000000-7a7a");
        const qint64 resumedAt = QDateTime::currentMSecsSinceEpoch() - 60000;
        {
            ProjectError error;
            const auto project = loadTrusted(dir, &error);
            QVERIFY2(project, qPrintable(error.toString()));
            Journal journal;
            QVERIFY(journal.open(project->journalPath()));
            RunRecord run;
            run.id = runId;
            run.projectDir = dir;
            run.scriptPath = project->defaultScriptPath();
            run.status = RunStatus::Completed;
            run.startedAt = resumedAt - 30000;
            run.endedAt = resumedAt + 8000;
            QVERIFY(journal.recordRun(run));
            QVERIFY(journal.recordEvent({runId, 0, resumedAt, PolicyEventKind::Resumed, {{"steps_recorded", 2}}}));
            QVERIFY(journal.recordEvent({runId, 3, resumedAt + 5000, PolicyEventKind::Resumed, {{"call_id", "c3"}}}));
        }
        QVERIFY(openTrusted(*m_window, dir));
        QTreeWidgetItem *row = runRow(m_window->findChild<QTreeWidget *>(QStringLiteral("runsView")), runId);
        QVERIFY(row);
        QCOMPARE(row->text(4), QStringLiteral("8.0 s since resume"));
    }
};

QTEST_MAIN(TstStepModeUi)
#include "tst_stepmodeui.moc"
