// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "windowchat.h"

#include "chatdock.h"
#include "docklayout.h"
#include "project/project.h"
#include "runviews.h"

#include <QMainWindow>

WindowChat::WindowChat(std::function<const Project *()> project, RunViews *views, DockLayout *layout,
                       QMainWindow *window)
    : QObject(window)
    , m_project(std::move(project))
{
    m_panel = new ChatDock(m_project, window); // its runs reach the Runs dock by its watch
    m_dock = layout->add(tr("Chat"), "chatDock", m_panel, Qt::LeftDockWidgetArea);
    // The trace follows a chat's turn live, then shows its run (unless the window's is on).
    connect(m_panel, &ChatDock::turnStarted, this, [this, views](const QString &runId) {
        if (RunController *chat = m_panel->controller(); chat && m_project())
            views->follow(chat, m_project()->journalPath(), runId);
    });
    connect(m_panel, &ChatDock::replied, this, [this, views] { views->showRun(m_panel->runId()); });
}

bool WindowChat::mayQuit(QWidget *window, const std::function<bool()> &mayClose)
{
    // The chat's question first, done only once the window's run is settled too: a
    // Cancel at either leaves both as they were.
    const ChatDock::QuitChoice chat = m_panel->askBeforeQuit(window);
    if (chat == ChatDock::QuitChoice::Cancel || !mayClose())
        return false;
    m_panel->quit(chat);
    return true;
}
