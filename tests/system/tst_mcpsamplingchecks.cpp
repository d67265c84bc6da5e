// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A server's requests are checked off the GUI thread (docs/mcp.md "Tools in sampling"):
// tests/data/mcp/fakeserver.py in its `asks-1125` mode sends, through its `costly` tool,
// sampling requests of the most the check takes (8 tools of 1024 objects each, refused
// once all are compiled, or taken). The event loop keeps serving a timer while they are
// checked, each is answered as before and in order, and one cancelled while it is checked
// (by its server, or by the call ending) is never asked.
#include "askedcall.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcphandler.h"
#include "mcp/mcpquestioncheck.h"
#include "mcp/mcpserverpool.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QTimer>

using nlohmann::json;

namespace {

/// The error each costly request is refused with: its eighth tool is named as its first.
json refusal(const std::string &id)
{
    return json{{"error", {{"code", -32602}, {"message", "tools[7]: the name \"t0\" is given to two tools"}}},
                {"id", id}};
}

/// A timer of the GUI thread firing every 10 ms: how often it fired, and the longest
/// time the thread kept it waiting.
class Heartbeat
{
public:
    Heartbeat()
    {
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            ++ticks;
            longestMs = std::max(longestMs, m_since.restart());
        });
        m_since.start();
        m_timer.start();
    }
    /// Counts the longest wait from now on.
    void restart()
    {
        longestMs = 0;
        m_since.restart();
    }
    /// The longest wait so far, the one going on now included.
    qint64 longestSoFar() const { return std::max(longestMs, m_since.elapsed()); }
    int ticks = 0;
    qint64 longestMs = 0;

private:
    QTimer m_timer;
    QElapsedTimer m_since;
};

} // namespace

class TestMcpSamplingChecks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void costlyRequestsLeaveTheEventLoopFree();
    void aFloodOfCostlyRequestsIsCheckedInTurn();
    void aRequestCancelledWhileCheckedIsNeverAsked();
    void aCallEndedWhileCheckedAsksNothing();
    void requestsCancelledWhileCheckedCountAsWithdrawn();

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
};

void TestMcpSamplingChecks::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "Sampling checks", "retry": {"max_attempts": 1, "attempt_timeout_seconds": 120},
  "mcp_servers": {"new": {"command": "python3", "args": ["srv/fakeserver.py", "asks-1125"]}}})"));
    ProjectError error;
    m_project = loadTrusted(m_dir.path(), &error);
    QVERIFY2(m_project, qPrintable(error.toString()));
    const QStringList problems = McpProjectTools::connectAndAdd(*m_project);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

// A request a person is asked, then 15 costly ones waiting behind it. Once the person
// answered, the 15 are checked one after the other and refused: the GUI thread's timer
// fires between the first refusal and the last (before, all 15 were checked in one turn
// of the event loop: 4.9 to 5.2 s of a Debug build with no timer served; now the timer
// waits at most ~30 ms).
void TestMcpSamplingChecks::costlyRequestsLeaveTheEventLoopFree()
{
    AskedCall call(*m_project, QStringLiteral("new__costly"), {{"lead", true}, {"count", 15}});
    QVERIFY(call.waitForQuestion(1));
    QCOMPARE(call.questions[0]["request_id"].dump(), std::string(R"("c-0")"));
    McpClientSession *session = McpServerPool::forProject(m_project->dir)->readySession(QStringLiteral("new"));
    QVERIFY(session);
    // All came before the person answers: they wait behind the question.
    QVERIFY(QTest::qWaitFor([session] { return session->openServerRequests() == 16; }, 60000));
    Heartbeat heartbeat;
    std::vector<int> ticksAtRefusal; // the timer's ticks when each refusal was sent
    qint64 longestMs = 0;            // the timer's longest wait up to the last refusal
    connect(session, &McpClientSession::messageExchanged, this, [&](bool sent, const JsonRpcMessage &message) {
        if (sent && message.kind == JsonRpcMessage::Kind::Error) {
            ticksAtRefusal.push_back(heartbeat.ticks);
            longestMs = heartbeat.longestSoFar();
        }
    });
    QVERIFY(call.answer({{"text", "hi"}}));
    const json got = call.resultJson(120000);
    session->disconnect(this);
    QVERIFY2(got.is_array() && got.size() == 16, got.dump().substr(0, 2000).c_str());
    QCOMPARE(got[0]["id"].dump(), std::string(R"("c-0")"));
    QCOMPARE(got[0]["result"]["content"].dump(), std::string(R"({"text":"hi","type":"text"})"));
    for (int n = 1; n <= 15; ++n)
        QCOMPARE(got[n].dump(), refusal("c-" + std::to_string(n)).dump());
    QCOMPARE(ticksAtRefusal.size(), std::size_t(15));
    qInfo("GUI thread while they were checked: longest wait of a 10 ms timer %lld ms; %d ticks between the first "
          "refusal and the last",
          longestMs, ticksAtRefusal.back() - ticksAtRefusal.front());
    QVERIFY2(ticksAtRefusal.back() > ticksAtRefusal.front(), "no timer was served while the requests were checked");
    // Generous: the GUI thread only reads the requests and hands them on (2 cores shared).
#if defined(__SANITIZE_ADDRESS__)
    QVERIFY2(longestMs < 5000, qPrintable(QString::number(longestMs)));
#else
    QVERIFY2(longestMs < 1500, qPrintable(QString::number(longestMs)));
#endif
}

// 64 costly requests in one write (a server's most open requests): each is refused, in
// the order they came, those past the 16 that wait for the check as too many; the GUI
// thread's timer fires while they are checked. Before, each was checked as it was read,
// all 64: the timer waited up to 0.62 s at a time (Debug). Now up to ~0.3 s: what is left
// is reading each request of 160 KB (decoding, recording), not checking it.
void TestMcpSamplingChecks::aFloodOfCostlyRequestsIsCheckedInTurn()
{
    const std::string tooMany = "16 requests of this call already wait for a person; Tool Studio refuses more";
    Heartbeat heartbeat;
    std::vector<int> ticksAtRefusal; // the timer's ticks when each check's refusal was sent
    qint64 longestMs = 0;            // the timer's longest wait up to the last refusal
    McpServerPool *pool = McpServerPool::forProject(m_project->dir);
    AskedCall call(*m_project, QStringLiteral("new__costly"), {{"count", 64}});
    QVERIFY(QTest::qWaitFor([pool] { return pool->readySession(QStringLiteral("new")); }, 20000));
    connect(pool->readySession(QStringLiteral("new")), &McpClientSession::messageExchanged, this,
            [&](bool sent, const JsonRpcMessage &message) {
                if (!sent && message.id == "c-1")
                    heartbeat.restart(); // measured from the first request on, not the call's start
                if (sent && message.kind == JsonRpcMessage::Kind::Error && message.error.message != tooMany) {
                    ticksAtRefusal.push_back(heartbeat.ticks);
                    longestMs = heartbeat.longestSoFar();
                }
            });
    const json got = call.resultJson(240000);
    pool->readySession(QStringLiteral("new"))->disconnect(this);
    QVERIFY2(got.is_array() && got.size() == 64, got.dump().substr(0, 2000).c_str());
    int checked = 0;
    int last = 0; // the number of the last request refused by its check
    for (const json &response : got) {
        const int n = std::stoi(response["id"].get<std::string>().substr(2));
        if (response["error"]["message"] == tooMany)
            continue;
        QCOMPARE(response.dump(), refusal("c-" + std::to_string(n)).dump());
        QVERIFY2(n > last, response.dump().c_str());
        last = n;
        ++checked;
    }
    QVERIFY2(checked >= 16, qPrintable(QString::number(checked)));
    QCOMPARE(ticksAtRefusal.size(), std::size_t(checked));
    qInfo("64 requests, %d checked: longest wait of a 10 ms timer up to the last refusal %lld ms; %d ticks between "
          "the first refusal and the last",
          checked, longestMs, ticksAtRefusal.back() - ticksAtRefusal.front());
    QVERIFY2(ticksAtRefusal.back() > ticksAtRefusal.front(), "no timer was served while the requests were checked");
    // Generous: reading one request of 160 KB took up to 0.65 s of a Debug build on a
    // loaded machine (2 cores shared).
#if defined(__SANITIZE_ADDRESS__)
    QVERIFY2(longestMs < 10000, qPrintable(QString::number(longestMs)));
#else
    QVERIFY2(longestMs < 3000, qPrintable(QString::number(longestMs)));
#endif
}

// A costly request the server cancels right after it, while it is checked: it is never
// asked (no question shown and taken back, nothing journaled) nor answered, and the
// request after it is asked.
void TestMcpSamplingChecks::aRequestCancelledWhileCheckedIsNeverAsked()
{
    AskedCall call(*m_project, QStringLiteral("new__costly"),
                   {{"count", 1}, {"valid", true}, {"cancel", {"c-1"}}, {"tail", true}});
    QVERIFY(call.waitForQuestion(1));
    QCOMPARE(call.questions[0]["request_id"].dump(), std::string(R"("c-end")"));
    QVERIFY(call.answer({{"text", "hi"}}));
    const json got = call.resultJson(120000);
    QVERIFY2(got.is_array() && got.size() == 1, got.dump().substr(0, 2000).c_str());
    QCOMPARE(got[0]["id"].dump(), std::string(R"("c-end")"));
    QCOMPARE(call.questions.size(), std::size_t(1));
    QCOMPARE(call.closed, 1);
    QCOMPARE(call.events.size(), std::size_t(2)); // person_asked, person_answered: c-end only
    QCOMPARE(call.events[0]["kind"].dump(), std::string(R"("person_asked")"));
    QCOMPARE(call.events[1]["detail"]["answer"].dump(), std::string(R"({"text":"hi"})"));
}

// The call ends while its server's costly request is checked: the request is answered as
// one of an ended call, and no question is asked once the check is done.
void TestMcpSamplingChecks::aCallEndedWhileCheckedAsksNothing()
{
    AskedCall call(*m_project, QStringLiteral("new__costly"), {{"count", 1}, {"valid", true}, {"end", true}});
    const Step step = call.finished(60000);
    QVERIFY(step.result);
    QCOMPARE((*step.result)["content"][0]["text"].get<std::string>(), std::string("ended"));
    QVERIFY(McpQuestionCheck::pool()->waitForDone(60000));
    QCoreApplication::processEvents(); // a check's result would be handed over now
    QCOMPARE(call.questions.size(), std::size_t(0));
    QCOMPARE(call.events.size(), std::size_t(0));
    AskedCall seen(*m_project, QStringLiteral("new__seen"), json::object());
    QCOMPARE(seen.resultJson().dump(),
             json::array({{{"error",
                            {{"code", -32600},
                             {"message", "the tools/call this request came with has ended before a person answered"}}},
                           {"id", "c-1"}}})
                 .dump());
}

// A server sending costly requests and cancelling each while it is checked (each check
// runs on, a pool thread busy for nothing): after MaxWithdrawnQuestions of them its
// further requests are refused at once, as after that many questions taken back. Before
// (attack46 F2) such a request never counted: a server kept the checks' pool busy
// without end, at no cost of its own, past the bound meant to stop asking-and-cancelling.
void TestMcpSamplingChecks::requestsCancelledWhileCheckedCountAsWithdrawn()
{
    const int count = 24;
    QElapsedTimer timer;
    timer.start();
    AskedCall call(*m_project, QStringLiteral("new__spin"), {{"count", count}, {"pause", 0.05}});
    const json got = call.resultJson(240000);
    qInfo("%d requests cancelled while checked: %lld ms", count, timer.elapsed());
    QCOMPARE(call.questions.size(), std::size_t(0));
    QCOMPARE(call.events.size(), std::size_t(0));
    json expected = json::array();
    for (int n = McpHandler::MaxWithdrawnQuestions + 1; n <= count; ++n)
        expected.push_back({{"error",
                             {{"code", -32600},
                              {"message",
                               "this server withdrew 16 questions of this call; Tool Studio asks a person "
                               "no more"}}},
                            {"id", "s-" + std::to_string(n)}});
    expected.push_back({{"id", "p"}, {"result", json::object()}});
    QCOMPARE(got.dump(), expected.dump());
}

QTEST_MAIN(TestMcpSamplingChecks)
#include "tst_mcpsamplingchecks.moc"
