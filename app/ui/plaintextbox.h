// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>
#include <QMessageBox>

/// Makes `box` show its text and informative text as typed: they quote tool names, file
/// names and errors — data, never markup (a tool named "<img src=…>" shows as that).
/// QMessageBox::setTextFormat covers only the main text, so call this after
/// setInformativeText.
inline void showAsPlainText(QMessageBox *box)
{
    box->setTextFormat(Qt::PlainText);
    for (QLabel *label : box->findChildren<QLabel *>())
        if (label->pixmap().isNull())
            label->setTextFormat(Qt::PlainText);
}
