// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/toolcall.h"
#include "project/projectwriter.h"
#include "schemaform.h"
#include "testfiles.h"
#include "ui/handlersettingsform.h"
#include "ui/mainwindow.h"
#include "ui/manifesteditor.h"
#include "ui/projectpanel.h"
#include "ui/toolpanel.h"
#include "ui/tryitanswerdialog.h"
#include "ui/valvesform.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

#include <memory>

// The Tool dock's handler settings and valves, Try it's form, and the Project dock's
// edits (active, tags, script bindings) — each checked in the toolstudio.json (or
// valves.json) it writes and undone through the window's undo stack.

namespace {

constexpr int CallTimeoutMs = 30000;

QString readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The manifest (or one part of it) as compact JSON text.
QString manifestPart(const QString &dir, const QString &pointer)
{
    const auto manifest = ProjectWriter::readManifest(dir);
    if (!manifest)
        return QStringLiteral("(unreadable)");
    const nlohmann::ordered_json::json_pointer p(pointer.toStdString());
    return manifest->contains(p) ? QString::fromStdString(manifest->at(p).dump()) : QStringLiteral("(absent)");
}

// Three tools of the three declared kinds and one script that binds every active tool.
const char *const Manifest
    = "{\n"
      "  \"name\": \"dock\",\n"
      "  \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],\n"
      "  \"tools\": [\n"
      "    {\"name\": \"lookup\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"integer\"}},"
      " \"required\": [\"id\"]},\n"
      "     \"retry\": {\"max_attempts\": 2}, \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1}]}},\n"
      "    {\"name\": \"approve\", \"output_schema\": {\"type\": \"object\", \"properties\": {\"ok\": {\"type\": \"boolean\"},"
      " \"note\": {\"type\": \"string\"}}, \"required\": [\"ok\"]},\n"
      "     \"handler\": {\"kind\": \"manual\"}},\n"
      "    {\"name\": \"convert\", \"handler\": {\"kind\": \"command\", \"command\": [\"python3\", \"tools/convert.py\"]}}\n"
      "  ]\n"
      "}\n";

QLineEdit *lineEdit(HandlerSettingsForm *form, const char *key)
{
    return qobject_cast<QLineEdit *>(form->editor(QString::fromLatin1(key)));
}

// Types `text` into a field of the handler form and presses Enter, as a person would.
void typeAndEnter(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

} // namespace

class TstToolDock
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(Names::Studio, Sandbox::NotNeeded); }

    void init()
    {
        makeScratch();
        m_dir = m_scratch->filePath(QStringLiteral("dock"));
        QVERIFY(writeFile(m_dir + QStringLiteral("/toolstudio.json"), Manifest));
        QVERIFY(writeFile(m_dir + QStringLiteral("/scripts/main.py"), "print(1)\n"));
        showWindow();
    }

    void cleanup() { closeWindow(); }

    /// nc-shot27–31: typing in the Project dock's filter brought the Tool dock forward
    /// over the list (the filter moved the current row: toolSelected), and the one row
    /// left, made current unseen, took a click as no change. Filtering selects nothing;
    /// a click on a filtered row selects it and shows it in the Tool dock.
    void filterKeepsTheListAndAClickSelects()
    {
        ProjectPanel *panel = m_window->projectPanel();
        ToolPanel *tool = m_window->toolPanel();
        QDockWidget *projectDock = docks().at(0);
        auto *heading = tool->findChild<QLabel *>(QStringLiteral("toolHeading"));
        QVERIFY(heading);
        // No tool: no arguments form (it showed an empty "JSON value" field).
        QCOMPARE(heading->text(), QStringLiteral("Select a tool in the Project dock."));
        QVERIFY(tool->form()->isHidden());

        QVERIFY(openTrusted(*m_window, m_dir)); // the first tool shown
        QCOMPARE(panel->currentTool(), QStringLiteral("lookup"));
        QCOMPARE(heading->text(), QStringLiteral("lookup"));
        QVERIFY(!tool->form()->isHidden());
        QSignalSpy selected(panel, &ProjectPanel::toolSelected);

        // "o" keeps every row: lookup stays current, nothing is chosen.
        QTest::keyClicks(panel->filterEdit(), QStringLiteral("o"));
        panel->applyFilter();
        QCOMPARE(panel->filterModel()->rowCount(), 3);
        QCOMPARE(panel->currentTool(), QStringLiteral("lookup"));
        // "conv" hides lookup: no current row, nothing chosen, the list still in view.
        QTest::keyClicks(panel->filterEdit(), QStringLiteral("nv"));
        panel->applyFilter();
        QCOMPARE(panel->filterEdit()->text(), QStringLiteral("onv"));
        QCOMPARE(panel->filterModel()->rowCount(), 1);
        QCOMPARE(panel->currentTool(), QString());
        QCOMPARE(selected.count(), 0);
        QVERIFY(!projectDock->visibleRegion().isEmpty());
        QVERIFY(!panel->toolView()->visibleRegion().isEmpty());
        QCOMPARE(heading->text(), QStringLiteral("lookup")); // shown until another is chosen

        // A click on the row left selects it and shows it in the Tool dock.
        QTreeView *view = panel->toolView();
        const QRect row = view->visualRect(panel->filterModel()->index(0, ProjectPanel::HandlerColumn));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, row.center());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toString(), QStringLiteral("convert"));
        QCOMPARE(panel->currentTool(), QStringLiteral("convert"));
        QCOMPARE(heading->text(), QStringLiteral("convert"));
        QVERIFY(!projectDock->visibleRegion().isEmpty()); // above the Tool dock, not a tab of it

        // Cleared: every row back, convert still the current one.
        panel->filterEdit()->clear();
        panel->applyFilter();
        QCOMPARE(panel->filterModel()->rowCount(), 3);
        QCOMPARE(panel->currentTool(), QStringLiteral("convert"));
        QCOMPARE(selected.count(), 1);
    }

    void retryFieldWritesUndoably()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        m_window->projectPanel()->selectTool(QStringLiteral("lookup"));
        HandlerSettingsForm *form = m_window->toolPanel()->handlerForm();
        m_window->toolPanel()->tabs()->setCurrentIndex(2);
        QCOMPARE(lineEdit(form, "max_attempts")->text(), QStringLiteral("2"));
        QCOMPARE(lineEdit(form, "initial_backoff_seconds")->text(), QStringLiteral("0.5"));

        typeAndEnter(lineEdit(form, "max_attempts"), QStringLiteral("5"));
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/0/retry")), QStringLiteral(R"({"max_attempts":5})"));
        QCOMPARE(m_window->project()->tool(QStringLiteral("lookup"))->retry.maxAttempts, 5);
        typeAndEnter(lineEdit(form, "initial_backoff_seconds"), QStringLiteral("1.25"));
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/0/retry")),
                 QStringLiteral(R"({"max_attempts":5,"initial_backoff_seconds":1.25})"));
        QCOMPARE(undoStack()->count(), 2);
        QCOMPARE(undoStack()->undoText(), QStringLiteral("Set initial_backoff_seconds of lookup to 1.25"));

        // Ctrl+Z in the Tool dock (outside a text field) undoes the last edit.
        m_window->toolPanel()->tabs()->tabBar()->setFocus();
        QTest::keyClick(m_window->toolPanel()->tabs()->tabBar(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/0/retry")), QStringLiteral(R"({"max_attempts":5})"));
        QCOMPARE(lineEdit(form, "initial_backoff_seconds")->text(), QStringLiteral("0.5"));
        undoAction()->trigger();
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/0/retry")), QStringLiteral(R"({"max_attempts":2})"));
        QCOMPARE(lineEdit(form, "max_attempts")->text(), QStringLiteral("2"));
    }

    void badRetryInputIsRefusedAtTheFieldAndKept_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative backoff") << QStringLiteral("initial_backoff_seconds") << QStringLiteral("-1")
                                          << QStringLiteral("Must be at least 0.");
        QTest::newRow("not a number") << QStringLiteral("max_backoff_seconds") << QStringLiteral("soon")
                                      << QStringLiteral("“soon” is not a number.");
        QTest::newRow("fraction of attempts")
            << QStringLiteral("max_attempts") << QStringLiteral("2.5") << QStringLiteral("Enter a whole number.");
        QTest::newRow("zero attempts") << QStringLiteral("max_attempts") << QStringLiteral("0")
                                       << QStringLiteral("Must be at least 1.");
        QTest::newRow("factor below 1") << QStringLiteral("factor") << QStringLiteral("0.5")
                                        << QStringLiteral("Must be at least 1.");
        QTest::newRow("jitter above 1") << QStringLiteral("jitter") << QStringLiteral("1.5")
                                        << QStringLiteral("Must be between 0 and 1.");
        QTest::newRow("empty timeout") << QStringLiteral("total_timeout_seconds") << QString()
                                       << QStringLiteral("Enter a number.");
    }

    void badRetryInputIsRefusedAtTheFieldAndKept()
    {
        QFETCH(QString, key);
        QFETCH(QString, typed);
        QFETCH(QString, message);
        QVERIFY(openTrusted(*m_window, m_dir));
        m_window->projectPanel()->selectTool(QStringLiteral("lookup"));
        HandlerSettingsForm *form = m_window->toolPanel()->handlerForm();
        m_window->toolPanel()->tabs()->setCurrentIndex(2);
        const QString before = readFile(m_dir + QStringLiteral("/toolstudio.json"));
        auto *edit = qobject_cast<QLineEdit *>(form->editor(key));
        QVERIFY(edit);
        typeAndEnter(edit, typed);
        QCOMPARE(form->errorAt(key), message);
        QCOMPARE(edit->text(), typed); // the person's input is kept
        QCOMPARE(readFile(m_dir + QStringLiteral("/toolstudio.json")), before);
        QCOMPARE(undoStack()->count(), 0);
        // A reload (another edit) does not overwrite it either.
        typeAndEnter(lineEdit(form, "attempt_timeout_seconds"), QStringLiteral("7"));
        QCOMPARE(undoStack()->count(), 1);
        QCOMPARE(edit->text(), typed);
        QCOMPARE(form->errorAt(key), message);
    }

    void mockSequenceAndCommandLine()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        m_window->projectPanel()->selectTool(QStringLiteral("lookup"));
        HandlerSettingsForm *form = m_window->toolPanel()->handlerForm();
        QVERIFY(form->isRowShown(QStringLiteral("sequence")));
        QVERIFY(!form->isRowShown(QStringLiteral("command")));
        auto *sequence = qobject_cast<QPlainTextEdit *>(form->editor(QStringLiteral("sequence")));
        QCOMPARE(sequence->toPlainText(), QStringLiteral("[\n  {\n    \"result\": 1\n  }\n]"));

        const QString bad = QStringLiteral(R"([{"result": 1, "error": "down"}])");
        sequence->setPlainText(bad);
        form->applySequenceButton()->click();
        QCOMPARE(form->errorAt(QStringLiteral("sequence")),
                 QStringLiteral("sequence[0]: needs exactly one of 'result' or 'error'"));
        QCOMPARE(sequence->toPlainText(), bad);
        sequence->setPlainText(QStringLiteral("[{\"result\": 1},"));
        form->applySequenceButton()->click();
        QVERIFY2(form->errorAt(QStringLiteral("sequence")).startsWith(QLatin1String("Not valid JSON: ")),
                 qPrintable(form->errorAt(QStringLiteral("sequence"))));
        QCOMPARE(undoStack()->count(), 0);

        sequence->setPlainText(
            QStringLiteral(R"([{"error": "down", "retryable": true, "delay_seconds": 0.5}, {"result": {"n": 2}}])"));
        form->applySequenceButton()->click();
        QCOMPARE(form->errorAt(QStringLiteral("sequence")), QString());
        QCOMPARE(
            manifestPart(m_dir, QStringLiteral("/tools/0/handler")),
            QStringLiteral(
                R"({"kind":"mock","sequence":[{"error":"down","retryable":true,"delay_seconds":0.5},{"result":{"n":2}}]})"));
        QCOMPARE(m_window->project()->tool(QStringLiteral("lookup"))->mockSequence.size(), std::size_t(2));

        m_window->projectPanel()->selectTool(QStringLiteral("convert"));
        QVERIFY(form->isRowShown(QStringLiteral("command")));
        QVERIFY(!form->isRowShown(QStringLiteral("sequence")));
        QCOMPARE(lineEdit(form, "command")->text(), QStringLiteral("python3 tools/convert.py"));
        typeAndEnter(lineEdit(form, "command"), QStringLiteral(R"(python3 "tools/my convert.py" --rate 2)"));
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/2/handler/command")),
                 QStringLiteral(R"(["python3","tools/my convert.py","--rate","2"])"));
        QCOMPARE(lineEdit(form, "command")->text(), QStringLiteral(R"(python3 "tools/my convert.py" --rate 2)"));
        typeAndEnter(lineEdit(form, "command"), QStringLiteral("   "));
        QCOMPARE(form->errorAt(QStringLiteral("command")),
                 QStringLiteral("Give the program to run, then its arguments."));
        QCOMPARE(undoStack()->count(), 2);
        undoAction()->trigger();
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/2/handler/command")),
                 QStringLiteral(R"(["python3","tools/convert.py"])"));
    }

    void manualToolWaitBound()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        m_window->projectPanel()->selectTool(QStringLiteral("approve"));
        HandlerSettingsForm *form = m_window->toolPanel()->handlerForm();
        QVERIFY(!form->isRowShown(QStringLiteral("sequence")));
        QVERIFY(!form->isRowShown(QStringLiteral("command")));
        // A person may take any time: no bound unless the tool's own retry sets one.
        QCOMPARE(lineEdit(form, "attempt_timeout_seconds")->text(), QStringLiteral("0"));
        QString label;
        for (QLabel *l : form->findChildren<QLabel *>())
            if (l->buddy() == lineEdit(form, "attempt_timeout_seconds"))
                label = l->text();
        QCOMPARE(label, QStringLiteral("Answer wait bound (s):"));
        typeAndEnter(lineEdit(form, "attempt_timeout_seconds"), QStringLiteral("600"));
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/1/retry")),
                 QStringLiteral(R"({"attempt_timeout_seconds":600.0})"));
        QCOMPARE(m_window->project()->tool(QStringLiteral("approve"))->retry.attemptTimeoutMs, 600000);
    }

    void tryItShowsErrorsOnlyAfterEditOrSend()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        m_window->projectPanel()->selectTool(QStringLiteral("lookup"));
        ToolPanel *panel = m_window->toolPanel();
        SchemaForm *form = panel->form();
        QVERIFY(!form->isValid());                                 // "id" is required and empty …
        QCOMPARE(form->errorAt(QStringLiteral("/id")), QString()); // … but a fresh form is not red
        QCOMPARE(form->findChild<QLabel *>(QStringLiteral("problem"))->text(), QString());
        QVERIFY(panel->callButton()->isEnabled());
        panel->callButton()->click(); // Send
        QCOMPARE(form->errorAt(QStringLiteral("/id")), QStringLiteral("enter an integer"));
        QCOMPARE(panel->resultView()->toPlainText(), QStringLiteral("Fix the arguments first: /id: enter an integer"));
    }

    void tryItOnAManualToolAnswersWithTheOutputSchemaForm()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        m_window->projectPanel()->selectTool(QStringLiteral("approve"));
        ToolPanel *panel = m_window->toolPanel();
        QSignalSpy finished(panel, &ToolPanel::callFinished);
        QVERIFY(panel->callTool());
        QTRY_VERIFY_WITH_TIMEOUT(panel->answerDialog(), CallTimeoutMs);
        TryItAnswerDialog *dialog = panel->answerDialog();
        dialog->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        SchemaForm *answer = dialog->form();
        QVERIFY(!answer->isRawMode());
        QVERIFY(answer->control(QStringLiteral("/ok")));
        QCOMPARE(answer->errorAt(QStringLiteral("/ok")), QString());
        auto *note = qobject_cast<QCheckBox *>(answer->control(QStringLiteral("/note"), QStringLiteral("include")));
        note->click();
        auto *noteEdit = qobject_cast<QLineEdit *>(answer->control(QStringLiteral("/note")));
        QTest::keyClicks(noteEdit, QStringLiteral("fine"));
        qobject_cast<QCheckBox *>(answer->control(QStringLiteral("/ok")))->click();
        QVERIFY2(answer->isValid(), qPrintable(answer->problem() ? answer->problem()->toString() : QString()));
        dialog->activateWindow();
        QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget *>(dialog));
        noteEdit->setFocus();
        QCOMPARE(QApplication::focusWidget(), noteEdit);
        QTest::keyClick(noteEdit, Qt::Key_Return, Qt::ControlModifier); // Ctrl+Enter sends
        QVERIFY2(finished.wait(CallTimeoutMs),
                 qPrintable(panel->resultView()->toPlainText()
                            + (panel->answerDialog() ? QStringLiteral(" (dialog still open)") : QString())));
        QCOMPARE(QString::fromStdString(panel->directCall()->step()->result->dump()),
                 QStringLiteral(R"({"note":"fine","ok":true})"));
    }

    void tryItOnAManualToolWithoutOutputSchemaTakesRawJson()
    {
        QVERIFY(writeFile(m_dir + QStringLiteral("/toolstudio.json"),
                          R"({"tools": [{"name": "ask", "handler": {"kind": "manual"}}]})"));
        QVERIFY(openTrusted(*m_window, m_dir));
        ToolPanel *panel = m_window->toolPanel();
        QCOMPARE(panel->tool(), QStringLiteral("ask"));
        QSignalSpy finished(panel, &ToolPanel::callFinished);
        QVERIFY(panel->callTool());
        QTRY_VERIFY_WITH_TIMEOUT(panel->answerDialog(), CallTimeoutMs);
        TryItAnswerDialog *dialog = panel->answerDialog();
        QVERIFY(dialog->form()->isRawMode());
        QVERIFY(dialog->form()->rawToggle()->isHidden());
        dialog->form()->rawEdit()->setPlainText(QStringLiteral("[1, "));
        QVERIFY(!dialog->sendResult());
        QVERIFY(dialog->isVisible());
        dialog->form()->rawEdit()->setPlainText(QStringLiteral(R"([1, "two"])"));
        QVERIFY(dialog->sendResult());
        QVERIFY(finished.wait(CallTimeoutMs));
        QCOMPARE(QString::fromStdString(panel->directCall()->step()->result->dump()), QStringLiteral(R"([1,"two"])"));
    }

    void scriptBindingsAreCheckboxesUnderTheScript()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        ProjectPanel *panel = m_window->projectPanel();
        QTreeWidget *scripts = panel->scriptList();
        QCOMPARE(scripts->topLevelItemCount(), 1);
        QCOMPARE(scripts->topLevelItem(0)->text(0), QStringLiteral("scripts/main.py"));
        QCOMPARE(scripts->topLevelItem(0)->childCount(), 3);
        // Default: every active tool.
        for (const char *tool : {"lookup", "approve", "convert"})
            QCOMPARE(panel->bindingItem(QStringLiteral("main"), QString::fromLatin1(tool))->checkState(0), Qt::Checked);

        panel->bindingItem(QStringLiteral("main"), QStringLiteral("approve"))->setCheckState(0, Qt::Unchecked);
        QTRY_COMPARE(manifestPart(m_dir, QStringLiteral("/scripts/0/tools")),
                     QStringLiteral(R"(["lookup","convert"])"));
        QCOMPARE(m_window->project()->boundTools(QStringLiteral("main")),
                 (QStringList{QStringLiteral("lookup"), QStringLiteral("convert")}));
        QCOMPARE(panel->bindingItem(QStringLiteral("main"), QStringLiteral("approve"))->checkState(0), Qt::Unchecked);
        QCOMPARE(undoStack()->undoText(), QStringLiteral("Unbind approve from main"));

        // Ticking it again is the default again: no list, so a tool added later is bound too.
        panel->bindingItem(QStringLiteral("main"), QStringLiteral("approve"))->setCheckState(0, Qt::Checked);
        QTRY_COMPARE(manifestPart(m_dir, QStringLiteral("/scripts/0")),
                     QStringLiteral(R"({"name":"main","path":"scripts/main.py"})"));

        // The last tool cannot be unticked (an empty list means every active tool).
        panel->bindingItem(QStringLiteral("main"), QStringLiteral("approve"))->setCheckState(0, Qt::Unchecked);
        QTRY_COMPARE(undoStack()->count(), 3);
        panel->bindingItem(QStringLiteral("main"), QStringLiteral("convert"))->setCheckState(0, Qt::Unchecked);
        QTRY_COMPARE(manifestPart(m_dir, QStringLiteral("/scripts/0/tools")), QStringLiteral(R"(["lookup"])"));
        panel->bindingItem(QStringLiteral("main"), QStringLiteral("lookup"))->setCheckState(0, Qt::Unchecked);
        QTRY_COMPARE(m_window->lastError(),
                     QStringLiteral("main would have no tool left to call, and an empty list means "
                                    "every active tool; keep at least one tool ticked."));
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/scripts/0/tools")), QStringLiteral(R"(["lookup"])"));
        QTRY_COMPARE(panel->bindingItem(QStringLiteral("main"), QStringLiteral("lookup"))->checkState(0), Qt::Checked);

        // Undo walks back through the bindings.
        undoAction()->trigger();
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/scripts/0/tools")), QStringLiteral(R"(["lookup","convert"])"));
        QCOMPARE(panel->bindingItem(QStringLiteral("main"), QStringLiteral("convert"))->checkState(0), Qt::Checked);

        // Deleting a bound tool drops it from the binding (else the project would not load).
        QVERIFY(
            m_window->manifestEditor()->edit(QStringLiteral("Delete"), [](ProjectWriter::Manifest &m, QString *error) {
                return ProjectWriter::removeTool(m, QStringLiteral("convert"), error);
            }));
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/scripts/0/tools")), QStringLiteral(R"(["lookup"])"));
    }

    void tagsEditedInTheProjectDock()
    {
        QVERIFY(openTrusted(*m_window, m_dir));
        QAbstractItemModel *model = m_window->projectPanel()->toolModel();
        model->setData(model->index(0, ProjectPanel::TagsColumn), QStringLiteral(" crm,  billing ,crm"));
        QTRY_COMPARE(manifestPart(m_dir, QStringLiteral("/tools/0/tags")), QStringLiteral(R"(["crm","billing"])"));
        QCOMPARE(m_window->project()->tool(QStringLiteral("lookup"))->tags,
                 (QStringList{QStringLiteral("crm"), QStringLiteral("billing")}));
        undoAction()->trigger();
        QCOMPARE(manifestPart(m_dir, QStringLiteral("/tools/0/tags")), QStringLiteral("(absent)"));

        // From the keyboard: "Tags…" opens the cell's editor.
        ProjectPanel *panel = m_window->projectPanel();
        panel->selectTool(QStringLiteral("convert"));
        QAction *tags = nullptr;
        for (QAction *action : panel->toolView()->actions())
            if (action->text() == QStringLiteral("Tags…"))
                tags = action;
        QVERIFY(tags);
        tags->trigger();
        auto *editor = panel->toolView()->viewport()->findChild<QLineEdit *>();
        QVERIFY(editor);
        QTest::keyClicks(editor, QStringLiteral("io, files"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(manifestPart(m_dir, QStringLiteral("/tools/2/tags")), QStringLiteral(R"(["io","files"])"));
    }

    void pythonToolActiveTagsAndValves()
    {
        const QString dir = copyExample(QStringLiteral("python-tools"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY2(m_window->project()->tool(QStringLiteral("get_temperature")),
                 "the tool worker did not load tools/weather.py");
        ProjectPanel *panel = m_window->projectPanel();
        QAbstractItemModel *model = panel->toolModel();
        int row = -1;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, 0).data().toString() == QLatin1String("get_temperature"))
                row = r;
        QVERIFY(row >= 0);

        model->setData(model->index(row, 0), Qt::Unchecked, Qt::CheckStateRole);
        QCOMPARE(manifestPart(dir, QStringLiteral("/python_tools")),
                 QStringLiteral(R"({"get_temperature":{"active":false}})"));
        QCOMPARE(m_window->project()->tool(QStringLiteral("get_temperature"))->active, false);
        model->setData(model->index(row, ProjectPanel::TagsColumn), QStringLiteral("weather"));
        QTRY_COMPARE(manifestPart(dir, QStringLiteral("/python_tools")),
                     QStringLiteral(R"({"get_temperature":{"active":false,"tags":["weather"]}})"));
        undoAction()->trigger();
        undoAction()->trigger();
        QCOMPARE(manifestPart(dir, QStringLiteral("/python_tools")), QStringLiteral("(absent)"));
        QCOMPARE(m_window->project()->tool(QStringLiteral("get_temperature"))->active, true);

        // Retry of a Python tool goes to python_tools too.
        panel->selectTool(QStringLiteral("get_temperature"));
        HandlerSettingsForm *handler = m_window->toolPanel()->handlerForm();
        typeAndEnter(lineEdit(handler, "max_attempts"), QStringLiteral("1"));
        QCOMPARE(manifestPart(dir, QStringLiteral("/python_tools")),
                 QStringLiteral(R"({"get_temperature":{"retry":{"max_attempts":1}}})"));

        // Valves: a form from the Valves model, saved through ValveStore.
        ValvesForm *valves = m_window->toolPanel()->valvesForm();
        QCOMPARE(valves->file(), QStringLiteral("tools/weather.py"));
        SchemaForm *form = valves->form(QStringLiteral("Valves"));
        QVERIFY(form);
        QVERIFY(valves->form(QStringLiteral("UserValves")));
        QCOMPARE(QString::fromStdString(form->value().dump()),
                 QStringLiteral(R"({"default_unit":"celsius","forecast_days":3})"));
        auto *days = qobject_cast<QLineEdit *>(form->control(QStringLiteral("/forecast_days")));
        QVERIFY(days);
        days->selectAll();
        QTest::keyClicks(days, QStringLiteral("x"));
        QVERIFY(!valves->save(QStringLiteral("Valves")));
        QCOMPARE(valves->message(), QStringLiteral("Not saved: /forecast_days: “x” is not a number"));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/.toolstudio/valves.json")));
        days->selectAll();
        QTest::keyClicks(days, QStringLiteral("5"));
        valves->saveButton(QStringLiteral("Valves"))->click();
        QCOMPARE(valves->message(), QStringLiteral("Saved Valves of tools/weather.py; the next call uses them."));
        QCOMPARE(
            QString::fromStdString(
                nlohmann::json::parse(readFile(dir + QStringLiteral("/.toolstudio/valves.json")).toStdString()).dump()),
            QStringLiteral(R"({"tools/weather.py":{"Valves":{"forecast_days":5}}})"));
        // Another edit reloads the project; the valves shown stay what was saved.
        typeAndEnter(lineEdit(handler, "max_attempts"), QStringLiteral("2"));
        QCOMPARE(QString::fromStdString(valves->form(QStringLiteral("Valves"))->value().dump()),
                 QStringLiteral(R"({"default_unit":"celsius","forecast_days":5})"));
    }

    void secretValvesAreMasked()
    {
        const nlohmann::json schema = nlohmann::json::parse(
            R"({"type":"object","properties":{"api_key":{"type":"string"},"region":{"type":"string"},"pin":{"type":"string","format":"password"}}})");
        const nlohmann::json masked = ValvesForm::maskedSchema(schema);
        QCOMPARE(
            QString::fromStdString(masked.dump()),
            QStringLiteral(
                R"({"properties":{"api_key":{"type":"string","writeOnly":true},"pin":{"format":"password","type":"string","writeOnly":true},"region":{"type":"string"}},"type":"object"})"));
        SchemaForm form;
        form.setSchema(masked);
        form.setValue(nlohmann::json{{"api_key", "sk-123"}, {"region", "eu"}});
        QCOMPARE(qobject_cast<QLineEdit *>(form.control(QStringLiteral("/api_key")))->echoMode(), QLineEdit::Password);
        QCOMPARE(qobject_cast<QLineEdit *>(form.control(QStringLiteral("/region")))->echoMode(), QLineEdit::Normal);
    }

private:
    QString m_dir;
};

QTEST_MAIN(TstToolDock)
#include "tst_tooldock.moc"
