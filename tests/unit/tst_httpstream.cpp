// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// HttpStream, the open reply of `GET /mcp` (docs/server.md "The GET /mcp stream"), without
// a socket: what the HTTP thread is given to write, the bound on what waits unwritten,
// the end, and HttpStreams' cap (tests/system/tst_mcpserverlistchanges.cpp drives it over HTTP).

#include "httpstream.h"

#include <QCoreApplication>
#include <QTest>

#include <chrono>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

class TestHttpStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eventsAreWrittenInOrder();
    void closeEndsAfterWhatIsQueued();
    void aClientThatDoesNotReadIsDropped();
    void endedRunsOnceOnTheServersThread();
    void theCapCountsStreamsNotFinished();
    void sendersOnOtherThreads();
};

void TestHttpStream::eventsAreWrittenInOrder()
{
    HttpStream stream(this);
    std::string bytes;
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::Idle);
    QVERIFY(stream.sendEvent("message", R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"));
    QVERIFY(stream.sendEvent("note", "two\nlines"));
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::Write);
    QCOMPARE(
        QByteArray::fromStdString(bytes),
        QByteArray("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n"
                   "event: note\ndata: two\ndata: lines\n\n"));
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::Idle);
}

void TestHttpStream::closeEndsAfterWhatIsQueued()
{
    HttpStream stream(this);
    QVERIFY(stream.send("a"));
    stream.close();
    QVERIFY(!stream.isOpen());
    QVERIFY(!stream.send("b")); // nothing is queued after close()
    std::string bytes;
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::Write);
    QCOMPARE(QByteArray::fromStdString(bytes), QByteArray("a"));
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::End);
}

void TestHttpStream::aClientThatDoesNotReadIsDropped()
{
    HttpStream stream(this);
    QVERIFY(stream.send(std::string(HttpStream::MaxQueuedBytes - 1, 'x')));
    QVERIFY(stream.send("y")); // exactly the bound
    QVERIFY(!stream.send("z"));
    QVERIFY(!stream.isOpen());
    std::string bytes;
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::Abort);
    QCOMPARE(bytes.size(), std::size_t(0));
}

void TestHttpStream::endedRunsOnceOnTheServersThread()
{
    HttpStream stream(this);
    int ended = 0;
    stream.onEnded([&ended] { ++ended; });
    stream.finish();
    stream.finish();
    QCOMPARE(ended, 0); // queued, not run within finish()
    QCoreApplication::sendPostedEvents();
    QCOMPARE(ended, 1);
    // Set after the end: queued at once.
    stream.onEnded([&ended] { ended += 10; });
    QCoreApplication::sendPostedEvents();
    QCOMPARE(ended, 11);
    std::string bytes;
    QCOMPARE(stream.next(&bytes, 0ms), HttpStream::Next::Abort);
}

void TestHttpStream::theCapCountsStreamsNotFinished()
{
    HttpStreams streams(this, 2);
    const auto first = streams.open();
    const auto second = streams.open();
    QVERIFY(first && second);
    QVERIFY(!streams.open());
    first->close(); // closing, its thread still writing: it counts
    QVERIFY(!streams.open());
    first->finish();
    const auto third = streams.open();
    QVERIFY(third);
    streams.closeAll();
    QVERIFY(!second->isOpen());
    QVERIFY(!third->isOpen());
    std::string bytes;
    QCOMPARE(second->next(&bytes, 0ms), HttpStream::Next::End);
    second->finish();
    QVERIFY(!streams.open()); // the server stops: no new stream
}

void TestHttpStream::sendersOnOtherThreads()
{
    // Four threads send while the "HTTP thread" writes: every event arrives once, each
    // thread's in its order, and close() ends the stream after the last.
    HttpStream stream(this);
    constexpr int Threads = 4;
    constexpr int Events = 2000;
    std::string written;
    std::thread writer([&stream, &written] {
        std::string bytes;
        for (;;) {
            const HttpStream::Next next = stream.next(&bytes, 50ms);
            if (next == HttpStream::Next::Write)
                written += bytes;
            if (next == HttpStream::Next::End || next == HttpStream::Next::Abort)
                break;
        }
        stream.finish();
    });
    std::vector<std::thread> senders;
    for (int t = 0; t < Threads; ++t)
        senders.emplace_back([&stream, t] {
            for (int i = 0; i < Events; ++i)
                stream.send(std::to_string(t) + ":" + std::to_string(i) + "\n");
        });
    for (std::thread &sender : senders)
        sender.join();
    stream.close();
    writer.join();
    QVERIFY(stream.isFinished());
    std::vector<int> next(Threads, 0);
    int lines = 0;
    for (const QByteArray &line : QByteArray::fromStdString(written).split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> parts = line.split(':');
        const int t = parts.value(0).toInt();
        QCOMPARE(parts.value(1).toInt(), next[std::size_t(t)]++);
        ++lines;
    }
    QCOMPARE(lines, Threads * Events);
}

QTEST_GUILESS_MAIN(TestHttpStream)
#include "tst_httpstream.moc"
