// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// MCP tools through the step engine in process (issue 21 §2): a project's servers
// listed as tools (McpProjectTools), calls run by McpHandler on the project's
// McpServerPool against tests/data/mcp/fakeserver.py in its `steps` mode.
#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "mcp/mcpexchangetext.h"
#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverpool.h"
#include "project/printabletext.h"
#include "testfiles.h"
#include "trustedproject.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// A JSON value as text, for QCOMPARE (QTest has no toString for nlohmann::json).
QString dumped(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump());
}

} // namespace

class TestMcpHandler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void toolsAreProjectTools();
    void callsAsSteps_data();
    void callsAsSteps();
    void outputAndCancellation();
    void unsentCallHasNoRecord();
    void progressAndLogsAreCoalesced();
    void contentBlocksAsSent();
    void protocolIsBounded();
    void toolsListChanged();
    void referenceServerThroughTheEngine();

private:
    /// Runs one call of `project` (default: the fake's) through a fresh engine; the final step.
    Step call(const QString &tool, const json &args, const Project *project = nullptr, int waitMs = 30000,
              QStringList *progressLines = nullptr);

    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    QStringList m_problems;
};

void TestMcpHandler::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "h", "retry": {"max_attempts": 2, "initial_backoff_seconds": 0.01,
  "attempt_timeout_seconds": 2}, "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "steps"]}}})"));
    ProjectError error;
    m_project = loadTrusted(m_dir.path(), &error);
    QVERIFY2(m_project, qPrintable(error.toString()));
    m_problems = McpProjectTools::connectAndAdd(*m_project);
}

Step TestMcpHandler::call(const QString &tool, const json &args, const Project *project, int waitMs,
                          QStringList *progressLines)
{
    StepEngine engine(project ? *project : *m_project, QStringLiteral("run1"), nullptr, {});
    if (progressLines)
        connect(&engine, &StepEngine::stepChanged, this, [progressLines](const Step &step) {
            if (!step.attempts.empty() && !step.attempts.back().progress.isEmpty()
                && (progressLines->isEmpty() || progressLines->last() != step.attempts.back().progress))
                *progressLines << step.attempts.back().progress;
        });
    std::optional<std::string> reply;
    connect(&engine, &StepEngine::replyReady, this,
            [&reply](const std::string &, const std::string &line) { reply = line; });
    BridgeCall bridgeCall;
    bridgeCall.id = "c1";
    bridgeCall.tool = tool.toStdString();
    bridgeCall.args = args;
    engine.submitCall(bridgeCall);
    (void)QTest::qWaitFor([&reply] { return reply.has_value(); }, waitMs);
    const Step *step = engine.step(QStringLiteral("c1"));
    return step ? *step : Step{};
}

void TestMcpHandler::toolsAreProjectTools()
{
    QCOMPARE(m_problems, QStringList());
    QStringList names;
    for (const Tool &tool : m_project->tools)
        names << tool.name + u' ' + handlerKindName(tool.handler);
    QCOMPARE(names,
             QStringList({QStringLiteral("fake__echo mcp"), QStringLiteral("fake__sum mcp"),
                          QStringLiteral("fake__badsum mcp"), QStringLiteral("fake__fail mcp"),
                          QStringLiteral("fake__flaky mcp"), QStringLiteral("fake__garbage mcp"),
                          QStringLiteral("fake__hang mcp"), QStringLiteral("fake__calls mcp"),
                          QStringLiteral("fake__progress mcp"), QStringLiteral("fake__blocks mcp"),
                          QStringLiteral("fake__change mcp")}));
    const Tool *echo = m_project->tool(QStringLiteral("fake__echo"));
    QCOMPARE(echo->title, QStringLiteral("Echo"));
    QCOMPARE(echo->description, QStringLiteral("Echoes text"));
    QCOMPARE(echo->annotations.dump(), std::string(R"({"readOnlyHint":true})"));
    QCOMPARE(echo->parameterOrder, QStringList({QStringLiteral("text")}));
    QCOMPARE(m_project->tool(QStringLiteral("fake__sum"))->outputSchema->dump(),
             std::string(R"({"properties":{"sum":{"type":"number"}},"required":["sum"],"type":"object"})"));
}

void TestMcpHandler::callsAsSteps_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QByteArray>("args");
    QTest::addColumn<QString>("status");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<QByteArray>("outcome"); ///< the result, or "code retryable: message"
    QTest::newRow("text content") << "fake__echo" << QByteArray(R"({"text": "hi"})") << "succeeded" << 1
                                  << QByteArray(R"({"content":[{"text":"echo: hi","type":"text"}]})");
    QTest::newRow("structuredContent") << "fake__sum" << QByteArray(R"({"a": 2, "b": 3})") << "succeeded" << 1
                                       << QByteArray(R"({"sum":5})");
    QTest::newRow("isError") << "fake__fail" << QByteArray("{}") << "failed" << 1
                             << QByteArray("tool_failed false: the tool says no");
    // An error text is the server's to choose: cut as an error reply is (2000 characters),
    // control characters escaped (it is printed in step lines and shown to the script).
    QTest::newRow("isError, 700 000 characters with escapes")
        << "fake__fail" << QByteArray(R"({"text": "no\u001b[2J ", "repeat": 100000})") << "failed" << 1
        << (QByteArray("tool_failed false: ") + QByteArray("no\\u001b[2J ").repeated(285) + QByteArray("no\\u001b[2")
            + QByteArray("\xe2\x80\xa6 (698000 bytes dropped)"));
    QTest::newRow("crash mid-call, restarted")
        << "fake__flaky" << QByteArray("{}") << "succeeded" << 2
        << QByteArray(R"({"content":[{"text":"flaky: attempt 2, call 1 of this process","type":"text"}]})");
    QTest::newRow("garbage on stdout") << "fake__garbage" << QByteArray("{}") << "succeeded" << 1
                                       << QByteArray(R"({"content":[{"text":"after garbage","type":"text"}]})");
}

void TestMcpHandler::callsAsSteps()
{
    QFETCH(QString, tool);
    QFETCH(QByteArray, args);
    QFETCH(QString, status);
    QFETCH(int, attempts);
    QFETCH(QByteArray, outcome);
    const Step step = call(tool, json::parse(args.toStdString()));
    QCOMPARE(stepStatusName(step.status), status);
    QCOMPARE(int(step.attempts.size()), attempts);
    const QByteArray got = step.result ? QByteArray::fromStdString(step.result->dump())
        : step.error ? step.error->codeName().toUtf8() + (step.error->retryable ? " true: " : " false: ")
            + QByteArray::fromStdString(step.error->message)
                     : QByteArray();
    QCOMPARE(got, outcome);
}

void TestMcpHandler::outputAndCancellation()
{
    // Checked here for the echo call's key too: the attempt's output is the server's
    // stderr during the call, naming the idempotency key sent in _meta.
    const Step echo = call(QStringLiteral("fake__echo"), {{"text", "k"}});
    QVERIFY(!echo.attempts.empty());
    QCOMPARE(echo.attempts.front().output, QByteArray("echo: key=") + echo.idempotencyKey.toUtf8() + QByteArray("\n"));

    // A timeout cancels the request: notifications/cancelled reaches the server.
    const Step hang = call(QStringLiteral("fake__hang"), json::object());
    QCOMPARE(hang.error->codeName(), QStringLiteral("timeout"));
    QCOMPARE(int(hang.attempts.size()), 2);
    // A timed-out attempt is journaled with its record so far, the cancellation sent
    // included: what the pool keeps of it (McpServerPool::cancelledExchange).
    McpServerPool *pool = McpServerPool::existing(m_project->dir);
    QVERIFY(pool);
    for (int attempt : {1, 2}) {
        const json kept = pool->cancelledExchange(hang.idempotencyKey, attempt);
        QVERIFY2(kept.is_object(), kept.dump().c_str());
        QCOMPARE(QByteArray::fromStdString(hang.attempts[std::size_t(attempt - 1)].protocol.dump()),
                 QByteArray::fromStdString(kept.dump()));
        QStringList rows;
        for (const json &entry : kept["messages"])
            rows << McpExchangeText::summary(entry);
        QCOMPARE(rows.size(), 2);
        QVERIFY2(rows.at(0).startsWith(QStringLiteral("→ request tools/call #")), qPrintable(rows.at(0)));
        QCOMPARE(rows.at(1), QStringLiteral("→ notification notifications/cancelled #") + rows.at(0).section(u'#', -1));
        QCOMPARE(kept["messages"][1]["message"]["params"]["requestId"].dump(),
                 kept["messages"][0]["message"]["id"].dump());
    }
    QVERIFY(pool->cancelledExchange(hang.idempotencyKey, 3).is_null());
    quint64 revision = 7;
    QVERIFY(pool->liveExchange(hang.idempotencyKey, 2, &revision).is_null()); // not in flight
    QCOMPARE(revision, quint64(0));
    const Step calls = call(QStringLiteral("fake__calls"), json::object());
    QVERIFY(calls.result);
    const json counted = json::parse(calls.result->at("content")[0]["text"].get<std::string>());
    QCOMPARE(counted["cancelled"].size(), std::size_t(2));
}

// attack40: an attempt cancelled before its request was sent (its server still
// starting) sent nothing, so it has no record — not the pool's record of an earlier call
// with the same idempotency key and attempt number (a run resumed in the same process
// keeps its id, so its calls' keys; here two engines of run "run1").
void TestMcpHandler::unsentCallHasNoRecord()
{
    const Step first = call(QStringLiteral("fake__hang"), {{"unsent", 1}});
    QCOMPARE(int(first.attempts.size()), 2);
    QVERIFY(first.attempts[0].protocol.is_object());
    McpServerPool *pool = McpServerPool::existing(m_project->dir);
    QVERIFY(pool);
    QVERIFY(pool->restart(QStringLiteral("fake")));
    // Timed out long before the restarted server is ready: nothing is sent.
    Project quick = *m_project;
    for (Tool &tool : quick.tools)
        if (tool.name == QLatin1String("fake__hang"))
            tool.retry.attemptTimeoutMs = 20;
    const Step second = call(QStringLiteral("fake__hang"), {{"unsent", 1}}, &quick);
    QCOMPARE(second.idempotencyKey, first.idempotencyKey);
    QCOMPARE(second.error->codeName(), QStringLiteral("timeout"));
    QCOMPARE(int(second.attempts.size()), 2);
    for (const Attempt &attempt : second.attempts)
        QVERIFY2(attempt.protocol.is_null(), attempt.protocol.dump().c_str());
    QVERIFY(QTest::qWaitFor([pool] { return pool->settled(); }, 10000));
}

void TestMcpHandler::progressAndLogsAreCoalesced()
{
    // 100 000 notifications/progress for the call's progressToken: the step shows them
    // live, a few a second (not one stepChanged each), and the attempt's output — what
    // the journal keeps — sums them up in one line after the server's log messages. A
    // progress notification for a token the studio never sent is ignored.
    // Sending and reading 100 000 messages takes longer than the project's 2 s attempt
    // timeout on a loaded machine (Debug; under ASan it took 43 s in CI): this tool gets
    // 5 minutes, and the test waits as long.
    Project project = *m_project;
    for (Tool &tool : project.tools)
        if (tool.name == QLatin1String("fake__progress"))
            tool.retry.attemptTimeoutMs = 300000;
    QStringList live;
    QElapsedTimer clock;
    clock.start();
    const Step step = call(QStringLiteral("fake__progress"), {{"count", 100000}}, &project, 300000, &live);
    qInfo("100 000 progress notifications: %lld ms, %lld live updates", clock.elapsed(), qint64(live.size()));
    QVERIFY2(step.status == StepStatus::Succeeded, qPrintable(step.error ? step.error->text() : QString()));
    QCOMPARE(step.result->dump(), std::string(R"({"content":[{"text":"done","type":"text"}]})"));
    QCOMPARE(int(step.attempts.size()), 1);
    QCOMPARE(QString::fromUtf8(step.attempts.front().output),
             QStringLiteral("MCP log warning [disk]: almost full\\u001b[2J\n"
                            "MCP log info: {\"rows\":3}\n"
                            "MCP progress: 100000 notification(s), the last: 100000/100000 step 100000\n"));
    QVERIFY2(!live.isEmpty() && live.size() < 1000, qPrintable(QString::number(live.size())));
    const QRegularExpression form(QStringLiteral("^(\\d+)/100000 step \\1$"));
    for (const QString &line : live)
        QVERIFY2(form.match(line).hasMatch(), qPrintable(line));
}

void TestMcpHandler::protocolIsBounded()
{
    // The Protocol tab's record of a server flooding a call (docs/mcp.md "The Protocol
    // tab"): 10 000 notifications/progress and two log messages; the request and the
    // first 198 notifications are kept, the rest counted exactly; the final response is kept.
    Project project = *m_project;
    for (Tool &tool : project.tools)
        if (tool.name == QLatin1String("fake__progress") || tool.name == QLatin1String("fake__fail"))
            tool.retry.attemptTimeoutMs = 120000;
    const Step step = call(QStringLiteral("fake__progress"), {{"count", 10000}}, &project, 120000);
    QVERIFY2(step.status == StepStatus::Succeeded, qPrintable(step.error ? step.error->text() : QString()));
    const json &exchange = step.attempts.front().protocol;
    QCOMPARE(exchange["messages"].size(), std::size_t(200));
    const json &request = exchange["messages"][0]["message"];
    const QString id = QString::fromStdString(request["id"].dump());
    const qint64 token = request["params"]["_meta"]["progressToken"].get<qint64>();
    QCOMPARE(McpExchangeText::summary(exchange["messages"][0]), QStringLiteral("→ request tools/call #") + id);
    for (int n = 1; n <= 198; ++n)
        QCOMPARE(McpExchangeText::summary(exchange["messages"][std::size_t(n)]),
                 QStringLiteral("← notification notifications/progress %1/10000").arg(n));
    QCOMPARE(McpExchangeText::summary(exchange["messages"][199]),
             QStringLiteral("← response #") + id + QStringLiteral(" result"));
    qint64 bytes = 0;
    for (int n = 199; n <= 10000; ++n)
        bytes += qint64(
            JsonRpcMessage::notification(
                "notifications/progress",
                {{"progressToken", token}, {"progress", n}, {"total", 10000}, {"message", "step " + std::to_string(n)}})
                .toJson()
                .dump()
                .size());
    bytes += qint64(
        JsonRpcMessage::notification("notifications/message",
                                     {{"level", "warning"}, {"logger", "disk"}, {"data", "almost full\x1b[2J"}})
            .toJson()
            .dump()
            .size());
    bytes += qint64(JsonRpcMessage::notification("notifications/message", {{"level", "info"}, {"data", {{"rows", 3}}}})
                        .toJson()
                        .dump()
                        .size());
    QCOMPARE(McpExchangeText::omitted(exchange), QStringLiteral("9804 more messages, %1 bytes, not kept").arg(bytes));

    // One result of 5 MiB: kept as its first bytes and its size.
    const Step big = call(QStringLiteral("fake__fail"), {{"text", "x"}, {"repeat", 5 << 20}}, &project, 120000);
    QCOMPARE(big.status, StepStatus::Failed);
    const json &clipped = big.attempts.front().protocol["messages"][1];
    const json id5 = big.attempts.front().protocol["messages"][0]["message"]["id"];
    const std::size_t size
        = JsonRpcMessage::resultFor(
              id5, {{"content", {{{"type", "text"}, {"text", std::string(5 << 20, 'x')}}}}, {"isError", true}})
              .toJson()
              .dump()
              .size();
    QCOMPARE(
        McpExchangeText::summary(clipped),
        QStringLiteral("← response #%1 result (%2 bytes, clipped)").arg(QString::fromStdString(id5.dump())).arg(size));
    QCOMPARE(clipped["head"].get<std::string>().size(), McpExchangeRecorder::HeadBytes);
}

void TestMcpHandler::contentBlocksAsSent()
{
    // Image, audio, embedded resource and resource link blocks are the step's result as
    // the server sent them (annotations, sizes and all), not only the text.
    const Step step = call(QStringLiteral("fake__blocks"), json::object());
    QVERIFY2(step.status == StepStatus::Succeeded, qPrintable(step.error ? step.error->text() : QString()));
    const json blocks = step.result->at("content");
    QCOMPARE(blocks.size(), std::size_t(5));
    const std::vector<std::string> expected{
        R"({"annotations":{"audience":["user"]},"data":"iVBORw0KGgo=","mimeType":"image/png","type":"image"})",
        R"({"data":"UklGRg==","mimeType":"audio/wav","type":"audio"})",
        R"({"resource":{"mimeType":"text/plain","text":"hello","uri":"file:///notes.txt"},"type":"resource"})",
        R"({"mimeType":"application/octet-stream","name":"big.bin","size":1048576,"type":"resource_link","uri":"file:///big.bin"})"};
    for (std::size_t n = 0; n < expected.size(); ++n)
        QCOMPARE(blocks[n + 1].dump(), expected[n]);
}

void TestMcpHandler::toolsListChanged()
{
    // The server changes its tools during a call and says so: the pool lists them again,
    // names what changed, and the project's MCP tools follow (replaceTools).
    McpServerPool *pool = McpServerPool::forProject(m_dir.path());
    QStringList changed;
    connect(pool, &McpServerPool::toolsChanged, this, [&changed](const QString &name) { changed << name; });
    QCOMPARE(call(QStringLiteral("fake__change"), json::object()).status, StepStatus::Succeeded);
    QTRY_COMPARE_WITH_TIMEOUT(changed, QStringList({QStringLiteral("fake")}), 30000);
    QCOMPARE(pool->server(QStringLiteral("fake"))->toolsChangedNote,
             QStringLiteral("its tools changed (added: extra; removed: calls; changed: echo)"));
    Project project = *m_project;
    QCOMPARE(McpProjectTools::replaceTools(project, *pool),
             QStringList({QStringLiteral("MCP server 'fake': its tools changed (added: extra; removed: calls; "
                                         "changed: echo)")}));
    QVERIFY(project.tool(QStringLiteral("fake__extra")));
    QVERIFY(!project.tool(QStringLiteral("fake__calls")));
    QCOMPARE(project.tool(QStringLiteral("fake__echo"))->description, QStringLiteral("Echoes text, louder"));
    QCOMPARE(int(project.tools.size()), int(m_project->tools.size()));
    // Changed and new since the first listing accepted the tools: their calls do not
    // reach the server (docs/mcp.md "Tools that change"); the others still do.
    const McpServerStatus *status = pool->server(QStringLiteral("fake"));
    QStringList changes;
    for (const McpToolChange &change : status->changedTools)
        changes << change.tool + u' ' + change.summary();
    QCOMPARE(changes, QStringList({QStringLiteral("echo description"), QStringLiteral("extra new")}));
    const Step echo = call(QStringLiteral("fake__echo"), {{"text", "hi"}}, &project);
    QCOMPARE(echo.status, StepStatus::Failed);
    QCOMPARE(echo.error->text(),
             QStringLiteral("tool_failed: MCP tool 'fake__echo' changed since it was accepted (description); its "
                            "description was \"Echoes text\" and is now \"Echoes text, louder\"; it is not called "
                            "until a person accepts it: review it in the MCP Servers dock, or run `toolstudio mcp "
                            "accept %1 fake echo`")
                 .arg(shellQuoted(QDir::cleanPath(m_project->dir))));
    QCOMPARE(int(echo.attempts.size()), 1);
    QCOMPARE(dumped(echo.error->details), dumped(json({{"tool_changed", true}})));
    QCOMPARE(dumped(call(QStringLiteral("fake__extra"), json::object(), &project).error->details),
             dumped(json({{"tool_changed", true}})));
    QCOMPARE(call(QStringLiteral("fake__sum"), {{"a", 1}, {"b", 2}}, &project).status, StepStatus::Succeeded);
    // Accepted (as Review Changes… does): called again.
    QString error;
    QVERIFY2(pool->acceptTools(QStringLiteral("fake"), status->changedTools, &error), qPrintable(error));
    QVERIFY(pool->server(QStringLiteral("fake"))->changedTools.empty());
    QCOMPARE(call(QStringLiteral("fake__echo"), {{"text", "hi"}}, &project).status, StepStatus::Succeeded);
}

void TestMcpHandler::referenceServerThroughTheEngine()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    // Confined to its project folder: the packages are copied in, as `npm install` would put them.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), modules, dir.path()}), 0);
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "e", "mcp_servers": {"everything": {"command": "node",
  "args": ["node_modules/@modelcontextprotocol/server-everything/dist/index.js"]}}})"));
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    QVERIFY2(project, qPrintable(error.toString()));
    QCOMPARE(McpProjectTools::connectAndAdd(*project), QStringList());
    // server-everything 2.0.0; get-roots-list, trigger-elicitation-request,
    // trigger-sampling-request and trigger-url-elicitation because the studio offers roots,
    // elicitation (form and URL) and sampling.
    QCOMPARE(int(project->tools.size()), 17);
    QVERIFY(project->tool(QStringLiteral("everything__trigger-url-elicitation")));
    const std::vector<std::pair<const char *, json>> valid{
        {"echo", {{"message", "hi"}}},
        {"get-sum", {{"a", 2}, {"b", 40}}},
        {"get-env", json::object()},
        {"get-tiny-image", json::object()},
        {"get-structured-content", {{"location", "Chicago"}}},
        {"get-annotated-message", {{"messageType", "success"}}},
        {"get-resource-links", {{"count", 2}}},
        {"get-resource-reference", json::object()},
        {"toggle-simulated-logging", json::object()},
        {"toggle-subscriber-updates", json::object()},
        {"trigger-long-running-operation", {{"duration", 1}, {"steps", 1}}},
    };
    for (const auto &[name, args] : valid) {
        const Step step = call(QStringLiteral("everything__") + QLatin1String(name), args, &*project);
        QVERIFY2(step.status == StepStatus::Succeeded,
                 qPrintable(QLatin1String(name) + u' ' + (step.error ? step.error->text() : QString())));
    }
    QCOMPARE(call(QStringLiteral("everything__echo"), {{"message", "hi"}}, &*project).result->dump(),
             std::string(R"({"content":[{"text":"Echo: hi","type":"text"}]})"));
    // structuredContent, checked against the tool's outputSchema, is the result.
    const Step weather
        = call(QStringLiteral("everything__get-structured-content"), {{"location", "Chicago"}}, &*project);
    QCOMPARE(weather.result->size(), std::size_t(3));
    QVERIFY(weather.result->contains("temperature"));
    // A tool that needs what the studio does not offer yet (tasks): isError, its text.
    const Step research = call(QStringLiteral("everything__simulate-research-query"), {{"topic", "x"}}, &*project);
    QCOMPARE(research.status, StepStatus::Failed);
    QCOMPARE(research.error->message,
             std::string("MCP error -32601: Tool simulate-research-query requires task augmentation (taskSupport: "
                         "'required')"));
}

QTEST_GUILESS_MAIN(TestMcpHandler)
#include "tst_mcphandler.moc"
