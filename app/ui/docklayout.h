// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QSize>

#include <optional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

/// The window's docks and where they go (DESIGN.md "The window"; issue 20): makes
/// them, arranges the default layout, saves it before the user's is restored (so Reset
/// Layout is free, as in sqlitebrowser's MainWindow) and keeps the user's layout in
/// Settings. Owns the Reset Layout action. Tab bars of tabified docks show whole
/// titles (scroll buttons, not "Pr…").
class DockLayout : public QObject
{
    Q_OBJECT
public:
    /// The docks the default layout places.
    struct Docks
    {
        QDockWidget *project = nullptr;
        QDockWidget *tool = nullptr;
        QDockWidget *trace = nullptr;
        QDockWidget *step = nullptr;
        QDockWidget *pending = nullptr;
        QDockWidget *console = nullptr;
        QDockWidget *runs = nullptr;
        QDockWidget *chat = nullptr; ///< optional: a tab beside Pending Calls
    };

    explicit DockLayout(QMainWindow *window);

    /// A dock titled `title` with object name `name` around `widget`, in `area`.
    QDockWidget *add(const QString &title, const char *name, QWidget *widget, Qt::DockWidgetArea area);
    /// The default layout: the trace has the right column to itself; Tool, Step and
    /// Pending Calls share the left column under Project as tabs; Console and Runs sit
    /// under the editor. Then a toggle per dock and Reset Layout in `viewMenu`.
    void arrange(const Docks &docks, QMenu *viewMenu);
    /// The layout as arranged becomes Reset Layout's target; then the user's saved
    /// geometry and layout are restored.
    void restore();
    /// Saves the window's geometry and layout to the settings.
    void save() const;
    /// Puts every dock back where it was at the first start, as wide as the window
    /// allows (fitWidths).
    void reset();
    /// The left column and the trace widened to a share of the window's width (at least
    /// their widths at 1280 pixels): on Reset Layout, and as the window is shown and
    /// resized while no saved layout was restored and no column's edge was dragged.
    void fitWidths();
    QAction *resetAction() const { return m_resetAction; }
    /// The docks of the default layout, in the View menu's order.
    QList<QDockWidget *> docks() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// The columns are as fitWidths() left them (none dragged since).
    bool followsWindow() const;

    QMainWindow *m_window = nullptr;
    Docks m_docks;
    QAction *m_resetAction = nullptr;
    QByteArray m_defaultState;
    bool m_userLayout = false;     ///< a saved layout was restored: widths are the user's
    std::optional<QSize> m_fitted; ///< the left column's and the trace's widths fitWidths() gave
};
