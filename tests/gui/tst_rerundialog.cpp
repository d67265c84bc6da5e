// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The window's Rerun from Step and cassette commands (issue 5 items 10 and 12):
// app/ui/rerundialog.* and app/ui/durablerunactions.*.
#include "consoleview.h"
#include "engine/replaysource.h"
#include "journal/journal.h"
#include "project/steprows.h"
#include "run/runcontroller.h"
#include "scripteditor.h"
#include "testfiles.h"
#include "tracemodel.h"
#include "ui/durablerunactions.h"
#include "ui/editoractions.h"
#include "ui/editorarea.h"
#include "ui/mainwindow.h"
#include "ui/rerundialog.h"
#include "ui/runcommands.h"
#include "ui/runspanel.h"
#include "ui/runviews.h"
#include "ui/stepmodeactions.h"
#include "windowfixture.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include <memory>

namespace {

// One tool, `echo`, whose command handler prints its arguments back (`cat` of the
// stdin JSON): a step's result is exactly the arguments its handler got.
const char *const Manifest
    = "{\n"
      "  \"name\": \"rerun\",\n"
      "  \"default_script\": \"main\",\n"
      "  \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
      "  \"tools\": [{\n"
      "    \"name\": \"echo\",\n"
      "    \"description\": \"Returns its arguments.\",\n"
      "    \"input_schema\": {\"type\": \"object\", \"properties\": {\"sku\": {\"type\": \"string\"}},\n"
      "                     \"required\": [\"sku\"]},\n"
      "    \"handler\": {\"kind\": \"command\", \"command\": [\"cat\"]}\n"
      "  }]\n"
      "}\n";

const char *const ThreeCalls = "from toolstudio import tools\n"
                               "for sku in ['A', 'B', 'C']:\n"
                               "    print(tools.echo(sku=sku))\n";

QString dumped(const std::optional<nlohmann::json> &value)
{
    return value ? QString::fromStdString(value->dump()) : QStringLiteral("(none)");
}

// The Status column of the trace's step rows (event rows left out), top to bottom.
QStringList stepStatuses(const QAbstractItemModel *trace)
{
    QStringList statuses;
    for (int row = 0; row < trace->rowCount(); ++row)
        if (!trace->index(row, 0).data(TraceModel::CallIdRole).toString().isEmpty())
            statuses << trace->index(row, TraceModel::Status).data().toString();
    return statuses;
}

// The trace row of step `sequence` (not an event row about it).
QModelIndex stepRow(const QAbstractItemModel *trace, int sequence)
{
    for (int row = 0; row < trace->rowCount(); ++row) {
        const QModelIndex index = trace->index(row, 0);
        if (!index.data(TraceModel::CallIdRole).toString().isEmpty()
            && index.data(TraceModel::SequenceRole).toInt() == sequence)
            return index;
    }
    return {};
}

} // namespace

class TstRerunDialog
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }

    void init() { initWindow(); }

    void cleanup() { closeWindow(); }

    void actionsAndShortcut()
    {
        DurableRunActions *actions = m_window->durableActions();
        QCOMPARE(actions->rerunAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
        QVERIFY(!actions->rerunAction()->isEnabled());
        QCOMPARE(actions->rerunAction()->toolTip(), QStringLiteral("Open a project first."));
        QVERIFY(!actions->runWithCassetteAction()->isEnabled());
        auto *button = m_window->findChild<QPushButton *>(QStringLiteral("rerunRun"));
        QVERIFY(button);
        QVERIFY(!button->isEnabled());
    }

    // The dialog shows step 2's arguments as recorded; edited and accepted, the new
    // run memoizes step 1, runs step 2 with exactly the edited JSON, and step 3 too.
    void rerunWithEditedArguments()
    {
        const QString runId = runOnce();
        DurableRunActions *actions = m_window->durableActions();
        runsView()->setCurrentItem(runsView()->topLevelItem(0));
        QTRY_VERIFY(actions->rerunAction()->isEnabled());
        auto *button = m_window->findChild<QPushButton *>(QStringLiteral("rerunRun"));
        QVERIFY(button->isEnabled());
        button->click();
        auto *dialog = m_window->findChild<RerunDialog *>(QStringLiteral("rerunDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->runId(), runId);
        QCOMPARE(dialog->stepPicker()->minimum(), 1);
        QCOMPARE(dialog->stepPicker()->maximum(), 3);
        QVERIFY(dialog->stepPicker()->isEnabled());
        dialog->stepPicker()->setValue(2);
        QCOMPARE(dialog->sequence(), 2);
        QCOMPARE(dialog->stepLabel()->text(), QStringLiteral("of 3 · echo (succeeded)"));
        QCOMPARE(dialog->originalView()->text(), QStringLiteral("{\n  \"sku\": \"B\"\n}"));
        QCOMPARE(dialog->argsEditor()->text(), dialog->originalView()->text());
        QVERIFY(dialog->originalView()->isReadOnly());
        QVERIFY(!dialog->argsEditor()->isReadOnly());
        QVERIFY(!dialog->editedArgs()); // unchanged: the script's own arguments

        dialog->argsEditor()->setText(QStringLiteral("{\"sku\": \"B-edited\", \"note\": [1, 2]}"));
        QVERIFY(dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(), QString());
        QCOMPARE(dumped(dialog->editedArgs()), QStringLiteral("{\"note\":[1,2],\"sku\":\"B-edited\"}"));
        QCOMPARE(dialog->originalView()->text(), QStringLiteral("{\n  \"sku\": \"B\"\n}"));
        dialog->rerunButton()->click();

        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const RunRecord record = m_window->runController()->record();
        QVERIFY(record.id != runId);
        QCOMPARE(runKindName(record.kind), QStringLiteral("rerun"));
        QCOMPARE(record.sourceRun, runId);
        Journal journal;
        QVERIFY(journal.open(m_window->project()->journalPath()));
        const std::vector<Step> steps = journal.steps(record.id);
        QCOMPARE(steps.size(), std::size_t(3));
        QCOMPARE(steps[0].status, StepStatus::Memoized);
        QCOMPARE(dumped(steps[0].result), QStringLiteral("{\"sku\":\"A\"}"));
        QCOMPARE(steps[1].status, StepStatus::Succeeded);
        QCOMPARE(dumped(steps[1].args), QStringLiteral("{\"note\":[1,2],\"sku\":\"B-edited\"}"));
        QCOMPARE(dumped(steps[1].originalArgs), QStringLiteral("{\"sku\":\"B\"}"));
        // `cat` printed what it got on stdin: the handler ran with the edited JSON.
        QCOMPARE(dumped(steps[1].result), QStringLiteral("{\"note\":[1,2],\"sku\":\"B-edited\"}"));
        QCOMPARE(steps[2].status, StepStatus::Succeeded);
        QVERIFY(m_window->console()->toPlainText().contains(QLatin1String("{'note': [1, 2], 'sku': 'B-edited'}")));

        // The Runs dock names the source run, as `toolstudio runs` does.
        QTRY_COMPARE(runsView()->topLevelItemCount(), 2);
        QCOMPARE(runsView()->topLevelItem(0)->text(0), record.id);
        QCOMPARE(runsView()->topLevelItem(0)->text(5), QStringLiteral("rerun of %1").arg(runId));
        QCOMPARE(runsView()->topLevelItem(1)->text(5), QStringLiteral("run"));
    }

    // The picker reaches every step of a long run, and the dialog shows exactly the
    // chosen step's arguments, read from the journal as the picker moves; a sequence
    // the run lacks is named and cannot be rerun.
    void pickerReachesEveryStepOfALongRun()
    {
        runOnce(); // the project, its journal and the window's Runs dock
        Journal journal;
        QVERIFY(journal.open(m_window->project()->journalPath()));
        RunRecord run;
        run.id = QStringLiteral("run-long");
        run.projectDir = m_window->project()->dir;
        run.scriptPath = QStringLiteral("scripts/main.py");
        run.status = RunStatus::Completed;
        run.startedAt = 1700000000000;
        run.endedAt = 1700000009000;
        run.exitCode = 0;
        QVERIFY(journal.recordRun(run));
        std::vector<Step> steps;
        for (int sequence = 1; sequence <= 1200; ++sequence) {
            if (sequence == 700)
                continue; // a gap
            Step step;
            step.runId = run.id;
            step.sequence = sequence;
            step.callId = QStringLiteral("c%1").arg(sequence);
            step.tool = QStringLiteral("echo");
            step.args = {{"sku", QStringLiteral("S%1").arg(sequence).toStdString()}};
            step.idempotencyKey = QStringLiteral("run-long:%1").arg(sequence);
            step.status = sequence == 1200 ? StepStatus::Failed : StepStatus::Succeeded;
            step.queuedAt = step.startedAt = 1700000000000 + sequence;
            step.endedAt = step.queuedAt + 1;
            steps.push_back(std::move(step));
        }
        std::vector<const Step *> batch;
        for (const Step &step : steps)
            batch.push_back(&step);
        QVERIFY(journal.commit(batch, {}));

        RerunDialog *dialog = m_window->durableActions()->openRerunDialog(run.id, 1, true);
        QVERIFY(dialog);
        QCOMPARE(dialog->stepPicker()->minimum(), 1);
        QCOMPARE(dialog->stepPicker()->maximum(), 1200);
        QCOMPARE(dialog->originalView()->text(), QStringLiteral("{\n  \"sku\": \"S1\"\n}"));

        dialog->stepPicker()->setValue(dialog->stepPicker()->maximum());
        QCOMPARE(dialog->sequence(), 1200);
        QCOMPARE(dialog->stepLabel()->text(), QStringLiteral("of 1200 · echo (failed)"));
        QCOMPARE(dialog->originalView()->text(), QStringLiteral("{\n  \"sku\": \"S1200\"\n}"));
        QCOMPARE(dialog->argsEditor()->text(), dialog->originalView()->text());
        QVERIFY(dialog->rerunButton()->isEnabled());

        dialog->stepPicker()->setValue(699);
        QCOMPARE(dialog->originalView()->text(), QStringLiteral("{\n  \"sku\": \"S699\"\n}"));
        QCOMPARE(dialog->findChild<QLabel *>(QStringLiteral("rerunHint"))->text(),
                 QStringLiteral("Steps 1 to 698 are answered from run run-long's journal (memoized). "
                                "Step 699 and every step after it run for real."));

        dialog->stepPicker()->setValue(700);
        QCOMPARE(dialog->sequence(), 0);
        QCOMPARE(dialog->stepLabel()->text(), QStringLiteral("of 1200 · run run-long has no step 700"));
        QCOMPARE(dialog->problem(), QStringLiteral("Run run-long has no step 700: choose another."));
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->originalView()->text(), QString());
        dialog->reject();
    }

    // From the trace's context menu the selected step is fixed and preselected.
    void rerunFromTraceStep()
    {
        const QString runId = runOnce();
        runsView()->setCurrentItem(nullptr);
        QTreeView *trace = traceView();
        const QModelIndex third = stepRow(trace->model(), 3);
        QVERIFY(third.isValid());
        trace->setCurrentIndex(third);
        QAction *action = m_window->durableActions()->traceRerunAction();
        QVERIFY(trace->actions().contains(action));
        QTRY_VERIFY(action->isEnabled());
        action->trigger();
        auto *dialog = m_window->findChild<RerunDialog *>(QStringLiteral("rerunDialog"));
        QVERIFY(dialog);
        QCOMPARE(dialog->runId(), runId);
        QCOMPARE(dialog->sequence(), 3);
        QVERIFY(!dialog->stepPicker()->isEnabled());
        QCOMPARE(dialog->originalView()->text(), QStringLiteral("{\n  \"sku\": \"C\"\n}"));
        dialog->reject();
    }

    // Text that is not a JSON object, or that input_schema refuses, keeps Rerun
    // disabled with the reason (line and column for a parse error).
    void badArgumentsKeepRerunDisabled()
    {
        runOnce();
        runsView()->setCurrentItem(runsView()->topLevelItem(0));
        QTRY_VERIFY(m_window->durableActions()->rerunAction()->isEnabled());
        m_window->durableActions()->rerunAction()->trigger();
        auto *dialog = m_window->findChild<RerunDialog *>(QStringLiteral("rerunDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->rerunButton()->isEnabled());

        dialog->argsEditor()->setText(QStringLiteral("{\"sku\": \"A\",\n  }"));
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QVERIFY(dialog->problemLabel()->isVisible());
        QCOMPARE(dialog->problem(),
                 QStringLiteral("Not valid JSON at line 2, column 3: syntax error while parsing "
                                "object key - unexpected '}'; expected string literal"));
        QVERIFY(!dialog->editedArgs());

        // Issue 16: 100 000 levels were parsed whole, and validating them crashed the studio.
        dialog->argsEditor()->setText(QStringLiteral("{\"sku\": ") + QString(100000, QLatin1Char('['))
                                      + QString(100000, QLatin1Char(']')) + QLatin1Char('}'));
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(),
                 QStringLiteral("Not valid JSON at line 1, column 136: nested deeper than 128 levels"));
        QVERIFY(!dialog->editedArgs());

        dialog->argsEditor()->setText(QStringLiteral("[\"A\"]"));
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(), QStringLiteral("The arguments must be a JSON object ({…}), not [\"A\"]."));

        dialog->argsEditor()->setText(QStringLiteral("{\"sku\": 5}"));
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(
            dialog->problem(),
            QStringLiteral("The input_schema of echo refuses these arguments: /sku: expected string, got integer"));

        auto *restore = dialog->findChild<QPushButton *>(QStringLiteral("rerunRestore"));
        QVERIFY(restore && restore->isEnabled());
        restore->click();
        QCOMPARE(dialog->argsEditor()->text(), QStringLiteral("{\n  \"sku\": \"A\"\n}"));
        QVERIFY(dialog->rerunButton()->isEnabled());
        QVERIFY(!dialog->problemLabel()->isVisible());
        dialog->reject();
        QCOMPARE(runsView()->topLevelItemCount(), 1); // nothing ran
    }

    // A model step's whole request is edited as JSON: checked as the engine checks a
    // script's request (the messages' shape, limits.model_request_bytes); Rerun stays
    // disabled with the reason, Ctrl+Return in the editor does nothing until it is
    // fixed, then starts the rerun with the edited request.
    void modelStepRequestIsCheckedBeforeTheRerun()
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QFile manifestFile(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        nlohmann::json manifest = nlohmann::json::parse(manifestFile.readAll().toStdString());
        manifestFile.close();
        manifest["limits"] = {{"model_request_bytes", 1500}};
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(manifest.dump(2))));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const QString runId = m_window->runController()->record().id;
        QTRY_COMPARE_WITH_TIMEOUT(runsView()->topLevelItemCount(), 1, RunTimeoutMs);
        runsView()->setCurrentItem(runsView()->topLevelItem(0));
        QTRY_VERIFY(m_window->durableActions()->rerunAction()->isEnabled());
        m_window->durableActions()->rerunAction()->trigger();
        auto *dialog = m_window->findChild<RerunDialog *>(QStringLiteral("rerunDialog"));
        QVERIFY(dialog);
        dialog->stepPicker()->setValue(1);
        QVERIFY(dialog->stepLabel()->text().endsWith(QStringLiteral("model:scripted (succeeded)")));
        nlohmann::json request = nlohmann::json::parse(dialog->argsEditor()->text().toStdString());
        QVERIFY(dialog->rerunButton()->isEnabled());

        const auto edit = [&](const nlohmann::json &messages) {
            request["messages"] = messages;
            const std::string text = request.dump();
            dialog->argsEditor()->setText(QString::fromStdString(text));
            return qsizetype(text.size());
        };
        edit(nlohmann::json::array());
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(),
                 QStringLiteral("This request cannot be sent: request to model scripted: "
                                "'messages' is empty; give at least one user message"));
        edit(nlohmann::json::parse(R"([{"role": "tool", "content": "1.08"}])"));
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(),
                 QStringLiteral("This request cannot be sent: request to model scripted: messages[0]: a 'tool' "
                                "message needs 'tool_call_id' (the id of the call it answers)"));
        const qsizetype bytes = edit({{{"role", "user"}, {"content", std::string(1500, 'x')}}});
        QVERIFY(!dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(),
                 QStringLiteral("This request cannot be sent: the edited request to model scripted "
                                "is %1 bytes; the limit is 1500 bytes "
                                "(limits.model_request_bytes)")
                     .arg(bytes));
        dialog->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        dialog->argsEditor()->setFocus();
        QTest::keyClick(dialog->argsEditor(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(dialog->isVisible()); // refused: it stays open
        QCOMPARE(runsView()->topLevelItemCount(), 1);

        edit({{{"role", "user"}, {"content", "100 EUR in USD, please?"}}});
        QVERIFY(dialog->rerunButton()->isEnabled());
        QCOMPARE(dialog->problem(), QString());
        auto *hint = dialog->findChild<QLabel *>(QStringLiteral("rerunHint"));
        QVERIFY(hint);
        QCOMPARE(hint->text(),
                 QStringLiteral("No step before it is memoized. Step 1 sends the edited request (the "
                                "script's stays on record as its original request), and every step "
                                "after it runs for real too."));
        QTest::keyClick(dialog->argsEditor(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->runController()->record().id != runId
                                     && m_window->statusText().startsWith(QLatin1String("Completed in ")),
                                 RunTimeoutMs);
        Journal journal;
        QVERIFY(journal.open(m_window->project()->journalPath()));
        const std::vector<Step> steps = journal.steps(m_window->runController()->record().id);
        QVERIFY(!steps.empty());
        QCOMPARE(steps[0].args.at("messages").dump(),
                 std::string(R"([{"content":"100 EUR in USD, please?","role":"user"}])"));
        QVERIFY(steps[0].originalArgs);
    }

    void disabledForImportedRunActiveRunAndNoSteps()
    {
        const QString runId = runOnce();
        DurableRunActions *actions = m_window->durableActions();
        const QString exported = m_scratch->filePath(QStringLiteral("run.json"));
        QVERIFY(m_window->runsPanel()->exportRun(runId, QStringLiteral("json"), exported));
        QVERIFY(m_window->runViews()->importRun(exported));
        // The actions follow the window's changes on the next turn of the event loop.
        QTRY_VERIFY2(actions->rerunAction()->toolTip().startsWith(QLatin1String("The trace shows an imported run")),
                     qPrintable(actions->rerunAction()->toolTip()));
        QVERIFY(!actions->rerunAction()->isEnabled());
        QVERIFY(!actions->traceRerunAction()->isEnabled());
        QVERIFY(!actions->saveCassetteAction()->isEnabled());
        auto *button = m_window->findChild<QPushButton *>(QStringLiteral("rerunRun"));
        QVERIFY(!button->isEnabled());
        QCOMPARE(button->toolTip(), actions->rerunAction()->toolTip());

        // While a run is active (held in step mode on its first call).
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Waiting")), RunTimeoutMs);
        QTRY_COMPARE(actions->rerunAction()->toolTip(),
                     QStringLiteral("Wait until the current run has finished (or stop it)."));
        QVERIFY(!actions->rerunAction()->isEnabled());
        QVERIFY(!actions->runWithCassetteAction()->isEnabled());
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
        m_window->runCommands()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);

        // A run that made no calls has no step to rerun.
        QVERIFY(writeFile(m_window->project()->dir + QStringLiteral("/scripts/main.py"), "print('no calls')\n"));
        QTRY_VERIFY(editor()->text().contains(QLatin1String("no calls")));
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const QString empty = m_window->runController()->record().id;
        runsView()->setCurrentItem(nullptr);
        QTRY_COMPARE(actions->rerunAction()->toolTip(),
                     QStringLiteral("Run %1 made no tool calls: there is no step to rerun or record.").arg(empty));
        QVERIFY(!actions->rerunAction()->isEnabled());
        QVERIFY(!actions->saveCassetteAction()->isEnabled());
    }

    // Save Cassette, then Run with Cassette: every call is memoized, nothing runs.
    // A changed script diverges, and offline the divergent call fails.
    void cassetteRoundTrip()
    {
        const QString runId = runOnce();
        DurableRunActions *actions = m_window->durableActions();
        const QString cassette = m_scratch->filePath(QStringLiteral("demo.cassette.json"));
        QVERIFY(actions->saveCassette(runId, cassette));
        QCOMPARE(m_window->statusBar()->currentMessage(),
                 QStringLiteral("Cassette of run %1 saved to %2 (3 step(s))")
                     .arg(runId, QDir::toNativeSeparators(cassette)));

        QVERIFY(actions->runWithCassette(cassette));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        const RunRecord record = m_window->runController()->record();
        QCOMPARE(runKindName(record.kind), QStringLiteral("cassette"));
        TraceModel *trace = m_window->traceModel();
        QCOMPARE(stepStatuses(trace),
                 (QStringList{QStringLiteral("memoized"), QStringLiteral("memoized"), QStringLiteral("memoized")}));

        // The script changed its second call in the editor, not yet saved: Run with
        // Cassette saves it first (as Run does); a divergence, and offline it fails.
        editor()->setText(QStringLiteral("from toolstudio import tools\n"
                                         "for sku in ['A', 'X', 'C']:\n"
                                         "    try:\n"
                                         "        print(tools.echo(sku=sku))\n"
                                         "    except Exception as e:\n"
                                         "        print('failed', sku)\n"));
        QVERIFY(editor()->isModified());
        QVERIFY(actions->runWithCassette(cassette));
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QTRY_COMPARE(stepStatuses(trace),
                     (QStringList{QStringLiteral("memoized"), QStringLiteral("failed"), QStringLiteral("failed")}));
        // The divergence marker is on step 2; the trace keeps the message's first
        // StepSummary::MaxSummaryChars + 1 characters, the console all of it.
        const QString divergence = QStringLiteral(
            "step 2: expected echo({\"sku\":\"B\"}), got echo({\"sku\":\"X\"}); no recorded call has this tool and "
            "these arguments. Calls are matched by tool, arguments and the number of identical calls before them, not "
            "by arrival order, so a script whose arguments depend on completion order (or on time, randomness or "
            "changed input) diverges");
        QCOMPARE(stepRow(trace, 2).data(TraceModel::DivergenceRole).toString(),
                 divergence.left(StepSummary::MaxSummaryChars + 1));
        QCOMPARE(stepRow(trace, 1).data(TraceModel::DivergenceRole).toString(), QString());
        const QString notice = QStringLiteral("Divergence at step 2: ") + divergence
            + QStringLiteral(" — offline, so this call and every later one fails (not in the cassette)");
        QVERIFY2(m_window->console()->toPlainText().contains(notice), qPrintable(m_window->console()->toPlainText()));
    }

    // Replay (not offline) of a changed script: the divergence notice says the calls
    // from there on run for real, and they do.
    void replayDivergenceRunsForReal()
    {
        const QString runId = runOnce();
        editor()->setText(QStringLiteral("from toolstudio import tools\n"
                                         "for sku in ['A', 'X', 'C']:\n"
                                         "    print(tools.echo(sku=sku))\n"));
        QVERIFY(m_window->editorArea()->actions()->save());
        m_window->runCommands()->startFromJournal(runId, false);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QTRY_COMPARE(
            stepStatuses(m_window->traceModel()),
            (QStringList{QStringLiteral("memoized"), QStringLiteral("succeeded"), QStringLiteral("succeeded")}));
        const QString notice
            = QStringLiteral("Divergence at step 2: step 2: expected echo({\"sku\":\"B\"}), got echo({\"sku\":\"X\"}); "
                             "no recorded call has this tool and these arguments. Calls are matched by tool, arguments "
                             "and the number of identical calls before them, not by arrival order, so a script whose "
                             "arguments depend on completion order (or on time, randomness or changed input) diverges "
                             "— this call and every later one runs for real");
        QVERIFY2(m_window->console()->toPlainText().contains(notice), qPrintable(m_window->console()->toPlainText()));
    }

    // A file that is not a cassette is refused with the CLI's message; nothing runs.
    void notACassetteIsRefused_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("not JSON") << QByteArray("{cassette");
        QTest::newRow("another format") << QByteArray("{\"format\": \"toolstudio-run\", \"steps\": []}");
        // Issue 16: a number where the format's name belongs aborted the studio.
        QTest::newRow("format a number") << QByteArray("{\"format\": 5, \"steps\": []}");
    }

    void notACassetteIsRefused()
    {
        QFETCH(QByteArray, contents);
        runOnce();
        const QString path = m_scratch->filePath(QStringLiteral("bad.json"));
        QVERIFY(writeFile(path, contents));
        QVERIFY(!m_window->durableActions()->runWithCassette(path));
        QCOMPARE(m_window->lastError(),
                 QStringLiteral("%1: not a Tool Studio cassette (expected {\"format\": \"toolstudio-cassette\", "
                                "\"steps\": […]})")
                     .arg(path));
        QVERIFY(!m_window->runController()->isActive());
        m_window->runsPanel()->refresh();
        QCOMPARE(runsView()->topLevelItemCount(), 1);
    }

private:
    // Writes the echo project, runs its script once in the window; returns the run id.
    QString runOnce()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("project"));
        if (!QDir().mkpath(dir + QStringLiteral("/scripts"))
            || !writeFile(dir + QStringLiteral("/toolstudio.json"), Manifest)
            || !writeFile(dir + QStringLiteral("/scripts/main.py"), ThreeCalls) || !openTrusted(*m_window, dir))
            return {};
        m_window->runCommands()->runAction()->trigger();
        if (!QTest::qWaitFor([this] { return m_window->statusText().startsWith(QLatin1String("Completed in ")); },
                             RunTimeoutMs))
            qWarning("run did not complete: %s", qPrintable(m_window->statusText()));
        if (!QTest::qWaitFor([this] { return runsView()->topLevelItemCount() == 1; }, RunTimeoutMs))
            qWarning("the run is not in the Runs dock");
        return m_window->runController()->record().id;
    }
};

QTEST_MAIN(TstRerunDialog)
#include "tst_rerundialog.moc"
