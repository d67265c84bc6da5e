// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A newcomer's first hour in the window (issue 20): File ▸ New Project from a template,
// a folder without a manifest, the toolbar after an outside edit of toolstudio.json,
// and a trace that follows and filters the way one reads it.

#include "journaledattempt.h"
#include "ui/runcommands.h"
#include "ui/stepmodeactions.h"
#include "windowfixture.h"

#include "testfiles.h"
#include "ui/answerpane.h"
#include "ui/newprojectdialog.h"
#include "ui/pendingcallspanel.h"
#include "ui/projectactions.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>

#include "consoleview.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"

namespace {

void saveFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path); // renamed into place, as editors save
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
    QVERIFY(file.commit());
}

/// A finished step of the trace: `failedAttempts` failed attempts, then (unless
/// `status` is Failed) one that succeeded.
Step traceStep(int sequence, StepStatus status, int failedAttempts = 0)
{
    Step step;
    step.runId = QStringLiteral("run1");
    step.callId = QStringLiteral("call-%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QStringLiteral("fetch_quote");
    step.status = status;
    step.maxAttempts = 3;
    step.queuedAt = step.startedAt = 1000 + 10 * sequence;
    step.endedAt = step.startedAt + 5;
    StepError error;
    error.code = ErrorCode::ToolFailed;
    error.message = "quote service overloaded";
    error.retryable = true;
    for (int n = 1; n <= failedAttempts; ++n)
        step.attempts.push_back(journaledAttempt(n, step.startedAt, step.startedAt + 1, false, error));
    if (status == StepStatus::Failed) {
        step.error = error;
    } else {
        step.attempts.push_back(journaledAttempt(failedAttempts + 1, step.startedAt + 2, step.endedAt, true));
        step.result = 240.0;
    }
    return step;
}

/// The sequences of the steps the trace shows, top to bottom.
QList<int> shownSequences(const QAbstractItemModel *model)
{
    QList<int> sequences;
    for (int row = 0; row < model->rowCount(); ++row)
        sequences.append(model->index(row, 0).data(TraceModel::SequenceRole).toInt());
    return sequences;
}

/// How many of the trace's rows are wholly in view.
int rowsInView(QTreeView *view)
{
    int rows = 0;
    for (int row = 0; row < view->model()->rowCount(); ++row)
        rows += view->viewport()->rect().contains(view->visualRect(view->model()->index(row, 0))) ? 1 : 0;
    return rows;
}

/// True when `widget` is shown and wholly inside `window`'s rectangle.
bool inWindow(QWidget *widget, QWidget *window)
{
    return widget->isVisible() && !widget->visibleRegion().isEmpty()
        && window->rect().contains(QRect(widget->mapTo(window, QPoint(0, 0)), widget->size()));
}

/// The New Project dialog the window has open, or nullptr.
NewProjectDialog *openNewProjectDialog(QWidget *window)
{
    return window->findChild<NewProjectDialog *>(QStringLiteral("newProjectDialog"));
}

} // namespace

class TestNewcomer
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    void newProjectRuns_data()
    {
        QTest::addColumn<QString>("templateName");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QString>("output");
        QTest::newRow("empty") << "empty" << 0 << "Hello from Tool Studio";
        QTest::newRow("python-tool") << "python-tool" << 2 << "HELLO HELLO";
        QTest::newRow("exchange-rate") << "exchange-rate" << 1 << "100 USD = 92.0 EUR";
        QTest::newRow("customer-seats") << "customer-seats" << 1 << "30";
        QTest::newRow("render-report") << "render-report" << 1 << "Report ready: https://example.org/r";
        QTest::newRow("retries-and-human") << "retries-and-human" << 2 << "approved - by hand";
        QTest::newRow("model-agent") << "model-agent" << 3 << "100 EUR is 108.00 USD (rate 1.08).";
    }

    /// File ▸ New Project…: folder + template, Create; the project opens trusted and Run
    /// completes (a person's calls answered as the Pending Calls dock would).
    void newProjectRuns()
    {
        QFETCH(QString, templateName);
        QFETCH(int, steps);
        QFETCH(QString, output);
        m_window->projectActions()->newProjectAction()->trigger();
        NewProjectDialog *dialog = openNewProjectDialog(m_window.get());
        QVERIFY(dialog);
        const QString dir = m_scratch->filePath(QStringLiteral("first-project"));
        dialog->findChild<QLineEdit *>(QStringLiteral("newProjectFolder"))->setText(dir);
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("newProjectTemplates"));
        QCOMPARE(list->count(), 7);
        QVERIFY(dialog->selectTemplate(templateName));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QVERIFY(m_window->project());
        QCOMPARE(m_window->project()->dir, dir);
        QCOMPARE(m_window->project()->name, QStringLiteral("first-project"));
        QVERIFY(m_window->project()->trusted);
        QTRY_VERIFY(!openNewProjectDialog(m_window.get())); // closed and deleted
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());

        QSignalSpy finished(m_window->runController(), &RunController::finished);
        QVERIFY(waitForPythonTools(*m_window));
        QVERIFY(m_window->runCommands()->run());
        // Manual calls: answered as a person would in the Pending Calls dock.
        const auto answerPending = [&] {
            for (const Step &step : pendingCalls()) {
                ManualAnswer answer;
                answer.result = step.tool == QLatin1String("render_report")
                    ? nlohmann::json("https://example.org/r")
                    : nlohmann::json{{"approved", true}, {"note", "by hand"}};
                m_window->runController()->answer(step.callId, int(step.attempts.size()), answer, this, {});
            }
        };
        QTRY_VERIFY_WITH_TIMEOUT((answerPending(), !finished.isEmpty()), RunTimeoutMs);
        QCOMPARE(m_window->runController()->record().status, RunStatus::Completed);
        QCOMPARE(m_window->traceModel()->stepCount(), steps);
        QTRY_VERIFY(m_window->console()->toPlainText().contains(output));
    }

    /// A folder that has a file the template would write: refused in the dialog, which
    /// stays open, and nothing is written.
    void newProjectRefusesToOverwrite()
    {
        QDir().mkpath(m_scratch->filePath(QStringLiteral("scripts")));
        QFile script(m_scratch->filePath(QStringLiteral("scripts/main.py")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("print('mine')\n");
        script.close();
        NewProjectDialog *dialog = m_window->projectActions()->newProject(m_scratch->path());
        QVERIFY(dialog->selectTemplate(QStringLiteral("exchange-rate")));
        QVERIFY(!dialog->create());
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("newProjectError"));
        QCOMPARE(error->text(),
                 m_scratch->path()
                     + QStringLiteral(" has scripts/main.py already; nothing was written "
                                      "(a new project never overwrites a file). Choose an "
                                      "empty folder or a new one."));
        QVERIFY(!QFileInfo::exists(m_scratch->filePath(QStringLiteral("toolstudio.json"))));
        QVERIFY(!m_window->project());
        dialog->reject();
    }

    /// Opening a folder with no toolstudio.json offers to make a project there.
    void openingAPlainFolderOffersANewProject()
    {
        QVERIFY(!m_window->openProject(m_scratch->path()));
        NewProjectDialog *dialog = openNewProjectDialog(m_window.get());
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QLineEdit *>(QStringLiteral("newProjectFolder"))->text(), m_scratch->path());
        QCOMPARE(dialog->findChild<QLabel *>(QStringLiteral("newProjectNote"))->text(),
                 m_scratch->path()
                     + QStringLiteral(" has no toolstudio.json, so it is not a Tool Studio project yet. Make one "
                                      "here from a template:"));
        QVERIFY(dialog->selectTemplate(QStringLiteral("empty")));
        QVERIFY(dialog->create());
        QVERIFY(m_window->project());
        QCOMPARE(m_window->project()->dir, m_scratch->path());
    }

    /// toolstudio.json edited outside the studio: the toolbar's Script box (names, the
    /// path as tooltip), Run and the status follow each load; a failed load's message
    /// goes when a later load succeeds.
    void externalManifestEditUpdatesToolbar()
    {
        const QString dir = m_scratch->path();
        saveFile(dir + QStringLiteral("/scripts/a.py"), "print('a')\n");
        saveFile(dir + QStringLiteral("/toolstudio.json"), "{\"name\": \"p\", \"scripts\": []}\n");
        QVERIFY(openTrusted(*m_window, dir));
        auto *box = m_window->findChild<QComboBox *>(QStringLiteral("scriptCombo"));
        QCOMPARE(box->count(), 0);
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());
        QCOMPARE(m_window->statusText(), QStringLiteral("The project has no script."));

        // Two entries of one file: told apart by name.
        saveFile(dir + QStringLiteral("/toolstudio.json"),
                 "{\"name\": \"p\", \"default_script\": \"second\", \"scripts\": [\n"
                 "  {\"name\": \"first\", \"path\": \"scripts/a.py\"},\n"
                 "  {\"name\": \"second\", \"path\": \"scripts/a.py\"}]}\n");
        QTRY_COMPARE(box->count(), 2);
        QCOMPARE(box->itemText(0), QStringLiteral("first"));
        QCOMPARE(box->currentText(), QStringLiteral("second"));
        QCOMPARE(box->itemData(1, Qt::ToolTipRole).toString(), QStringLiteral("scripts/a.py"));
        QCOMPARE(box->toolTip(), QStringLiteral("scripts/a.py: the agent script to edit and run"));
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());
        QCOMPARE(m_window->statusText(), QStringLiteral("Ready"));
        QVERIFY(editor()); // the script Run starts is open

        // Half-written: the error shows, the toolbar keeps the last good manifest.
        saveFile(dir + QStringLiteral("/toolstudio.json"), "{\"name\": \"p\", \"scripts\": [\n");
        QTRY_VERIFY(m_window->statusText().startsWith(QStringLiteral("toolstudio.json: ")));
        QCOMPARE(box->count(), 2);
        // Written whole: the error goes, the choice is kept where it still exists.
        saveFile(dir + QStringLiteral("/toolstudio.json"),
                 "{\"name\": \"p\", \"scripts\": [\n"
                 "  {\"name\": \"second\", \"path\": \"scripts/a.py\"},\n"
                 "  {\"name\": \"third\", \"path\": \"scripts/a.py\"}]}\n");
        QTRY_COMPARE(box->itemText(1), QStringLiteral("third"));
        QCOMPARE(box->currentText(), QStringLiteral("second"));
        QCOMPARE(m_window->statusText(), QStringLiteral("Ready"));
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());
    }

    /// Follow: the newest step stays in view; scrolling up turns it off (rows keep
    /// coming, the view stays), scrolling back to the end turns it on again.
    void traceFollows()
    {
        m_window->resize(1440, 900);
        auto *follow = m_window->findChild<QToolButton *>(QStringLiteral("followTrace"));
        QVERIFY(follow->isChecked());
        QScrollBar *bar = traceView()->verticalScrollBar();
        QList<Step> steps;
        for (int sequence = 1; sequence <= 200; ++sequence)
            steps.append(traceStep(sequence, StepStatus::Succeeded));
        m_window->traceModel()->applySteps(steps.mid(0, 100));
        m_window->traceModel()->flush();
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());

        bar->setValue(bar->maximum() - 10); // the user scrolls up
        QVERIFY(!follow->isChecked());
        const int kept = bar->value();
        m_window->traceModel()->applySteps(steps.mid(100, 50));
        m_window->traceModel()->flush();
        QTest::qWait(50);
        QCOMPARE(bar->value(), kept);
        QVERIFY(bar->maximum() > kept + 10);

        bar->setValue(bar->maximum()); // back at the end
        QVERIFY(follow->isChecked());
        m_window->traceModel()->applySteps(steps.mid(150));
        m_window->traceModel()->flush();
        // The newest step is in view.
        QTreeView *view = traceView();
        const QModelIndex newest = view->model()->index(199, 0);
        QCOMPARE(newest.data(TraceModel::SequenceRole).toInt(), 200);
        QTRY_VERIFY(view->viewport()->rect().contains(view->visualRect(newest).center()));
        QCOMPARE(bar->value(), bar->maximum());

        // It stays there when the view gets shorter (a smaller window, a scroll bar across).
        const int maximum = bar->maximum();
        m_window->resize(1100, 640);
        QTRY_VERIFY(bar->maximum() > maximum);
        QTRY_COMPARE(bar->value(), bar->maximum());
        QVERIFY(follow->isChecked());
    }

    /// Failed: steps that ended failed (Ctrl+E goes there); Had failures: any failed
    /// attempt, also those retried to success.
    void failedAndHadFailures()
    {
        m_window->traceModel()->applySteps({traceStep(1, StepStatus::Succeeded), traceStep(2, StepStatus::Succeeded, 2),
                                            traceStep(3, StepStatus::Failed, 3), traceStep(4, StepStatus::Succeeded, 1),
                                            traceStep(5, StepStatus::Succeeded)});
        m_window->traceModel()->flush();
        auto *failed = m_window->findChild<QToolButton *>(QStringLiteral("failedOnly"));
        auto *hadFailures = m_window->findChild<QToolButton *>(QStringLiteral("hadFailuresOnly"));
        QCOMPARE(failed->text(), QStringLiteral("Failed"));
        QCOMPARE(hadFailures->text(), QStringLiteral("Had failures"));
        failed->click();
        QCOMPARE(shownSequences(traceFilter()), QList<int>{3});
        hadFailures->click();
        QVERIFY(!failed->isChecked());
        QCOMPARE(shownSequences(traceFilter()), (QList<int>{2, 3, 4}));
        hadFailures->click();
        QCOMPARE(shownSequences(traceFilter()), (QList<int>{1, 2, 3, 4, 5}));

        // Ctrl+E: the step that ended failed, never one that succeeded after a retry.
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        traceView()->setFocus();
        QTest::keyClick(traceView(), Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(traceView()->currentIndex().data(TraceModel::SequenceRole).toInt(), 3);
        QTest::keyClick(traceView(), Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(traceView()->currentIndex().data(TraceModel::SequenceRole).toInt(), 3);
    }

    /// The default layout at 1440x900: a held call's Send Result / Send Error in view in
    /// the Pending Calls dock while the trace shows at least 15 rows; at 1280x720 the
    /// window keeps its size and every part keeps some room.
    void defaultLayoutShowsTraceAndDecisions()
    {
        m_window->resize(1440, 900);
        const QString dir = copyExample(QStringLiteral("render-report"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        m_window->runCommands()->runAction()->trigger();
        PendingCallsPanel *panel = m_window->pendingPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->heldCalls().size(), 1, RunTimeoutMs);
        QTRY_VERIFY(panel->answerPane()->isHeld());
        QList<Step> steps;
        for (int sequence = 2; sequence <= 60; ++sequence)
            steps.append(traceStep(sequence, StepStatus::Succeeded));
        m_window->traceModel()->applySteps(steps);
        m_window->traceModel()->flush();
        QTRY_VERIFY2(rowsInView(traceView()) >= 15,
                     qPrintable(QStringLiteral("%1 rows in view").arg(rowsInView(traceView()))));
        QTRY_VERIFY(inWindow(panel->answerPane()->sendResultButton(), m_window.get()));
        QVERIFY(inWindow(panel->answerPane()->sendErrorButton(), m_window.get()));
        QVERIFY(inWindow(panel->continueButton(), m_window.get()));
        m_window->stepModeActions()->stepModeAction()->setChecked(false);

        m_window->resize(1280, 720);
        QTRY_COMPARE(m_window->size(), QSize(1280, 720));
        QTRY_VERIFY(rowsInView(traceView()) >= 8);
        QVERIFY(editorTabs()->width() >= 300);
        for (QDockWidget *dock : docks())
            if (!dock->visibleRegion().isEmpty())
                QVERIFY2(dock->width() >= 150 && dock->height() >= 100, qPrintable(dock->objectName()));
    }

    /// Every button of the Runs dock is in view at the default layout, at 1440x900 and
    /// at 1280x720: they wrap to a second row rather than scroll out of sight (Clean Up…
    /// was hidden in a sideways-scrolled strip at 1440x900; it is under More now).
    void runsDockButtonsAreAllInView()
    {
        const QString dir = copyExample(QStringLiteral("exchange-rate"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        auto *runsDock = m_window->findChild<QDockWidget *>(QStringLiteral("runsDock"));
        QVERIFY(runsDock);
        runsDock->raise();
        auto *strip = runsDock->findChild<QWidget *>(QStringLiteral("runsButtons"));
        QVERIFY(strip);
        const QList<QPushButton *> buttons = strip->findChildren<QPushButton *>();
        QCOMPARE(buttons.size(), 6);
        // Export, delete and clean up are one click away, under More (and on the list's
        // context menu).
        auto *more = strip->findChild<QPushButton *>(QStringLiteral("moreRunActions"));
        QVERIFY(more && more->menu());
        QStringList under;
        for (const QAction *action : more->menu()->actions())
            if (!action->isSeparator())
                under << action->objectName();
        QCOMPARE(under,
                 (QStringList{QStringLiteral("exportRunJson"), QStringLiteral("exportRunChrome"),
                              QStringLiteral("deleteRuns"), QStringLiteral("cleanUpRuns")}));
        for (const QSize size : {QSize(1440, 900), QSize(1280, 720)}) {
            m_window->resize(size);
            QTRY_COMPARE(m_window->size(), size);
            for (QPushButton *button : buttons)
                QTRY_VERIFY2(
                    inWindow(button, m_window.get())
                        && runsDock->rect().contains(QRect(button->mapTo(runsDock, QPoint(0, 0)), button->size())),
                    qPrintable(QStringLiteral("%1 at %2x%3: at (%4,%5) size %6x%7 in a dock of %8x%9")
                                   .arg(button->objectName())
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(button->mapTo(runsDock, QPoint(0, 0)).x())
                                   .arg(button->mapTo(runsDock, QPoint(0, 0)).y())
                                   .arg(button->width())
                                   .arg(button->height())
                                   .arg(runsDock->width())
                                   .arg(runsDock->height())));
        }
    }
};

QTEST_MAIN(TestNewcomer)
#include "tst_newcomer.moc"
