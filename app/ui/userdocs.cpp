// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "userdocs.h"

#include <QColor>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>

// Outside any namespace: the macro declares the resource's init function.
static void initUserDocResources()
{
    Q_INIT_RESOURCE(userdocs);
}

namespace {

const QString Root = QStringLiteral(":/docs/user/");

} // namespace

namespace UserDocs {

QString homePage()
{
    return QStringLiteral("README.md");
}

QStringList pages()
{
    initUserDocResources();
    QStringList names = QDir(Root).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    return names;
}

QString markdown(const QString &page)
{
    initUserDocResources();
    if (page.isEmpty() || page.contains(QLatin1Char('/')))
        return {};
    QFile file(Root + page);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QString anchorOf(const QString &heading)
{
    QString anchor;
    for (const QChar c : heading.trimmed()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            anchor.append(c.toLower());
        else if (c == QLatin1Char(' '))
            anchor.append(QLatin1Char('-'));
    }
    return anchor;
}

QStringList load(QTextDocument *document, const QString &page, bool *found)
{
    const QString text = markdown(page);
    if (found)
        *found = !text.isEmpty();
    document->setMarkdown(text);
    QStringList anchors;
    QHash<QString, int> seen;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().nonBreakableLines()) { // a code block: shaded, in light and dark themes
            QTextBlockFormat shaded;
            shaded.setBackground(QColor(127, 127, 127, 40));
            QTextCursor(block).mergeBlockFormat(shaded);
        }
        if (block.blockFormat().headingLevel() == 0)
            continue;
        QString anchor = anchorOf(block.text());
        const int repeat = seen.value(anchor);
        seen.insert(anchor, repeat + 1);
        if (repeat > 0)
            anchor += QStringLiteral("-%1").arg(repeat);
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setAnchor(true);
        format.setAnchorNames({anchor});
        cursor.mergeCharFormat(format);
        anchors.append(anchor);
    }
    return anchors;
}

QStringList links(const QTextDocument *document)
{
    QStringList hrefs;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        QString previous;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QString href = it.fragment().charFormat().anchorHref();
            if (!href.isEmpty() && href != previous)
                hrefs.append(href);
            previous = href;
        }
    }
    return hrefs;
}

Target resolve(const QString &page, const QString &href)
{
    Target target;
    const QUrl url(href);
    const QString scheme = url.scheme();
    if (scheme == QLatin1String("http") || scheme == QLatin1String("https") || scheme == QLatin1String("mailto")) {
        target.kind = Target::Kind::External;
        target.url = href;
        return target;
    }
    if (!scheme.isEmpty())
        return target;
    const QUrl base(QStringLiteral("qrc:/docs/user/") + page);
    const QUrl resolved = base.resolved(url);
    const QString prefix = QStringLiteral("/docs/user/");
    const QString path = resolved.path();
    if (!path.startsWith(prefix))
        return target;
    const QString name = path.mid(prefix.size());
    if (name.contains(QLatin1Char('/')) || !pages().contains(name))
        return target;
    target.kind = Target::Kind::Page;
    target.page = name;
    target.anchor = resolved.fragment();
    return target;
}

} // namespace UserDocs
