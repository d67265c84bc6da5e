// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's runs and trace: two runs compared (an inserted step), a run
// exported and imported again, the next failed step from the trace filter, and filter,
// jump and selection across the trace, the timeline and the step inspector.
#include "consoleview.h"
#include "jsontreemodel.h"
#include "mainwindowfixture.h"
#include "run/runcontroller.h"
#include "runcomparemodel.h"
#include "scripteditor.h"
#include "stepinspector.h"
#include "testfiles.h"
#include "timelinewidget.h"
#include "tracefiltermodel.h"
#include "tracemodel.h"
#include "ui/mainwindow.h"
#include "ui/runcommands.h"
#include "ui/runcomparepanel.h"
#include "ui/runspanel.h"
#include "ui/runviews.h"
#include "ui/shortcutpassthrough.h"
#include "ui/tracepanel.h"

#include <QAction>
#include <QDir>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>

#include <memory>

namespace {

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

} // namespace

class TstMainWindowTrace
    : public QObject
    , protected MainWindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }

    void init() { initWindow(ErrorDialogs::Shown); }

    void cleanup() { closeWindow(); }

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
};

QTEST_MAIN(TstMainWindowTrace)
#include "tst_mainwindowtrace.moc"
