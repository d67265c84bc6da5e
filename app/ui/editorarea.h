// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <functional>

class EditorActions;
class FindBar;
class Project;
class QFileSystemWatcher;
class ScriptTabs;
class TrustBar;

/// The window's central area (DESIGN.md "The window"): the restricted-mode bar over
/// the script tabs and the find bar, with the editor actions (Save, Close, Find,
/// Replace, Go to Line). It watches the open files and the project's toolstudio.json:
/// a script changed outside is reloaded in its tab; a changed manifest is signalled,
/// for the window to reload the project.
class EditorArea : public QWidget
{
    Q_OBJECT
public:
    /// Shows an error to the person: a title and the message.
    using Reporter = std::function<void(const QString &title, const QString &message)>;

    EditorArea(Reporter report, QWidget *parent);

    ScriptTabs *tabs() const { return m_tabs; }
    FindBar *findBar() const { return m_findBar; }
    EditorActions *actions() const { return m_actions; }

    /// Another project: every tab closes (after maybeSaveAll()) and only its
    /// toolstudio.json is watched.
    void switchTo(const Project &project);
    /// The restricted-mode bar is shown while `project` is not trusted (ProjectTrust).
    /// "Stay Restricted" keeps it hidden until the next switchTo() or until the
    /// project was trusted and is no longer (what would run changed).
    void showTrustFor(const Project *project);
    /// Offers the project's tools as completions (`tools.name(params)`, `name(params)`).
    void completeTools(const Project *project);

Q_SIGNALS:
    /// toolstudio.json changed on disk (saved in a tab or outside).
    void manifestChanged();
    /// The person pressed Trust on the restricted-mode bar.
    void trustRequested();
    /// A short note for the status bar.
    void notice(const QString &text, int timeoutMs);

private:
    void fileChangedOnDisk(const QString &path);

    QFileSystemWatcher *m_watcher;
    ScriptTabs *m_tabs;
    FindBar *m_findBar;
    TrustBar *m_trustBar;
    EditorActions *m_actions;
    QString m_manifestPath;
    bool m_stayRestricted = false; ///< the person chose Stay Restricted for this project
};
