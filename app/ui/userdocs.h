// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QTextDocument;

/// The user documentation (docs/user/*.md), compiled into the program as the resources
/// under :/docs/user/ (resources/userdocs.qrc), so an installed studio has it too. Pages
/// are named by their file name ("getting-started.md"); a link between them is written
/// as on GitHub: "tools.md", "tools.md#retries-and-timeouts", "#step-mode".
namespace UserDocs {

/// The index page, "README.md".
QString homePage();

/// The file names of every page, sorted.
QStringList pages();

/// The markdown of `page`; empty when there is no such page.
QString markdown(const QString &page);

/// GitHub's anchor for a heading: lower case, punctuation other than '-' and '_'
/// dropped, each space a '-' ("Step mode: answer by hand" -> "step-mode-answer-by-hand").
QString anchorOf(const QString &heading);

/// Fills `document` with `page`, names each heading with its anchor (a second heading
/// of the same text gets "-1", "-2", … as on GitHub) and shades code blocks. Returns the anchors, in
/// order; false in `*found` when there is no such page (the document is then empty).
QStringList load(QTextDocument *document, const QString &page, bool *found = nullptr);

/// Every link target of `document`, as written (in the order they appear; repeats kept).
QStringList links(const QTextDocument *document);

/// Where a link followed from `page` leads.
struct Target
{
    enum class Kind { Page, External, Invalid };
    Kind kind = Kind::Invalid;
    QString page;   ///< Page: the page's file name
    QString anchor; ///< Page: the heading's anchor, or empty for the top
    QString url;    ///< External: the address to hand to the browser
};
Target resolve(const QString &page, const QString &href);

} // namespace UserDocs
