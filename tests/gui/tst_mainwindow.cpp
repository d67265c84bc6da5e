// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "consoleview.h"
#include "engine/toolcall.h"
#include "journal/journal.h"
#include "jsontreemodel.h"
#include "project/projectwriter.h"
#include "run/attemptclocks.h"
#include "run/runcontroller.h"
#include "runcomparemodel.h"
#include "schemaform.h"
#include "scripteditor.h"
#include "stepinspector.h"
#include "testfiles.h"
#include "timelinewidget.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "ui/answerpane.h"
#include "ui/editoractions.h"
#include "ui/editorarea.h"
#include "ui/mainwindow.h"
#include "ui/manifesteditor.h"
#include "ui/pendingcallspanel.h"
#include "ui/projectactions.h"
#include "ui/projectpanel.h"
#include "ui/runcommands.h"
#include "ui/runcomparepanel.h"
#include "ui/runspanel.h"
#include "ui/runviews.h"
#include "ui/settings.h"
#include "ui/settingsdialog.h"
#include "ui/shortcutpassthrough.h"
#include "ui/stepmodeactions.h"
#include "ui/toolpanel.h"
#include "ui/toolsmenu.h"
#include "ui/tracepanel.h"
#include "windowfixture.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLockFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

#include <memory>

namespace {

QString readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// A line edit that claims Ctrl+E the way QLineEdit does where the platform's key
// bindings make it "end of line" (X11 desktops); offscreen it does not.
class GreedyLineEdit : public QLineEdit
{
public:
    using QLineEdit::QLineEdit;

protected:
    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ShortcutOverride
            && static_cast<QKeyEvent *>(event)->keyCombination() == QKeyCombination(Qt::ControlModifier, Qt::Key_E)) {
            event->accept();
            return true;
        }
        return QLineEdit::event(event);
    }
};

QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

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

class TstMainWindow
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }

    void init() { initWindow(ErrorDialogs::Shown); }

    void cleanup() { closeWindow(); }

    void startsWithoutProject()
    {
        QVERIFY(!m_window->project());
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());
        QVERIFY(!m_window->runCommands()->stopAction()->isEnabled());
        QCOMPARE(m_window->runCommands()->runAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QCOMPARE(m_window->runCommands()->stopAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F5));
        QCOMPARE(m_window->projectActions()->openAction()->shortcut(), QKeySequence(QKeySequence::Open));
    }

    void opensExampleProject()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->project());
        QVERIFY(m_window->lastError().isEmpty());
        QCOMPARE(editor()->language(), QStringLiteral("Python"));
        QVERIFY2(editor()->text().contains(QLatin1String("get_exchange_rate")), qPrintable(editor()->text()));
        QCOMPARE(editor()->filePath(), m_window->project()->defaultScriptPath());
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());
        QVERIFY(!m_window->runCommands()->stopAction()->isEnabled());
        QCOMPARE(m_window->statusText(), QStringLiteral("Ready"));
    }

    void runShowsStepAndOutput()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));

        m_window->runCommands()->runAction()->trigger();
        QVERIFY2(m_window->lastError().isEmpty(), qPrintable(m_window->lastError()));

        TraceModel *trace = m_window->traceModel();
        QTRY_COMPARE_WITH_TIMEOUT(trace->rowCount(), 1, RunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(cell(trace, 0, TraceModel::Status), QStringLiteral("succeeded"), RunTimeoutMs);
        QCOMPARE(cell(trace, 0, TraceModel::Tool), QStringLiteral("get_exchange_rate"));
        QCOMPARE(cell(trace, 0, TraceModel::Attempts), QStringLiteral("1/3"));
        QCOMPARE(cell(trace, 0, TraceModel::Summary), QStringLiteral("0.92"));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->toPlainText().contains(QLatin1String("100 USD = 92.0 EUR")),
                                 RunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());
        QVERIFY(!m_window->runCommands()->stopAction()->isEnabled());

        // A second run starts from an empty trace.
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(trace->rowCount(), 1, RunTimeoutMs);
        QCOMPARE(m_window->console()->toPlainText().count(QLatin1String("100 USD = 92.0 EUR")), 1);
    }

    void runSavesTheEditedScriptFirst()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        ScriptEditor *editor = this->editor();
        editor->setText(editor->text() + QStringLiteral("\nprint(\"edited in the studio\")\n"));
        QVERIFY(editor->isModified());
        QVERIFY(m_window->isWindowModified());

        m_window->runCommands()->runAction()->trigger();
        QVERIFY(!editor->isModified());
        QVERIFY(readFile(editor->filePath()).contains(QLatin1String("edited in the studio")));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->console()->toPlainText().contains(QLatin1String("edited in the studio")),
                                 RunTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
    }

    void missingFolderReportsError()
    {
        QSignalSpy errors(m_window.get(), &MainWindow::errorReported);
        const QString missing = m_scratch->filePath(QStringLiteral("no-such-project"));
        QVERIFY(!openTrusted(*m_window, missing)); // returns: the message box does not block
        QCOMPARE(errors.count(), 1);
        QVERIFY(!m_window->project());
        QVERIFY2(m_window->lastError().contains(QLatin1String("no-such-project")), qPrintable(m_window->lastError()));
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());

        // The user sees the same text in a message box.
        QMessageBox *box = m_window->findChild<QMessageBox *>();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QCOMPARE(box->text(), m_window->lastError());
        box->accept();
    }

    void malformedManifestNamesLineAndColumn()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("broken"));
        QVERIFY(QDir().mkpath(dir));
        QFile manifest(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\n  \"name\": \"broken\",\n  \"tools\": [,]\n}\n");
        manifest.close();

        m_window->setErrorDialogsEnabled(false);
        QVERIFY(!openTrusted(*m_window, dir));
        QVERIFY2(m_window->lastError().contains(QLatin1String("toolstudio.json:3:")),
                 qPrintable(m_window->lastError()));
        QVERIFY(!m_window->findChild<QMessageBox *>());

        // A failed open keeps the project that was open.
        const QString good = example(QStringLiteral("exchange-rate"));
        QVERIFY(!good.isEmpty());
        QVERIFY(openTrusted(*m_window, good));
        QVERIFY(!openTrusted(*m_window, dir));
        QVERIFY(m_window->project());
        QCOMPARE(QDir(m_window->project()->dir).canonicalPath(), QDir(good).canonicalPath());
    }

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
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Status), QStringLiteral("succeeded"));
        QCOMPARE(cell(m_window->traceModel(), 0, TraceModel::Summary),
                 QStringLiteral("\"https://example.org/report.pdf\""));
        QTRY_VERIFY(m_window->console()->toPlainText().contains(
            QLatin1String("Report ready: https://example.org/report.pdf\n")));
        QVERIFY(pendingCalls().isEmpty());
        QCOMPARE(pendingList()->count(), 0);
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

    void hasEveryDockAndTogglesThem()
    {
        QStringList names;
        for (QDockWidget *dock : docks())
            names.append(dock->objectName());
        QCOMPARE(names,
                 (QStringList{QStringLiteral("projectDock"), QStringLiteral("toolDock"), QStringLiteral("traceDock"),
                              QStringLiteral("stepDock"), QStringLiteral("pendingDock"), QStringLiteral("consoleDock"),
                              QStringLiteral("runsDock")}));
        for (QDockWidget *dock : docks()) {
            QAction *toggle = dock->toggleViewAction();
            QVERIFY(toggle->isChecked());
            toggle->trigger();
            QVERIFY2(dock->isHidden(), qPrintable(dock->objectName()));
        }
        m_window->findChild<QAction *>(QStringLiteral("resetLayoutAction"))->trigger();
        for (QDockWidget *dock : docks()) {
            QVERIFY2(!dock->isHidden(), qPrintable(dock->objectName()));
            QVERIFY(!dock->isFloating());
        }
    }

    void keyboardShortcuts()
    {
        QCOMPARE(m_window->editorArea()->actions()->findAction()->shortcut(), QKeySequence(QKeySequence::Find));
        QCOMPARE(m_window->editorArea()->actions()->replaceAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_H));
        QCOMPARE(m_window->editorArea()->actions()->goToLineAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_L));
        QCOMPARE(m_window->stepModeActions()->stepModeAction()->shortcut(), QKeySequence(Qt::Key_F10));
        // Step mode toggles the run controller's step mode.
        QVERIFY(m_window->stepModeActions()->stepModeAction()->isEnabled());
        QVERIFY(m_window->stepModeActions()->stepModeAction()->isCheckable());
        m_window->stepModeActions()->stepModeAction()->setChecked(true);
        QVERIFY(m_window->runController()->stepMode());
        m_window->stepModeActions()->stepModeAction()->setChecked(false);
        QVERIFY(!m_window->runController()->stepMode());
        QCOMPARE(m_window->tracePanel()->nextFailedAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        QCOMPARE(m_window->tracePanel()->nextPendingAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_J));
        QCOMPARE(undoAction()->shortcut(), QKeySequence(QKeySequence::Undo));
    }

    void settingsRoundTrip()
    {
        Settings written;
        Settings::Values values = Settings::defaults();
        values.maxAttempts = 5;
        values.initialBackoffMs = 250;
        values.pythonPath = QStringLiteral("/opt/python3.12/bin/python3");
        values.tabWidth = 2;
        values.theme = Settings::Theme::Dark;
        values.language = QStringLiteral("de");
        values.recentProjects = {QStringLiteral("/tmp/a"), QStringLiteral("/tmp/b")};
        QFont font = values.editorFont;
        font.setPointSize(13);
        values.editorFont = font;
        QSignalSpy changed(&written, &Settings::changed);
        written.setValues(values);
        QCOMPARE(changed.count(), 8);
        written.save();

        Settings read;
        read.load();
        QCOMPARE(read.maxAttempts(), 5);
        QCOMPARE(read.initialBackoffMs(), 250);
        QCOMPARE(read.pythonPath(), QStringLiteral("/opt/python3.12/bin/python3"));
        QCOMPARE(read.tabWidth(), 2);
        QCOMPARE(read.theme(), Settings::Theme::Dark);
        QCOMPARE(read.language(), QStringLiteral("de"));
        QCOMPARE(read.recentProjects(), values.recentProjects);
        QCOMPARE(read.editorFont().pointSize(), 13);
        QVERIFY(read.values() == values);

        // Back to the defaults for the other tests.
        Settings reset;
        reset.setValues(Settings::defaults());
        reset.save();
    }

    void settingsDialogAppliesTabWidth()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(openTrusted(*m_window, dir));
        Settings *settings = Settings::instance();
        const Settings::Values before = settings->values();
        SettingsDialog dialog(settings);
        dialog.tabWidthSpin()->setValue(7);
        dialog.apply();
        QCOMPARE(settings->tabWidth(), 7);
        QCOMPARE(editor()->tabWidth(), 7); // applied without a restart
        settings->setValues(before);
        settings->save();
    }

    void projectDockListsAndFiltersTools()
    {
        const QString dir = example(QStringLiteral("customer-seats"));
        QVERIFY(openTrusted(*m_window, dir));
        ProjectPanel *panel = m_window->projectPanel();
        QCOMPARE(panel->toolModel()->rowCount(), 1);
        QCOMPARE(cell(panel->toolModel(), 0, ProjectPanel::NameColumn), QStringLiteral("getCustomer"));
        QCOMPARE(cell(panel->toolModel(), 0, ProjectPanel::HandlerColumn), QStringLiteral("mock"));
        QCOMPARE(cell(panel->toolModel(), 0, ProjectPanel::TagsColumn), QStringLiteral("crm"));
        QCOMPARE(panel->toolModel()->index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QCOMPARE(panel->scriptList()->topLevelItemCount(), 2); // the Python script and its Node twin
        QCOMPARE(panel->scriptList()->topLevelItem(0)->text(0), QStringLiteral("scripts/main.py"));
        QCOMPARE(panel->scriptList()->topLevelItem(1)->text(0), QStringLiteral("scripts/main.js"));
        panel->filterEdit()->setText(QStringLiteral("nothing-like-this"));
        panel->applyFilter();
        QCOMPARE(panel->filterModel()->rowCount(), 0);
        panel->filterEdit()->setText(QStringLiteral("customer"));
        panel->applyFilter();
        QCOMPARE(panel->filterModel()->rowCount(), 1);
        QCOMPARE(panel->tagCombo()->count(), 2); // "All tags", "crm"
        panel->tagCombo()->setCurrentIndex(1);
        QCOMPARE(panel->filterModel()->rowCount(), 1);
    }

    void toolEditsAreUndoableAndKeepUnknownKeys()
    {
        const QString dir = example(QStringLiteral("customer-seats"));
        // Keys the studio does not interpret (here a schema annotation) survive an edit.
        {
            auto manifest = ProjectWriter::readManifest(dir);
            QVERIFY(manifest);
            (*manifest)["tools"][0]["input_schema"]["x_team_notes"] = "keep me";
            QVERIFY(ProjectWriter::writeManifest(dir, *manifest));
        }
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(
            m_window->manifestEditor()->edit(QStringLiteral("Clone"), [](nlohmann::ordered_json &m, QString *error) {
                return ProjectWriter::cloneTool(m, QStringLiteral("getCustomer"), QStringLiteral("getCustomer_copy"),
                                                error);
            }));
        QCOMPARE(m_window->project()->tools.size(), std::size_t(2));
        QCOMPARE(m_window->project()->tools[1].name, QStringLiteral("getCustomer_copy"));
        QVERIFY(readFile(dir + QStringLiteral("/toolstudio.json"))
                    .contains(QLatin1String("\"x_team_notes\": \"keep me\"")));

        // Unchecking "active" in the Project dock is an edit too.
        QAbstractItemModel *model = m_window->projectPanel()->toolModel();
        model->setData(model->index(1, 0), Qt::Unchecked, Qt::CheckStateRole);
        QCOMPARE(m_window->project()->tools[1].active, false);
        QCOMPARE(undoStack()->count(), 2);

        undoAction()->trigger();
        QCOMPARE(m_window->project()->tools[1].active, true);
        undoAction()->trigger();
        QCOMPARE(m_window->project()->tools.size(), std::size_t(1));
        redoAction()->trigger();
        QCOMPARE(m_window->project()->tools.size(), std::size_t(2));
        QVERIFY(readFile(dir + QStringLiteral("/toolstudio.json")).contains(QLatin1String("x_team_notes")));

        // A refused edit changes nothing.
        m_window->setErrorDialogsEnabled(false);
        QVERIFY(
            !m_window->manifestEditor()->edit(QStringLiteral("Rename"), [](nlohmann::ordered_json &m, QString *error) {
                return ProjectWriter::renameTool(m, QStringLiteral("getCustomer"), QStringLiteral("-bad"), error);
            }));
        QCOMPARE(m_window->lastError(),
                 QStringLiteral("\"-bad\" is not a valid tool name (1 to 128 letters, digits, '_', '-' or '.', "
                                "starting with a letter, digit or '_')"));
        QCOMPARE(undoStack()->count(), 2);
    }

    void importsJsonToolAndPythonFile()
    {
        const QString dir = example(QStringLiteral("customer-seats"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->setErrorDialogsEnabled(false);
        m_window->toolsMenu()->setInteractive(false);
        const QString anthropic = m_scratch->filePath(QStringLiteral("weather.json"));
        QVERIFY(writeFile(anthropic, R"({"name": "get_weather", "description": "Weather for a city.",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}})"));
        // Dropped on the window: a .json or .py file is taken, other files are not.
        QVERIFY(ToolsMenu::importable({QUrl::fromLocalFile(anthropic)}));
        QVERIFY(!ToolsMenu::importable({QUrl::fromLocalFile(m_scratch->filePath(QStringLiteral("notes.txt")))}));
        QVERIFY(m_window->toolsMenu()->importDropped({QUrl::fromLocalFile(anthropic)}));
        const Tool *tool = m_window->project()->tool(QStringLiteral("get_weather"));
        QVERIFY(tool);
        QCOMPARE(tool->handler, HandlerKind::Manual);
        QCOMPARE(tool->parameterOrder, QStringList{QStringLiteral("city")});
        QCOMPARE(undoStack()->undoText(), QStringLiteral("Import weather.json"));

        // A dropped tool file: refused with the reason when it declares no tool, copied
        // into tools/ when it does.
        const QString empty = m_scratch->filePath(QStringLiteral("empty.py"));
        QVERIFY(writeFile(empty, "class Tools:\n    pass\n"));
        QVERIFY(!m_window->toolsMenu()->importDropped({QUrl::fromLocalFile(empty)}));
        QCOMPARE(m_window->toolsMenu()->lastSummary(),
                 QStringLiteral("Nothing was imported from empty.py; the project is unchanged:\n%1: no tools (a class "
                                "Tools with public methods)")
                     .arg(empty));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/tools/empty.py")));
        const QString python = m_scratch->filePath(QStringLiteral("greet.py"));
        QVERIFY(
            writeFile(python, "class Tools:\n    def greet(self, name: str) -> str:\n        return 'hi ' + name\n"));
        QVERIFY(m_window->toolsMenu()->importDropped({QUrl::fromLocalFile(python)}));
        QVERIFY(waitForPythonTools(*m_window));
        QVERIFY(QFileInfo::exists(dir + QStringLiteral("/tools/greet.py")));
        QVERIFY(m_window->project()->tool(QStringLiteral("greet")));
    }

    void secondWindowForAProjectIsRefused()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QDir().mkpath(dir + QStringLiteral("/.toolstudio"));
        QLockFile other(dir + QStringLiteral("/.toolstudio/window.lock"));
        QVERIFY(other.tryLock(0));
        m_window->setErrorDialogsEnabled(false);
        QVERIFY(!openTrusted(*m_window, dir));
        QCOMPARE(m_window->lastError(),
                 QStringLiteral("%1 is already open in another Tool Studio window (process %2). "
                                "Switch to that window, or close it first.")
                     .arg(QDir::toNativeSeparators(QFileInfo(dir).absoluteFilePath()))
                     .arg(QCoreApplication::applicationPid()));
        other.unlock();
        QVERIFY(openTrusted(*m_window, dir));
    }

    void tryItCallsTheToolAndJournalsIt()
    {
        const QString dir = example(QStringLiteral("customer-seats"));
        QVERIFY(openTrusted(*m_window, dir));
        ToolPanel *panel = m_window->toolPanel();
        QCOMPARE(panel->tool(), QStringLiteral("getCustomer"));
        QVERIFY(panel->schemaView()->toPlainText().contains(QLatin1String("\"input_schema\"")));
        auto *id = qobject_cast<QLineEdit *>(panel->form()->control(QStringLiteral("/id")));
        QVERIFY(id);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        id->setFocus();
        QTest::keyClicks(id, QStringLiteral("cus_1"));
        QSignalSpy finished(panel, &ToolPanel::callFinished);
        QTest::keyClick(id, Qt::Key_Return, Qt::ControlModifier); // Ctrl+Enter sends the form
        QVERIFY2(finished.wait(RunTimeoutMs), qPrintable(panel->resultView()->toPlainText()));
        QCOMPARE(panel->resultView()->toPlainText(),
                 QStringLiteral(
                     "Result (attempts 1/3, %1 ms):\n{\n  \"id\": \"cus_1\",\n  \"name\": \"Acme\",\n  \"seats\": 3\n}")
                     .arg(panel->directCall()->step()->durationMs()));
        Journal journal;
        QVERIFY(journal.open(m_window->project()->journalPath()));
        const std::vector<RunRecord> runs = journal.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].scriptPath, QStringLiteral("(Try it)"));
        QCOMPARE(runs[0].status, RunStatus::Completed);
        const std::vector<Step> steps = journal.steps(runs[0].id);
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(steps[0].args.dump()), QStringLiteral(R"({"id":"cus_1"})"));
        QCOMPARE(runsView()->topLevelItemCount(), 1);
        QCOMPARE(runsView()->topLevelItem(0)->text(1), QStringLiteral("(Try it)"));
    }

    void tracebackMarkersAfterAFailedRun()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"),
                          "rate = get_exchange_rate(base='USD', quote='EUR')\n"
                          "def convert(amount):\n"
                          "    return amount / 0\n"
                          "print(convert(100))\n"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->setErrorDialogsEnabled(false);
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Failed")), RunTimeoutMs);
        QCOMPARE(editor()->tracebackLines(), (QList<int>{3, 4}));
        QCOMPARE(editor()->tracebackMessage(3), QStringLiteral("ZeroDivisionError: division by zero"));
        // The Step dock shows the selected step as JSON.
        traceView()->setCurrentIndex(traceFilter()->mapFromSource(m_window->traceModel()->index(0, 0)));
        QVERIFY2(stepView()->toPlainText().contains(QLatin1String("\"result\": 0.92")),
                 qPrintable(stepView()->toPlainText()));
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

    // Runs dock ▸ Compare on two runs of a script that made one more call the second
    // time: the extra call is a gap on the A side, the rest is aligned.
    void compareTwoRunsWithAnInsertedStep()
    {
        const QString dir = m_scratch->filePath(QStringLiteral("compare"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/scripts")));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), R"({
  "name": "compare",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [{
    "name": "lookup_price",
    "description": "Price of a SKU.",
    "input_schema": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
    "handler": {"kind": "mock", "sequence": [{"result": 12.5}]}
  }]
})"));
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"),
                          "from toolstudio import tools\n"
                          "print(tools.lookup_price(sku='ABC'), tools.lookup_price(sku='DEF'))\n"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QVERIFY(writeFile(
            dir + QStringLiteral("/scripts/main.py"),
            "from toolstudio import tools\n"
            "print(tools.lookup_price(sku='ABC'), tools.lookup_price(sku='XYZ'), tools.lookup_price(sku='DEF'))\n"));
        QTRY_VERIFY(editor()->text().contains(QLatin1String("XYZ")));
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QVERIFY(m_window->statusText().startsWith(QLatin1String("Completed in ")));
        QTRY_COMPARE(runsView()->topLevelItemCount(), 2);

        auto *compare = m_window->findChild<QPushButton *>(QStringLiteral("compareRuns"));
        QVERIFY(compare);
        runsView()->setCurrentItem(runsView()->topLevelItem(0));
        QVERIFY(!compare->isEnabled());
        runsView()->selectAll();
        QVERIFY(compare->isEnabled());
        compare->click();
        auto *panel = m_window->findChild<RunComparePanel *>(QStringLiteral("runCompare"));
        QVERIFY(panel);
        QVERIFY(panel->isVisible());
        const QString older = runsView()->topLevelItem(1)->text(0);
        const QString newer = runsView()->topLevelItem(0)->text(0);
        QCOMPARE(panel->windowTitle(), QStringLiteral("Compare %1 and %2").arg(older, newer));
        RunCompareModel *model = panel->model();
        QCOMPARE(model->rowCount(), 3);
        const auto row = [&](int r) {
            QStringList cells;
            for (int c = 0; c < RunCompareModel::NUM_COLUMNS; ++c)
                if (c != RunCompareModel::LeftDuration && c != RunCompareModel::RightDuration)
                    cells.append(model->index(r, c).data().toString());
            return cells.join(QLatin1Char('|'));
        };
        QCOMPARE(row(0), QStringLiteral("1|lookup_price|succeeded|12.5|=|1|lookup_price|succeeded|12.5"));
        QCOMPARE(row(1), QStringLiteral("||||+|2|lookup_price|succeeded|12.5"));
        QCOMPARE(row(2), QStringLiteral("2|lookup_price|succeeded|12.5|=|3|lookup_price|succeeded|12.5"));
        QCOMPARE(panel->summaryLabel()->text(), QStringLiteral("2 same · 0 changed · 0 only in A · 1 only in B"));
        panel->close();
    }

    // File ▸ Import Run…: a run exported as JSON comes back with the same steps,
    // read-only; a malformed file is refused with what was wrong and where.
    void importRunRoundTrip()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->statusText().startsWith(QLatin1String("Completed in ")), RunTimeoutMs);
        QTRY_COMPARE(runsView()->topLevelItemCount(), 1);
        const QString runId = runsView()->topLevelItem(0)->text(0);
        TraceModel *trace = m_window->traceModel();
        QCOMPARE(trace->rowCount(), 1);
        QStringList before;
        for (int c = 0; c < trace->columnCount(); ++c)
            before.append(cell(trace, 0, c));
        const QString path = m_scratch->filePath(QStringLiteral("exported-run.json"));
        QVERIFY(m_window->runsPanel()->exportRun(runId, QStringLiteral("json"), path));

        m_window->runCommands()->runAction()->trigger(); // another run in the trace
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QVERIFY(!m_window->runViews()->showsImportedRun());
        QVERIFY(m_window->runViews()->importRun(path));
        QVERIFY(m_window->runViews()->showsImportedRun());
        QCOMPARE(trace->rowCount(), 1);
        QStringList after;
        for (int c = 0; c < trace->columnCount(); ++c)
            after.append(cell(trace, 0, c));
        QCOMPARE(after, before);
        QCOMPARE(m_window->statusText(),
                 QStringLiteral("Imported run %1: completed, 1 step(s) (read-only)").arg(runId));
        QVERIFY(m_window->console()->toPlainText().contains(QLatin1String("100 USD = 92.0 EUR")));
        m_window->tracePanel()->selectStep(trace->index(0, 0).data(TraceModel::CallIdRole).toString());
        QVERIFY2(stepView()->toPlainText().contains(QLatin1String("\"result\": 0.92")),
                 qPrintable(stepView()->toPlainText()));

        // Bad files change nothing and say why.
        m_window->setErrorDialogsEnabled(false);
        const QString bad = m_scratch->filePath(QStringLiteral("bad-run.json"));
        QVERIFY(writeFile(bad, "{\"format\": \"toolstudio-run\", \"version\": 7}"));
        QVERIFY(!m_window->runViews()->importRun(bad));
        QCOMPARE(
            m_window->lastError(),
            QStringLiteral("Cannot import the run: bad-run.json: version: version 7 is not supported: this Tool Studio "
                           "reads version 1 (export the run again with this version)\nOnly run JSON exported by Tool "
                           "Studio (format \"toolstudio-run\", version 1) can be imported."));
        QCOMPARE(trace->rowCount(), 1);
        QVERIFY(m_window->runViews()->showsImportedRun());
        // A new run leaves the imported one.
        m_window->runCommands()->runAction()->trigger();
        QVERIFY(!m_window->runViews()->showsImportedRun());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
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

    // Ctrl+E (next failed step) works while the trace filter has the focus: the line
    // edit would otherwise take it as "end of line".
    void nextFailedShortcutFromTheTraceFilter()
    {
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QLineEdit *filter = traceFilterEdit();
        filter->setFocus();
        QTRY_VERIFY(filter->hasFocus());
        QSignalSpy failed(m_window->tracePanel()->nextFailedAction(), &QAction::triggered);
        QSignalSpy pending(m_window->tracePanel()->nextPendingAction(), &QAction::triggered);
        QTest::keyClick(filter, Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(failed.count(), 1);
        QTest::keyClick(filter, Qt::Key_J, Qt::ControlModifier);
        QCOMPARE(pending.count(), 1);
        // Other keys still edit the filter.
        QTest::keyClicks(filter, QStringLiteral("fetch"));
        QCOMPARE(filter->text(), QStringLiteral("fetch"));
        filter->clear();
        // A line edit that claims Ctrl+E swallows the shortcut, unless it passes it through.
        auto greedy = std::make_unique<GreedyLineEdit>(filter->parentWidget());
        greedy->show();
        greedy->setFocus();
        QTRY_VERIFY(greedy->hasFocus());
        QTest::keyClick(greedy.get(), Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(failed.count(), 1);
        new ShortcutPassThrough(greedy.get(), {m_window->tracePanel()->nextFailedAction()});
        QTest::keyClick(greedy.get(), Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(failed.count(), 2);
    }

    // Filter, jump and selection across trace, timeline and inspector.
    void traceFilterJumpAndInspector()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(openTrusted(*m_window, dir));
        m_window->runCommands()->runAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        TraceModel *trace = m_window->traceModel();
        QTRY_COMPARE(trace->rowCount(), 1);
        QCOMPARE(traceToolCombo()->count(), 2);
        QCOMPARE(traceToolCombo()->itemText(1), QStringLiteral("get_exchange_rate"));

        // Typing is debounced, then filters.
        QTest::keyClicks(traceFilterEdit(), QStringLiteral("no such tool"));
        QCOMPARE(traceFilter()->rowCount(), 1);
        QTRY_COMPARE(traceFilter()->rowCount(), 0);
        traceFilterEdit()->clear();
        QTRY_COMPARE(traceFilter()->rowCount(), 1);
        failedOnlyButton()->click();
        QCOMPARE(traceFilter()->rowCount(), 0);
        pendingOnlyButton()->click();
        QVERIFY(!failedOnlyButton()->isChecked());
        QCOMPARE(traceFilter()->rowCount(), 0);
        pendingOnlyButton()->click();
        QCOMPARE(traceFilter()->rowCount(), 1);

        QVERIFY(!m_window->tracePanel()->jumpToStep(StepStatus::Failed));
        // Selecting from the timeline selects the step in the trace and the inspector.
        const QString callId = trace->step(0)->callId;
        m_window->tracePanel()->selectStep(callId);
        QCOMPARE(traceView()->currentIndex().data(TraceModel::CallIdRole).toString(), callId);
        QCOMPARE(m_window->stepInspector()->callId(), callId);
        QCOMPARE(timeline()->selectedCallId(), callId);
        QCOMPARE(m_window->stepInspector()->jsonModel()->index(0, 0).data().toString(),
                 QStringLiteral("get_exchange_rate"));
        QVERIFY2(budgetLabel()->text().startsWith(QLatin1String("calls 1/")), qPrintable(budgetLabel()->text()));

        // The console has a marker for the step; clicking it selects the step.
        ConsoleView *console = m_window->console();
        QTRY_COMPARE(console->markerCount(), 1);
        const QString marker = QStringLiteral("\u25b8 step #1 get_exchange_rate");
        QVERIFY2(console->toPlainText().contains(marker + QLatin1Char('\n')), qPrintable(console->toPlainText()));
        traceView()->clearSelection();
        traceView()->setCurrentIndex({});
        QTextCursor cursor = console->document()->find(marker);
        QVERIFY(!cursor.isNull());
        cursor.setPosition(cursor.selectionStart() + 3);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        console->verticalScrollBar()->setValue(0);
        console->ensureCursorVisible();
        const QPoint at = console->cursorRect(cursor).center();
        QSignalSpy clicked(console, &ConsoleView::stepClicked);
        QTest::mouseClick(console->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(traceView()->currentIndex().data(TraceModel::CallIdRole).toString(), callId);

        // Search in the output.
        QVERIFY(console->findText(QStringLiteral("GET_EXCHANGE")));
        QCOMPARE(console->textCursor().selectedText(), QStringLiteral("get_exchange"));
        QVERIFY(!console->findText(QStringLiteral("no such text")));
    }

    void reloadsAnUnmodifiedFileChangedOnDisk()
    {
        const QString dir = example(QStringLiteral("exchange-rate"));
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(writeFile(editor()->filePath(), "print('changed outside')\n"));
        QTRY_COMPARE(editor()->text(), QStringLiteral("print('changed outside')\n"));
        QVERIFY(!editor()->isModified());
    }

    /// A tools/*.py file saved while a run is active: the window says the tools reload
    /// when the run ends, keeps the run's project until then, and reloads after it.
    void toolFileSavedDuringARunReloadsAfterIt()
    {
        const QString dir = example(QStringLiteral("render-report"));
        QVERIFY(!dir.isEmpty());
        const QString toolFile = dir + QStringLiteral("/tools/extra.py");
        QVERIFY(writeFile(toolFile, "class Tools:\n    def first(self) -> int:\n        return 1\n"));
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->project()->tool(QStringLiteral("first")));
        m_window->runCommands()->runAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);

        QTest::qWait(20); // a different modification time
        QVERIFY(writeFile(toolFile,
                          "class Tools:\n    def first(self) -> int:\n        return 1\n"
                          "    def second(self) -> int:\n        return 2\n"));
        QTRY_COMPARE_WITH_TIMEOUT(m_window->statusBar()->currentMessage(),
                                  QStringLiteral("tools/extra.py changed; the tools reload when this run ends"), 5000);
        QVERIFY(!m_window->project()->tool(QStringLiteral("second"))); // not under the running run

        AnswerPane *pane = m_window->pendingPanel()->answerPane();
        auto *edit = qobject_cast<QLineEdit *>(pane->resultForm()->control(QString()));
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("https://example.org/report.pdf"));
        QVERIFY2(pane->sendResult(), qPrintable(pane->problem()));
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        QTRY_VERIFY(m_window->project()->tool(QStringLiteral("second")));
        QCOMPARE(m_window->statusBar()->currentMessage(),
                 QStringLiteral("The tools were reloaded (tools/extra.py changed during the run)"));

        // Without a run, a save reloads at once.
        QTest::qWait(20);
        QVERIFY(writeFile(toolFile, "class Tools:\n    def third(self) -> int:\n        return 3\n"));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->project()->tool(QStringLiteral("third")), 5000);
        QVERIFY(!m_window->project()->tool(QStringLiteral("second")));
    }

private:
    // A scratch copy of resources/examples/NAME; empty (and a failure) when missing.
    QString example(const QString &name)
    {
        const QString copy = copyExample(name, m_scratch->path());
        if (copy.isEmpty())
            qWarning("example project missing or not copied: %s", qPrintable(name));
        return copy;
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
