// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Argument completion (completion/complete, McpCompletion): against the MCP reference
// server "everything" from npm (its completable-prompt, resource-prompt and resource
// templates; installed by ./toolstudio.sh test into TOOLSTUDIO_MCP_SERVERS_DIR, skipped
// when it is not there) and tests/data/mcp/fakeresources.py: values that attack (a
// million, not text, 50 MiB, nested 100 000 deep), a server without the capability,
// one that declares it but answers -32601 (asked once a session), a 2026-07-28 server.
#include "mcp/mcpcompletion.h"
#include "mcpsessionwaits.h"
#include "mcpstdiofixtures.h"

using nlohmann::json;

namespace {

struct Completed
{
    McpCompletionResult result;
    McpReply reply;
    bool calledAtOnce = false;
};

Completed awaitCompletion(McpClientSession *session, const McpCompletionRef &ref, const QString &argument,
                          const QString &value, const QMap<QString, QString> &context = {})
{
    std::optional<Completed> got;
    bool returned = false;
    // Not the window's 10 s: reading a 50 MiB value took longer in a Debug build on a
    // loaded machine (a Debian 12 chroot beside two builds), and ASan is slower still.
    McpCompletion::complete(
        session, ref, argument, value, context,
        [&](const McpCompletionResult &result, const McpReply &reply) {
            got = Completed{result, reply, !returned};
        },
        120000);
    returned = true;
    (void)QTest::qWaitFor([&] { return got.has_value(); }, 150000);
    return got.value_or(Completed{{}, McpReply{{}, {}, QStringLiteral("no answer in time")}});
}

McpCompletionRef prompt(const char *name)
{
    return {McpCompletionRef::Kind::Prompt, QString::fromLatin1(name)};
}

McpCompletionRef resource(const char *uriTemplate)
{
    return {McpCompletionRef::Kind::ResourceTemplate, QString::fromLatin1(uriTemplate)};
}

const char *const Note = "file:///notes/{folder}/{name}";

/// The values, or the reply's failure.
QString valuesOf(const Completed &completed)
{
    return completed.reply.ok() ? completed.result.values.join(u',')
                                : QStringLiteral("failed: ") + completed.reply.errorText();
}

} // namespace

class TestMcpCompletion : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void referenceServer();
    void fakeCompletesWithContext();
    void hostileValuesAreBounded();
    void malformedRepliesFail();
    void serverWithoutTheCapabilityIsNotAsked();
    void methodNotFoundIsAskedOncePerSession();
    void modernServer();
};

void TestMcpCompletion::referenceServer()
{
    const QString modules = referenceServerModules();
    if (modules.isEmpty())
        QSKIP(ReferenceServerMissing);
    const McpStdioTransport::Launch launch = everythingOverStdio(modules);
    McpClientSession session;
    session.open(launch);
    QVERIFY(waitReady(session));
    QVERIFY(McpCompletion::offered(&session));

    // completable-prompt: department by prefix; name by the department in the context.
    const Completed all = awaitCompletion(&session, prompt("completable-prompt"), QStringLiteral("department"), {});
    QCOMPARE(valuesOf(all), QStringLiteral("Engineering,Sales,Marketing,Support"));
    QCOMPARE(all.result.total, 4);
    QVERIFY(!all.result.hasMore);
    QCOMPARE(all.result.dropped, 0);
    QVERIFY(!all.calledAtOnce);
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("completable-prompt"), QStringLiteral("department"),
                                      QStringLiteral("S"))),
             QStringLiteral("Sales,Support"));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("completable-prompt"), QStringLiteral("name"), {},
                                      {{QStringLiteral("department"), QStringLiteral("Sales")}})),
             QStringLiteral("David,Eve,Frank"));
    // The field's own value is not sent as context.
    QCOMPARE(
        valuesOf(awaitCompletion(
            &session, prompt("completable-prompt"), QStringLiteral("name"), QStringLiteral("E"),
            {{QStringLiteral("department"), QStringLiteral("Sales")}, {QStringLiteral("name"), QStringLiteral("Z")}})),
        QStringLiteral("Eve"));
    const Completed none = awaitCompletion(&session, prompt("completable-prompt"), QStringLiteral("name"), {});
    QVERIFY2(none.reply.ok(), qPrintable(none.reply.errorText()));
    QCOMPARE(none.result.values, QStringList());
    QCOMPARE(none.result.total, 0);
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("resource-prompt"), QStringLiteral("resourceType"),
                                      QStringLiteral("B"))),
             QStringLiteral("Blob"));

    // A template's variable.
    QCOMPARE(valuesOf(awaitCompletion(&session, resource("demo://resource/dynamic/text/{resourceId}"),
                                      QStringLiteral("resourceId"), QStringLiteral("42"))),
             QStringLiteral("42"));
    QCOMPARE(valuesOf(awaitCompletion(&session, resource("demo://resource/dynamic/blob/{resourceId}"),
                                      QStringLiteral("resourceId"), QStringLiteral("x"))),
             QString());

    // An argument it does not complete: no values, no total; a prompt it does not have: its error.
    const Completed plain
        = awaitCompletion(&session, prompt("args-prompt"), QStringLiteral("city"), QStringLiteral("P"));
    QVERIFY2(plain.reply.ok(), qPrintable(plain.reply.errorText()));
    QCOMPARE(plain.result.values, QStringList());
    QCOMPARE(plain.result.total, -1);
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("nope"), QStringLiteral("x"), {})),
             QStringLiteral("failed: -32602: MCP error -32602: Prompt nope not found"));
}

void TestMcpCompletion::fakeCompletesWithContext()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("good")));
    QVERIFY(waitReady(session));
    QVERIFY(McpCompletion::offered(&session));
    QCOMPARE(valuesOf(awaitCompletion(&session, resource(Note), QStringLiteral("folder"), QStringLiteral("i"))),
             QStringLiteral("inbox,ideas"));
    QCOMPARE(valuesOf(awaitCompletion(&session, resource(Note), QStringLiteral("name"), QStringLiteral("to"),
                                      {{QStringLiteral("folder"), QStringLiteral("inbox")}})),
             QStringLiteral("todo.txt,today.txt"));
    QCOMPARE(valuesOf(awaitCompletion(&session, resource(Note), QStringLiteral("name"), {})),
             QStringLiteral("readme.txt"));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("A"))),
             QStringLiteral("Ada,Alan"));

    // What was sent, as the server got it: the ref, the argument, the other filled-in
    // arguments (not the field's own, not the empty ones); no context when there is none.
    QCOMPARE(valuesOf(awaitCompletion(&session, resource(Note), QStringLiteral("name"), QStringLiteral("echo"),
                                      {{QStringLiteral("folder"), QStringLiteral("inbox")},
                                       {QStringLiteral("name"), QStringLiteral("x")},
                                       {QStringLiteral("style"), QString()}})),
             QStringLiteral(
                 "{\"argument\": {\"name\": \"name\", \"value\": \"echo\"}, \"context\": {\"arguments\": {\"folder\": "
                 "\"inbox\"}}, \"ref\": {\"type\": \"ref/resource\", \"uri\": \"file:///notes/{folder}/{name}\"}}"));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("style"), QStringLiteral("echo"))),
             QStringLiteral(
                 "{\"argument\": {\"name\": \"style\", \"value\": \"echo\"}, \"ref\": {\"name\": \"greet\", \"type\": "
                 "\"ref/prompt\"}}"));
    // The server's own error for a ref it has no completions for.
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("odd"), QStringLiteral("x"), QStringLiteral("y"))),
             QStringLiteral("failed: -32602: no completions for [\"ref/prompt\", \"odd\", \"x\"]"));
}

void TestMcpCompletion::hostileValuesAreBounded()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("good")));
    QVERIFY(waitReady(session));

    // Values that are not text, empty, repeated, too long or not printable are left out.
    const Completed mixed = awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("mixed"));
    QCOMPARE(valuesOf(mixed), QStringLiteral("ok,fine"));
    QCOMPARE(mixed.result.dropped, 10);
    QCOMPARE(mixed.result.total, 12);
    QVERIFY(!mixed.result.hasMore);

    // A million values: the first hundred, and "more".
    const Completed many = awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("many"));
    QVERIFY2(many.reply.ok(), qPrintable(many.reply.errorText()));
    QCOMPARE(many.result.values.size(), McpCompletion::MaxValues);
    QCOMPARE(many.result.values.front(), QStringLiteral("v0"));
    QCOMPARE(many.result.values.back(), QStringLiteral("v99"));
    QVERIFY(many.result.hasMore);
    QCOMPARE(many.result.total, -1);
    QCOMPARE(many.result.dropped, 0);

    // A value of 50 MiB is left out, not cut; the one after it is kept.
    const Completed huge = awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("huge"));
    QCOMPARE(valuesOf(huge), QStringLiteral("after"));
    QCOMPARE(huge.result.dropped, 1);

    // Nested 100 000 deep: the reply cannot be read; the request fails, the session lives.
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("deep"))),
             QStringLiteral("failed: the server's reply to request 5 could not be read: not valid JSON: nested deeper "
                            "than 128 levels (byte offset 182)"));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("G"))),
             QStringLiteral("Grace"));
}

void TestMcpCompletion::malformedRepliesFail()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("good")));
    QVERIFY(waitReady(session));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("shapeless"))),
             QStringLiteral("failed: the server's completion/complete result has no \"completion\" object with a "
                            "\"values\" array"));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("error"))),
             QStringLiteral("failed: -32602: no completions for that"));

    // parseResult on its own: what is not the shape, and what is ignored.
    const auto parse = [](const char *text) {
        QString error;
        const McpCompletionResult result = McpCompletion::parseResult(json::parse(text), &error);
        return error.isEmpty() ? result.values.join(u',')
                + QStringLiteral(" total=%1 more=%2")
                      .arg(result.total)
                      .arg(QLatin1String(result.hasMore ? "yes" : "no"))
                               : error;
    };
    const QString shapeless = QStringLiteral(
        "the server's completion/complete result has no \"completion\" object with a \"values\" array");
    QCOMPARE(parse("[]"), shapeless);
    QCOMPARE(parse("{\"completion\": []}"), shapeless);
    QCOMPARE(parse("{\"completion\": {\"values\": {\"a\": \"b\"}}}"), shapeless);
    QCOMPARE(parse("{\"completion\": {\"values\": [\"a\"], \"total\": -5, \"hasMore\": \"yes\"}}"),
             QStringLiteral("a total=-1 more=no"));
    QCOMPARE(parse("{\"completion\": {\"values\": [], \"total\": 3.5, \"hasMore\": true}}"),
             QStringLiteral(" total=-1 more=yes"));
}

void TestMcpCompletion::serverWithoutTheCapabilityIsNotAsked()
{
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("no-completions")));
    QVERIFY(waitReady(session));
    QVERIFY(!McpCompletion::offered(&session));
    const Completed refused = awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("A"));
    QCOMPARE(valuesOf(refused),
             QStringLiteral("failed: the server declares no \"completions\" capability in its "
                            "initialize result: it offers none, so the studio does not ask"));
    QVERIFY(!refused.calledAtOnce);
    const McpReply counts = callAndWait(session, QStringLiteral("counts"));
    QVERIFY2(counts.ok(), qPrintable(counts.errorText()));
    QCOMPARE(counts.result["content"][0]["text"].get<std::string>(), std::string("{\"tools/call\": 1}"));

    // Nor a session that is not connected.
    QVERIFY(!McpCompletion::offered(nullptr));
    const Completed unconnected = awaitCompletion(nullptr, prompt("greet"), QStringLiteral("name"), {});
    QCOMPARE(valuesOf(unconnected), QStringLiteral("failed: the server is not connected"));
    QVERIFY(!unconnected.calledAtOnce);
}

void TestMcpCompletion::methodNotFoundIsAskedOncePerSession()
{
    const McpStdioTransport::Launch launch = fakeResources(QStringLiteral("complete-not-found"));
    McpClientSession session;
    session.open(launch);
    QVERIFY(waitReady(session));
    QVERIFY(McpCompletion::offered(&session));
    QCOMPARE(McpCompletion::methodMissing(&session), QString());
    const QString missing = QStringLiteral(
        "the server declares \"completions\" but answers completion/complete with -32601: Method not found");

    // The first request is answered -32601: said in words, and remembered.
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("A"))),
             QStringLiteral("failed: ") + missing);
    QVERIFY(!McpCompletion::offered(&session));
    QCOMPARE(McpCompletion::methodMissing(&session), missing);
    // The rest of the session: not asked again, whatever the ref or argument.
    const Completed again = awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("Ad"));
    QCOMPARE(valuesOf(again), QStringLiteral("failed: ") + missing);
    QVERIFY(!again.calledAtOnce);
    QCOMPARE(valuesOf(awaitCompletion(&session, resource(Note), QStringLiteral("folder"), QStringLiteral("i"))),
             QStringLiteral("failed: ") + missing);
    const McpReply counts = callAndWait(session, QStringLiteral("counts"));
    QVERIFY2(counts.ok(), qPrintable(counts.errorText()));
    QCOMPARE(counts.result["content"][0]["text"].get<std::string>(),
             std::string("{\"completion/complete\": 1, \"tools/call\": 1}"));

    // A restart is a new server session: it is asked again (once). The pool restarts
    // with a new McpClientSession; the same one opened again asks again too.
    session.close();
    QVERIFY(QTest::qWaitFor([&session] { return !session.transport()->isRunning(); }, 10000));
    session.open(launch);
    QVERIFY(waitReady(session));
    QVERIFY(McpCompletion::offered(&session));
    QCOMPARE(McpCompletion::methodMissing(&session), QString());
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("A"))),
             QStringLiteral("failed: ") + missing);
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("Al"))),
             QStringLiteral("failed: ") + missing);
    const McpReply restarted = callAndWait(session, QStringLiteral("counts"));
    QCOMPARE(restarted.result["content"][0]["text"].get<std::string>(),
             std::string("{\"completion/complete\": 1, \"tools/call\": 1}"));
}

void TestMcpCompletion::modernServer()
{
    // A 2026-07-28 server refuses a request without the per-request _meta: completions
    // that come back went through the session's 2026 request path.
    McpClientSession session;
    session.open(fakeResources(QStringLiteral("modern")));
    QVERIFY(waitReady(session));
    QVERIFY(session.stateless());
    QVERIFY(McpCompletion::offered(&session));
    QCOMPARE(valuesOf(awaitCompletion(&session, prompt("greet"), QStringLiteral("name"), QStringLiteral("A"))),
             QStringLiteral("Ada,Alan"));
    QCOMPARE(valuesOf(awaitCompletion(&session, resource(Note), QStringLiteral("name"), QStringLiteral("t"),
                                      {{QStringLiteral("folder"), QStringLiteral("inbox")}})),
             QStringLiteral("todo.txt,today.txt"));
}

QTEST_GUILESS_MAIN(TestMcpCompletion)
#include "tst_mcpcompletion.moc"
