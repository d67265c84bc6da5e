// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "docklayout.h"

#include "settings.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

DockLayout::DockLayout(QMainWindow *window)
    : QObject(window)
    , m_window(window)
{
    m_resetAction = new QAction(tr("&Reset Layout"), this);
    m_resetAction->setObjectName(QStringLiteral("resetLayoutAction"));
    m_resetAction->setStatusTip(tr("Put every dock back where it was at the first start"));
    connect(m_resetAction, &QAction::triggered, this, &DockLayout::reset);
}

QDockWidget *DockLayout::add(const QString &title, const char *name, QWidget *widget, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, m_window);
    dock->setObjectName(QString::fromLatin1(name));
    dock->setWidget(widget);
    m_window->addDockWidget(area, dock);
    return dock;
}

QList<QDockWidget *> DockLayout::docks() const
{
    QList<QDockWidget *> docks{m_docks.project, m_docks.tool,    m_docks.trace, m_docks.step,
                               m_docks.pending, m_docks.console, m_docks.runs};
    if (m_docks.chat)
        docks.append(m_docks.chat);
    return docks;
}

void DockLayout::arrange(const Docks &docks, QMenu *viewMenu)
{
    m_docks = docks;
    // Issue 20: the trace has the right column to itself, down to the status bar (its
    // filter rows, budget meters, timeline and at least ~15 rows at 1440×900); Tool, Step
    // and Pending Calls share the left column under Project as tabs (the first held or
    // waiting call, and a step chosen in the trace, bring theirs forward), tall enough for
    // a held call's decisions to be in view without scrolling (tst_stepmodeui); Console
    // and Runs sit under the editor.
    m_window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    m_window->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    m_window->splitDockWidget(docks.project, docks.tool, Qt::Vertical);
    m_window->tabifyDockWidget(docks.tool, docks.step);
    m_window->tabifyDockWidget(docks.step, docks.pending);
    if (docks.chat)
        m_window->tabifyDockWidget(docks.pending, docks.chat);
    docks.tool->raise();
    m_window->tabifyDockWidget(docks.console, docks.runs);
    docks.console->raise();
    m_window->resizeDocks({docks.project, docks.trace}, {380, 540}, Qt::Horizontal);
    m_window->resizeDocks({docks.project, docks.tool}, {200, 600}, Qt::Vertical);
    m_window->resizeDocks({docks.console}, {190}, Qt::Vertical);

    for (QDockWidget *dock : this->docks())
        viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addSeparator();
    viewMenu->addAction(m_resetAction);
}

void DockLayout::restore()
{
    // The layout as built is "Reset Layout"'s target; the user's comes after.
    m_defaultState = m_window->saveState();
    const Settings *settings = Settings::instance();
    m_window->restoreGeometry(settings->geometry());
    m_window->restoreState(settings->windowState());
}

void DockLayout::save() const
{
    Settings *settings = Settings::instance();
    settings->setGeometry(m_window->saveGeometry());
    settings->setWindowState(m_window->saveState());
    settings->save();
}

void DockLayout::reset()
{
    m_window->restoreState(m_defaultState);
    for (QDockWidget *dock : docks()) {
        dock->setFloating(false);
        dock->show();
    }
    m_docks.tool->raise();
    m_docks.console->raise();
}
