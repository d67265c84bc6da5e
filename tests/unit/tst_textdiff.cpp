// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// TextDiff (project/textdiff.h): the unified diff a person reviews before generated code
// is written (Generate Tool with AI). dtl computes the edit script; the headers are GNU
// diff's.

#include "project/textdiff.h"

#include <QElapsedTimer>
#include <QTest>

class TstTextDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unified_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("diff");
        QTest::newRow("equal") << "a\nb\n"
                               << "a\nb\n"
                               << "";
        QTest::newRow("new file") << ""
                                  << "a\nb\n"
                                  << "@@ -0,0 +1,2 @@\n+a\n+b\n";
        QTest::newRow("emptied") << "a\nb\n"
                                 << ""
                                 << "@@ -1,2 +0,0 @@\n-a\n-b\n";
        QTest::newRow("one line changed")
            << "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
            << "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"
            << "@@ -2,8 +2,8 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n"; // dtl: the last line joins the context
        QTest::newRow("single line file") << "a\n"
                                          << "b\n"
                                          << "@@ -1 +1 @@\n-a\n+b\n";
        QTest::newRow("no final newline") << "a"
                                          << "a\nb"
                                          << "@@ -1 +1,2 @@\n a\n+b\n";
    }

    void unified()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QString, diff);
        const std::vector<DiffLine> lines = TextDiff::unified(before, after);
        QCOMPARE(TextDiff::toText(lines), diff);
    }

    void countsAddedAndRemoved()
    {
        const std::vector<DiffLine> lines = TextDiff::unified(QStringLiteral("x\ny\n"), QStringLiteral("x\nz\nw\n"));
        QCOMPARE(TextDiff::count(lines, DiffLine::Kind::Added), 2);
        QCOMPARE(TextDiff::count(lines, DiffLine::Kind::Removed), 1);
        QCOMPARE(TextDiff::count(lines, DiffLine::Kind::Hunk), 1);
    }

    /// Far apart changes make two hunks, each with 3 lines of context.
    void distantChangesMakeTwoHunks()
    {
        QStringList before;
        for (int i = 1; i <= 30; ++i)
            before << QString::number(i);
        QStringList after = before;
        after[1] = QStringLiteral("two");
        after[27] = QStringLiteral("twenty-eight");
        const QString diff = TextDiff::toText(TextDiff::unified(before.join(u'\n') + u'\n', after.join(u'\n') + u'\n'));
        QCOMPARE(diff,
                 QStringLiteral("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
                                "@@ -25,6 +25,6 @@\n 25\n 26\n 27\n-28\n+twenty-eight\n 29\n 30\n"));
    }

    /// Non-ASCII lines round-trip (the edit script works on UTF-8 bytes).
    void keepsUnicode()
    {
        const QString diff = TextDiff::toText(TextDiff::unified(QStringLiteral("café\n"), QStringLiteral("café ☕\n")));
        QCOMPARE(diff, QStringLiteral("@@ -1 +1 @@\n-café\n+café ☕\n"));
    }
};

QTEST_GUILESS_MAIN(TstTextDiff)
#include "tst_textdiff.moc"
