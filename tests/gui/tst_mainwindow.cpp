// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: opening a project (an example, a missing folder, a malformed
// manifest, one another window has open), running a script (its step and output, the
// edited script saved first, a traceback's markers), its docks, shortcuts and settings,
// the Project dock's tools (filtered, edited with undo, imported, tried), and files
// changed on disk (reloaded, or after the run).
#include "consoleview.h"
#include "engine/toolcall.h"
#include "journal/journal.h"
#include "mainwindowfixture.h"
#include "project/projectwriter.h"
#include "run/runcontroller.h"
#include "schemaform.h"
#include "scripteditor.h"
#include "testfiles.h"
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
#include "ui/settings.h"
#include "ui/settingsdialog.h"
#include "ui/stepmodeactions.h"
#include "ui/toolpanel.h"
#include "ui/toolsmenu.h"
#include "ui/tracepanel.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLockFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTest>

namespace {

QString readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

class TstMainWindow
    : public QObject
    , protected MainWindowFixture
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

    /// nc-shot1: the MCP Servers dock tabified before the layout was arranged put Project,
    /// Tool, MCP Servers, Step, Pending Calls and Chat in one row of tabs ("Pr…", "S…").
    /// Project (with MCP Servers) sits above Tool, Step and Pending Calls; every tab title
    /// is whole (scroll buttons, never elided); Reset Layout widens the columns on a large
    /// window.
    void leftColumnProjectAboveToolWithWholeTabTitles()
    {
        QDockWidget *project = docks().at(0);
        QDockWidget *tool = docks().at(1);
        auto *mcp = m_window->findChild<QDockWidget *>(QStringLiteral("mcpDock"));
        QVERIFY(mcp);
        QCOMPARE(m_window->tabifiedDockWidgets(project), QList<QDockWidget *>{mcp});
        const QList<QDockWidget *> beside = m_window->tabifiedDockWidgets(tool);
        QVERIFY(!beside.contains(project));
        QVERIFY(beside.contains(docks().at(3)) && beside.contains(docks().at(4)));
        QVERIFY(project->geometry().bottom() < tool->geometry().top());
        const QList<QTabBar *> bars = m_window->findChildren<QTabBar *>(Qt::FindDirectChildrenOnly);
        QVERIFY(!bars.isEmpty());
        for (QTabBar *bar : bars) {
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
            QVERIFY(bar->usesScrollButtons());
        }

        m_window->resize(1600, 1000);
        m_window->findChild<QAction *>(QStringLiteral("resetLayoutAction"))->trigger();
        QTRY_COMPARE(project->width(), 480);       // 30 % of 1600
        QTRY_COMPARE(docks().at(2)->width(), 544); // the trace: 34 %
        QCOMPARE(m_window->tabifiedDockWidgets(project), QList<QDockWidget *>{mcp});
        for (QTabBar *bar : m_window->findChildren<QTabBar *>(Qt::FindDirectChildrenOnly))
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
        // The columns follow the window's width, until the person drags one.
        m_window->resize(1440, 900);
        QTRY_COMPARE(project->width(), 432);
        QTRY_COMPARE(docks().at(2)->width(), 540); // 34 % is 489: 540 at least
        m_window->resizeDocks({project}, {400}, Qt::Horizontal);
        QTRY_COMPARE(project->width(), 400);
        m_window->resize(1600, 1000);
        QTRY_COMPARE(m_window->width(), 1600);
        QTest::qWait(50);
        QCOMPARE(project->width(), 400);
    }

    /// nc-shot39: a failed server's stderr made the status bar three lines tall. One
    /// line, elided; the whole text in its tooltip and in statusText().
    void statusBarStaysOneLine()
    {
        auto *label = m_window->statusBar()->findChild<QLabel *>(QStringLiteral("runStatus"));
        QVERIFY(label);
        m_window->resize(2400, 820); // room for the whole line
        m_window->setStatus(QStringLiteral("Ready"));
        QTRY_VERIFY(m_window->statusBar()->height() > 0);
        const int oneLine = m_window->statusBar()->height();
        QCOMPARE(label->toolTip(), QString());
        const QString failed
            = QStringLiteral("MCP server 'filesystem' failed: the server exited with code 1; its stderr ends with:\n"
                             "Warning: Cannot access directory /work/nc-demo/shared, skipping\n"
                             "Error: None of the specified directories are accessible <b>x</b>");
        m_window->setStatus(failed);
        QCOMPARE(m_window->statusText(), failed);
        QTRY_COMPARE(
            label->text(),
            QStringLiteral("MCP server 'filesystem' failed: the server exited with code 1; its stderr ends with: "
                           "Warning: Cannot access directory /work/nc-demo/shared, skipping · Error: None of the "
                           "specified directories are accessible <b>x</b>"));
        QCOMPARE(label->toolTip(),
                 QStringLiteral("<p style=\"white-space: pre-wrap\">") + failed.toHtmlEscaped()
                     + QStringLiteral("</p>"));
        QCoreApplication::processEvents();
        QCOMPARE(m_window->statusBar()->height(), oneLine);

        // Narrower than the text: cut at its end, one line still.
        m_window->resize(500, m_window->height());
        QTRY_VERIFY(label->text().endsWith(QChar(0x2026)));
        QVERIFY(!label->text().contains(QLatin1Char('\n')));
        QCOMPARE(m_window->statusBar()->height(), oneLine);
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
};

QTEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
