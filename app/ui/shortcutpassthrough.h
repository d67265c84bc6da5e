// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

/// Lets the shortcuts of `actions` through a text input that would claim them: a
/// QLineEdit accepts the ShortcutOverride for its Emacs-style keys on X11 (Ctrl+E =
/// end of line, QKeySequence::MoveToEndOfLine), so a window shortcut such as "Next
/// failed step" (Ctrl+E) never fires while the trace filter has the focus. Installed
/// as an event filter on `widget`, and owned by it.
class ShortcutPassThrough : public QObject
{
    Q_OBJECT
public:
    ShortcutPassThrough(QWidget *widget, const QList<QAction *> &actions);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QList<QPointer<QAction>> m_actions;
};
