// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "shortcutpassthrough.h"

#include <QAction>
#include <QKeyEvent>
#include <QWidget>

ShortcutPassThrough::ShortcutPassThrough(QWidget *widget, const QList<QAction *> &actions)
    : QObject(widget)
{
    for (QAction *action : actions)
        m_actions.append(action);
    widget->installEventFilter(this);
}

bool ShortcutPassThrough::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const QKeySequence pressed(key->keyCombination());
        for (const QPointer<QAction> &action : std::as_const(m_actions)) {
            if (action && action->isEnabled() && action->shortcuts().contains(pressed)) {
                // Left unaccepted, the key goes to the shortcut map instead of the widget.
                event->ignore();
                return true;
            }
        }
    }
    return QObject::eventFilter(watched, event);
}
