// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "plaintextlabel.h"

#include "project/printabletext.h"

#include <QLabel>

QLabel *plainLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString plainToolTip(const QString &text)
{
    return text.isEmpty() ? QString()
                          : QStringLiteral("<p style=\"white-space: pre-wrap\">%1</p>")
                                .arg(clippedText(printableLines(text), 2000).toHtmlEscaped());
}
