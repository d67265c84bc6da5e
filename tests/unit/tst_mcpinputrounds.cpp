// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// McpInputRequiredRounds against a channel of its own and a clock the test moves: the
// request's timeout bounds the server's time over all rounds together (docs/mcp.md
// "Protocol revisions"), and the time a question waits for a person does not count.
#include "mcp/mcpclientsession.h"
#include "mcp/mcpinputrequiredrounds.h"

#include <QTest>

#include <optional>
#include <set>

using nlohmann::json;

namespace {

/// A session stand-in: requests sent are kept with their timeouts, answered by the test.
struct FakeChannel
{
    struct Sent
    {
        qint64 id = 0;
        json params;
        int timeoutMs = 0;
        McpInputRequiredRounds::ReplyHandler done;
    };
    std::vector<Sent> sent;
    std::set<std::string> open;
    qint64 now = 1000;
    qint64 nextId = 1;

    McpInputRequiredRounds::Channel channel()
    {
        McpInputRequiredRounds::Channel c;
        c.request = [this](const QString &, json params, McpInputRequiredRounds::ReplyHandler done, int timeoutMs) {
            sent.push_back({nextId, std::move(params), timeoutMs, std::move(done)});
            return nextId++;
        };
        c.inFlight = [this](qint64 id) {
            for (const Sent &s : sent)
                if (s.id == id && s.done)
                    return true;
            return false;
        };
        c.cancel = [this](qint64 id, const QString &reason) { reply(id, McpReply{{}, {}, reason}); };
        c.openRequests = [this] { return open.size(); };
        c.open = [this](const json &id) { open.insert(id.dump()); };
        c.isOpen = [this](const json &id) { return open.count(id.dump()) > 0; };
        c.close = [this](const json &id) { return open.erase(id.dump()) > 0; };
        c.roots = [] { return json::array({{{"uri", "file:///project"}}}); };
        c.now = [this] { return now; };
        return c;
    }

    /// The server answers request `id` with `reply`.
    void reply(qint64 id, const McpReply &reply)
    {
        for (Sent &s : sent)
            if (s.id == id && s.done) {
                const auto done = std::exchange(s.done, {});
                done(reply);
                return;
            }
        QFAIL("no such request in flight");
    }
};

/// A round that asks for `method` once more.
McpReply inputRequired(const std::string &method)
{
    return McpReply{{{"resultType", "input_required"},
                     {"inputRequests", {{"q", {{"method", method}, {"params", json::object()}}}}}},
                    {},
                    {}};
}

McpInputRequiredRounds::Request readRequest(std::vector<json> *asked = nullptr)
{
    McpInputRequiredRounds::Request request;
    request.method = QStringLiteral("resources/read");
    request.params = {{"uri", "note://greeting"}};
    request.subject = QStringLiteral("resources/read of \"note://greeting\"");
    if (asked)
        request.asker.ask = [asked](const json &id, const QString &, const json &) { asked->push_back(id); };
    return request;
}

} // namespace

class TstMcpInputRounds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachRoundGetsWhatIsLeftOfTheTimeout()
    {
        FakeChannel fake;
        McpInputRequiredRounds rounds(fake.channel());
        std::optional<McpReply> result;
        rounds.start(
            7, readRequest(), [&](const McpReply &reply) { result = reply; }, 60000);
        QCOMPARE(fake.sent.size(), std::size_t(1));
        QCOMPARE(fake.sent[0].timeoutMs, 60000);

        fake.now += 25000; // the server answers after 25 s asking for the roots (answered at once)
        fake.reply(fake.sent[0].id, inputRequired("roots/list"));
        QCOMPARE(fake.sent.size(), std::size_t(2));
        QCOMPARE(fake.sent[1].timeoutMs, 35000);
        QCOMPARE(fake.sent[1].params["inputResponses"]["q"].dump(),
                 json({{"roots", json::array({{{"uri", "file:///project"}}})}}).dump());

        fake.now += 30000;
        fake.reply(fake.sent[1].id, inputRequired("roots/list"));
        QCOMPARE(fake.sent.size(), std::size_t(3));
        QCOMPARE(fake.sent[2].timeoutMs, 5000);

        fake.now += 4000; // answered in time: the result is the read's
        fake.reply(fake.sent[2].id, McpReply{{{"contents", json::array()}}, {}, {}});
        QVERIFY(result.has_value());
        QVERIFY2(result->ok(), qPrintable(result->errorText()));
    }

    void roundsTogetherPastTheTimeoutEndTheRequest()
    {
        // attack35 F5: a server answering each round just inside the timeout had kept a
        // read 16 rounds × 58 s; now the rounds together stop at the timeout.
        FakeChannel fake;
        McpInputRequiredRounds rounds(fake.channel());
        std::optional<McpReply> result;
        rounds.start(
            7, readRequest(), [&](const McpReply &reply) { result = reply; }, 60000);
        fake.now += 58000;
        fake.reply(fake.sent[0].id, inputRequired("roots/list"));
        QCOMPARE(fake.sent[1].timeoutMs, 2000);
        fake.now += 2000; // the session's timer for the round: its cancel is the reply
        fake.reply(fake.sent[1].id, McpReply{{}, {}, QStringLiteral("resources/read timed out after 2.0 s")});
        QVERIFY(result.has_value());
        QCOMPARE(result->failure,
                 QStringLiteral("resources/read of \"note://greeting\" timed out: the server took 60.0 s in all over 2 "
                                "rounds (the time a question waited for its answer not counted)"));
        QCOMPARE(fake.sent.size(), std::size_t(2));
    }

    void aRoundAnsweredAtTheTimeoutIsNotSentAgain()
    {
        FakeChannel fake;
        McpInputRequiredRounds rounds(fake.channel());
        std::optional<McpReply> result;
        rounds.start(
            7, readRequest(), [&](const McpReply &reply) { result = reply; }, 1000);
        fake.now += 1000;
        fake.reply(fake.sent[0].id, inputRequired("roots/list"));
        QCOMPARE(fake.sent.size(), std::size_t(1));
        QVERIFY(result.has_value());
        QCOMPARE(result->failure,
                 QStringLiteral("resources/read of \"note://greeting\" timed out: the server took 1.0 s in all over 1 "
                                "rounds (the time a question waited for its answer not counted)"));
    }

    void aPersonsTimeDoesNotCount()
    {
        FakeChannel fake;
        McpInputRequiredRounds rounds(fake.channel());
        std::vector<json> asked;
        std::optional<McpReply> result;
        rounds.start(
            7, readRequest(&asked), [&](const McpReply &reply) { result = reply; }, 60000);
        fake.now += 10000;
        fake.reply(fake.sent[0].id, inputRequired("elicitation/create"));
        QCOMPARE(asked.size(), std::size_t(1));
        QCOMPARE(asked[0].dump(), json("mrtr:7:q").dump());
        fake.now += 600000; // ten minutes before the person answers
        QVERIFY(rounds.answer(asked[0], McpReply{{{"action", "accept"}, {"content", {{"name", "Ada"}}}}, {}, {}}));
        QCOMPARE(fake.sent.size(), std::size_t(2));
        QCOMPARE(fake.sent[1].timeoutMs, 50000);
        QCOMPARE(fake.sent[1].params["inputResponses"]["q"]["content"]["name"].dump(), json("Ada").dump());
        QVERIFY(!result.has_value());
    }

    void anotherFailureOfALaterRoundIsTheServers()
    {
        FakeChannel fake;
        McpInputRequiredRounds rounds(fake.channel());
        std::optional<McpReply> result;
        rounds.start(
            7, readRequest(), [&](const McpReply &reply) { result = reply; }, 60000);
        fake.now += 1000;
        fake.reply(fake.sent[0].id, inputRequired("roots/list"));
        fake.now += 1000;
        fake.reply(fake.sent[1].id, McpReply{{}, JsonRpcError{-32002, "Resource not found", nullptr}, {}});
        QVERIFY(result.has_value());
        QCOMPARE(result->error.code, -32002);
        QCOMPARE(result->errorText(), QStringLiteral("-32002: Resource not found"));
    }
};

QTEST_GUILESS_MAIN(TstMcpInputRounds)
#include "tst_mcpinputrounds.moc"
