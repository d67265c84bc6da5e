// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A label whose text has a mnemonic ("&Folder:") shows the "&" itself unless it has a buddy.
#pragma once

#include <QLabel>
#include <QStringList>
#include <QWidget>

/// The texts of `root`'s labels that hold a mnemonic but have no buddy (so show "&").
inline QStringList labelsShowingTheirAmpersand(const QWidget *root)
{
    QStringList found;
    for (const QLabel *label : root->findChildren<QLabel *>()) {
        QString text = label->text();
        text.replace(QStringLiteral("&&"), QString());
        if (label->textFormat() != Qt::RichText && !text.contains(QStringLiteral("&amp;"))
            && text.contains(QLatin1Char('&')) && !label->buddy())
            found << label->text();
    }
    return found;
}
