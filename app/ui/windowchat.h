// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>

class ChatDock;
class DockLayout;
class Project;
class QDockWidget;
class QMainWindow;
class RunViews;

/// The Chat dock in the window (issue 19 item 4): makes the dock, lets the window's
/// trace follow each chat turn live and show the chat's run once the model replied, and
/// asks the chat's question when the window closes (issue 20 item 5).
class WindowChat : public QObject
{
    Q_OBJECT
public:
    /// Adds the Chat dock to `layout`; `project` gives the open project (nullptr: none).
    WindowChat(std::function<const Project *()> project, RunViews *views, DockLayout *layout, QMainWindow *window);

    ChatDock *panel() const { return m_panel; }
    QDockWidget *dock() const { return m_dock; }

    /// Before `window` closes: the chat's question first (ChatDock::askBeforeQuit), then
    /// `mayClose` (the window's run); only when neither was cancelled is the chat's
    /// choice done. False: the window stays open and both runs are as they were.
    bool mayQuit(QWidget *window, const std::function<bool()> &mayClose);

private:
    std::function<const Project *()> m_project;
    ChatDock *m_panel = nullptr; ///< a conversation with a model over the project's tools
    QDockWidget *m_dock = nullptr;
};
