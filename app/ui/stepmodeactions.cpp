// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "stepmodeactions.h"

#include "pendingcallspanel.h"
#include "run/runcontroller.h"

#include <QAction>

StepModeActions::StepModeActions(RunController *run, PendingCallsPanel *panel, std::function<void()> showDock,
                                 QObject *parent)
    : QObject(parent)
    , m_run(run)
    , m_panel(panel)
    , m_stepMode(new QAction(tr("Step &Mode"), this))
    , m_showDock(std::move(showDock))
{
    m_stepMode->setShortcut(QKeySequence(Qt::Key_F10));
    m_stepMode->setCheckable(true);
    m_stepMode->setToolTip(tr("Step mode (F10): hold every tool call before it runs; then Continue (F7), "
                              "Answer Instead (Shift+F7), Fail Call (Ctrl+F7) or Continue to End (F8)"));
    m_stepMode->setStatusTip(m_stepMode->toolTip());
    connect(m_stepMode, &QAction::toggled, this, [this](bool on) {
        m_run->setStepMode(on);
        if (!on)
            m_run->continueToEnd();
    });
    const auto make = [this](const QString &text, const QKeySequence &key, const QString &tip) {
        auto *action = new QAction(text, this);
        action->setShortcut(key);
        action->setToolTip(tip);
        action->setStatusTip(tip);
        return action;
    };
    m_continue
        = make(tr("&Continue Held Call"), QKeySequence(Qt::Key_F7), tr("Step mode: run the held call's handler (F7)"));
    m_answerInstead = make(tr("Answer &Instead…"), QKeySequence(Qt::SHIFT | Qt::Key_F7),
                           tr("Step mode: answer the held call yourself in the Pending Calls dock; its handler does "
                              "not run (Shift+F7)"));
    m_fail = make(tr("&Fail Held Call…"), QKeySequence(Qt::CTRL | Qt::Key_F7),
                  tr("Step mode: fail the held call with an error code and message in the Pending Calls dock; its "
                     "handler does not run (Ctrl+F7)"));
    m_continueToEnd = make(tr("Continue to &End"), QKeySequence(Qt::Key_F8),
                           tr("Leave step mode: every held call and every later one runs (F8)"));

    connect(m_continue, &QAction::triggered, this, [this] {
        if (showHeldCall())
            m_panel->continueHeldCall();
    });
    connect(m_answerInstead, &QAction::triggered, this, [this] {
        if (showHeldCall())
            m_panel->focusAnswer();
    });
    connect(m_fail, &QAction::triggered, this, [this] {
        if (showHeldCall())
            m_panel->focusError();
    });
    connect(m_continueToEnd, &QAction::triggered, this, [this] {
        // The toggle's own slot turns step mode off and continues every held call.
        if (m_stepMode->isChecked())
            m_stepMode->setChecked(false);
        else
            m_run->continueToEnd();
    });
    connect(m_panel, &PendingCallsPanel::continueToEndRequested, m_continueToEnd, &QAction::trigger);
    connect(m_panel, &PendingCallsPanel::openCountChanged, this, &StepModeActions::update);
    update();
}

void StepModeActions::update()
{
    const bool held = !m_panel->heldCalls().isEmpty();
    for (QAction *action : actions())
        action->setEnabled(held);
}

bool StepModeActions::showHeldCall()
{
    if (m_panel->selectHeldCall().isEmpty())
        return false;
    m_showDock();
    return true;
}
