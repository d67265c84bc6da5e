// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>

class QTreeWidget;

/// Help ▸ Keyboard Shortcuts (issue 20 "Help for users"): every action of a window that
/// has a shortcut, with the menu it is in, read from the actions themselves (so the list
/// never goes stale): the menu bar's menus first, in their order, then the actions of
/// the docks and panes that are in no menu.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    struct Entry
    {
        QString command;  ///< the action's text, without its mnemonic '&' and trailing "…"
        QString shortcut; ///< its shortcuts in the platform's words, ", "-separated
        QString where;    ///< "File", "Run ▸ …", or "Window" for one in no menu
    };

    explicit ShortcutsDialog(QWidget *window, QWidget *parent = nullptr);

    /// The entries for `window`'s actions, as the dialog lists them.
    static QList<Entry> collect(QWidget *window);

    QTreeWidget *table() const { return m_table; }

private:
    QTreeWidget *m_table = nullptr;
};
