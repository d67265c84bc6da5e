// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "trustbar.h"

#include "project/printabletext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace {

/// "a, b, c, d and 3 more" (at most `shown` named), each made printable.
QString shortList(const QStringList &items, int shown)
{
    QStringList named;
    for (int i = 0; i < items.size() && i < shown; ++i)
        named << printableText(items.at(i)).toHtmlEscaped();
    QString text = named.join(QStringLiteral("; "));
    if (items.size() > shown)
        text = TrustBar::tr("%1 and %n more", nullptr, int(items.size() - shown)).arg(text);
    return text;
}

} // namespace

TrustBar::TrustBar(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("trustBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette tinted = palette();
    tinted.setColor(QPalette::Window, tinted.color(QPalette::ToolTipBase));
    tinted.setColor(QPalette::WindowText, tinted.color(QPalette::ToolTipText));
    setPalette(tinted);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("trustBarText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    layout->addWidget(m_text, 1);
    m_trust = new QPushButton(tr("Trust Project"), this);
    m_trust->setObjectName(QStringLiteral("trustProjectButton"));
    m_trust->setToolTip(tr("Trust this project: its Python tool files are loaded and its command tools and "
                           "scripts may run. Recorded for this folder until what would run changes."));
    m_stay = new QPushButton(tr("Stay Restricted"), this);
    m_stay->setObjectName(QStringLiteral("stayRestrictedButton"));
    m_stay->setToolTip(tr("Keep browsing without running anything; the bar comes back when the project is opened "
                          "again."));
    layout->addWidget(m_trust);
    layout->addWidget(m_stay);
    connect(m_trust, &QPushButton::clicked, this, &TrustBar::trustRequested);
    connect(m_stay, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT stayRestricted();
    });
    hide();
}

void TrustBar::showFor(const ProjectTrust::Check &check)
{
    QString text;
    QStringList all;
    if (check.state == ProjectTrust::State::Changed) {
        for (const QString &item : check.added)
            all << QStringLiteral("+ ") + item;
        for (const QString &item : check.removed)
            all << QStringLiteral("− ") + item;
        text = tr("<b>Restricted mode:</b> what this project would run changed since you trusted it: %1. Nothing "
                  "of it runs until you trust it again.")
                   .arg(shortList(all, ShownItems));
    } else {
        all = check.now.items;
        text = all.isEmpty() ? tr("<b>Restricted mode:</b> this project is not trusted, so nothing of it runs (its "
                                  "scripts would run in the sandbox).")
                             : tr("<b>Restricted mode:</b> this project is not trusted, so nothing of it runs. "
                                  "Trusting it would run: %1.")
                                   .arg(shortList(all, ShownItems));
    }
    if (!check.storeError.isEmpty())
        text += QStringLiteral("<br>") + printableText(check.storeError).toHtmlEscaped();
    m_text->setText(text);
    QStringList tip;
    for (const QString &item : std::as_const(all))
        tip << printableText(item);
    m_text->setToolTip(tip.join(QLatin1Char('\n')));
    show();
}
