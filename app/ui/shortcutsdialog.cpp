// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString plainText(QString text)
{
    // "&&" is a literal ampersand; a single '&' marks the mnemonic.
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

QString shortcutText(const QAction *action)
{
    QStringList keys;
    for (const QKeySequence &key : action->shortcuts())
        if (!key.isEmpty())
            keys.append(key.toString(QKeySequence::NativeText));
    return keys.join(QStringLiteral(", "));
}

void addMenu(const QMenu *menu, const QString &where, QSet<const QAction *> *seen, QList<ShortcutsDialog::Entry> *out)
{
    for (QAction *action : menu->actions()) {
        if (action->isSeparator() || seen->contains(action))
            continue;
        seen->insert(action);
        if (const QMenu *sub = action->menu()) {
            addMenu(sub, where + QStringLiteral(" ▸ ") + plainText(sub->title()), seen, out);
            continue;
        }
        const QString keys = shortcutText(action);
        if (!keys.isEmpty())
            out->append({plainText(action->text()), keys, where});
    }
}

} // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::collect(QWidget *window)
{
    QList<Entry> entries;
    QSet<const QAction *> seen;
    if (auto *main = qobject_cast<QMainWindow *>(window)) {
        for (QAction *action : main->menuBar()->actions())
            if (const QMenu *menu = action->menu())
                addMenu(menu, plainText(menu->title()), &seen, &entries);
    }
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (seen.contains(action) || action->isSeparator() || action->text().isEmpty())
            continue;
        seen.insert(action);
        const QString keys = shortcutText(action);
        if (!keys.isEmpty())
            entries.append({plainText(action->text()), keys, tr("Window")});
    }
    return entries;
}

ShortcutsDialog::ShortcutsDialog(QWidget *window, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_table = new QTreeWidget(this);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setRootIsDecorated(false);
    m_table->setAlternatingRowColors(true);
    m_table->setHeaderLabels({tr("Command"), tr("Shortcut"), tr("Menu")});
    for (const Entry &entry : collect(window))
        m_table->addTopLevelItem(new QTreeWidgetItem({entry.command, entry.shortcut, entry.where}));
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(620, 520);
}
