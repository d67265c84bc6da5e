// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A server's requests during a call, answered by the studio or a person (issue 21 part
// 4, docs/mcp.md "A server's requests"): roots/list from the project's settings;
// elicitation/create and sampling/createMessage as questions of the call's step, answered
// through StepEngine::answer; what a hostile server can send — a flood, odd ids, schemas
// a form cannot show, megabytes of messages, requests after the call — bounded and
// answered with errors. Against tests/data/mcp/fakeserver.py in its `asks` mode and the
// reference server "everything". The 2026 era's input_required rounds are
// tst_mcpaskinputrequired's, the pages of a -32042 answer tst_mcpaskurlrequired's.
#include "askedcall.h"
#include "mcp/mcpexchangetext.h"
#include "mcp/mcpserverpool.h"
#include "python/toolsandbox.h"
#include "waitingrun.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using nlohmann::json;

class TestMcpAsk : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rootsFromTheProject();
    void rootsOfAConfinedServerAreItsFolders();
    void elicitationAndSamplingAnsweredByAPerson();
    void protocolOfACall();
    void answersThatDoNotFitAreRefused();
    void declineAndRefusal();
    void urlModeElicitation();
    void urlModeElicitationRefused_data();
    void urlModeElicitationRefused();
    void floodIsBounded();
    void withdrawnRequestsAreNoLongerAsked();
    void askingAndCancellingIsBounded();
    void hostileRequestsAreAnsweredWithErrors();
    void requestsAfterTheCallEnded();
    void answeredWithToolstudioAnswer();
    void urlModeAnsweredWithToolstudioAnswer();
    void referenceServer();
    void requestsUnderTheStudiosIdsAreRefused();

private:
    /// Calls the fake server's go: its word that the question of the request it sent
    /// last was seen (a request is asked once checked, not as it is read). True once
    /// the call answered "go".
    bool go()
    {
        AskedCall signal(*m_project, QStringLiteral("fake__go"), json::object(), QStringLiteral("go%1").arg(++m_goes));
        const Step step = signal.finished();
        return step.result && (*step.result)["content"][0].value("text", std::string()) == "go";
    }

    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    int m_goes = 0;
};

void TestMcpAsk::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString problem;
    m_project = connectedAskProject(m_dir, &problem);
    QVERIFY2(m_project, qPrintable(problem));
}

void TestMcpAsk::rootsFromTheProject()
{
    const json only = {{"only", {"roots"}}};
    AskedCall fake(*m_project, QStringLiteral("fake__ask"), only);
    // The project as the server sees it, where it runs: itself, or a root studio's copy.
    const json result = fake.resultJson();
    const std::string cwd = result["seen"]["cwd"].get<std::string>();
    const std::string uri = QUrl::fromLocalFile(QString::fromStdString(cwd)).toString(QUrl::FullyEncoded).toStdString();
    QCOMPARE(result["roots"].dump(),
             json({{"id", "roots-1"}, {"result", {{"roots", {{{"name", "Ask Project"}, {"uri", uri}}}}}}}).dump());
    QCOMPARE(result["seen"]["readable"].dump(), std::string("[true]"));
    AskedCall some(*m_project, QStringLiteral("some__ask"), only);
    QCOMPARE(some.resultJson()["roots"]["result"]["roots"].dump(),
             json({{{"name", "data"}, {"uri", uri + "/data"}},
                   {{"name", "/srv/shared dir"}, {"uri", "file:///srv/shared%20dir"}},
                   {{"name", "Ask Project"}, {"uri", uri}}})
                 .dump());
    QCOMPARE(some.resultJson()["seen"]["readable"].dump(), std::string("[false,false,true]"));
    AskedCall none(*m_project, QStringLiteral("none__ask"), only);
    QCOMPARE(none.resultJson()["roots"]["result"].dump(), std::string(R"({"roots":[]})"));
    // roots/list is answered by the studio: the step never waited for a person.
    QCOMPARE(fake.statuses, QStringList());
}

// A confined server's roots are the folders its sandbox grants, as it sees them: the
// whole project would be roots it cannot read (a root studio's server runs in a copy of
// the project, and a filesystem server takes its roots in place of its args' folders).
void TestMcpAsk::rootsOfAConfinedServerAreItsFolders()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("data")));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "Boxed", "retry": {"max_attempts": 1, "attempt_timeout_seconds": 60},
  "mcp_servers": {"boxed": {"command": "python3", "args": ["srv/fakeserver.py", "asks"],
                            "sandbox": {"read": ["srv", "data"]}}}})"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    const QStringList problems = McpProjectTools::connectAndAdd(*project);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    AskedCall boxed(*project, QStringLiteral("boxed__ask"), {{"only", {"roots"}}});
    const json result = boxed.resultJson();
    const QString cwd = QString::fromStdString(result["seen"]["cwd"].get<std::string>());
    QCOMPARE(
        result["roots"]["result"]["roots"].dump(),
        json({{{"name", "srv"},
               {"uri", QUrl::fromLocalFile(cwd + QStringLiteral("/srv")).toString(QUrl::FullyEncoded).toStdString()}},
              {{"name", "data"},
               {"uri", QUrl::fromLocalFile(cwd + QStringLiteral("/data")).toString(QUrl::FullyEncoded).toStdString()}}})
            .dump());
    QCOMPARE(result["seen"]["readable"].dump(), std::string("[true,true]"));
}

void TestMcpAsk::elicitationAndSamplingAnsweredByAPerson()
{
    // An attempt timeout of 2 s: it waits while a person answers.
    Project project = *m_project;
    for (Tool &tool : project.tools)
        tool.retry.attemptTimeoutMs = 2000;
    AskedCall call(project, QStringLiteral("fake__ask"), {{"only", {"elicit", "sample"}}});
    QVERIFY(call.waitForQuestion(1));
    QCOMPARE(call.statuses, QStringList{QStringLiteral("waiting")});
    QCOMPARE(
        call.questions[0].dump(),
        json({{"kind", "elicitation"},
              {"message", "Who are you?"},
              {"method", "elicitation/create"},
              {"request_id", "elicit-1"},
              {"schema",
               {{"type", "object"},
                {"properties",
                 {{"name", {{"type", "string"}, {"title", "Name"}}}, {"age", {{"type", "integer"}, {"minimum", 0}}}}},
                {"required", {"name"}}}},
              {"serial", 1},
              {"server", "fake"}})
            .dump());
    // The attempt timeout (2 s) waits while a person answers.
    QTest::qWait(2500);
    QCOMPARE(call.engine.step(QStringLiteral("c1"))->status, StepStatus::Waiting);
    QString reason;
    QVERIFY2(call.answer({{"action", "accept"}, {"content", {{"name", "Ada"}, {"age", 36}}}}, &reason),
             qPrintable(reason));
    QCOMPARE(call.closed, 1);
    QVERIFY(call.waitForQuestion(2));
    QCOMPARE(call.questions[1].dump(),
             json({{"kind", "sampling"},
                   {"max_tokens", 50},
                   {"message", "user: Say hi"},
                   {"method", "sampling/createMessage"},
                   {"request_id", "sample-1"},
                   {"serial", 2},
                   {"server", "fake"},
                   {"system_prompt", "Be brief"}})
                 .dump());
    QVERIFY(call.answer("Hi there"));
    const json result = call.resultJson();
    QCOMPARE(result["elicit"].dump(),
             std::string(R"({"id":"elicit-1","result":{"action":"accept","content":{"age":36,"name":"Ada"}}})"));
    QCOMPARE(result["sample"].dump(),
             std::string(R"({"id":"sample-1","result":{"content":{"text":"Hi there","type":"text"},)"
                         R"("model":"person","role":"assistant","stopReason":"endTurn"}})"));
    const Step done = call.finished();
    QCOMPARE(done.status, StepStatus::Succeeded);
    QCOMPARE(call.closed, 2);
    // The attempt's two waits for the person, apart from its running time (the
    // timeline's waiting segments): the first held 2.5 s before the answer.
    QCOMPARE(done.attempts.size(), std::size_t(1));
    const Attempt &attempt = done.attempts[0];
    QCOMPARE(attempt.personWaits.size(), std::size_t(2));
    QVERIFY(attempt.personWaits[0].askedAt >= attempt.startedAt);
    QVERIFY(attempt.personWaits[0].answeredAt - attempt.personWaits[0].askedAt >= 2500);
    QVERIFY(attempt.personWaits[1].askedAt >= attempt.personWaits[0].answeredAt);
    QVERIFY(attempt.personWaits[1].answeredAt > 0 && attempt.personWaits[1].answeredAt <= attempt.endedAt);
    // Journaled with the step: what was asked, what was answered.
    QCOMPARE(call.events.size(), std::size_t(4));
    QCOMPARE(call.events[0]["kind"].dump(), std::string(R"("person_asked")"));
    QCOMPARE(call.events[0]["detail"]["question"].dump(), call.questions[0].dump());
    QCOMPARE(call.events[1].dump(),
             std::string(R"({"detail":{"answer":{"action":"accept","content":{"age":36,"name":"Ada"}},"attempt":1,)"
                         R"("kind":"elicitation"},"kind":"person_answered"})"));
    QCOMPARE(call.events[3].dump(),
             std::string(R"({"detail":{"answer":{"text":"Hi there"},"attempt":1,"kind":"sampling"},)"
                         R"("kind":"person_answered"})"));
}

void TestMcpAsk::protocolOfACall()
{
    // The Protocol tab's record (docs/mcp.md "The Protocol tab"): the call's JSON-RPC
    // messages in order — the request as sent (its _meta), the server's progress, its
    // elicitation and the person's answer as sent, the final response.
    AskedCall call(*m_project, QStringLiteral("fake__ask"), {{"only", {"elicit"}}, {"progress", 2}});
    QVERIFY(call.waitForQuestion(1));
    QVERIFY(call.answer({{"action", "accept"}, {"content", {{"name", "Ada"}, {"age", 36}}}}));
    const Step step = call.finished();
    QCOMPARE(step.status, StepStatus::Succeeded);
    QCOMPARE(step.attempts.size(), std::size_t(1));
    const json &exchange = step.attempts.front().protocol;
    QVERIFY(exchange.is_object());
    QStringList rows;
    for (const json &entry : exchange["messages"])
        rows << McpExchangeText::summary(entry);
    const json &request = exchange["messages"][0]["message"];
    const QString id = QString::fromStdString(request["id"].dump());
    QCOMPARE(
        rows,
        QStringList({QStringLiteral("→ request tools/call #") + id,
                     QStringLiteral("← notification notifications/progress 1/2"),
                     QStringLiteral("← notification notifications/progress 2/2"),
                     QStringLiteral("← request elicitation/create #elicit-1"), QStringLiteral("→ response #elicit-1"),
                     QStringLiteral("← response #") + id + QStringLiteral(" result")}));
    QCOMPARE(request["params"]["arguments"].dump(), std::string(R"({"only":["elicit"],"progress":2})"));
    QCOMPARE(request["params"]["_meta"]["dev.toolstudio/attempt"].dump(), std::string("1"));
    QCOMPARE(request["params"]["_meta"]["dev.toolstudio/idempotency_key"].get<std::string>(),
             step.idempotencyKey.toStdString());
    QCOMPARE(
        exchange["messages"][4]["message"].dump(),
        std::string(
            R"({"id":"elicit-1","jsonrpc":"2.0","result":{"action":"accept","content":{"age":36,"name":"Ada"}}})"));
    QCOMPARE(exchange["messages"][4]["direction"].get<std::string>(), std::string("sent"));
    QCOMPARE(exchange["messages"][5]["direction"].get<std::string>(), std::string("received"));
    QVERIFY(!exchange.contains("omittedMessages"));
    qint64 last = 0;
    for (const json &entry : exchange["messages"]) {
        QVERIFY(entry["offsetMs"].get<qint64>() >= last);
        last = entry["offsetMs"].get<qint64>();
    }
}

void TestMcpAsk::answersThatDoNotFitAreRefused()
{
    AskedCall call(*m_project, QStringLiteral("fake__ask"), {{"only", {"elicit"}}});
    QVERIFY(call.waitForQuestion(1));
    const std::vector<std::pair<json, QString>> refused{
        {json{{"name", "Ada"}},
         QStringLiteral("the answer has no \"action\" (an answer is {\"action\": \"accept\", \"content\": {…}}, "
                        "{\"action\": \"decline\"} or {\"action\": \"cancel\"})")},
        {json{{"action", "accept"}},
         QStringLiteral("\"accept\" needs \"content\", an object of the form's fields (an answer is {\"action\": "
                        "\"accept\", \"content\": {…}}, {\"action\": \"decline\"} or {\"action\": \"cancel\"})")},
        {json{{"action", "accept"}, {"content", {{"age", 3}}}},
         QStringLiteral("the content does not match the server's requestedSchema at /name: required property is "
                        "missing")},
        {json{{"action", "accept"}, {"content", {{"name", "Ada"}, {"age", -1}}}},
         QStringLiteral(
             "the content does not match the server's requestedSchema at /age: expected number greater than or equal to 0")},
        {json{{"action", "maybe"}},
         QStringLiteral("\"action\" is \"maybe\" (an answer is {\"action\": \"accept\", \"content\": {…}}, "
                        "{\"action\": \"decline\"} or {\"action\": \"cancel\"})")},
    };
    for (const auto &[answer, expected] : refused) {
        QString reason;
        QVERIFY(!call.answer(answer, &reason));
        QCOMPARE(reason, expected);
    }
    QCOMPARE(call.engine.step(QStringLiteral("c1"))->status, StepStatus::Waiting);
    QVERIFY(call.answer({{"action", "cancel"}}));
    QCOMPARE(call.resultJson()["elicit"].dump(), std::string(R"({"id":"elicit-1","result":{"action":"cancel"}})"));
}

void TestMcpAsk::declineAndRefusal()
{
    AskedCall call(*m_project, QStringLiteral("fake__ask"), {{"only", {"elicit", "sample"}}});
    QVERIFY(call.waitForQuestion(1));
    QVERIFY(call.answer({{"action", "decline"}}));
    QVERIFY(call.waitForQuestion(2));
    QString reason;
    QVERIFY(!call.answer({{"content", "x"}}, &reason));
    // {"content"} is a tool call's shape (docs/mcp.md "Tools in sampling"): this server offers none.
    QCOMPARE(reason,
             QStringLiteral("the server offers no tools; a sampling answer is the assistant's text: \"text\" "
                            "or {\"text\": \"…\"}"));
    QVERIFY(call.answerError(QStringLiteral("not now")));
    const json result = call.resultJson();
    QCOMPARE(result["elicit"].dump(), std::string(R"({"id":"elicit-1","result":{"action":"decline"}})"));
    QCOMPARE(result["sample"].dump(), std::string(R"({"error":{"code":-1,"message":"not now"},"id":"sample-1"})"));
}

// URL mode (2025-11-25): the person is asked to open a page; nothing is entered in the
// studio, so "accept" takes no content; the server gets {"action": "accept"}.
void TestMcpAsk::urlModeElicitation()
{
    AskedCall call(*m_project, QStringLiteral("fake__askurl"), json::object());
    QVERIFY(call.waitForQuestion(1));
    const json expected = {{"elicitation_id", "e-1"},
                           {"host", "example.org"},
                           {"kind", "elicitation"},
                           {"message", "Set your API key"},
                           {"method", "elicitation/create"},
                           {"mode", "url"},
                           {"request_id", "url-1"},
                           {"serial", 1},
                           {"server", "fake"},
                           {"url", "https://example.org/set-key?session=1"}};
    QCOMPARE(call.questions[0].dump(), expected.dump());
    QString reason;
    QVERIFY(!call.answer({{"action", "accept"}, {"content", {{"key", "sk-1"}}}}, &reason));
    QCOMPARE(reason,
             QStringLiteral("a URL-mode elicitation's \"accept\" takes no \"content\" (what the person "
                            "entered went to the page, not through the studio): {\"action\": \"accept\"}"));
    QVERIFY(call.answer({{"action", "accept"}}));
    QCOMPARE(call.resultJson().dump(), std::string(R"({"id":"url-1","result":{"action":"accept"}})"));

    // An IPv6 address is shown as one (the IPv4-mapped loopback here), not as no host.
    AskedCall v6(*m_project, QStringLiteral("fake__askurl"), {{"url", "http://[::ffff:127.0.0.1]:8080/admin"}});
    QVERIFY(v6.waitForQuestion(1));
    QCOMPARE(v6.questions[0]["host"].dump(), std::string(R"("[::ffff:127.0.0.1]")"));
    QVERIFY(v6.answer({{"action", "cancel"}}));
    QCOMPARE(v6.resultJson().dump(), std::string(R"({"id":"url-1","result":{"action":"cancel"}})"));

    // A look-alike host (a Cyrillic "а" in "exаmple.org") is shown as it resolves.
    AskedCall lookAlike(*m_project, QStringLiteral("fake__askurl"), {{"url", "https://ex\u0430mple.org/set-key"}});
    QVERIFY(lookAlike.waitForQuestion(1));
    QCOMPARE(lookAlike.questions[0]["host"].dump(), std::string(R"("xn--exmple-4nf.org")"));
    QVERIFY(lookAlike.answer({{"action", "decline"}}));
    QCOMPARE(lookAlike.resultJson().dump(), std::string(R"({"id":"url-1","result":{"action":"decline"}})"));
}

// What a person is asked to open is what opens: a URL that is not a web page, that
// hides its host behind user info, or has no elicitationId is answered with an error
// and never asked; a look-alike internationalised host is shown in its ASCII form.
void TestMcpAsk::urlModeElicitationRefused_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("expected");
    const auto url = [](const QString &page) {
        return QString::fromStdString(json{{"url", page.toStdString()}}.dump());
    };
    QTest::newRow("user info") << url(QStringLiteral("https://bank.example@evil.test/login"))
                               << "the url has a user name or password before its host (\"bank.example@\"); a "
                                  "person would take the part before the @ for the site";
    QTest::newRow("javascript") << url(QStringLiteral("javascript:alert(1)"))
                                << "the url is not an http or https URL (\"javascript:alert(1)\"); Tool Studio "
                                   "opens web pages only";
    QTest::newRow("file") << url(QStringLiteral("file:///etc/passwd"))
                          << "the url is not an http or https URL (\"file:///etc/passwd\"); Tool Studio opens web "
                             "pages only";
    QTest::newRow("no host") << url(QStringLiteral("https:///path")) << "the url has no host";
    QTest::newRow("control") << url(QStringLiteral("https://example.org/\u202e/gpj.exe"))
                             << "the url has spaces or characters that are not printable; send it percent-encoded";
    QTest::newRow("no id") << QStringLiteral("{\"extra\": {\"elicitationId\": null}}")
                           << "a URL-mode elicitation/create needs \"elicitationId\", a string of 1 to 256 bytes";
    QTest::newRow("no url") << QStringLiteral("{\"extra\": {\"url\": 5}}")
                            << "a URL-mode elicitation/create needs \"url\", the page to open";
    QTest::newRow("long") << url(QStringLiteral("https://example.org/") + QString(9000, u'a'))
                          << "the url is 9020 bytes; Tool Studio opens URLs of at most 8192";
    QTest::newRow("zone id") << url(QStringLiteral("http://[fe80::1%25eth0]/"))
                             << "the url's host \"fe80::1%eth0\" is not a name or an address a browser opens";
    QTest::newRow("other mode") << QStringLiteral("{\"extra\": {\"mode\": \"voice\"}}")
                                << "Tool Studio offers form and URL elicitation, not \"voice\"";
}

void TestMcpAsk::urlModeElicitationRefused()
{
    QFETCH(QString, args);
    QFETCH(QString, expected);
    AskedCall call(*m_project, QStringLiteral("fake__askurl"), json::parse(args.toStdString()));
    const json response = call.resultJson();
    QCOMPARE(call.questions.size(), std::size_t(0));
    QCOMPARE(response.dump(),
             json({{"error", {{"code", -32602}, {"message", expected.toStdString()}}}, {"id", "url-1"}}).dump());
}

void TestMcpAsk::floodIsBounded()
{
    // 5000 requests in one write: the first is asked, 15 more wait, the others are refused
    // at once. The person answers once all came (the server's log message after them), so
    // exactly 16 are asked, one after the other.
    McpClientSession *session = McpServerPool::forProject(m_project->dir)->readySession(QStringLiteral("fake"));
    QVERIFY(session);
    bool sent = false;
    connect(session, &McpClientSession::notificationReceived, this, [&sent](const QString &, const json &params) {
        sent = sent || params.value("data", json()) == "flood sent";
    });
    AskedCall call(*m_project, QStringLiteral("fake__flood"), {{"count", 5000}});
    QVERIFY(QTest::qWaitFor([&sent] { return sent; }, 60000));
    QCOMPARE(session->openServerRequests(), std::size_t(16));
    for (std::size_t n = 1; n <= 16; ++n) {
        QVERIFY2(call.waitForQuestion(n), qPrintable(QString::number(n)));
        QCOMPARE(call.questions.back()["request_id"].dump(), json("f" + std::to_string(n - 1)).dump());
        QVERIFY(call.answer({{"action", "decline"}}));
    }
    const QString flood = QString::fromStdString(call.resultJson(60000).dump());
    QCOMPARE(flood,
             QString::fromUtf8(R"({"errors":{"16 requests of this call already wait for a person; Tool Studio )"
                               R"(refuses more":4984},"results":16})"));
    QCOMPARE(call.questions.size(), std::size_t(16));
    QCOMPARE(session->openServerRequests(), std::size_t(0));
    session->disconnect(this);
}

// The server cancels (notifications/cancelled) a request a person is asked and one still
// queued behind another: neither is asked any more nor answered, and the step asks the
// next at once instead of waiting for an answer to a question nobody wants.
void TestMcpAsk::withdrawnRequestsAreNoLongerAsked()
{
    AskedCall call(*m_project, QStringLiteral("fake__withdraw"), json::object());
    QVERIFY(call.waitForQuestion(1));
    QVERIFY(go());
    QVERIFY(call.waitForQuestion(2));
    QCOMPARE(call.questions[0].value("message", std::string()), std::string("Question 1?"));
    QCOMPARE(call.questions[1].value("message", std::string()), std::string("Question 2?"));
    QCOMPARE(call.questions[1].value("request_id", json()).dump(), std::string(R"("w-2")"));
    QCOMPARE(call.engine.step(QStringLiteral("c1"))->status, StepStatus::Waiting);
    QCOMPARE(call.closed, 1);
    // Questions are numbered: an answer read for question 1 (withdrawn) does not go to
    // question 2, which replaced it (attack30 F1).
    QCOMPARE(call.questions[0].value("serial", 0), 1);
    QCOMPARE(call.questions[1].value("serial", 0), 2);
    ManualAnswer stale;
    stale.result = {{"action", "accept"}, {"content", {{"name", "Ada"}}}};
    stale.question = 1;
    QString reason;
    QVERIFY(!call.engine.answer(QStringLiteral("c1"), 1, stale, &reason));
    QCOMPARE(reason,
             QStringLiteral("call 'c1' asks question 2 now; question 1, the one answered, was withdrawn by "
                            "its server: read the new one and answer again"));
    ManualAnswer named;
    named.result = {{"action", "decline"}};
    named.question = 2;
    QVERIFY(call.engine.answer(QStringLiteral("c1"), 1, named, &reason));
    QCOMPARE(call.resultJson().dump(),
             std::string(R"([{"id":"w-2","result":{"action":"decline"}},{"id":"p","result":{}}])"));
    QCOMPARE(call.questions.size(), std::size_t(2));
    QCOMPARE(call.events.size(), std::size_t(4));
    QCOMPARE(call.events[1].dump(),
             std::string(R"({"detail":{"attempt":1,"kind":"elicitation","withdrawn":true},"kind":"person_answered"})"));
    QCOMPARE(call.events[3]["detail"]["answer"].dump(), std::string(R"({"action":"decline"})"));
}

// Each question asked is journaled: a server that asks and cancels in a loop would grow
// the journal with nobody answering. After 16 questions taken back, the call's further
// requests are refused.
void TestMcpAsk::askingAndCancellingIsBounded()
{
    AskedCall call(*m_project, QStringLiteral("fake__churn"), json::object());
    for (std::size_t n = 1; n <= 16; ++n) {
        QVERIFY2(call.waitForQuestion(n), qPrintable(QString::number(n)));
        QVERIFY(go());
    }
    const json result = call.resultJson();
    QCOMPARE(call.events.size(), std::size_t(32));
    QCOMPARE(call.questions.size(), std::size_t(16));
    QCOMPARE(result.size(), std::size_t(5));
    for (int n = 0; n < 4; ++n)
        QCOMPARE(result[n].dump(),
                 json({{"id", "c-" + std::to_string(17 + n)},
                       {"error",
                        {{"code", -32600},
                         {"message",
                          "this server withdrew 16 questions of this call; Tool Studio asks a person no "
                          "more"}}}})
                     .dump());
    QCOMPARE(result[4].dump(), std::string(R"({"id":"p","result":{}})"));
}

void TestMcpAsk::hostileRequestsAreAnsweredWithErrors()
{
    AskedCall call(*m_project, QStringLiteral("fake__odd"), json::object());
    QVERIFY(call.waitForQuestion(1));
    QCOMPARE(call.questions[0]["request_id"].dump(), std::string(R"("dup")"));
    QVERIFY(call.answer({{"action", "accept"}, {"content", {{"name", "Ada"}}}}));
    QVERIFY2(call.waitForQuestion(2), call.finished(1).error ? call.finished(1).error->message.c_str() : "");
    // 8 MiB of messages: the person reads a bounded transcript.
    const std::string transcript = call.questions[1]["message"].get<std::string>();
    QCOMPARE(call.questions[1]["request_id"].dump(), std::string(R"("big")"));
    QVERIFY2(QString::fromStdString(transcript)
                 .endsWith(QStringLiteral("\u2026 (514 bytes dropped)\n\u2026 (2043 more messages not shown)")),
             transcript.substr(transcript.size() - 100).c_str());
    QCOMPARE(QString::fromStdString(transcript).size(), 20000 + 21 + 33);
    QVERIFY(call.answer("short"));
    const json got = call.resultJson();
    QVERIFY2(got.size() == 9, got.dump().substr(0, 2000).c_str());
    // The session refuses a bad id as it reads it; the step refuses a request once it was
    // checked (off the GUI thread), in the order they came: the two orders interleave.
    std::vector<std::string> checked;
    std::vector<std::string> read;
    for (int n = 0; n < 7; ++n)
        (got[n]["error"]["code"] == -32602 ? checked : read).push_back(got[n].dump());
    const auto error = [](const char *id, int code, const std::string &message) {
        return json{{"error", {{"code", code}, {"message", message}}}, {"id", id}}.dump();
    };
    QCOMPARE(checked.size(), std::size_t(5));
    QCOMPARE(checked[0],
             error("url", -32602,
                   "the url is not an http or https URL (\"javascript:alert(1)\"); Tool Studio opens "
                   "web pages only"));
    QCOMPARE(checked[1],
             error("huge", -32602, "the requestedSchema is 141922 bytes; Tool Studio shows forms of at most 65536"));
    QCOMPARE(checked[2], error("deep", -32602, "the requestedSchema is nested deeper than 12 levels; a form is flat"));
    QCOMPARE(
        checked[3],
        error("bad", -32602, "the requestedSchema cannot be shown as a form: Unrecognised JSON type name 'strin'"));
    QCOMPARE(checked[4], error("none", -32602, "elicitation/create needs a requestedSchema of \"type\": \"object\""));
    QCOMPARE(read.size(), std::size_t(2));
    QCOMPARE(read[0],
             json({{"error",
                    {{"code", -32600},
                     {"message", "a request id of 1002 bytes; Tool Studio answers requests whose id has at most 256"}}},
                   {"id", nullptr}})
                 .dump());
    QCOMPARE(read[1], error("dup", -32600, "request id \"dup\" is already in use by an open request of this server"));
    QCOMPARE(got[7].dump(), std::string(R"({"id":"dup","result":{"action":"accept","content":{"name":"Ada"}}})"));
    QCOMPARE(got[8]["result"]["content"]["text"].dump(), std::string(R"("short")"));
}

void TestMcpAsk::requestsAfterTheCallEnded()
{
    AskedCall call(*m_project, QStringLiteral("fake__late"), json::object());
    QVERIFY(call.waitForQuestion(1));
    QVERIFY(go());
    QCOMPARE(call.finished().status, StepStatus::Succeeded);
    // Asked, then closed with its call: an answer now is refused.
    QCOMPARE(call.questions.size(), std::size_t(1));
    QCOMPARE(call.closed, 1);
    QString reason;
    QVERIFY(!call.answer({{"action", "decline"}}, &reason));
    QCOMPARE(reason, QStringLiteral("call 'c1' already finished (succeeded)"));
    AskedCall seen(*m_project, QStringLiteral("fake__seen"), json::object());
    QCOMPARE(seen.resultJson().dump(),
             json::array({json{{"error",
                                {{"code", -32600},
                                 {"message",
                                  "the tools/call this request came with has ended before a person "
                                  "answered"}}},
                               {"id", "late-1"}},
                          json{{"error",
                                {{"code", -32600},
                                 {"message",
                                  "Tool Studio asks a person for elicitation/create only while a tool of "
                                  "this server is called, and none is"}}},
                               {"id", "after-1"}}})
                 .dump());
}

void TestMcpAsk::answeredWithToolstudioAnswer()
{
    // Headless: `toolstudio run --wait-for-answers` says what the server asks; `toolstudio
    // answer` answers it through the journal, as for any pending call.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                      "from toolstudio import tools\n"
                      "print(tools['fake__ask'](only=['elicit'])['content'][0]['text'])\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "cli", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path(), QStringLiteral("fake__ask")), run.err.constData());
    // The form whole, one line per field, the required first (it was one line of JSON, cut at 2000 characters).
    QVERIFY2(run.err.contains("toolstudio run: MCP server 'fake' asks (elicitation): \"Who are you?\"\n"
                              "  form (requestedSchema), one line per field:\n"
                              "    name: string, required, title \"Name\"\n"
                              "    age: integer, minimum 0\n"
                              "  answer: {\"action\": \"accept\", \"content\": {…}}, e.g. "
                              "{\"action\":\"accept\",\"content\":{\"name\":\"…\"}}; {\"action\": \"decline\"} or "
                              "{\"action\": \"cancel\"}; an error refuses it\n"),
             run.err.constData());
    const CommandResult refused = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                              QStringLiteral("--result"), QStringLiteral(R"({"action": "yes"})")});
    QVERIFY2(refused.err.contains("refused: \"action\" is \"yes\""), refused.err.constData());
    const CommandResult answered
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId, QStringLiteral("--result"),
                      QStringLiteral(R"({"action": "accept", "content": {"name": "Ada"}})")});
    QCOMPARE(answered.out, QByteArray("accepted: c1 attempt 1 of run ") + run.runId.toUtf8() + '\n');
    run.finish();
    QCOMPARE(scriptStdout(run.out),
             QByteArray(R"({"elicit": {"id": "elicit-1", "result": {"action": "accept", "content": {"name": "Ada"}}}})"
                        "\n"));
}

void TestMcpAsk::urlModeAnsweredWithToolstudioAnswer()
{
    // Headless, URL mode: `run` prints the page to open and its host; the person opens it
    // and answers {"action": "accept"} with `toolstudio answer`.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeAskingProject(dir, "fake__askurl"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path(), QStringLiteral("fake__askurl")), run.err.constData());
    QVERIFY2(run.err.contains("toolstudio run: MCP server 'fake' asks (elicitation): \"Set your API key\"\n"
                              "  open in a browser (host example.org): https://example.org/set-key?session=1\n"
                              "  answer, once done there: {\"action\": \"accept\"}, or {\"action\": \"decline\"} or "
                              "{\"action\": \"cancel\"}; an error refuses it\n"),
             run.err.constData());
    // The command printed names the question; an answer naming another is refused.
    QVERIFY2(run.err.contains(" waits for an answer: toolstudio answer " + dir.path().toUtf8() + ' '
                              + run.runId.toUtf8() + " c1 --question 1 --result JSON"),
             run.err.constData());
    const CommandResult stale
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId, QStringLiteral("--question"),
                      QStringLiteral("2"), QStringLiteral("--result"), QStringLiteral(R"({"action": "accept"})")});
    QVERIFY2(stale.err.contains("refused: call 'c1' asks question 1 now; question 2, the one answered, was "
                                "withdrawn by its server: read the new one and answer again"),
             stale.err.constData());
    const CommandResult answered
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId, QStringLiteral("--question"),
                      QStringLiteral("1"), QStringLiteral("--result"), QStringLiteral(R"({"action": "accept"})")});
    QCOMPARE(answered.out, QByteArray("accepted: c1 attempt 1 of run ") + run.runId.toUtf8() + '\n');
    run.finish();
    QCOMPARE(scriptStdout(run.out),
             QByteArray(R"({"id": "url-1", "result": {"action": "accept"}})"
                        "\n"));
}

void TestMcpAsk::referenceServer()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), modules, dir.path()}), 0);
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "Everything", "mcp_servers": {"everything": {"command": "node",
  "args": ["node_modules/@modelcontextprotocol/server-everything/dist/index.js"], "roots": [".", "data"]}}})"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    QCOMPARE(McpProjectTools::connectAndAdd(*project), QStringList());
    for (const char *tool : {"everything__get-roots-list", "everything__trigger-elicitation-request",
                             "everything__trigger-sampling-request", "everything__trigger-url-elicitation"})
        QVERIFY2(project->tool(QLatin1String(tool)), tool);

    // The project as the server sees it (ToolSandbox: a root studio's server runs in a copy).
    QString why;
    const auto sandbox = ToolSandbox::forProject(QFileInfo(dir.path()).canonicalFilePath(), &why);
    QVERIFY2(sandbox, qPrintable(why));
    const QString uri = QUrl::fromLocalFile(sandbox->projectPath()).toString(QUrl::FullyEncoded);
    AskedCall roots(*project, QStringLiteral("everything__get-roots-list"), json::object());
    const Step rootsStep = roots.finished();
    QVERIFY2(rootsStep.result, rootsStep.error ? rootsStep.error->message.c_str() : "no result");
    QCOMPARE(QString::fromStdString((*rootsStep.result)["content"][0]["text"].get<std::string>())
                 .section(QStringLiteral("\n\nNote:"), 0, 0),
             QStringLiteral("Current MCP Roots (2 total):\n\n1. Everything\n   URI: %1\n\n2. data\n   URI: %1/data")
                 .arg(uri));

    AskedCall elicit(*project, QStringLiteral("everything__trigger-elicitation-request"), json::object());
    QVERIFY(elicit.waitForQuestion(1));
    QCOMPARE(elicit.questions[0]["message"].get<std::string>(),
             std::string("Please provide inputs for the following fields:"));
    QString reason;
    QVERIFY2(elicit.answer({{"action", "accept"}, {"content", {{"name", "Ada Lovelace"}, {"check", true}}}}, &reason),
             qPrintable(reason));
    const Step elicited = elicit.finished();
    QVERIFY2(elicited.result, elicited.error ? elicited.error->message.c_str() : "no result");
    QCOMPARE((*elicited.result)["content"][0]["text"].get<std::string>(),
             std::string("✅ User provided the requested information!"));
    QCOMPARE((*elicited.result)["content"][1]["text"].get<std::string>(),
             std::string("User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true"));

    // URL mode, the reference server's own (offered since the studio says elicitation.url).
    AskedCall page(*project, QStringLiteral("everything__trigger-url-elicitation"),
                   {{"url", "https://example.org/connect?step=1"}, {"elicitationId", "e-42"}});
    QVERIFY(page.waitForQuestion(1));
    QCOMPARE(page.questions[0]["mode"].get<std::string>(), std::string("url"));
    QCOMPARE(page.questions[0]["host"].get<std::string>(), std::string("example.org"));
    QCOMPARE(page.questions[0]["url"].get<std::string>(), std::string("https://example.org/connect?step=1"));
    QCOMPARE(page.questions[0]["elicitation_id"].get<std::string>(), std::string("e-42"));
    QVERIFY2(page.answer({{"action", "accept"}}, &reason), qPrintable(reason));
    const Step paged = page.finished();
    QVERIFY2(paged.result, paged.error ? paged.error->message.c_str() : "no result");
    QVERIFY2(paged.result->dump().find("accept") != std::string::npos, paged.result->dump().c_str());

    AskedCall sample(*project, QStringLiteral("everything__trigger-sampling-request"),
                     {{"prompt", "Name a colour"}, {"maxTokens", 20}});
    QVERIFY(sample.waitForQuestion(1));
    QCOMPARE(sample.questions[0]["message"].get<std::string>(),
             std::string("user: Resource trigger-sampling-request context: Name a colour"));
    QVERIFY(sample.answer("Teal"));
    const Step sampled = sample.finished();
    QVERIFY2(sampled.result, sampled.error ? sampled.error->message.c_str() : "no result");
    QVERIFY2(sampled.result->dump().find("Teal") != std::string::npos, sampled.result->dump().c_str());
}

// The ids the studio gives questions of its own ("mrtr:…", "-32042:…") cannot be taken
// by a server's request, nor cancelled by it (attack33 F4: a predictable id withdrew the
// studio's question and stalled the call).
void TestMcpAsk::requestsUnderTheStudiosIdsAreRefused()
{
    AskedCall call(*m_project, QStringLiteral("fake__forge"), json::object());
    const std::string why = " is of the form Tool Studio gives its own questions (\"mrtr:…\", \"-32042:…\"); send "
                            "the request under another id";
    QCOMPARE(
        call.resultJson().dump(),
        json::array(
            {{{"id", "mrtr:1:x"}, {"error", {{"code", -32600}, {"message", "request id \"mrtr:1:x\"" + why}}}},
             {{"id", "-32042:1:0"}, {"error", {{"code", -32600}, {"message", "request id \"-32042:1:0\"" + why}}}}})
            .dump());
    QCOMPARE(call.questions.size(), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestMcpAsk)
#include "tst_mcpask.moc"
