// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgeframereader.h"

#include <QTest>

using Event = BridgeFrameReader::Event;

namespace {

/// "L:<line>" for a line, "O:<length>" for an oversized one: compact to compare.
QStringList describe(const std::vector<Event> &events)
{
    QStringList out;
    for (const Event &event : events) {
        // A length that disagrees with the line shows up as a mismatch in the list.
        if (event.kind == Event::Line && event.length == event.line.size())
            out << QStringLiteral("L:") + QString::fromStdString(event.line);
        else if (event.kind == Event::Oversized && event.line.empty())
            out << QStringLiteral("O:%1").arg(event.length);
        else
            out << QStringLiteral("inconsistent event");
    }
    return out;
}

} // namespace

class TestBridgeFrameReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void feeds_data();
    void feeds();
    void neverBuffersBeyondCap();
    void oversizedThenNormalLineInOneFeed();
    void flushOversizedAtEnd();
    void manyLinesInOneFeed();
    void oversizedCallKeepsItsId();
    void scanCallPrefix_data();
    void scanCallPrefix();
};

void TestBridgeFrameReader::feeds_data()
{
    QTest::addColumn<int>("cap");
    QTest::addColumn<QStringList>("feeds");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<int>("pendingAfter");

    QTest::newRow("one line") << 8 << QStringList{QStringLiteral("abc\n")} << QStringList{QStringLiteral("L:abc")} << 0;
    QTest::newRow("split across feeds") << 8
                                        << QStringList{QStringLiteral("ab"), QStringLiteral("c"),
                                                       QStringLiteral("d\nef")}
                                        << QStringList{QStringLiteral("L:abcd")} << 2;
    QTest::newRow("exactly at cap") << 8 << QStringList{QStringLiteral("12345678\n")}
                                    << QStringList{QStringLiteral("L:12345678")} << 0;
    QTest::newRow("exactly at cap, split")
        << 8 << QStringList{QStringLiteral("1234"), QStringLiteral("5678"), QStringLiteral("\n")}
        << QStringList{QStringLiteral("L:12345678")} << 0;
    QTest::newRow("cap + 1") << 8 << QStringList{QStringLiteral("123456789\n")} << QStringList{QStringLiteral("O:9")}
                             << 0;
    QTest::newRow("cap + 1, split") << 8
                                    << QStringList{QStringLiteral("12345678"), QStringLiteral("9"),
                                                   QStringLiteral("\n")}
                                    << QStringList{QStringLiteral("O:9")} << 0;
    QTest::newRow("long line in pieces") << 4
                                         << QStringList{QStringLiteral("abc"), QStringLiteral("defgh"),
                                                        QStringLiteral("ij\nok\n")}
                                         << QStringList{QStringLiteral("O:10"), QStringLiteral("L:ok")} << 0;
    QTest::newRow("empty lines") << 8 << QStringList{QStringLiteral("\n\na\n\n")}
                                 << QStringList{QStringLiteral("L:"), QStringLiteral("L:"), QStringLiteral("L:a"),
                                                QStringLiteral("L:")}
                                 << 0;
    QTest::newRow("no newline yet") << 8 << QStringList{QStringLiteral("abc")} << QStringList{} << 3;
    QTest::newRow("cap 0") << 0 << QStringList{QStringLiteral("\nx\n")}
                           << QStringList{QStringLiteral("L:"), QStringLiteral("O:1")} << 0;
}

void TestBridgeFrameReader::feeds()
{
    QFETCH(int, cap);
    QFETCH(QStringList, feeds);
    QFETCH(QStringList, expected);
    QFETCH(int, pendingAfter);

    BridgeFrameReader reader{std::size_t(cap)};
    QStringList got;
    for (const QString &feed : feeds)
        got += describe(reader.feed(feed.toStdString()));
    QCOMPARE(got, expected);
    QCOMPARE(reader.pendingBytes(), std::size_t(pendingAfter));
    QVERIFY(!reader.skipping());
}

void TestBridgeFrameReader::neverBuffersBeyondCap()
{
    // A 1 MiB line fed byte by byte against a 1 KiB cap: the reader holds at most the
    // cap, then nothing while it skips, and reports the exact length at the '\n'.
    constexpr std::size_t cap = 1024;
    constexpr std::size_t length = 1024 * 1024;
    BridgeFrameReader reader(cap);
    std::size_t maxPending = 0;
    for (std::size_t i = 0; i < length; ++i) {
        const std::vector<Event> events = reader.feed("x");
        QVERIFY(events.empty());
        maxPending = std::max(maxPending, reader.pendingBytes());
        if (i == cap - 1)
            QCOMPARE(reader.pendingBytes(), cap);
        if (i == cap)
            QVERIFY(reader.skipping());
    }
    QCOMPARE(maxPending, cap);
    QCOMPARE(reader.pendingBytes(), std::size_t(0));
    QVERIFY(reader.skipping());
    const std::vector<Event> events = reader.feed("\n");
    QCOMPARE(describe(events), QStringList{QStringLiteral("O:1048576")});
    QVERIFY(!reader.skipping());
}

void TestBridgeFrameReader::oversizedThenNormalLineInOneFeed()
{
    BridgeFrameReader reader(16);
    const std::string big(100, 'a');
    QCOMPARE(describe(reader.feed(big + "\n{\"x\":1}\n" + big + "b\nlast")),
             (QStringList{QStringLiteral("O:100"), QStringLiteral("L:{\"x\":1}"), QStringLiteral("O:101")}));
    QCOMPARE(reader.pendingBytes(), std::size_t(4));
}

void TestBridgeFrameReader::oversizedCallKeepsItsId()
{
    // The id and tool come from the line's prefix, even when the cap is crossed in the
    // middle of a later feed; the rest of the line is never held.
    BridgeFrameReader reader(64);
    QVERIFY(reader.feed("{\"type\":\"call\",\"id\":\"c7\",\"tool\":\"echo\",\"args\":{\"text\":\"").empty());
    QVERIFY(reader.feed(std::string(100, 'x')).empty());
    QVERIFY(reader.skipping());
    QCOMPARE(reader.skippingId(), std::string("c7"));
    QCOMPARE(reader.pendingBytes(), std::size_t(0));
    const std::vector<Event> events = reader.feed(std::string(1000, 'y') + "\"}}\n{\"x\":1}\n");
    QCOMPARE(events.size(), std::size_t(2));
    QCOMPARE(events[0].kind, Event::Oversized);
    QCOMPARE(events[0].length, std::size_t(55 + 100 + 1000 + 3));
    QCOMPARE(events[0].id, std::string("c7"));
    QCOMPARE(events[0].tool, std::string("echo"));
    // The first bytes kept, for other framings (an MCP response's id): what came before
    // the cap was crossed and the start of the rest, at most PrefixBytes.
    QCOMPARE(events[0].head,
             std::string("{\"type\":\"call\",\"id\":\"c7\",\"tool\":\"echo\",\"args\":{\"text\":\"")
                 + std::string(100, 'x'));
    QCOMPARE(events[1].line, std::string("{\"x\":1}"));

    // Without an id in the prefix: an Oversized event with none.
    const std::vector<Event> bare = reader.feed(std::string(200, 'z') + "\n");
    QCOMPARE(bare.size(), std::size_t(1));
    QCOMPARE(bare[0].kind, Event::Oversized);
    QVERIFY(bare[0].id.empty());
    QVERIFY(bare[0].tool.empty());
    QCOMPARE(bare[0].head, std::string(200, 'z'));
    const std::vector<Event> long_ = reader.feed(std::string(10000, 'w') + "\n");
    QCOMPARE(long_[0].head.size(), BridgeFrameReader::PrefixBytes);
}

void TestBridgeFrameReader::scanCallPrefix_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("tool");
    QTest::newRow("shim order") << QByteArray("{\"type\":\"call\",\"id\":\"c1\",\"tool\":\"echo\",\"args\":{\"a\":\"")
                                << QStringLiteral("c1") << QStringLiteral("echo");
    QTest::newRow("spaces, no type") << QByteArray(" { \"id\" : \"s12.3\" , \"args\": [1") << QStringLiteral("s12.3")
                                     << QString();
    QTest::newRow("args before id") << QByteArray("{\"type\":\"call\",\"args\":{\"id\":\"c1\"") << QString()
                                    << QString();
    QTest::newRow("not a call") << QByteArray("{\"type\":\"result\",\"id\":\"c1\",\"value\":\"") << QString()
                                << QString();
    QTest::newRow("escaped id") << QByteArray("{\"id\":\"c\\u0031\",\"tool\":\"echo\"") << QString() << QString();
    QTest::newRow("empty id") << QByteArray("{\"id\":\"\",\"args\":1") << QString() << QString();
    QTest::newRow("id cut off") << QByteArray("{\"type\":\"call\",\"id\":\"c1") << QString() << QString();
    QTest::newRow("not JSON") << QByteArray("xxxxxxxx") << QString() << QString();
    QTest::newRow("bad UTF-8 id") << QByteArray("{\"id\":\"c\xff\",\"args\":1") << QString() << QString();
    QTest::newRow("id over 256 bytes") << (QByteArray("{\"id\":\"") + QByteArray(257, 'i') + "\",\"args\":1")
                                       << QString() << QString();
    QTest::newRow("model frame") << QByteArray("{\"type\":\"model\",\"id\":\"m3\",\"model\":\"local\",\"request\":{")
                                 << QStringLiteral("m3") << QStringLiteral("local");
    QTest::newRow("model frame, no model")
        << QByteArray("{\"type\":\"model\",\"id\":\"m4\",\"tool\":\"echo\",\"request\":{") << QStringLiteral("m4")
        << QString();
    QTest::newRow("non-string tool") << QByteArray("{\"id\":\"c2\",\"tool\":5,\"args\":1") << QStringLiteral("c2")
                                     << QString();
}

void TestBridgeFrameReader::scanCallPrefix()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, id);
    QFETCH(QString, tool);
    std::string foundTool;
    bool model = false;
    QCOMPARE(QString::fromStdString(BridgeFrameReader::scanCallPrefix(head.toStdString(), &foundTool, &model)), id);
    QCOMPARE(QString::fromStdString(foundTool), tool);
    QCOMPARE(model, head.contains("\"type\":\"model\""));
}

void TestBridgeFrameReader::flushOversizedAtEnd()
{
    BridgeFrameReader reader(4);
    QVERIFY(reader.feed("abcdefg").empty());
    QVERIFY(reader.skipping());
    const Event rest = reader.flushOversized();
    QCOMPARE(rest.kind, Event::Oversized);
    QCOMPARE(rest.length, std::size_t(7));
    QVERIFY(!reader.skipping());

    QVERIFY(reader.feed("ab").empty());
    const Event none = reader.flushOversized();
    QCOMPARE(none.kind, Event::Line);
    QCOMPARE(none.length, std::size_t(0));
    QCOMPARE(reader.pendingBytes(), std::size_t(2));
}

void TestBridgeFrameReader::manyLinesInOneFeed()
{
    BridgeFrameReader reader(32);
    std::string bytes;
    for (int i = 0; i < 10000; ++i)
        bytes += "line " + std::to_string(i) + "\n";
    const std::vector<Event> events = reader.feed(bytes);
    QCOMPARE(events.size(), std::size_t(10000));
    for (int i = 0; i < 10000; ++i) {
        QCOMPARE(events[std::size_t(i)].kind, Event::Line);
        QCOMPARE(events[std::size_t(i)].line, "line " + std::to_string(i));
    }
    QCOMPARE(reader.pendingBytes(), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestBridgeFrameReader)
#include "tst_bridgeframereader.moc"
