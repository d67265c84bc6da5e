// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

/// View ▸ Zoom In, Zoom Out, Reset Zoom and Presenter Layout (docs/user/teaching.md).
///
/// Zoom scales the fonts of the whole window — and with them its row heights — in
/// ZoomStep steps from Settings::MinZoomPercent to MaxZoomPercent, remembered per
/// machine (Settings' zoomPercent: a projector belongs to the machine, not to the
/// project). Ctrl+wheel anywhere in the window zooms the window, not one view. Widgets
/// with a font of their own (the console, the inspector's JSON, the forms' monospace
/// fields) are scaled from the font they were given; the script editor takes the
/// zoom with its editor font (ScriptTabs).
///
/// The Presenter Layout is for a projector: only the editor and the `kept` docks
/// (Trace with Pending Calls under it, Console), at least PresenterZoomPercent, in a
/// high-contrast palette. The docks beside the editor share one column, as wide as its
/// share of the window (never narrower than the large type needs): side by side, the
/// trace and Pending Calls took ~1100 of 1280 pixels at 150 % and left the editor ~170.
/// Turned off — or before the window saves its layout on close (leave()) — the window
/// is as it was before: its docks, zoom and theme.
class PresenterView : public QObject
{
    Q_OBJECT
public:
    static constexpr int ZoomStep = 10;
    static constexpr int PresenterZoomPercent = 150;

    struct KeptDock
    {
        QDockWidget *dock;
        int widthPercent;             ///< of the window's width; 0: as it is
        QDockWidget *below = nullptr; ///< kept too, under `dock` in its column
        int belowHeightPercent = 0;   ///< of the column's height, for `below`
    };

    PresenterView(QMainWindow *window, QList<KeptDock> kept);
    /// `font` at `percent` of its size.
    static QFont zoomed(const QFont &font, int percent);

    QAction *zoomInAction() const { return m_zoomIn; }
    QAction *zoomOutAction() const { return m_zoomOut; }
    QAction *resetZoomAction() const { return m_resetZoom; }
    QAction *presenterAction() const { return m_presenter; }
    /// Zoom In, Zoom Out, Reset Zoom, then Presenter Layout.
    void addTo(QMenu *menu);

    bool isPresenting() const { return m_presenting; }
    void setPresenting(bool on);
    /// Ends the Presenter Layout (the window saves its own layout next).
    void leave() { setPresenting(false); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyZoom();
    /// Gives each kept dock's `below` its share of their column's height.
    void splitColumns();

    QMainWindow *m_window;
    QByteArray m_geometryBefore; ///< the window's geometry before the presenter layout
    QList<KeptDock> m_kept;
    QAction *m_zoomIn = nullptr;
    QAction *m_zoomOut = nullptr;
    QAction *m_resetZoom = nullptr;
    QAction *m_presenter = nullptr;
    bool m_presenting = false;
    QByteArray m_stateBefore; ///< the window's docks before the Presenter Layout
    int m_zoomBefore = 100;
    int m_wheelDelta = 0; ///< Ctrl+wheel eighths of a degree not yet zoomed
};
