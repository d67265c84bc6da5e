// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "elidedlabel.h"

#include <algorithm>

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString &text)
{
    m_fullText = text;
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {0, fontMetrics().height()};
}

QSize ElidedLabel::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(text()), fontMetrics().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    // Lines joined (blank ones dropped): with a space after one that ends in ':' ("its
    // stderr ends with: Error: …"), else with " · ".
    QString line;
    for (const QString &part : m_fullText.split(QLatin1Char('\n'))) {
        const QString trimmed = part.trimmed();
        if (trimmed.isEmpty())
            continue;
        if (!line.isEmpty())
            line += line.endsWith(QLatin1Char(':')) ? QStringLiteral(" ") : QStringLiteral(" · ");
        line += trimmed;
    }
    const QString shown = fontMetrics().elidedText(line, Qt::ElideRight, std::max(0, contentsRect().width()));
    QLabel::setText(shown);
    // Escaped: a server's stderr in the text is not markup (an <img> would be loaded).
    setToolTip(shown == m_fullText
                   ? QString()
                   : QStringLiteral("<p style=\"white-space: pre-wrap\">%1</p>").arg(m_fullText.toHtmlEscaped()));
}
