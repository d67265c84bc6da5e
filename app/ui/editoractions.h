// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class FindBar;
class QAction;
class QWidget;
class ScriptTabs;

/// Save Script, Close File, Find…, Find and Replace… and Go to Line… (DESIGN.md "The
/// window"): it owns these actions (the window places them in its menus), scoped to
/// the editor area so they never fire from a form, and enables them while a file is open.
class EditorActions : public QObject
{
    Q_OBJECT
public:
    /// Shows an error to the person: a title and the message.
    using Reporter = std::function<void(const QString &title, const QString &message)>;

    /// The shortcuts work within `area` (the tabs and the find bar).
    EditorActions(ScriptTabs *tabs, FindBar *findBar, QWidget *area, Reporter report);

    QAction *saveAction() const { return m_saveAction; }
    QAction *closeTabAction() const { return m_closeTabAction; }
    QAction *findAction() const { return m_findAction; }
    QAction *replaceAction() const { return m_replaceAction; }
    QAction *goToLineAction() const { return m_goToLineAction; }

    /// Writes the current editor back to its file (error reported); false without one.
    bool save();
    /// Enabled while a file is open.
    void updateActions();

Q_SIGNALS:
    /// A file was saved (its absolute path).
    void saved(const QString &path);
    /// A short note for the status bar.
    void notice(const QString &text, int timeoutMs);

private:
    ScriptTabs *m_tabs;
    Reporter m_report;
    QAction *m_saveAction = nullptr;
    QAction *m_closeTabAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_replaceAction = nullptr;
    QAction *m_goToLineAction = nullptr;
};
