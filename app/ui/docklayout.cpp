// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "docklayout.h"

#include "settings.h"

#include <QAction>
#include <QChildEvent>
#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QMenu>
#include <QTabBar>
#include <QTimer>

#include <algorithm>

namespace {

/// The version of the saved layout: 1 since Project sits above Tool again (a layout
/// saved before had the left docks in one row of six tabs, nc-shot1, and is not restored).
constexpr int LayoutVersion = 1;

} // namespace

DockLayout::DockLayout(QMainWindow *window)
    : QObject(window)
    , m_window(window)
{
    m_resetAction = new QAction(tr("&Reset Layout"), this);
    m_resetAction->setObjectName(QStringLiteral("resetLayoutAction"));
    m_resetAction->setStatusTip(tr("Put every dock back where it was at the first start"));
    connect(m_resetAction, &QAction::triggered, this, &DockLayout::reset);
    // The tab bars of tabified docks are the window's children, made as docks are
    // tabified (an MCP Servers dock shown late too): each is set up when polished.
    window->installEventFilter(this);
}

bool DockLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::ChildPolished) {
        // Whole tab titles, scrolled when they do not fit: "Pr…", "MCP Ser…" and "S…" could
        // not be told apart (nc-shot1).
        if (auto *tabs = qobject_cast<QTabBar *>(static_cast<QChildEvent *>(event)->child())) {
            tabs->setElideMode(Qt::ElideNone);
            tabs->setUsesScrollButtons(true);
        }
    } else if (watched == m_window && (event->type() == QEvent::Show || event->type() == QEvent::Resize)
               && !m_userLayout && m_docks.project && followsWindow()) {
        // Until the person drags a column's edge (or a saved layout is restored), the
        // columns follow the window's width; after its layout pass (a window placed by
        // -geometry or a window manager is resized after it is shown).
        QTimer::singleShot(0, this, &DockLayout::fitWidths);
    }
    return QObject::eventFilter(watched, event);
}

bool DockLayout::followsWindow() const
{
    return !m_fitted || (m_docks.project->width() == m_fitted->width() && m_docks.trace->width() == m_fitted->height());
}

void DockLayout::fitWidths()
{
    // The left column (Project, Tool, MCP Servers…) and the trace share a large window's
    // width with the editor rather than leave it all to the editor: 30 % and 34 %, no
    // less than at 1280 pixels (380 and 540), no more than the docks can use.
    const int width = m_window->width();
    m_window->resizeDocks({m_docks.project, m_docks.trace},
                          {std::clamp(width * 30 / 100, 380, 600), std::clamp(width * 34 / 100, 540, 800)},
                          Qt::Horizontal);
    // The widths as laid out (a dock's least width may win): what followsWindow() compares.
    if (QLayout *layout = m_window->layout())
        layout->activate();
    m_fitted = QSize(m_docks.project->width(), m_docks.trace->width());
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
    // Project must not be a tab yet: Qt adds a dock split from a tabbed one as one more
    // tab (MainWindow tabifies MCP Servers with Project after this).
    m_window->splitDockWidget(docks.project, docks.tool, Qt::Vertical);
    m_window->tabifyDockWidget(docks.tool, docks.step);
    m_window->tabifyDockWidget(docks.step, docks.pending);
    if (docks.chat)
        m_window->tabifyDockWidget(docks.pending, docks.chat);
    docks.tool->raise();
    m_window->tabifyDockWidget(docks.console, docks.runs);
    docks.console->raise();
    m_window->resizeDocks({docks.project, docks.trace}, {380, 540}, Qt::Horizontal);
    m_window->resizeDocks({docks.project, docks.tool}, {280, 520}, Qt::Vertical);
    m_window->resizeDocks({docks.console}, {190}, Qt::Vertical);

    for (QDockWidget *dock : this->docks())
        viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addSeparator();
    viewMenu->addAction(m_resetAction);
}

void DockLayout::restore()
{
    // The layout as built is "Reset Layout"'s target; the user's comes after.
    m_defaultState = m_window->saveState(LayoutVersion);
    const Settings *settings = Settings::instance();
    m_window->restoreGeometry(settings->geometry());
    m_userLayout = m_window->restoreState(settings->windowState(), LayoutVersion);
}

void DockLayout::save() const
{
    Settings *settings = Settings::instance();
    settings->setGeometry(m_window->saveGeometry());
    settings->setWindowState(m_window->saveState(LayoutVersion));
    settings->save();
}

void DockLayout::reset()
{
    m_window->restoreState(m_defaultState, LayoutVersion);
    for (QDockWidget *dock : docks()) {
        dock->setFloating(false);
        dock->show();
    }
    m_docks.tool->raise();
    m_docks.console->raise();
    m_userLayout = false; // the default layout again: its columns follow the window
    fitWidths();
}
