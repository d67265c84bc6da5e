// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>

class QWidget;

/// Ctrl+Return and Ctrl+Enter submit a dialog whose text editor takes Return for a new
/// line (EditMessagesDialog, RerunDialog). One mechanism: an event filter on the dialog
/// and on the editors, because a QScintilla editor claims the key (ShortcutOverride)
/// before a QShortcut of the window could fire. A key pressed in another child (a
/// button, the step picker) reaches the dialog's filter as the child ignores it.
/// Owned by the dialog.
class SubmitKeys : public QObject
{
    Q_OBJECT
public:
    /// Calls `submit` on Ctrl+Return / Ctrl+Enter in `dialog` or in any of `editors`
    /// (and a scroll area's viewport: a QScintilla editor gets its keys there).
    static SubmitKeys *install(QWidget *dialog, const QList<QWidget *> &editors, std::function<void()> submit);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    SubmitKeys(QWidget *dialog, std::function<void()> submit);
    void watch(QWidget *widget);

    std::function<void()> m_submit;
};
