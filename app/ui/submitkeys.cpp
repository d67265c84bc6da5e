// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "submitkeys.h"

#include <QAbstractScrollArea>
#include <QKeyEvent>
#include <QWidget>

SubmitKeys::SubmitKeys(QWidget *dialog, std::function<void()> submit)
    : QObject(dialog)
    , m_submit(std::move(submit))
{}

SubmitKeys *SubmitKeys::install(QWidget *dialog, const QList<QWidget *> &editors, std::function<void()> submit)
{
    auto *keys = new SubmitKeys(dialog, std::move(submit));
    keys->watch(dialog);
    for (QWidget *editor : editors)
        keys->watch(editor);
    return keys;
}

void SubmitKeys::watch(QWidget *widget)
{
    widget->installEventFilter(this);
    if (auto *area = qobject_cast<QAbstractScrollArea *>(widget))
        area->viewport()->installEventFilter(this);
}

bool SubmitKeys::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride)
        return QObject::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    if ((key->key() != Qt::Key_Return && key->key() != Qt::Key_Enter) || !(key->modifiers() & Qt::ControlModifier))
        return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // no shortcut takes it: it comes back as a key press, handled below
        return true;
    }
    m_submit();
    return true;
}
