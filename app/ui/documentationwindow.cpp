// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "documentationwindow.h"

#include "userdocs.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QShortcut>
#include <QStyle>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

DocumentationWindow::DocumentationWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("documentationWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Tool Studio Documentation"));

    const auto button = [this](const QString &text, QStyle::StandardPixmap icon, const QString &tip, const char *name) {
        auto *b = new QToolButton(this);
        b->setObjectName(QString::fromLatin1(name));
        b->setText(text);
        b->setIcon(style()->standardIcon(icon));
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    m_back = button(tr("Back"), QStyle::SP_ArrowBack, tr("The page shown before (Alt+Left)"), "docsBack");
    m_forward = button(tr("Forward"), QStyle::SP_ArrowForward, tr("The page shown after (Alt+Right)"), "docsForward");
    m_home = button(tr("Contents"), QStyle::SP_DirHomeIcon, tr("The index of the documentation"), "docsHome");
    connect(m_back, &QToolButton::clicked, this, &DocumentationWindow::back);
    connect(m_forward, &QToolButton::clicked, this, &DocumentationWindow::forward);
    connect(m_home, &QToolButton::clicked, this, &DocumentationWindow::home);
    connect(new QShortcut(QKeySequence::Back, this), &QShortcut::activated, this, &DocumentationWindow::back);
    connect(new QShortcut(QKeySequence::Forward, this), &QShortcut::activated, this, &DocumentationWindow::forward);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("docsStatus"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_back);
    bar->addWidget(m_forward);
    bar->addWidget(m_home);
    bar->addWidget(m_status, 1);

    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("documentationText"));
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &DocumentationWindow::followLink);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_browser, 1);
    resize(820, 680);
    showPage(UserDocs::homePage());
}

bool DocumentationWindow::showPage(const QString &page, const QString &anchor)
{
    if (!UserDocs::pages().contains(page)) {
        m_status->setText(tr("There is no page %1 in this documentation.").arg(page));
        return false;
    }
    m_history = m_history.mid(0, m_index + 1);
    m_history.append({page, anchor});
    m_index = int(m_history.size()) - 1;
    display(m_history.at(m_index));
    return true;
}

void DocumentationWindow::followLink(const QUrl &link)
{
    const UserDocs::Target target = UserDocs::resolve(currentPage(), link.toString());
    switch (target.kind) {
    case UserDocs::Target::Kind::External:
        QDesktopServices::openUrl(QUrl(target.url));
        m_status->setText(tr("Opened %1 in the browser.").arg(target.url));
        break;
    case UserDocs::Target::Kind::Page:
        showPage(target.page, target.anchor);
        break;
    case UserDocs::Target::Kind::Invalid:
        m_status->setText(tr("The link %1 leads to no page of this documentation.").arg(link.toString()));
        break;
    }
}

void DocumentationWindow::back()
{
    if (m_index <= 0)
        return;
    display(m_history.at(--m_index));
}

void DocumentationWindow::forward()
{
    if (m_index + 1 >= m_history.size())
        return;
    display(m_history.at(++m_index));
}

void DocumentationWindow::home()
{
    showPage(UserDocs::homePage());
}

QString DocumentationWindow::currentPage() const
{
    return m_index >= 0 ? m_history.at(m_index).page : QString();
}

QString DocumentationWindow::currentAnchor() const
{
    return m_index >= 0 ? m_history.at(m_index).anchor : QString();
}

void DocumentationWindow::display(const Place &place)
{
    UserDocs::load(m_browser->document(), place.page);
    m_status->clear();
    const QString title = m_browser->document()->begin().text();
    setWindowTitle(title.isEmpty() ? tr("Tool Studio Documentation") : tr("%1 — Tool Studio Documentation").arg(title));
    if (place.anchor.isEmpty())
        m_browser->moveCursor(QTextCursor::Start);
    else
        m_browser->scrollToAnchor(place.anchor);
    updateButtons();
}

void DocumentationWindow::updateButtons()
{
    m_back->setEnabled(m_index > 0);
    m_forward->setEnabled(m_index + 1 < m_history.size());
    m_home->setEnabled(currentPage() != UserDocs::homePage() || !currentAnchor().isEmpty());
}
