// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTabWidget>

#include <functional>

class QFileSystemWatcher;
class ScriptEditor;

/// The window's editor area: one ScriptEditor tab per open file (closable, movable),
/// with the editor font and tab width of Preferences. Every open file is watched (in
/// the window's watcher, which also watches toolstudio.json): a file changed outside
/// is reloaded when its tab has no unsaved changes, else the person is asked.
/// Closing a modified tab asks to save it first.
class ScriptTabs : public QTabWidget
{
    Q_OBJECT
public:
    /// Shows an error to the person: a title and the message.
    using Reporter = std::function<void(const QString &title, const QString &message)>;

    ScriptTabs(QFileSystemWatcher *watcher, Reporter report, QWidget *parent = nullptr);

    /// The editor of the current tab; nullptr when no file is open.
    ScriptEditor *current() const;
    /// The editor showing `path` (made absolute), or nullptr.
    ScriptEditor *editorFor(const QString &path) const;
    QList<ScriptEditor *> editors() const;

    /// Opens `path` in a new tab, or shows its tab. False with the reason in `error`.
    bool openFile(const QString &path, QString *error);
    /// Closes tab `index` after asking to save unsaved changes; false when kept.
    bool closeTab(int index);
    /// Closes every tab without asking (after maybeSaveAll()).
    void closeAll();
    /// Asks to save each modified tab; false when the person cancelled or a save failed.
    bool maybeSaveAll();
    /// Saves every modified tab without asking; false (error reported) when one failed.
    bool saveModified();

    /// The tool completions of every editor (`tools.name(params)` and `name(params)`).
    void setToolCompletions(const QStringList &entries);

    /// Edit ▸ Go to Line… in the current editor.
    void goToLine();
    /// `path` changed on disk: reload its editor (asks when it has unsaved changes).
    void reloadChanged(const QString &path);

Q_SIGNALS:
    /// The current editor's modified state, to show in the window title.
    void currentModifiedChanged(bool modified);
    /// A short note for the status bar.
    void notice(const QString &text, int timeoutMs);

private:
    bool maybeSave(ScriptEditor *editor);
    /// Preferences' editor font (scaled by View ▸ Zoom) and tab width; every editor
    /// follows when they change.
    static void applyEditorSettings(ScriptEditor *editor);

    QFileSystemWatcher *m_watcher;
    Reporter m_report;
};
