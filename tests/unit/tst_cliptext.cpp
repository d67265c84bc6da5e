// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The one clipping rule (issue 17 §4, project/printabletext.h): a cap never splits a
// character (UTF-8 sequence or UTF-16 surrogate pair) and the note says how many bytes
// were dropped. Every cap of each multi-byte width at every offset inside a character.

#include "project/printabletext.h"

#include <QTest>

class TstClipText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void utf8CapInsideACharacter_data()
    {
        QTest::addColumn<QByteArray>("character");
        QTest::addColumn<int>("cap");
        QTest::addColumn<int>("kept");
        // "ab" then the character then "c": caps 2 .. 2+width.
        const std::pair<const char *, QByteArray> characters[] = {
            {"é (2 bytes)", QByteArray("\xC3\xA9")},
            {"€ (3 bytes)", QByteArray("\xE2\x82\xAC")},
            {"😀 (4 bytes)", QByteArray("\xF0\x9F\x98\x80")},
        };
        for (const auto &[name, character] : characters)
            for (int cap = 2; cap <= 2 + int(character.size()); ++cap)
                QTest::addRow("%s, cap %d", name, cap)
                    << character << cap << (cap == 2 + int(character.size()) ? cap : 2);
    }

    void utf8CapInsideACharacter()
    {
        QFETCH(QByteArray, character);
        QFETCH(int, cap);
        QFETCH(int, kept);
        const QByteArray text = "ab" + character + "c";
        const ClippedText clipped = clipUtf8(text, cap);
        QCOMPARE(clipped.kept, text.left(kept));
        QCOMPARE(clipped.dropped, text.size() - kept);
        QVERIFY(QString::fromUtf8(clipped.kept).toUtf8() == clipped.kept); // whole characters only
    }

    void utf8UnderTheCapIsKept()
    {
        const ClippedText clipped = clipUtf8("h\xC3\xA9", 3);
        QCOMPARE(clipped.kept, QByteArray("h\xC3\xA9"));
        QCOMPARE(clipped.dropped, 0);
        QCOMPARE(clipUtf8("abc", 0).kept, QByteArray());
        QCOMPARE(clipUtf8("abc", 0).dropped, 3);
    }

    // UTF-16: a cap between the two halves of a surrogate pair keeps neither half.
    // An output cap reached by a chunk that ends inside a character: the rest of that
    // character would come after the cap, so it goes too; below the cap it may still come.
    void streamCapDropsACharacterItCannotFinish()
    {
        const QByteArray chunk = QByteArray("ab") + QByteArray("\xe2\x82"); // "€" begun, not finished
        const ClippedText atCap = clipUtf8Stream(chunk, 4);
        QCOMPARE(atCap.kept, QByteArray("ab"));
        QCOMPARE(atCap.dropped, qsizetype(2));
        const ClippedText belowCap = clipUtf8Stream(chunk, 10);
        QCOMPARE(belowCap.kept, chunk);
        QCOMPARE(belowCap.dropped, qsizetype(0));
        const ClippedText whole = clipUtf8Stream(QByteArray("ab\xe2\x82\xac"), 5);
        QCOMPARE(whole.kept, QByteArray("ab\xe2\x82\xac"));
        QCOMPARE(whole.dropped, qsizetype(0));
        const ClippedText over = clipUtf8Stream(QByteArray("ab\xc3\xa9"
                                                           "cd"),
                                                3);
        QCOMPARE(over.kept, QByteArray("ab"));
        QCOMPARE(over.dropped, qsizetype(4));
    }

    void charsNeverSplitASurrogatePair()
    {
        const QString text = QStringLiteral("ab\U0001F600c");
        QCOMPARE(text.size(), 5);
        ClippedText clipped = clipChars(text, 3);
        QCOMPARE(clipped.kept, QByteArray("ab"));
        QCOMPARE(clipped.dropped, 5); // 😀 (4 bytes) and "c"
        clipped = clipChars(text, 4);
        QCOMPARE(clipped.kept, QByteArray("ab\xF0\x9F\x98\x80"));
        QCOMPARE(clipped.dropped, 1);
    }

    void notesSayHowManyBytesWereDropped()
    {
        QCOMPARE(clippedText(QStringLiteral("h\u00e9llo w\u00f6rld"), 5),
                 QStringLiteral("h\u00e9llo… (7 bytes dropped)"));
        QCOMPARE(clippedText(QStringLiteral("short"), 5), QStringLiteral("short"));
        // Escaped for a terminal, cut before the pair, 4 + 2 bytes dropped.
        QCOMPARE(elidedText(QStringLiteral("\x1b\U0001F600\u00e9"), 2), QStringLiteral("\\u001b… (6 bytes dropped)"));
    }
};

QTEST_GUILESS_MAIN(TstClipText)
#include "tst_cliptext.moc"
