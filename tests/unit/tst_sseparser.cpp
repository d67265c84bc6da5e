// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// SseParser (app/core/llm/sseparser.*): the event-stream format of the HTML Living
// Standard, fed at every possible chunk boundary.
#include "llm/sseparser.h"

#include <QTest>

namespace {

/// "type=data" per event, joined by " | ", data's newlines as "\n".
QString describe(const std::vector<SseEvent> &events)
{
    QStringList parts;
    for (const SseEvent &event : events)
        parts << QString::fromStdString(event.type) + QLatin1Char('=')
                + QString::fromStdString(event.data).replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return parts.join(QLatin1String(" | "));
}

std::vector<SseEvent> parse(const QByteArray &stream, const QList<int> &cuts, bool *pending = nullptr)
{
    SseParser parser;
    std::vector<SseEvent> events;
    int from = 0;
    for (int cut : cuts) {
        parser.feed(std::string_view(stream.constData() + from, std::size_t(cut - from)), &events);
        from = cut;
    }
    parser.feed(std::string_view(stream.constData() + from, std::size_t(stream.size() - from)), &events);
    if (pending)
        *pending = parser.inEvent();
    return events;
}

} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void events_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("pending");
        QTest::newRow("openai") << QByteArray("data: {\"a\":1}\n\ndata: [DONE]\n\n")
                                << QStringLiteral("message={\"a\":1} | message=[DONE]") << false;
        QTest::newRow("anthropic named events")
            << QByteArray("event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: ping\ndata: {}\n\n")
            << QStringLiteral("message_start={\"type\":\"message_start\"} | ping={}") << false;
        QTest::newRow("crlf") << QByteArray("event: e\r\ndata: x\r\n\r\ndata: y\r\n\r\n")
                              << QStringLiteral("e=x | message=y") << false;
        QTest::newRow("cr only") << QByteArray("data: x\r\rdata: y\r\r") << QStringLiteral("message=x | message=y")
                                 << false;
        QTest::newRow("comments and keep-alives")
            << QByteArray(": keep-alive\n\n:\ndata: x\n: between\n\n") << QStringLiteral("message=x") << false;
        QTest::newRow("multi-line data") << QByteArray("data: one\ndata:two\ndata\ndata:  three\n\n")
                                         << QStringLiteral("message=one\\ntwo\\n\\n three") << false;
        QTest::newRow("no data, no event") << QByteArray("event: lonely\n\nid: 7\nretry: 10\n\n") << QString() << false;
        QTest::newRow("type resets per event")
            << QByteArray("event: a\ndata: 1\n\ndata: 2\n\n") << QStringLiteral("a=1 | message=2") << false;
        QTest::newRow("unknown fields ignored")
            << QByteArray("foo: bar\ndata: x\nbaz\n\n") << QStringLiteral("message=x") << false;
        QTest::newRow("byte order mark") << QByteArray("\xEF\xBB\xBF"
                                                       "data: x\n\n")
                                         << QStringLiteral("message=x") << false;
        QTest::newRow("unfinished event") << QByteArray("data: x\n\ndata: cut") << QStringLiteral("message=x") << true;
        QTest::newRow("unfinished line") << QByteArray("data: x\n") << QString() << true;
        QTest::newRow("utf-8") << QByteArray("data: \xE2\x82\xAC 1 \xF0\x9F\x98\x80\n\n")
                               << QStringLiteral("message=€ 1 😀") << false;
    }

    /// Every event comes out the same whatever the chunks: one, each split point, bytes one by one.
    void events()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QString, expected);
        QFETCH(bool, pending);
        bool held = false;
        QCOMPARE(describe(parse(stream, {}, &held)), expected);
        QCOMPARE(held, pending);
        for (int cut = 1; cut < stream.size(); ++cut) {
            QCOMPARE(describe(parse(stream, {cut}, &held)), expected);
            QCOMPARE(held, pending);
        }
        QList<int> everyByte;
        for (int cut = 1; cut < stream.size(); ++cut)
            everyByte << cut;
        QCOMPARE(describe(parse(stream, everyByte)), expected);
    }

    /// A CR ending one chunk and an LF starting the next are one line end, not two (an
    /// empty line there would dispatch the event early).
    void crlfSplitAcrossChunks()
    {
        SseParser parser;
        std::vector<SseEvent> events;
        parser.feed("data: a\r", &events);
        parser.feed("\ndata: b\r", &events);
        QCOMPARE(events.size(), std::size_t(0));
        parser.feed("\n\r", &events); // the CR alone is the empty line
        QCOMPARE(describe(events), QStringLiteral("message=a\\nb"));
        parser.feed("\n", &events); // the LF of that CRLF: no second empty line
        parser.feed("data: c\n\n", &events);
        QCOMPARE(describe(events), QStringLiteral("message=a\\nb | message=c"));
    }

    /// Bytes pass as they are: invalid UTF-8 is the JSON reader's to refuse.
    void bytesPassUnchanged()
    {
        const QByteArray stream("data: \xC3\n\ndata: \x80\xFF\n\n");
        const auto events = parse(stream, {7});
        QCOMPARE(events.size(), std::size_t(2));
        QCOMPARE(QByteArray::fromStdString(events[0].data), QByteArray("\xC3"));
        QCOMPARE(QByteArray::fromStdString(events[1].data), QByteArray("\x80\xFF"));
    }

    void countsBytes()
    {
        SseParser parser;
        std::vector<SseEvent> events;
        parser.feed("data: x", &events);
        parser.feed("\n\n", &events);
        QCOMPARE(parser.bytesFed(), std::size_t(9));
        QVERIFY(!parser.inEvent());
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
