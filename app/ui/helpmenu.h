// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class DocumentationWindow;
class QAction;
class QDialog;
class QMenu;
class QWidget;

/// The window's Help menu (issue 20 "Help for users"): Getting Started (a short guide to
/// the first ten minutes, in the app), Documentation (the user docs, DocumentationWindow),
/// Keyboard Shortcuts (ShortcutsDialog), Examples
/// (each shipped example, made into a project of its own through New Project, so the
/// installed copy is never edited) and About.
class HelpMenu : public QObject
{
    Q_OBJECT
public:
    /// `newProject(folder, templateName)` opens File ▸ New Project… with both filled in.
    HelpMenu(QWidget *window, std::function<void(const QString &folder, const QString &templateName)> newProject);

    /// Fills `menu` with the actions.
    void addTo(QMenu *menu);

    QAction *gettingStartedAction() const { return m_gettingStarted; }
    QAction *documentationAction() const { return m_documentation; }
    QAction *shortcutsAction() const { return m_shortcuts; }
    QAction *aboutAction() const { return m_about; }
    /// The Examples submenu: one action per example, its data the template's name.
    QMenu *examplesMenu() const { return m_examples; }

    /// A folder for a new copy of example `name` under `parent`: parent/name, or
    /// parent/name-2, -3, … when that exists.
    static QString freeFolder(const QString &parent, const QString &name);

    QDialog *showGettingStarted();
    QDialog *showShortcuts();
    /// Shows the documentation window on its index; one that is open already is raised
    /// where it was.
    DocumentationWindow *showDocumentation();

private:
    QWidget *m_window;
    std::function<void(const QString &, const QString &)> m_newProject;
    QAction *m_gettingStarted = nullptr;
    QAction *m_documentation = nullptr;
    QAction *m_shortcuts = nullptr;
    QAction *m_about = nullptr;
    QMenu *m_examples = nullptr;
    QPointer<DocumentationWindow> m_documentationWindow;
};
