// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QTextBrowser;
class QToolButton;
class QUrl;

/// Help ▸ Documentation (issue 20 "Help for users"): the user docs (UserDocs, compiled
/// into the program) in a window of its own beside the main window, not modal. A link to
/// another page or heading is followed here, with Back (Alt+Left), Forward (Alt+Right)
/// and Home (the index); a link out of the docs opens in the browser.
class DocumentationWindow : public QWidget
{
    Q_OBJECT
public:
    explicit DocumentationWindow(QWidget *parent = nullptr);

    /// Shows `page` ("tools.md"), scrolled to the heading `anchor` when given; adds it to
    /// the history. False (nothing changes but the status line) for a page that is not there.
    bool showPage(const QString &page, const QString &anchor = {});
    /// Follows a link of the page shown, as a click on it does.
    void followLink(const QUrl &link);

    void back();
    void forward();
    void home();

    QString currentPage() const;
    QString currentAnchor() const;
    QTextBrowser *browser() const { return m_browser; }

private:
    struct Place
    {
        QString page;
        QString anchor;
    };
    void display(const Place &place);
    void updateButtons();

    QTextBrowser *m_browser = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_back = nullptr;
    QToolButton *m_forward = nullptr;
    QToolButton *m_home = nullptr;
    QList<Place> m_history;
    int m_index = -1;
};
