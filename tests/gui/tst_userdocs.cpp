// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The user documentation (issue 20 "Help for users"): Help ▸ Documentation opens the
// pages compiled into the program, a click on a link shows the linked page, Back,
// Forward and Contents move through them; every link of every page leads to a page and
// heading that exist; every page of docs/user is compiled in; the command reference
// names every option `toolstudio help` prints.

#include "ui/documentationwindow.h"
#include "ui/helpmenu.h"
#include "ui/userdocs.h"
#include "windowfixture.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QUrl>

namespace {

/// The middle of the first link to `href` in `browser`, scrolled into view, in viewport
/// coordinates; (-1, -1) when the page has no such link.
QPoint linkPoint(QTextBrowser *browser, const QString &href)
{
    QTextDocument *document = browser->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.charFormat().anchorHref() != href)
                continue;
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position() + fragment.length() / 2);
            browser->setTextCursor(cursor);
            browser->ensureCursorVisible();
            return browser->cursorRect(cursor).center();
        }
    }
    return {-1, -1};
}

QString firstLine(QTextBrowser *browser)
{
    return browser->document()->begin().text();
}

/// The text of commands.md's section "## toolstudio NAME", up to the next section.
QString commandSection(const QString &page, const QString &name)
{
    const QString heading = QStringLiteral("## toolstudio %1\n").arg(name);
    const qsizetype start = page.indexOf(heading);
    if (start < 0)
        return {};
    const qsizetype end = page.indexOf(QStringLiteral("\n## "), start + heading.size());
    return page.mid(start, end < 0 ? -1 : end - start);
}

} // namespace

class TestUserDocs
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private:
    DocumentationWindow *openDocumentation()
    {
        m_window->helpMenu()->documentationAction()->trigger();
        return m_window->findChild<DocumentationWindow *>(QStringLiteral("documentationWindow"));
    }

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(WindowFixture::Names::Studio, WindowFixture::Sandbox::NotNeeded); }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    /// Help ▸ Documentation (Shift+F1) opens a window of its own, not modal, on the index.
    void documentationOpensOnTheIndex()
    {
        QAction *action = m_window->helpMenu()->documentationAction();
        QCOMPARE(action->text(), QStringLiteral("&Documentation"));
        QCOMPARE(action->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F1));
        DocumentationWindow *docs = openDocumentation();
        QVERIFY(docs);
        QVERIFY(QTest::qWaitForWindowExposed(docs));
        QVERIFY(docs->isWindow());
        QVERIFY(!docs->isModal());
        QCOMPARE(docs->currentPage(), QStringLiteral("README.md"));
        QCOMPARE(firstLine(docs->browser()), QStringLiteral("Tool Studio user guide"));
        QCOMPARE(docs->windowTitle(), QStringLiteral("Tool Studio user guide — Tool Studio Documentation"));
        QVERIFY(docs->browser()->toPlainText().contains(QStringLiteral("Getting started")));
        QVERIFY(!docs->findChild<QToolButton *>(QStringLiteral("docsBack"))->isEnabled());
        // Asked for again, the same window comes forward.
        QCOMPARE(openDocumentation(), docs);
        QCOMPARE(m_window->findChildren<DocumentationWindow *>().size(), 1);
    }

    /// A click on a link shows the linked page; Back, Forward and Contents move through
    /// the pages shown; a link to a heading scrolls to it.
    void followingLinks()
    {
        DocumentationWindow *docs = openDocumentation();
        QVERIFY(docs);
        QVERIFY(QTest::qWaitForWindowExposed(docs));
        QTextBrowser *browser = docs->browser();
        const QPoint link = linkPoint(browser, QStringLiteral("getting-started.md"));
        QVERIFY(link.x() >= 0);
        QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, link);
        QTRY_COMPARE(docs->currentPage(), QStringLiteral("getting-started.md"));
        QCOMPARE(firstLine(browser), QStringLiteral("Getting started"));
        QVERIFY(browser->toPlainText().contains(QStringLiteral("toolstudio init my-tools --template exchange-rate")));

        auto *back = docs->findChild<QToolButton *>(QStringLiteral("docsBack"));
        auto *forward = docs->findChild<QToolButton *>(QStringLiteral("docsForward"));
        auto *home = docs->findChild<QToolButton *>(QStringLiteral("docsHome"));
        QVERIFY(back->isEnabled());
        QVERIFY(!forward->isEnabled());
        back->click();
        QCOMPARE(docs->currentPage(), QStringLiteral("README.md"));
        QCOMPARE(firstLine(browser), QStringLiteral("Tool Studio user guide"));
        QVERIFY(forward->isEnabled());
        forward->click();
        QCOMPARE(docs->currentPage(), QStringLiteral("getting-started.md"));

        // A link to a heading of another page: that page, scrolled down to it.
        docs->followLink(QUrl(QStringLiteral("troubleshooting.md#common-errors")));
        QCOMPARE(docs->currentPage(), QStringLiteral("troubleshooting.md"));
        QCOMPARE(docs->currentAnchor(), QStringLiteral("common-errors"));
        QTRY_VERIFY(browser->verticalScrollBar()->value() > 0);
        // A new page drops the pages ahead; Contents goes to the index.
        QVERIFY(!forward->isEnabled());
        home->click();
        QCOMPARE(docs->currentPage(), QStringLiteral("README.md"));
        QCOMPARE(browser->verticalScrollBar()->value(), 0);
        back->click();
        QCOMPARE(docs->currentPage(), QStringLiteral("troubleshooting.md"));

        // A link to no page changes nothing but says so.
        docs->followLink(QUrl(QStringLiteral("no-such-page.md")));
        QCOMPARE(docs->currentPage(), QStringLiteral("troubleshooting.md"));
        auto *status = docs->findChild<QLabel *>(QStringLiteral("docsStatus"));
        QCOMPARE(status->text(), QStringLiteral("The link no-such-page.md leads to no page of this documentation."));
    }

    /// Pictures of the window on the index and on a page with tables and code, to look at
    /// (build/tests/screenshots/).
    void documentationScreenshots()
    {
        const QString out = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(out));
        DocumentationWindow *docs = openDocumentation();
        QVERIFY(docs);
        QVERIFY(QTest::qWaitForWindowExposed(docs));
        QVERIFY(docs->grab().save(out + QStringLiteral("/documentation-index.png")));
        QVERIFY(docs->showPage(QStringLiteral("tools.md"), QStringLiteral("command-tools")));
        QTest::qWait(100);
        QVERIFY(docs->grab().save(out + QStringLiteral("/documentation-tools.png")));
    }

    /// Every link of every page leads to a page that is compiled in and, with an anchor,
    /// to a heading of that page; a link out of the docs is a web address. So renaming a
    /// page or a heading without its links fails here.
    void everyLinkResolves()
    {
        const QStringList pages = UserDocs::pages();
        QVERIFY(pages.contains(UserDocs::homePage()));
        QVERIFY(pages.size() >= 12);
        QHash<QString, QStringList> anchors;
        for (const QString &page : pages) {
            QTextDocument document;
            bool found = false;
            anchors.insert(page, UserDocs::load(&document, page, &found));
            QVERIFY2(found, qPrintable(page));
            QVERIFY2(!anchors.value(page).isEmpty(), qPrintable(page + QStringLiteral(": no heading")));
        }
        QSet<QString> linkedTo;
        int checked = 0;
        for (const QString &page : pages) {
            QTextDocument document;
            UserDocs::load(&document, page);
            for (const QString &href : UserDocs::links(&document)) {
                const UserDocs::Target target = UserDocs::resolve(page, href);
                const QString where = page + QStringLiteral(": ") + href;
                QVERIFY2(target.kind != UserDocs::Target::Kind::Invalid,
                         qPrintable(where + QStringLiteral(" leads nowhere")));
                if (target.kind == UserDocs::Target::Kind::External) {
                    QVERIFY2(href.startsWith(QLatin1String("https://")), qPrintable(where));
                    continue;
                }
                QVERIFY2(target.anchor.isEmpty() || anchors.value(target.page).contains(target.anchor),
                         qPrintable(where + QStringLiteral(": no such heading in ") + target.page));
                linkedTo.insert(target.page);
                ++checked;
            }
        }
        QVERIFY2(checked >= 25, qPrintable(QStringLiteral("%1 links to pages").arg(checked)));
        // Every page is reachable: the index links to each.
        for (const QString &page : pages)
            QVERIFY2(page == UserDocs::homePage() || linkedTo.contains(page),
                     qPrintable(page + QStringLiteral(" is linked from no page")));
    }

    /// The anchors are GitHub's, so the links work on GitHub too.
    void anchorsAreGitHubs()
    {
        QCOMPARE(UserDocs::anchorOf(QStringLiteral("Step mode and answering by hand")),
                 QStringLiteral("step-mode-and-answering-by-hand"));
        QCOMPARE(UserDocs::anchorOf(QStringLiteral("toolstudio serve --mcp-stdio")),
                 QStringLiteral("toolstudio-serve---mcp-stdio"));
        QCOMPARE(UserDocs::anchorOf(QStringLiteral("Cassettes: running offline")),
                 QStringLiteral("cassettes-running-offline"));
        QTextDocument document;
        const QStringList anchors = UserDocs::load(&document, QStringLiteral("durable-runs.md"));
        QVERIFY(anchors.contains(QStringLiteral("cassettes-running-offline")));
        QCOMPARE(UserDocs::resolve(QStringLiteral("tools.md"), QStringLiteral("#schemas")).page,
                 QStringLiteral("tools.md"));
        QCOMPARE(UserDocs::resolve(QStringLiteral("tools.md"), QStringLiteral("../architecture.md")).kind,
                 UserDocs::Target::Kind::Invalid);
    }

    /// Every page in the source tree's docs/user is compiled in, and nothing else is.
    void everyPageIsCompiledIn()
    {
        const QString source = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR");
        QVERIFY2(!source.isEmpty(), "TOOLSTUDIO_SOURCE_DIR must name the source tree (CTest sets it)");
        const QStringList files
            = QDir(source + QStringLiteral("/docs/user")).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
        QCOMPARE(UserDocs::pages(), files);
        for (const QString &page : files) {
            QFile file(source + QStringLiteral("/docs/user/") + page);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(UserDocs::markdown(page) == QString::fromUtf8(file.readAll()),
                     qPrintable(page + QStringLiteral(" differs from the compiled-in copy")));
        }
    }

    /// commands.md has a section per command `toolstudio help` lists, naming each option
    /// that command's help prints.
    void commandReferenceNamesEveryOption()
    {
        const QString binary = qEnvironmentVariable("TOOLSTUDIO_BINARY");
        QVERIFY2(!binary.isEmpty(), "TOOLSTUDIO_BINARY must name the built toolstudio (CTest sets it)");
        QProcess help;
        help.start(binary, {QStringLiteral("help")});
        QVERIFY(help.waitForFinished(30000));
        QCOMPARE(help.exitCode(), 0);
        const QString text = QString::fromUtf8(help.readAllStandardOutput());
        const QString page = UserDocs::markdown(QStringLiteral("commands.md"));
        const QRegularExpression sectionRe(QStringLiteral("── toolstudio (\\S+) ──\\n"));
        const QRegularExpression optionRe(QStringLiteral("(?<![\\w-])--[a-z][a-z-]*"));
        QStringList names;
        for (auto it = sectionRe.globalMatch(text); it.hasNext();)
            names.append(it.next().captured(1));
        QVERIFY(names.size() >= 11);
        for (int i = 0; i < names.size(); ++i) {
            const qsizetype start = text.indexOf(QStringLiteral("── toolstudio %1 ──").arg(names.at(i)));
            const qsizetype end
                = i + 1 < names.size() ? text.indexOf(QStringLiteral("── toolstudio %1 ──").arg(names.at(i + 1))) : -1;
            const QString helpText = text.mid(start, end < 0 ? -1 : end - start);
            const QString section = commandSection(page, names.at(i));
            QVERIFY2(!section.isEmpty(), qPrintable(QStringLiteral("commands.md has no section for ") + names.at(i)));
            for (auto it = optionRe.globalMatch(helpText); it.hasNext();) {
                const QString option = it.next().captured(0);
                if (option == QLatin1String("--help") || option == QLatin1String("--help-all"))
                    continue;
                // The whole option: "--replace" is not described by "--replaced".
                const QRegularExpression word(QRegularExpression::escape(option) + QStringLiteral("(?![\\w-])"));
                QVERIFY2(
                    section.contains(word),
                    qPrintable(
                        QStringLiteral("commands.md, toolstudio %1: %2 is not described").arg(names.at(i), option)));
            }
        }
    }
};

QTEST_MAIN(TestUserDocs)
#include "tst_userdocs.moc"
