// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "presenterview.h"

#include "settings.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QMenu>
#include <QTimer>
#include <QWheelEvent>

namespace {

/// The font a widget was given before any zoom (set on it the first time it is zoomed).
constexpr auto UnzoomedFontProperty = "toolstudioUnzoomedFont";

/// The application font as it was before the first zoom.
QFont unzoomedApplicationFont()
{
    static const QFont font = QApplication::font();
    return font;
}

/// The script editor (QScintilla) takes the zoom with its editor font (ScriptTabs).
bool zoomsItself(const QWidget *widget)
{
    for (; widget; widget = widget->parentWidget())
        if (widget->inherits("QsciScintillaBase"))
            return true;
    return false;
}

/// A widget with a font of its own does not follow the application font: it is scaled
/// from the font it was given.
void zoomOwnFont(QWidget *widget, int percent)
{
    if (!widget->testAttribute(Qt::WA_SetFont) || zoomsItself(widget))
        return;
    QVariant unzoomed = widget->property(UnzoomedFontProperty);
    if (!unzoomed.isValid()) {
        if (percent == 100)
            return;
        unzoomed = widget->font();
        widget->setProperty(UnzoomedFontProperty, unzoomed);
    }
    widget->setFont(PresenterView::zoomed(unzoomed.value<QFont>(), percent));
}

} // namespace

QFont PresenterView::zoomed(const QFont &font, int percent)
{
    QFont result = font;
    if (font.pointSizeF() > 0)
        result.setPointSizeF(font.pointSizeF() * percent / 100.0);
    else if (font.pixelSize() > 0)
        result.setPixelSize(qMax(1, qRound(font.pixelSize() * percent / 100.0)));
    return result;
}

PresenterView::PresenterView(QMainWindow *window, QList<KeptDock> kept)
    : QObject(window)
    , m_window(window)
    , m_kept(std::move(kept))
{
    Settings *settings = Settings::instance();
    m_zoomIn = new QAction(tr("Zoom &In"), this);
    m_zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    m_zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(m_zoomIn, &QAction::triggered, this,
            [settings] { settings->setZoomPercent(settings->zoomPercent() + ZoomStep); });
    m_zoomOut = new QAction(tr("Zoom &Out"), this);
    m_zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    m_zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(m_zoomOut, &QAction::triggered, this,
            [settings] { settings->setZoomPercent(settings->zoomPercent() - ZoomStep); });
    m_resetZoom = new QAction(tr("&Reset Zoom"), this);
    m_resetZoom->setObjectName(QStringLiteral("resetZoomAction"));
    m_resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_resetZoom, &QAction::triggered, this, [settings] { settings->setZoomPercent(100); });
    m_presenter = new QAction(tr("&Presenter Layout"), this);
    m_presenter->setObjectName(QStringLiteral("presenterLayoutAction"));
    m_presenter->setCheckable(true);
    m_presenter->setShortcut(QKeySequence(Qt::Key_F11));
    m_presenter->setStatusTip(tr("For a projector: the editor, trace, pending calls and console only, large "
                                 "type, high contrast (F11 again to go back)"));
    connect(m_presenter, &QAction::toggled, this, &PresenterView::setPresenting);
    for (QAction *action : {m_zoomIn, m_zoomOut, m_resetZoom, m_presenter})
        window->addAction(action); // also while the menu bar is hidden

    connect(settings, &Settings::changed, this, [this](const QString &key) {
        if (key == QLatin1String("zoomPercent"))
            applyZoom();
    });
    qApp->installEventFilter(this);
    applyZoom();
}

void PresenterView::addTo(QMenu *menu)
{
    menu->addActions({m_zoomIn, m_zoomOut, m_resetZoom});
    menu->addSeparator();
    menu->addAction(m_presenter);
}

void PresenterView::applyZoom()
{
    const int percent = Settings::instance()->zoomPercent();
    const QFont base = unzoomedApplicationFont();
    if (QApplication::font() != PresenterView::zoomed(base, percent)) {
        QApplication::setFont(PresenterView::zoomed(base, percent));
        // QApplication tells the windows only once its event loop runs (not before
        // exec(), nor in tests): tell them here, so the zoom applies at once.
        for (QWidget *window : QApplication::topLevelWidgets()) {
            QEvent change(QEvent::ApplicationFontChange);
            QCoreApplication::sendEvent(window, &change);
        }
    }
    for (QWidget *widget : QApplication::allWidgets())
        zoomOwnFont(widget, percent);
    m_zoomIn->setEnabled(percent < Settings::MaxZoomPercent);
    m_zoomOut->setEnabled(percent > Settings::MinZoomPercent);
    m_resetZoom->setEnabled(percent != 100);
}

void PresenterView::setPresenting(bool on)
{
    if (on == m_presenting)
        return;
    m_presenting = on;
    Settings *settings = Settings::instance();
    if (on) {
        m_stateBefore = m_window->saveState();
        m_geometryBefore = m_window->saveGeometry(); // the large type may grow the window
        m_zoomBefore = settings->zoomPercent();
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
            dock->hide();
        QList<QDockWidget *> sized;
        QList<int> widths;
        for (const KeptDock &kept : std::as_const(m_kept)) {
            kept.dock->show();
            kept.dock->raise();
            if (kept.below) {
                // Out of its own column (Pending Calls: the left one, as a tab) into this
                // dock's: restoreState() puts it back.
                m_window->splitDockWidget(kept.dock, kept.below, Qt::Vertical);
                kept.below->show();
            }
            if (kept.widthPercent > 0) {
                sized.append(kept.dock);
                widths.append(m_window->width() * kept.widthPercent / 100);
            }
        }
        settings->setZoomPercent(qMax(m_zoomBefore, PresenterZoomPercent));
        m_window->resizeDocks(sized, widths, Qt::Horizontal);
        Theme::applyHighContrast();
        // The column's height once the docks are in place (sizes that do not add up to it
        // are spread evenly, not in proportion), and once more when the layout has taken
        // the large type in (its title bars grow on posted events).
        m_window->layout()->activate();
        splitColumns();
        QTimer::singleShot(0, this, [this] {
            if (m_presenting)
                splitColumns();
        });
    } else {
        // Fonts back first, then the docks: restored under the presenter's large type,
        // the docks kept its widths and squeezed the editor. Once more when the layout
        // has taken the smaller fonts in (their size hints change on posted events).
        settings->setZoomPercent(m_zoomBefore);
        Theme::apply(settings->theme());
        m_window->restoreGeometry(m_geometryBefore);
        m_window->restoreState(m_stateBefore);
        QTimer::singleShot(0, m_window, [window = m_window, geometry = m_geometryBefore, state = m_stateBefore] {
            window->restoreGeometry(geometry);
            window->restoreState(state);
        });
    }
    m_presenter->setChecked(on);
}

void PresenterView::splitColumns()
{
    for (const KeptDock &kept : std::as_const(m_kept)) {
        if (!kept.below || kept.belowHeightPercent <= 0)
            continue;
        const int column = kept.dock->height() + kept.below->height();
        m_window->resizeDocks({kept.dock, kept.below},
                              {column * (100 - kept.belowHeightPercent) / 100, column * kept.belowHeightPercent / 100},
                              Qt::Vertical);
    }
}

bool PresenterView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Polish && Settings::instance()->zoomPercent() != 100) {
        // A widget made after the zoom (a new tab, a dialog) with a font of its own.
        if (auto *widget = qobject_cast<QWidget *>(watched))
            zoomOwnFont(widget, Settings::instance()->zoomPercent());
    } else if (event->type() == QEvent::Wheel) {
        auto *wheel = static_cast<QWheelEvent *>(event);
        auto *widget = qobject_cast<QWidget *>(watched);
        if (!(wheel->modifiers() & Qt::ControlModifier) || !widget || widget->window() != m_window)
            return false;
        // Ctrl+wheel zooms the window (a view zooming alone would leave the rest small).
        m_wheelDelta += wheel->angleDelta().y();
        for (; m_wheelDelta >= 120; m_wheelDelta -= 120)
            m_zoomIn->trigger();
        for (; m_wheelDelta <= -120; m_wheelDelta += 120)
            m_zoomOut->trigger();
        return true;
    }
    return false;
}
