// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgechannel.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

constexpr std::size_t RequestCap = 256 * 1024;

std::string callLine(const std::string &id, const std::string &tool = "add", const std::string &args = R"({"a":1})")
{
    return R"({"type":"call","id":")" + id + R"(","tool":")" + tool + R"(","args":)" + args + "}\n";
}

bool writeAll(int fd, const std::string &bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n == -1 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += std::size_t(n);
    }
    return true;
}

/// A connected socketpair: `studio` goes to the channel, the test plays the child on
/// `child`.
struct Pair
{
    int studio = -1;
    int child = -1;
    Pair()
    {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0) {
            studio = fds[0];
            child = fds[1];
        }
    }
    ~Pair()
    {
        if (child >= 0)
            ::close(child);
    }
    void closeChild()
    {
        ::close(child);
        child = -1;
    }
};

/// Collects callReceived without needing BridgeCall as a QMetaType.
struct Calls
{
    std::vector<BridgeCall> received;
    explicit Calls(BridgeChannel *channel)
    {
        QObject::connect(channel, &BridgeChannel::callReceived, channel,
                         [this](const BridgeCall &call) { received.push_back(call); });
    }
};

} // namespace

class TestBridgeChannel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void receivesCallsSplitAcrossWrites();
    void sendsReplies();
    void queuesWhileThePeerIsSlow();
    void refusesAndClosesPassedFds();
    void endOfStreamEmitsClosed();
    void endOfStreamInTheMiddleOfALine();
    void protocolErrors_data();
    void protocolErrors();
    void tenMiBLineIsOneProtocolError();
    void oversizedCallIsAnsweredById();
    void floodDoesNotStarveTheEventLoop();
    void closeFromASlotStopsDelivery();
    void sendToAClosedPeerDoesNotRaiseSigpipe();
    void deleteFromASlot();
};

void TestBridgeChannel::initTestCase()
{
    // The channel must never raise SIGPIPE: with the default disposition (it may be
    // inherited as ignored), a SIGPIPE from the channel would kill this test.
    QVERIFY(std::signal(SIGPIPE, SIG_DFL) != SIG_ERR);
}

void TestBridgeChannel::receivesCallsSplitAcrossWrites()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    Calls calls(&channel);
    QSignalSpy errors(&channel, &BridgeChannel::protocolError);

    const std::string third = callLine("c3", "echo", R"(["x", 2])");
    QVERIFY(writeAll(pair.child, callLine("c1") + "\n" + callLine("c2", "now", "{}") + third.substr(0, 10)));
    QTRY_COMPARE(calls.received.size(), std::size_t(2));
    QVERIFY(writeAll(pair.child, third.substr(10)));
    QTRY_COMPARE(calls.received.size(), std::size_t(3));

    QCOMPARE(calls.received[0].id, std::string("c1"));
    QCOMPARE(calls.received[0].tool, std::string("add"));
    QCOMPARE(calls.received[0].args.dump(), std::string(R"({"a":1})"));
    QCOMPARE(calls.received[1].id, std::string("c2"));
    QCOMPARE(calls.received[1].tool, std::string("now"));
    QCOMPARE(calls.received[2].args.dump(), std::string(R"(["x",2])"));
    QCOMPARE(calls.received[2].argsBytes, std::size_t(7));
    QCOMPARE(errors.count(), 0); // the empty line is ignored
}

void TestBridgeChannel::sendsReplies()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    const std::string reply = BridgeProtocol::encodeResult("c1", nlohmann::json{{"sum", 3}});
    channel.send(reply);
    QCOMPARE(channel.queuedBytes(), std::size_t(0));
    std::string got(reply.size(), '\0');
    QCOMPARE(::read(pair.child, got.data(), got.size()), ssize_t(reply.size()));
    QCOMPARE(got, std::string("{\"type\":\"result\",\"id\":\"c1\",\"value\":{\"sum\":3}}\n"));
}

void TestBridgeChannel::queuesWhileThePeerIsSlow()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    // 8 MiB is far more than a socket buffer holds: the rest must wait in the queue
    // and go out as the child reads, without blocking the studio.
    std::string expected;
    for (int i = 0; i < 8; ++i) {
        const std::string line
            = BridgeProtocol::encodeResult("c" + std::to_string(i), std::string(1024 * 1024, 'a' + char(i)));
        expected += line;
        channel.send(line);
    }
    QVERIFY(channel.queuedBytes() > 0);
    QVERIFY(channel.queuedBytes() < expected.size());

    std::string received;
    std::thread reader([&] {
        char buffer[65536];
        while (received.size() < expected.size()) {
            const ssize_t n = ::read(pair.child, buffer, sizeof buffer);
            if (n <= 0)
                break;
            received.append(buffer, std::size_t(n));
        }
    });
    QTRY_COMPARE_WITH_TIMEOUT(channel.queuedBytes(), std::size_t(0), 10000);
    reader.join();
    QCOMPARE(received.size(), expected.size());
    QVERIFY(received == expected);
}

void TestBridgeChannel::refusesAndClosesPassedFds()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    Calls calls(&channel);
    QSignalSpy errors(&channel, &BridgeChannel::protocolError);

    int pipeFds[2];
    QCOMPARE(::pipe2(pipeFds, O_CLOEXEC), 0);
    const std::string line = callLine("c1");
    iovec data = {const_cast<char *>(line.data()), line.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr message = {};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &pipeFds[0], sizeof(int));
    QCOMPARE(::sendmsg(pair.child, &message, 0), ssize_t(line.size()));
    ::close(pipeFds[0]); // now the only read end is the one the channel received

    QTRY_COMPARE(errors.count(), 1);
    QCOMPARE(errors.at(0).at(0).toString(), QStringLiteral("file descriptors passed over the bridge are refused"));
    QTRY_COMPARE(calls.received.size(), std::size_t(1)); // the bytes themselves are read normally

    // The received copy was closed: no reader is left, so a write fails with EPIPE.
    const auto previous = std::signal(SIGPIPE, SIG_IGN);
    errno = 0;
    QCOMPARE(::write(pipeFds[1], "x", 1), ssize_t(-1));
    QCOMPARE(errno, EPIPE);
    std::signal(SIGPIPE, previous);
    ::close(pipeFds[1]);
}

void TestBridgeChannel::endOfStreamEmitsClosed()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    Calls calls(&channel);
    QSignalSpy closed(&channel, &BridgeChannel::closed);
    QSignalSpy errors(&channel, &BridgeChannel::protocolError);
    QVERIFY(writeAll(pair.child, callLine("last")));
    pair.closeChild();
    QVERIFY(closed.wait(5000));
    QCOMPARE(closed.count(), 1);
    QCOMPARE(calls.received.size(), std::size_t(1)); // delivered before the end
    QCOMPARE(errors.count(), 0);
    QVERIFY(!channel.isOpen());
}

void TestBridgeChannel::endOfStreamInTheMiddleOfALine()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    QStringList order;
    connect(&channel, &BridgeChannel::protocolError, this, [&](const QString &reason) { order << reason; });
    connect(&channel, &BridgeChannel::closed, this, [&] { order << QStringLiteral("closed"); });
    QVERIFY(writeAll(pair.child, R"({"type":"ca)"));
    pair.closeChild();
    QTRY_COMPARE(order.size(), 2);
    QCOMPARE(order,
             (QStringList{QStringLiteral("the bridge closed in the middle of a line (11 bytes without '\\n')"),
                          QStringLiteral("closed")}));
}

void TestBridgeChannel::protocolErrors_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("reason");
    QTest::newRow("bad JSON") << QByteArray("{nope}\n") << QStringLiteral("invalid JSON at byte offset 2: ");
    QTest::newRow("bad UTF-8") << QByteArray("{\"type\":\"call\",\"id\":\"\xc3\x28\"}\n")
                               << QStringLiteral("invalid UTF-8 at byte offset 21");
    QTest::newRow("unknown type")
        << QByteArray("{\"type\":\"hello\"}\n")
        << QStringLiteral(
               "unknown bridge message type \"hello\" (a script sends only \"call\", \"model\" and \"wait\")");
    QTest::newRow("100000 deep") << QByteArray(100000, '[') + "\n"
                                 << QStringLiteral("JSON nested deeper than 128 levels at byte offset 128");
}

void TestBridgeChannel::protocolErrors()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, reason);
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    QSignalSpy errors(&channel, &BridgeChannel::protocolError);
    QVERIFY(writeAll(pair.child, bytes.toStdString()));
    QVERIFY(errors.wait(5000));
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.at(0).at(0).toString().startsWith(reason), qPrintable(errors.at(0).at(0).toString()));
    QVERIFY(channel.isOpen()); // closing is the owner's decision
}

void TestBridgeChannel::tenMiBLineIsOneProtocolError()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    Calls calls(&channel);
    QSignalSpy errors(&channel, &BridgeChannel::protocolError);

    std::thread writer([&] { writeAll(pair.child, std::string(10 * 1024 * 1024, 'x') + "\n" + callLine("after")); });
    QTRY_COMPARE_WITH_TIMEOUT(calls.received.size(), std::size_t(1), 20000);
    writer.join();
    QCOMPARE(errors.count(), 1);
    // Reported as soon as the line outgrew the cap (once), not when its '\n' arrived.
    QVERIFY2(
        errors.at(0).at(0).toString().startsWith(QStringLiteral("a bridge line exceeds the limit of 262144 bytes (")),
        qPrintable(errors.at(0).at(0).toString()));
    QCOMPARE(calls.received[0].id, std::string("after")); // framing recovered after the skip
}

void TestBridgeChannel::oversizedCallIsAnsweredById()
{
    // A 10 MiB call that names its id first (as the shims write it): no protocol error,
    // the call arrives marked oversized (args not read) at its '\n', framing goes on.
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    Calls calls(&channel);
    QSignalSpy errors(&channel, &BridgeChannel::protocolError);

    const std::string big = callLine("c9", "echo", "{\"text\":\"" + std::string(10 * 1024 * 1024, 'x') + "\"}");
    std::thread writer([&] { writeAll(pair.child, big + callLine("after")); });
    QTRY_COMPARE_WITH_TIMEOUT(calls.received.size(), std::size_t(2), 20000);
    writer.join();
    QCOMPARE(errors.count(), 0);
    QCOMPARE(calls.received[0].id, std::string("c9"));
    QCOMPARE(calls.received[0].tool, std::string("echo"));
    QCOMPARE(calls.received[0].oversizedLineBytes, big.size() - 1);
    QCOMPARE(calls.received[0].args.dump(), std::string("{}"));
    QCOMPARE(calls.received[1].id, std::string("after"));
    QCOMPARE(calls.received[1].oversizedLineBytes, std::size_t(0));
}

void TestBridgeChannel::floodDoesNotStarveTheEventLoop()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    Calls calls(&channel);
    constexpr std::size_t total = 100000;

    std::string burst;
    for (std::size_t i = 0; i < total; ++i)
        burst += callLine(std::to_string(i));
    std::thread writer([&] { writeAll(pair.child, burst); });

    // A zero-interval timer stands for the rest of the studio (UI, other runs): it
    // must keep getting turns while the calls are handled.
    int ticks = 0;
    QTimer other;
    other.setInterval(0);
    connect(&other, &QTimer::timeout, this, [&] { ++ticks; });
    other.start();
    QTRY_COMPARE_WITH_TIMEOUT(calls.received.size(), total, 60000);
    other.stop();
    writer.join();

    for (std::size_t i = 0; i < total; ++i)
        QCOMPARE(calls.received[i].id, std::to_string(i));
    // At most 256 lines per turn: 100 000 calls take at least 390 turns.
    QVERIFY2(ticks >= 390, qPrintable(QString::number(ticks)));
}

void TestBridgeChannel::closeFromASlotStopsDelivery()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    int received = 0;
    connect(&channel, &BridgeChannel::callReceived, this, [&] {
        ++received;
        channel.close();
    });
    QSignalSpy closed(&channel, &BridgeChannel::closed);
    QVERIFY(writeAll(pair.child, callLine("1") + callLine("2") + callLine("3")));
    QTRY_COMPARE(received, 1);
    QTest::qWait(50);
    QCOMPARE(received, 1);
    QCOMPARE(closed.count(), 0); // close() by the owner does not emit closed()
    QVERIFY(!channel.isOpen());
}

void TestBridgeChannel::sendToAClosedPeerDoesNotRaiseSigpipe()
{
    Pair pair;
    BridgeChannel channel(pair.studio, RequestCap);
    QSignalSpy closed(&channel, &BridgeChannel::closed);
    pair.closeChild();
    channel.send(BridgeProtocol::encodeResult("c1", 1)); // EPIPE, not SIGPIPE
    channel.send(BridgeProtocol::encodeResult("c2", 2));
    QCOMPARE(channel.queuedBytes(), std::size_t(0));
    QVERIFY(closed.wait(5000));
}

void TestBridgeChannel::deleteFromASlot()
{
    // An owner may tear everything down in its protocolError slot (ending the run);
    // the channel must not touch itself afterwards, though more lines are queued.
    Pair pair;
    auto *channel = new BridgeChannel(pair.studio, RequestCap);
    QPointer<BridgeChannel> guard(channel);
    int errors = 0;
    connect(channel, &BridgeChannel::protocolError, this, [&] {
        ++errors;
        delete channel;
    });
    QVERIFY(writeAll(pair.child, "bad\nbad\n" + callLine("1")));
    QTRY_VERIFY(guard.isNull());
    QTest::qWait(50);
    QCOMPARE(errors, 1);
}

QTEST_GUILESS_MAIN(TestBridgeChannel)
#include "tst_bridgechannel.moc"
