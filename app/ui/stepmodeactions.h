// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>

#include <functional>

class PendingCallsPanel;
class QAction;
class RunController;

/// The Run menu's decisions for a call held by step mode (DESIGN.md "Step mode";
/// docs/steps.md "Step mode"): **Continue** (F7) runs the held call's handler;
/// **Answer Instead…** (Shift+F7) and **Fail Call…** (Ctrl+F7) bring the call's answer
/// forward in the Pending Calls dock — the result form, or the error message with its
/// code — to end the call there without running its handler; **Continue to End** (F8)
/// leaves step mode (unchecks Step Mode, F10), so every held call and every later one
/// runs. They act on the dock's selected held call, else the oldest held one, and are
/// enabled only while a call is held.
class StepModeActions : public QObject
{
    Q_OBJECT
public:
    /// `showDock` shows and raises the Pending Calls dock.
    StepModeActions(RunController *run, PendingCallsPanel *panel, std::function<void()> showDock, QObject *parent);

    /// Step Mode (F10): the toggle that holds every tool call before it runs.
    QAction *stepModeAction() const { return m_stepMode; }

    QAction *continueAction() const { return m_continue; }
    QAction *answerInsteadAction() const { return m_answerInstead; }
    QAction *failAction() const { return m_fail; }
    QAction *continueToEndAction() const { return m_continueToEnd; }
    /// The four actions, in menu order.
    QList<QAction *> actions() const { return {m_continue, m_answerInstead, m_fail, m_continueToEnd}; }

    /// Selects a held call in the dock and shows the dock; false when none is held.
    bool showHeldCall();

private:
    void update();

    RunController *m_run;
    PendingCallsPanel *m_panel;
    QAction *m_stepMode;
    std::function<void()> m_showDock;
    QAction *m_continue = nullptr;
    QAction *m_answerInstead = nullptr;
    QAction *m_fail = nullptr;
    QAction *m_continueToEnd = nullptr;
};
