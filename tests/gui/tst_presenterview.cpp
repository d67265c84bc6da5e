// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// View ▸ Zoom and Presenter Layout (docs/user/teaching.md): zoom scales the fonts of
// the whole window — the editor and the views with a font of their own included —
// and with them its row heights, is remembered per machine and bounded; Ctrl++ with
// the focus in the editor and Ctrl+wheel over a view zoom the window. The Presenter
// Layout keeps only the editor, trace, Pending Calls and Console, large and in high
// contrast, and turned off (or on quitting) leaves the window as it was.
#include "consoleview.h"
#include "scripteditor.h"
#include "testfiles.h"
#include "ui/settings.h"
#include "windowfixture.h"

#include <QApplication>
#include <QHeaderView>
#include <QWheelEvent>
#include <QtTest>

class TstPresenterView
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private:
    QAction *action(const char *name) const { return part<QAction>(name); }
    static int zoom() { return Settings::instance()->zoomPercent(); }

    void openExample()
    {
        const QString dir = copyExample(QStringLiteral("customer-seats"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(editor());
    }

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(Names::Suite); }

    void init()
    {
        Settings::instance()->setZoomPercent(100);
        initWindow();
        openExample();
    }

    void cleanup()
    {
        closeWindow();
        Settings::instance()->setZoomPercent(100);
    }

    void zoomScalesTheWholeWindow()
    {
        const qreal application = QApplication::font().pointSizeF();
        const qreal console = m_window->console()->font().pointSizeF(); // a fixed font of its own
        const qreal editorSize = editor()->editorFont().pointSizeF();
        const int header = traceView()->header()->sizeHint().height();
        const int toolColumn = traceView()->header()->sectionSize(1);
        QVERIFY(application > 0 && console > 0 && editorSize > 0);

        action("zoomInAction")->trigger();
        action("zoomInAction")->trigger();
        QCOMPARE(zoom(), 120);
        QCOMPARE(QApplication::font().pointSizeF(), application * 1.2);
        QCOMPARE(m_window->console()->font().pointSizeF(), console * 1.2);
        QCOMPARE(editor()->editorFont().pointSizeF(), editorSize * 1.2);
        QVERIFY2(traceView()->header()->sizeHint().height() > header, "the trace's rows grow with the font");
        QVERIFY2(traceView()->header()->sectionSize(1) > toolColumn, "and its columns");

        action("zoomOutAction")->trigger();
        QCOMPARE(zoom(), 110);
        QCOMPARE(m_window->console()->font().pointSizeF(), console * 1.1);

        action("resetZoomAction")->trigger();
        QCOMPARE(zoom(), 100);
        QCOMPARE(QApplication::font().pointSizeF(), application);
        QCOMPARE(m_window->console()->font().pointSizeF(), console);
        QCOMPARE(editor()->editorFont().pointSizeF(), editorSize);
        QCOMPARE(traceView()->header()->sizeHint().height(), header);
        QCOMPARE(traceView()->header()->sectionSize(1), toolColumn);
        QVERIFY(!action("resetZoomAction")->isEnabled());
    }

    void zoomIsBoundedAndRemembered()
    {
        Settings::instance()->setZoomPercent(290);
        action("zoomInAction")->trigger();
        QCOMPARE(zoom(), Settings::MaxZoomPercent);
        QVERIFY(!action("zoomInAction")->isEnabled());
        action("zoomInAction")->trigger();
        QCOMPARE(zoom(), Settings::MaxZoomPercent);
        Settings::instance()->setZoomPercent(1);
        QCOMPARE(zoom(), Settings::MinZoomPercent);
        QVERIFY(!action("zoomOutAction")->isEnabled());

        // Per machine: saved with the settings, and a new window opens zoomed.
        Settings::instance()->setZoomPercent(130);
        Settings::instance()->save();
        Settings reread;
        reread.load();
        QCOMPARE(reread.zoomPercent(), 130);
        const QFont editorFont = Settings::instance()->editorFont();
        closeWindow();
        initWindow();
        openExample();
        QCOMPARE(editor()->editorFont().pointSizeF(), editorFont.pointSizeF() * 1.3);
    }

    void ctrlPlusInTheEditorZoomsTheWindow()
    {
        ScriptEditor *e = editor();
        e->setFocus();
        const QString text = e->text();
        QTest::keyClick(e, Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(zoom(), 110);
        QTest::keyClick(e, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(zoom(), 100);
        QTest::keyClick(e, Qt::Key_Equal, Qt::ControlModifier); // Ctrl+= on keyboards without a + key
        QCOMPARE(zoom(), 110);
        QTest::keyClick(e, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(zoom(), 100);
        QCOMPARE(e->text(), text);
    }

    void ctrlWheelZoomsTheWindowNotOneView()
    {
        ConsoleView *console = m_window->console();
        const qreal size = console->font().pointSizeF();
        const QPointF at(10, 10);
        QWheelEvent up(at, console->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                       Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(console->viewport(), &up);
        QCOMPARE(zoom(), 110);
        QCOMPARE(console->font().pointSizeF(), size * 1.1);
        // Without Ctrl the wheel scrolls, as before.
        QWheelEvent scroll(at, console->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                           Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(console->viewport(), &scroll);
        QCOMPARE(zoom(), 110);
    }

    void presenterLayoutForAProjector()
    {
        const QList<QDockWidget *> all = docks(); // Project, Tool, Trace, Step, Pending Calls, Console, Runs
        QList<bool> visibleBefore;
        for (QDockWidget *dock : all)
            visibleBefore.append(dock->isVisible());
        const QColor baseBefore = QApplication::palette().color(QPalette::Base);
        all.at(4)->raise(); // Pending Calls in front of Tool and Step
        QTRY_VERIFY(!all.at(4)->visibleRegion().isEmpty());
        QTRY_VERIFY(!all.at(5)->visibleRegion().isEmpty()); // the Console in front of Runs
        Settings::instance()->setZoomPercent(120);
        QTRY_VERIFY(editorTabs()->width() > 0);
        const int editorWidthBefore = editorTabs()->width();
        const QSize windowBefore = m_window->size();

        action("presenterLayoutAction")->trigger();
        QVERIFY(action("presenterLayoutAction")->isChecked());
        const QList<bool> presenting{false, false, true, false, true, true, false};
        for (int i = 0; i < all.size(); ++i)
            QVERIFY2(all.at(i)->isVisible() == presenting.at(i), qPrintable(all.at(i)->objectName()));
        QVERIFY(editorTabs()->isVisible());
        // The large type needs room: the trace and Pending Calls share a column of about
        // 45 % of the width (at least the trace's minimum in 150 % type).
        QTRY_VERIFY2(all.at(2)->width() >= m_window->width() * 40 / 100,
                     qPrintable(QString::number(all.at(2)->width())));
        QCOMPARE(all.at(4)->width(), all.at(2)->width());
        QCOMPARE(zoom(), 150);
        QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
        QCOMPARE(QApplication::palette().color(QPalette::Text), QColor(Qt::black));
        // A disabled button and a placeholder must not pass for live ones and values.
        const QPalette projector = QApplication::palette();
        QVERIFY(projector.color(QPalette::Disabled, QPalette::ButtonText).lightness() >= 0x70);
        QVERIFY(projector.color(QPalette::PlaceholderText).lightness() >= 0x70);

        action("presenterLayoutAction")->trigger();
        QVERIFY(!action("presenterLayoutAction")->isChecked());
        for (int i = 0; i < all.size(); ++i)
            QVERIFY2(all.at(i)->isVisible() == visibleBefore.at(i), qPrintable(all.at(i)->objectName()));
        QTRY_VERIFY2(!all.at(4)->visibleRegion().isEmpty(), "Pending Calls is in front again");
        QVERIFY(all.at(1)->visibleRegion().isEmpty());
        QTRY_VERIFY2(!all.at(5)->visibleRegion().isEmpty(), "the Console is in front of Runs again");
        QVERIFY(all.at(6)->visibleRegion().isEmpty());
        QCOMPARE(zoom(), 120);
        QCOMPARE(QApplication::palette().color(QPalette::Base), baseBefore);
        QTRY_COMPARE(m_window->size(), windowBefore); // the large type grew it on a desktop
        // The editor gets its width back (restored under the large type it stayed squeezed).
        QTRY_VERIFY2(qAbs(editorTabs()->width() - editorWidthBefore) <= 4,
                     qPrintable(QStringLiteral("%1 vs %2").arg(editorTabs()->width()).arg(editorWidthBefore)));

        // A larger zoom is kept.
        Settings::instance()->setZoomPercent(200);
        action("presenterLayoutAction")->trigger();
        QCOMPARE(zoom(), 200);
        action("presenterLayoutAction")->trigger();
        QCOMPARE(zoom(), 200);

        // Quitting while presenting leaves the person's own zoom and theme.
        Settings::instance()->setZoomPercent(100);
        action("presenterLayoutAction")->trigger();
        QCOMPARE(zoom(), 150);
        QVERIFY(m_window->close());
        QCOMPARE(zoom(), 100);
        QCOMPARE(QApplication::palette().color(QPalette::Base), baseBefore);
    }

    /// Issue 20: at 1280×800, a common projector, the presenter layout squeezed the editor
    /// to ~170 pixels: the trace and Pending Calls stood side by side, and their minimum
    /// widths in 150 % type (639 and 462 pixels) took the rest. They share one column now,
    /// Pending Calls under the trace, and the editor keeps about half the width.
    void presenterLayoutAt1280LeavesTheEditorRoom()
    {
        m_window->resize(1280, 800);
        QTRY_COMPARE(m_window->width(), 1280);
        const QList<QDockWidget *> all = docks();
        QDockWidget *trace = all.at(2);
        QDockWidget *pending = all.at(4);
        QDockWidget *console = all.at(5);
        action("presenterLayoutAction")->trigger();
        QCOMPARE(zoom(), 150);
        // At least 45 % of the width (576 of 1280 pixels): the column is 45 % where the
        // large type lets it be; here the trace's own minimum (its filter row, ~640 pixels
        // at 150 %) decides and leaves the editor ~49 %, the margin is for other fonts.
        QTRY_VERIFY2(editorTabs()->width() >= 1280 * 45 / 100, qPrintable(QString::number(editorTabs()->width())));
        QCOMPARE(m_window->size(), QSize(1280, 800)); // the large type did not grow the window instead
        // One column: Pending Calls under the trace, as wide, with 40 % of the height.
        QCOMPARE(pending->geometry().left(), trace->geometry().left());
        QCOMPARE(pending->width(), trace->width());
        QVERIFY(pending->geometry().top() > trace->geometry().bottom());
        QTRY_VERIFY2(
            qAbs(pending->height() - (trace->height() + pending->height()) * 40 / 100) <= 10,
            qPrintable(QStringLiteral("%1 of %2").arg(pending->height()).arg(trace->height() + pending->height())));
        QVERIFY(trace->geometry().left() > editorTabs()->mapTo(m_window.get(), QPoint(editorTabs()->width(), 0)).x());
        // The console under the editor, as wide as it.
        QVERIFY(console->isVisible());
        QVERIFY(qAbs(console->width() - editorTabs()->width()) <= 10);

        // Off again: Pending Calls back in the left column, a tab beside Tool and Step.
        action("presenterLayoutAction")->trigger();
        QTRY_COMPARE(m_window->dockWidgetArea(pending), Qt::LeftDockWidgetArea);
        QVERIFY(m_window->tabifiedDockWidgets(pending).contains(all.at(1)));
    }
};

QTEST_MAIN(TstPresenterView)
#include "tst_presenterview.moc"
