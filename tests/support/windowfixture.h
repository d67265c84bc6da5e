// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The set-up the window suites (tests/gui/) share: the test identity, a scratch folder
// and a shown main window, closed again with any run it started stopped.
#pragma once

#include "run/runcontroller.h"
#include "timelinewidget.h"
#include "tracefiltermodel.h"
#include "trustedproject.h"
#include "ui/mainwindow.h"
#include "ui/pendingcallspanel.h"
#include "ui/scripttabs.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

#include <memory>

/// A run starts an interpreter in the sandbox; allow for a slow, shared machine.
constexpr int RunTimeoutMs = 30000;

/// A mixin for a window suite (`class TstX : public QObject, protected WindowFixture`):
/// the suite's slots call it from initTestCase(), init() and cleanup() and reach the
/// window and the scratch folder as m_window and m_scratch. Its checks are QVERIFYs, so
/// a failed set-up fails (and skips) the test function as one written in place would.
class WindowFixture
{
public:
    enum class Names { Studio, Suite };
    enum class Sandbox { Required, NotNeeded };
    enum class ErrorDialogs { Off, Shown };

protected:
    /// For initTestCase(): standard paths in test mode, so no suite reads or writes a
    /// user's settings; with Names::Studio the studio's application name under the
    /// organisation "toolstudio-tests" (Names::Suite keeps the executable's own, settings
    /// apart from the other suites); with Sandbox::Required, checks that CTest pointed
    /// TOOLSTUDIO_SANDBOX at the launcher.
    static void initWindowTestCase(Names names = Names::Studio, Sandbox sandbox = Sandbox::Required)
    {
        QStandardPaths::setTestModeEnabled(true);
        if (names == Names::Studio) {
            QCoreApplication::setApplicationName(QStringLiteral("Tool Studio"));
            QCoreApplication::setOrganizationName(QStringLiteral("toolstudio-tests"));
        }
        if (sandbox == Sandbox::Required)
            QVERIFY2(!qEnvironmentVariableIsEmpty("TOOLSTUDIO_SANDBOX"),
                     "TOOLSTUDIO_SANDBOX must point at the toolstudio-sandbox launcher (CTest sets it)");
    }

    /// A fresh scratch folder in m_scratch (removed by closeWindow()).
    void makeScratch()
    {
        m_scratch = std::make_unique<QTemporaryDir>();
        QVERIFY(m_scratch->isValid());
    }

    /// A new main window in m_window, shown and exposed; error dialogs off unless asked
    /// for (a modal box would stop the test).
    void showWindow(ErrorDialogs dialogs = ErrorDialogs::Off)
    {
        m_window = std::make_unique<MainWindow>();
        if (dialogs == ErrorDialogs::Off)
            m_window->setErrorDialogsEnabled(false);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    /// For init(): makeScratch(), then showWindow().
    void initWindow(ErrorDialogs dialogs = ErrorDialogs::Off)
    {
        makeScratch();
        showWindow(dialogs);
    }

    /// For cleanup(): stops a run the test left going (waiting for it to end), then
    /// closes the window and removes the scratch folder.
    void closeWindow()
    {
        if (m_window && m_window->runController()->isActive()) {
            m_window->runController()->stop();
            QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        }
        m_window.reset();
        m_scratch.reset();
    }

    // The window's parts, found by object name (as Kate's tests do; the window has no
    // getters for tests). Each fails the test when the part is gone.
    template<class T>
    T *part(const char *name) const
    {
        T *found = m_window->findChild<T *>(QLatin1String(name));
        if (!found)
            qFatal("the window has no %s", name);
        return found;
    }
    QTreeView *traceView() const { return part<QTreeView>("traceView"); }
    TraceFilterModel *traceFilter() const { return part<TraceFilterModel>("traceFilterModel"); }
    QLineEdit *traceFilterEdit() const { return part<QLineEdit>("traceFilter"); }
    QComboBox *traceToolCombo() const { return part<QComboBox>("traceToolFilter"); }
    QToolButton *failedOnlyButton() const { return part<QToolButton>("failedOnly"); }
    QToolButton *pendingOnlyButton() const { return part<QToolButton>("pendingOnly"); }
    TimelineWidget *timeline() const { return part<TimelineWidget>("timeline"); }
    QLabel *budgetLabel() const { return part<QLabel>("budgetMeters"); }
    QTreeWidget *runsView() const { return part<QTreeWidget>("runsView"); }
    QPlainTextEdit *stepView() const { return part<QPlainTextEdit>("stepView"); }
    QListWidget *pendingList() const { return part<QListWidget>("pendingList"); }
    QUndoStack *undoStack() const { return part<QUndoStack>("manifestUndoStack"); }
    /// Edit ▸ Undo and Redo (of the structured edits of toolstudio.json).
    QAction *undoAction() const { return part<QAction>("undoAction"); }
    QAction *redoAction() const { return part<QAction>("redoAction"); }
    QTabWidget *editorTabs() const { return part<QTabWidget>("editorTabs"); }
    /// The editor of the current tab; nullptr when no file is open.
    ScriptEditor *editor() const { return part<ScriptTabs>("editorTabs")->current(); }
    /// Calls waiting for a person, oldest first.
    const QList<Step> &pendingCalls() const { return part<PendingCallsPanel>("pendingPanel")->pendingCalls(); }
    /// The docks in the order the window arranges them: Project, Tool, Trace, Step,
    /// Pending Calls, Console, Runs.
    QList<QDockWidget *> docks() const
    {
        QList<QDockWidget *> docks;
        for (const char *name :
             {"projectDock", "toolDock", "traceDock", "stepDock", "pendingDock", "consoleDock", "runsDock"})
            docks.append(part<QDockWidget>(name));
        return docks;
    }

    std::unique_ptr<QTemporaryDir> m_scratch;
    std::unique_ptr<MainWindow> m_window;
};
