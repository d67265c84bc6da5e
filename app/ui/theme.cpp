// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include <QApplication>
#include <QFile>
#include <QPalette>
#include <QStyle>

namespace {

// The palette the application started with: "follow the system".
QPalette systemPalette()
{
    static const QPalette palette = QApplication::palette();
    return palette;
}

} // namespace

void Theme::rememberSystemPalette()
{
    systemPalette();
}

void Theme::apply(Settings::Theme theme)
{
    const QPalette system = systemPalette();
    if (theme == Settings::Theme::System) {
        QApplication::setPalette(system);
        return;
    }
    if (theme == Settings::Theme::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette dark;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe0, 0xe0, 0xe0);
    dark.setColor(QPalette::Window, window);
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, base);
    dark.setColor(QPalette::AlternateBase, window);
    dark.setColor(QPalette::ToolTipBase, window);
    dark.setColor(QPalette::ToolTipText, text);
    dark.setColor(QPalette::Text, text);
    dark.setColor(QPalette::Button, window);
    dark.setColor(QPalette::ButtonText, text);
    dark.setColor(QPalette::BrightText, Qt::red);
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb4));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    dark.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    dark.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(dark);
}

void Theme::applyHighContrast()
{
    QPalette palette(Qt::black, Qt::white);
    palette.setColor(QPalette::Window, Qt::white);
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xee, 0xee, 0xee));
    palette.setColor(QPalette::Button, QColor(0xee, 0xee, 0xee));
    palette.setColor(QPalette::Highlight, QColor(0x00, 0x30, 0x90));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x00, 0x30, 0x90));
    // Placeholders and disabled controls must not pass for values and live buttons on a
    // projector (#404040 and #555555 did): mid grey, still readable (about 4.5:1 on white).
    palette.setColor(QPalette::PlaceholderText, QColor(0x76, 0x76, 0x76));
    for (const QPalette::ColorRole role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText})
        palette.setColor(QPalette::Disabled, role, QColor(0x76, 0x76, 0x76));
    palette.setColor(QPalette::Disabled, QPalette::Button, QColor(0xf7, 0xf7, 0xf7));
    QApplication::setPalette(palette);
}

QIcon Theme::icon(const char *themeName, const char *resourceName)
{
    const QString path = QStringLiteral(":/icons/%1.svg").arg(QString::fromLatin1(resourceName));
    return QIcon::fromTheme(QString::fromLatin1(themeName), QFile::exists(path) ? QIcon(path) : QIcon());
}
