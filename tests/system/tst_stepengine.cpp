// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "journal/journaltail.h"
#include "project/project.h"
#include "python/toolsandbox.h"
#include "trustedproject.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using json = nlohmann::json;

namespace {

/// JSON text written with single quotes (moc cannot read raw string literals).
/// The end of every divergence message: the matching rule and the likely reason.
const QString RuleText = QStringLiteral(
    "Calls are matched by tool, arguments and the number of identical calls before them, not by arrival order, so a "
    "script whose arguments depend on completion order (or on time, randomness or changed input) diverges");

std::string J(const char *text)
{
    std::string result(text);
    std::replace(result.begin(), result.end(), '\'', '"');
    return result;
}

/// The idempotency key of call `n` (0-based) of `tool` with `args` in run `runId`:
/// "<runId>:<tool>:<argsHash>:<n>" (docs/steps.md "Call identity").
QString keyOf(const char *runId, const char *tool, const json &args = json::object(), int n = 0)
{
    return QStringLiteral("%1:%2:%3:%4")
        .arg(QLatin1StringView(runId), QLatin1StringView(tool), StepEngine::argsHash(args))
        .arg(n);
}

json mockTool(const char *name, const char *sequence, const char *extra = "{}")
{
    json tool = {{"name", name}, {"handler", {{"kind", "mock"}, {"sequence", json::parse(J(sequence))}}}};
    tool.update(json::parse(J(extra)));
    return tool;
}

json commandTool(const char *name, json command, const char *extra = "{}")
{
    json tool = {{"name", name}, {"handler", {{"kind", "command"}, {"command", std::move(command)}}}};
    tool.update(json::parse(J(extra)));
    return tool;
}

/// A step_decision event's detail without how long the step was held (`held_ms`,
/// `queued_at_before`: times of the run, checked in heldStepsDurationLeavesOutTheHold).
json withoutHold(json detail)
{
    detail.erase("held_ms");
    detail.erase("queued_at_before");
    return detail;
}

/// The tools most tests share. Backoff is short so retries take milliseconds.
json baseManifest()
{
    json tools = json::array();
    tools.push_back(mockTool(
        "get_exchange_rate", "[{'result': 0.92}]",
        "{'input_schema': {'type': 'object', 'properties': {'base': {'type': 'string'}, 'quote': {'type': 'string'}},"
        " 'required': ['base', 'quote']}}"));
    tools.push_back(
        mockTool("flaky", "[{'error': 'rate service down'}, {'error': 'rate service down'}, {'result': 0.92}]"));
    tools.push_back(mockTool("always_down", "[{'error': 'rate service down'}]"));
    tools.push_back(mockTool("broken", "[{'error': 'bad request', 'retryable': false}]"));
    tools.push_back(
        mockTool("counter", "[{'result': 1}, {'result': 2}]",
                 "{'input_schema': {'type': 'object', 'properties': {'n': {'type': 'integer'}}, 'required': ['n']}}"));
    tools.push_back(mockTool("slow", "[{'result': 'late', 'delay_seconds': 5}]",
                             "{'retry': {'attempt_timeout_seconds': 0.2, 'max_attempts': 1}}"));
    tools.push_back(mockTool(
        "stuck", "[{'error': 'still down'}]",
        "{'retry': {'initial_backoff_seconds': 10, 'max_backoff_seconds': 10, 'total_timeout_seconds': 0.3}}"));
    tools.push_back(mockTool("big", "[{'result': '0123456789abcdefghij'}]"));
    tools.push_back(mockTool("typed_out", "[{'result': 'x'}]", "{'output_schema': {'type': 'number'}}"));
    tools.push_back(mockTool("fast", "[{'result': 'fast', 'delay_seconds': 0.05}]"));
    tools.push_back(mockTool("slowish", "[{'result': 'slowish', 'delay_seconds': 0.4}]"));
    tools.push_back(mockTool("retired", "[{'result': 1}]", "{'active': false}"));
    tools.push_back(json::parse(J("{'name': 'render_report', 'handler': {'kind': 'manual'},"
                                  " 'input_schema': {'type': 'object', 'properties': {'topic': {'type': 'string'}}},"
                                  " 'output_schema': {'type': 'string'}, 'retry': {'max_attempts': 2}}")));
    tools.push_back(commandTool("lookup", {"sh", "tools/lookup.sh"}));
    tools.push_back(
        commandTool("data_error",
                    {"sh", "-c", "cat >/dev/null; echo 'checking XYZ' >&2; echo 'unknown currency XYZ' >&2; exit 65"}));
    tools.push_back(commandTool("garbage", {"sh", "-c", "echo 'rate: 0.92'"}));
    tools.push_back(commandTool("silent", {"true"}));
    tools.push_back(commandTool("missing_program", {"./no-such-program"}));
    tools.push_back(commandTool("hang", {"sh", "-c", "sleep 30 & echo $! > \"$HOME/sleep.pid\"; wait"},
                                "{'retry': {'attempt_timeout_seconds': 0.3, 'max_attempts': 1}}"));
    tools.push_back(
        commandTool("keyed",
                    {"sh", "-c",
                     "cat >/dev/null; echo \"$TOOLSTUDIO_ATTEMPT $TOOLSTUDIO_IDEMPOTENCY_KEY\" >> \"$HOME/keys.txt\";"
                     " if [ \"$TOOLSTUDIO_ATTEMPT\" = 1 ]; then sleep 5; fi; echo 42"},
                    "{'retry': {'attempt_timeout_seconds': 0.3, 'max_attempts': 2}}"));
    tools.push_back(json::parse(J("{'name': 'ask_bounded', 'handler': {'kind': 'manual'},"
                                  " 'retry': {'attempt_timeout_seconds': 0.2, 'max_attempts': 1}}")));
    tools.push_back(mockTool("backoff", "[{'error': 'busy'}, {'result': 'ok'}]",
                             "{'retry': {'initial_backoff_seconds': 10, 'max_backoff_seconds': 10, 'jitter': 0}}"));
    return {
        {"name", "engine-test"},
        {"retry", json::parse(J("{'initial_backoff_seconds': 0.01, 'max_backoff_seconds': 0.05, 'jitter': 0}"))},
        {"tools", tools},
    };
}

/// Fails attempts 1 and 2 with EX_TEMPFAIL, succeeds on 3; tells on stderr what it got.
const char *const LookupScript
    = "args=$(cat)\n"
      "echo \"key=$TOOLSTUDIO_IDEMPOTENCY_KEY attempt=$TOOLSTUDIO_ATTEMPT tool=$TOOLSTUDIO_TOOL args=$args\" >&2\n"
      "if [ \"$TOOLSTUDIO_ATTEMPT\" -lt 3 ]; then echo 'lookup service busy' >&2; exit 75; fi\n"
      "printf '{\"key\": \"%s\", \"attempt\": %s}\\n' \"$TOOLSTUDIO_IDEMPOTENCY_KEY\" \"$TOOLSTUDIO_ATTEMPT\"\n";

struct Reply
{
    std::string id;
    json message;
};

/// A project in a temporary folder, its journal, an engine for run "run-1", and
/// everything the engine emitted.
class Harness
{
public:
    QTemporaryDir dir;
    std::optional<Project> project;
    Journal journal;
    std::unique_ptr<StepEngine> engine;
    std::vector<Reply> replies;
    std::vector<std::pair<QString, StepStatus>> changes; ///< (call id, status) per stepChanged
    QStringList added;
    QStringList opened;
    QStringList closed;
    QStringList paused;
    QStringList divergences;

    bool setUp(const json &manifest, const QStringList &bound = {})
    {
        QDir(dir.path()).mkpath(QStringLiteral("tools"));
        QFile script(dir.filePath(QStringLiteral("tools/lookup.sh")));
        QFile file(dir.filePath(QStringLiteral("toolstudio.json")));
        if (!script.open(QIODevice::WriteOnly) || script.write(LookupScript) < 0 || !file.open(QIODevice::WriteOnly))
            return false;
        file.write(QByteArray::fromStdString(manifest.dump(2)));
        file.close();
        ProjectError error;
        project = loadTrusted(dir.path(), &error);
        if (!project) {
            qWarning("%s", qPrintable(error.toString()));
            return false;
        }
        if (!journal.open(project->journalPath()))
            return false;
        newEngine(QStringLiteral("run-1"), bound);
        return true;
    }

    /// A fresh engine (a new run, or the same run resumed) on the same project and journal.
    void newEngine(const QString &runId, const QStringList &bound = {}, std::optional<ReplayPlan> plan = std::nullopt)
    {
        engine.reset();
        replies.clear();
        changes.clear();
        added.clear();
        opened.clear();
        closed.clear();
        paused.clear();
        divergences.clear();
        engine = std::make_unique<StepEngine>(*project, runId, &journal, bound);
        if (plan)
            engine->setReplayPlan(std::move(*plan));
        QObject::connect(engine.get(), &StepEngine::replyReady, engine.get(),
                         [this](const std::string &id, const std::string &line) {
                             replies.push_back({id, json::parse(line)});
                         });
        QObject::connect(engine.get(), &StepEngine::stepChanged, engine.get(),
                         [this](const Step &step) { changes.emplace_back(step.callId, step.status); });
        QObject::connect(engine.get(), &StepEngine::stepAdded, engine.get(),
                         [this](const Step &step) { added << step.callId; });
        QObject::connect(engine.get(), &StepEngine::pendingCallOpened, engine.get(),
                         [this](const Step &step) { opened << step.callId; });
        QObject::connect(engine.get(), &StepEngine::pendingCallClosed, engine.get(),
                         [this](const QString &id) { closed << id; });
        QObject::connect(engine.get(), &StepEngine::stepPaused, engine.get(),
                         [this](const Step &step) { paused << step.callId; });
        QObject::connect(engine.get(), &StepEngine::divergenceFound, engine.get(),
                         [this](const Step &step) { divergences << step.divergence; });
    }

    void call(const char *id, const char *tool, const json &args = json::object())
    {
        BridgeCall call;
        call.id = id;
        call.tool = tool;
        call.args = args;
        call.argsBytes = args.dump().size();
        engine->submitCall(call);
    }

    const Reply *reply(const char *id) const
    {
        for (const Reply &r : replies)
            if (r.id == id)
                return &r;
        return nullptr;
    }

    const Step &step(const char *id) const
    {
        static const Step none;
        const Step *s = engine->step(QString::fromLatin1(id));
        return s ? *s : none;
    }

    std::vector<StepStatus> statusesOf(const char *id) const
    {
        std::vector<StepStatus> result;
        for (const auto &[callId, status] : changes)
            if (callId == QLatin1String(id))
                result.push_back(status);
        return result;
    }
};

json errorOf(const Reply *reply)
{
    return reply && reply->message.value("type", "") == "error" ? reply->message.at("error") : json();
}

} // namespace

/// The folder command tools of `h`'s project run in (docs/sandbox.md "Trusted code"):
/// their HOME is its scratch dir.
std::shared_ptr<ToolSandbox> commandSandbox(const Harness &h)
{
    QString error;
    return ToolSandbox::forProject(QFileInfo(h.dir.path()).canonicalFilePath(), &error);
}

class TestStepEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusedCalls_data()
    {
        QTest::addColumn<QByteArray>("tool");
        QTest::addColumn<QByteArray>("args");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("pointer");

        QTest::newRow("unknown tool") << QByteArray("nope") << QByteArray("{}") << QStringLiteral("unknown_tool")
                                      << QStringLiteral("no tool named 'nope' in this project") << QString();
        QTest::newRow("inactive tool") << QByteArray("retired") << QByteArray("{}") << QStringLiteral("inactive_tool")
                                       << QStringLiteral("tool 'retired' is inactive") << QString();
        QTest::newRow("missing required")
            << QByteArray("counter") << QByteArray("{}") << QStringLiteral("invalid_arguments")
            << QStringLiteral("invalid arguments for 'counter' at /n: required property is missing")
            << QStringLiteral("/n");
        QTest::newRow("wrong type") << QByteArray("counter") << QByteArray("{\"n\": \"1\"}")
                                    << QStringLiteral("invalid_arguments")
                                    << QStringLiteral(
                                           "invalid arguments for 'counter' at /n: expected integer, got string")
                                    << QStringLiteral("/n");
        QTest::newRow("too many positional")
            << QByteArray("counter") << QByteArray("[1, 2]") << QStringLiteral("invalid_arguments")
            << QStringLiteral(
                   "invalid arguments for 'counter' at /1: takes 1 positional argument(s) (n) but 2 were given")
            << QStringLiteral("/1");
        QTest::newRow("not an object") << QByteArray("counter") << QByteArray("\"five\"")
                                       << QStringLiteral("invalid_arguments")
                                       << QStringLiteral("invalid arguments for 'counter': expected object, got string")
                                       << QString();
    }

    void refusedCalls()
    {
        QFETCH(QByteArray, tool);
        QFETCH(QByteArray, args);
        QFETCH(QString, code);
        QFETCH(QString, message);
        QFETCH(QString, pointer);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));

        h.call("c1", tool.constData(), json::parse(args.constData()));
        // Refusals are replied at once, without a handler.
        QCOMPARE(h.replies.size(), std::size_t(1));
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(QString::fromStdString(error.value("code", "")), code);
        QCOMPARE(QString::fromStdString(error.value("message", "")), message);
        QCOMPARE(error.value("retryable", true), false);
        QCOMPARE(error.value("attempts", -1), 0);
        if (!pointer.isNull())
            QCOMPARE(QString::fromStdString(error.value("pointer", "?")), pointer);

        const Step &step = h.step("c1");
        QCOMPARE(step.sequence, 1);
        QCOMPARE(step.status, StepStatus::Failed);
        QVERIFY(step.attempts.empty());
        QCOMPARE(h.added, QStringList{QStringLiteral("c1")});

        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(1));
        QCOMPARE(journaled[0].status, StepStatus::Failed);
        QCOMPARE(journaled[0].error->codeName(), code);

        // The handler never ran: the mock's first entry still answers the next call.
        if (tool == "counter") {
            h.call("c2", "counter", {{"n", 5}});
            QTRY_VERIFY(h.reply("c2"));
            QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':1}"));
            QCOMPARE(h.step("c2").sequence, 2);
        }
    }

    /// OpenAI strict mode sends null for a parameter it leaves out (docs/steps.md "A null
    /// for a parameter left out"): a null for a parameter that is not required and does not
    /// take null is left out, so the handler gets the call without it (its default
    /// applies); the step keeps what the script sent and says what was left out. A
    /// required parameter's null is still refused, a nullable one keeps its null.
    void strictModeNullsAreLeftOut()
    {
        json manifest = baseManifest();
        manifest["tools"].push_back(commandTool(
            "echo_args", {"sh", "-c", "cat"},
            "{'input_schema': {'type': 'object', 'properties': {'q': {'type': 'string'}, 'n': {'type': 'integer',"
            " 'default': 3}, 'note': {'type': ['string', 'null']}}, 'required': ['q'], 'additionalProperties': false}}"));
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.call("c1", "echo_args", json::parse(J("{'q': 'tea', 'n': null, 'note': null}")));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        QCOMPARE(QString::fromStdString(h.reply("c1")->message.dump()),
                 QString::fromStdString(J("{'id':'c1','type':'result','value':{'note':null,'q':'tea'}}")));
        QCOMPARE(h.step("c1").args.dump(), J("{'n':null,'note':null,'q':'tea'}"));
        QCOMPARE(h.journal.steps(QStringLiteral("run-1"))[0].args.dump(), J("{'n':null,'note':null,'q':'tea'}"));
        const auto events = h.journal.events(QStringLiteral("run-1"));
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(policyEventKindName(events[0].kind), QStringLiteral("nulls_left_out"));
        QCOMPARE(events[0].sequence, 1);
        QCOMPARE(events[0].detail["properties"].dump(), J("['n']"));
        QCOMPARE(QString::fromStdString(events[0].detail.value("text", "")),
                 QStringLiteral("null for 'n' left out: not required and its schema does not take null (a strict-mode "
                                "model's way of leaving it out), so the tool's default applies"));

        h.call("c2", "echo_args", json::parse(J("{'q': null, 'n': null}")));
        QCOMPARE(QString::fromStdString(errorOf(h.reply("c2")).value("message", "")),
                 QStringLiteral("invalid arguments for 'echo_args' at /q: expected string, got null"));
        h.call("c3", "echo_args", json::parse(J("{'q': 'tea', 'colour': null}")));
        QCOMPARE(QString::fromStdString(errorOf(h.reply("c3")).value("message", "")),
                 QStringLiteral("invalid arguments for 'echo_args' at /colour: property is not allowed by the schema"));
    }

    void unboundTool()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest(), {QStringLiteral("get_exchange_rate")}));
        h.call("c1", "flaky");
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("unknown_tool"));
        QCOMPARE(error.value("message", ""), std::string("tool 'flaky' is not bound to this script"));
        h.call("c2", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QTRY_VERIFY(h.reply("c2"));
        QCOMPARE(h.reply("c2")->message.value("value", 0.0), 0.92);
    }

    void retriesThenSucceeds()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "flaky");
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.replies.size(), std::size_t(1));
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':0.92}"));

        QCOMPARE(h.engine->steps().size(), std::size_t(1));
        const Step &step = h.step("c1");
        QCOMPARE(step.status, StepStatus::Succeeded);
        QCOMPARE(step.attemptsText(), QStringLiteral("3/3"));
        QCOMPARE(step.attempts.size(), std::size_t(3));
        for (int i = 0; i < 2; ++i) {
            QVERIFY(!step.attempts[i].succeeded);
            QCOMPARE(step.attempts[i].error->codeName(), QStringLiteral("tool_failed"));
            QCOMPARE(step.attempts[i].error->message, std::string("rate service down"));
            QVERIFY(step.attempts[i].error->retryable);
            QVERIFY(step.attempts[i].endedAt >= step.attempts[i].startedAt);
            QVERIFY(step.attempts[i + 1].startedAt >= step.attempts[i].endedAt);
        }
        QVERIFY(step.attempts[2].succeeded);
        QCOMPARE(step.result->dump(), std::string("0.92"));
        QVERIFY(!step.error);
        QCOMPARE(step.idempotencyKey, keyOf("run-1", "flaky"));
        QVERIFY(step.endedAt >= step.queuedAt);

        QCOMPARE(h.added, QStringList{QStringLiteral("c1")});
        const std::vector<StepStatus> expected{StepStatus::Running,  StepStatus::Retrying, StepStatus::Running,
                                               StepStatus::Retrying, StepStatus::Running,  StepStatus::Succeeded};
        QCOMPARE(h.statusesOf("c1"), expected);

        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(1));
        QCOMPARE(journaled[0].status, StepStatus::Succeeded);
        QCOMPARE(journaled[0].attempts.size(), std::size_t(3));
    }

    void retriesExhausted()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "always_down");
        QTRY_VERIFY(h.reply("c1"));
        // The reply carries the last attempt's error; `retryable` says the failure was
        // transient, `attempts` that the engine already tried 3 times.
        QCOMPARE(errorOf(h.reply("c1")).dump(),
                 J("{'attempts':3,'code':'tool_failed','message':'rate service down','retryable':true}"));
        QCOMPARE(h.step("c1").status, StepStatus::Failed);
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(3));
    }

    void nonRetryableError()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "broken");
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(errorOf(h.reply("c1")).dump(),
                 J("{'attempts':1,'code':'tool_failed','message':'bad request','retryable':false}"));
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(1));
    }

    void maxCallsExceeded()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest())); // default: 100 calls per run
        for (int i = 1; i <= 101; ++i)
            h.call(QByteArray("c" + QByteArray::number(i)).constData(), "get_exchange_rate",
                   {{"base", "USD"}, {"quote", "EUR"}});
        // The 101st is refused at once; the first 100 still run.
        QVERIFY(h.reply("c101"));
        const json error = errorOf(h.reply("c101"));
        QCOMPARE(error.value("code", ""), std::string("max_calls_exceeded"));
        QCOMPARE(error.value("message", ""),
                 std::string("call 101 exceeds the limit of 100 calls per run (limits.max_calls; refused calls count "
                             "too); later calls are refused without being recorded one by one"));
        QTRY_COMPARE(h.replies.size(), std::size_t(101));
        QCOMPARE(h.engine->callCount(), 100);
        QCOMPARE(h.reply("c100")->message.value("type", ""), std::string("result"));
        QCOMPARE(h.step("c101").sequence, 101);
        QCOMPARE(h.step("c101").status, StepStatus::Failed);
    }

    void positionalArguments()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "get_exchange_rate", json::array({"USD", "EUR"}));
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.value("type", ""), std::string("result"));
        QCOMPARE(h.step("c1").args.dump(), J("{'base':'USD','quote':'EUR'}"));
        // fewer than declared is fine as far as mapping goes; the schema decides
        h.call("c2", "get_exchange_rate", json::array({"USD"}));
        QCOMPARE(errorOf(h.reply("c2")).value("pointer", ""), std::string("/quote"));
    }

    void requestTooLarge()
    {
        json manifest = baseManifest();
        manifest["limits"] = {{"request_bytes", 64}};
        Harness h;
        QVERIFY(h.setUp(manifest));
        const json args = {{"base", std::string(100, 'x')}, {"quote", "EUR"}};
        h.call("c1", "get_exchange_rate", args);
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("request_too_large"));
        QCOMPARE(
            QString::fromStdString(error.value("message", "")),
            QStringLiteral(
                "arguments of get_exchange_rate are %1 bytes; the request limit is 64 bytes (limits.request_bytes)")
                .arg(args.dump().size()));
        QCOMPARE(args.dump().size(), std::size_t(125));
    }

    void replyTooLarge()
    {
        json manifest = baseManifest();
        manifest["limits"] = {{"reply_bytes", 16}};
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.call("c1", "big");
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'code':'reply_too_large','message':'result of big is 22 bytes; the reply limit is 16 bytes (limits.reply_bytes)','retryable':false}"));
        QCOMPARE(h.step("c1").status, StepStatus::Failed);
        QVERIFY(!h.step("c1").result);
    }

    void resultAgainstOutputSchema()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "typed_out");
        QTRY_VERIFY(h.reply("c1"));
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("tool_failed"));
        QCOMPARE(
            error.value("message", ""),
            std::string("result of typed_out does not match output_schema at (root): expected number, got string"));
        QCOMPARE(error.value("retryable", true), false);
    }

    void manualAnswers()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "sales"}});
        QCOMPARE(h.opened, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        QCOMPARE(h.engine->pendingCount(), 1);
        QVERIFY(h.replies.empty());

        QString reason;
        ManualAnswer result;
        result.result = "https://reports.example/sales.pdf";
        QVERIFY(!h.engine->answer(QStringLiteral("zzz"), 1, result, &reason));
        QCOMPARE(reason, QStringLiteral("no call with id 'zzz'"));
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 2, result, &reason));
        QCOMPARE(reason, QStringLiteral("answer is for attempt 2 but the call is at attempt 1"));
        ManualAnswer wrongShape;
        wrongShape.result = 42;
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, wrongShape, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the result does not match output_schema at (root): expected string, got integer"));
        QCOMPARE(h.step("c1").status, StepStatus::Waiting); // refusals change nothing

        // A retryable error answer: attempt 2 waits for a person again.
        ManualAnswer retry;
        retry.isError = true;
        retry.message = QStringLiteral("renderer busy, try again");
        retry.retryable = true;
        QVERIFY2(h.engine->answer(QStringLiteral("c1"), 1, retry, &reason), qPrintable(reason));
        QCOMPARE(h.closed, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.step("c1").status, StepStatus::Retrying);
        QCOMPARE(h.engine->pendingCount(), 0);
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, result, &reason));
        QCOMPARE(reason, QStringLiteral("attempt 1 of call 'c1' was already answered"));

        QTRY_COMPARE(h.opened.size(), 2);
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(2));
        QCOMPARE(h.step("c1").attempts[0].error->message, std::string("renderer busy, try again"));
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, result, &reason));
        QCOMPARE(reason, QStringLiteral("answer is for attempt 1 but the call is at attempt 2"));

        QVERIFY2(h.engine->answer(QStringLiteral("c1"), 2, result, &reason), qPrintable(reason));
        // The answer is applied before answer() returns.
        QCOMPARE(h.step("c1").status, StepStatus::Succeeded);
        QCOMPARE(h.reply("c1")->message.dump(),
                 J("{'id':'c1','type':'result','value':'https://reports.example/sales.pdf'}"));
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 2, result, &reason));
        QCOMPARE(reason, QStringLiteral("call 'c1' already finished (succeeded)"));
        QCOMPARE(h.replies.size(), std::size_t(1));
        QCOMPARE(h.closed.size(), 2);
    }

    void pendingCallClosedAfterTheStatus_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("how");
        QTest::addColumn<StepStatus>("expected");
        QTest::newRow("result") << QStringLiteral("render_report") << QStringLiteral("result") << StepStatus::Succeeded;
        QTest::newRow("retryable error") << QStringLiteral("render_report") << QStringLiteral("retry")
                                         << StepStatus::Retrying;
        QTest::newRow("error") << QStringLiteral("render_report") << QStringLiteral("error") << StepStatus::Failed;
        QTest::newRow("wait bound") << QStringLiteral("ask_bounded") << QStringLiteral("wait") << StepStatus::Failed;
        QTest::newRow("total timeout") << QStringLiteral("ask_total") << QStringLiteral("wait") << StepStatus::Failed;
        QTest::newRow("cancelled") << QStringLiteral("render_report") << QStringLiteral("cancel")
                                   << StepStatus::Cancelled;
    }

    /// A slot of pendingCallClosed reads the step's new status, not 'waiting'.
    void pendingCallClosedAfterTheStatus()
    {
        QFETCH(QString, tool);
        QFETCH(QString, how);
        QFETCH(StepStatus, expected);
        json manifest = baseManifest();
        manifest["tools"].push_back(json::parse(J("{'name': 'ask_total', 'handler': {'kind': 'manual'},"
                                                  " 'retry': {'total_timeout_seconds': 0.2}}")));
        Harness h;
        QVERIFY(h.setUp(manifest));
        std::vector<StepStatus> seen;
        QObject::connect(h.engine.get(), &StepEngine::pendingCallClosed, h.engine.get(),
                         [&h, &seen](const QString &id) { seen.push_back(h.engine->step(id)->status); });
        h.call("c1", tool.toUtf8().constData(), {{"topic", "sales"}});
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        ManualAnswer answer;
        answer.result = "https://reports.example/sales.pdf";
        answer.isError = how == QLatin1String("retry") || how == QLatin1String("error");
        answer.message = QStringLiteral("renderer busy");
        answer.retryable = how == QLatin1String("retry");
        if (how == QLatin1String("cancel"))
            h.engine->cancelAll(QStringLiteral("the run was stopped"));
        else if (how != QLatin1String("wait"))
            QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, answer));
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), std::size_t(1), 3000);
        QCOMPARE(seen.front(), expected);
        QCOMPARE(h.step("c1").status, expected);
    }

    void manualNonRetryableError()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "sales"}});
        ManualAnswer answer;
        answer.isError = true;
        answer.message = QStringLiteral("no data for that topic");
        QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, answer));
        QCOMPARE(errorOf(h.reply("c1")).dump(),
                 J("{'attempts':1,'code':'tool_failed','message':'no data for that topic','retryable':false}"));
    }

    void attemptTimeout()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        QElapsedTimer clock;
        clock.start();
        h.call("c1", "slow");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 3000);
        QVERIFY(clock.elapsed() < 3000); // not the mock's 5 s
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'bound':'attempt','code':'timeout','message':'attempt 1 timed out after 0.2 s (attempt_timeout_seconds = 0.2)','retryable':true,'seconds':0.2}"));
        QCOMPARE(h.step("c1").attempts[0].error->codeName(), QStringLiteral("timeout"));
        // the cancelled mock does not answer later
        QTest::qWait(100);
        QCOMPARE(h.replies.size(), std::size_t(1));
    }

    void totalTimeout()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "stuck");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 3000);
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'bound':'total','code':'timeout','message':'step timed out after 0.3 s (total_timeout_seconds = 0.3)','retryable':false,'seconds':0.3}"));
        QCOMPARE(h.step("c1").status, StepStatus::Failed);
        QCOMPARE(h.step("c1").nextAttemptAt, qint64(0));
    }

    void committedBeforeReply()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        // Group commit as RunController runs it (docs/steps.md "The commit path"), with an
        // interval no test waits for: a step reaches SQLite later than its reply, so
        // the rule rests on the journal's tail.
        h.journal.setGroupCommit(600000);
        // What a reopened journal holds if the studio died at the moment each reply is
        // sent: the file and its WAL as they are, and the tail as a dead writer's.
        QStringList seen;
        int notFinalInSqlite = 0;
        QObject::connect(
            h.engine.get(), &StepEngine::replyReady, h.engine.get(),
            [&h, &seen, &notFinalInSqlite](const std::string &id, const std::string &) {
                const QString callId = QString::fromStdString(id);
                QTemporaryDir crash;
                const QString copy = crash.filePath(QStringLiteral("journal.sqlite"));
                for (const QString &suffix : {QString(), QStringLiteral("-wal")})
                    QFile::copy(h.journal.path() + suffix, copy + suffix);
                // The tail, and its mark of what is in SQLite already, under
                // the name of a writer that is gone (this pid, another start).
                const QString dead = JournalTail::fileName(copy, Journal::selfPid(), Journal::selfStartTicks() + 1, 1);
                if (!h.journal.tailPath().isEmpty())
                    QFile::copy(h.journal.tailPath(), dead);
                {
                    QSqlDatabase db
                        = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("sqlite-only"));
                    db.setDatabaseName(copy);
                    QSqlQuery query(db);
                    if (!db.open()
                        || !query.exec(QStringLiteral("SELECT status FROM steps WHERE call_id = '%1'").arg(callId))
                        || !query.next()
                        || !isFinal(stepStatusFromName(query.value(0).toString()).value_or(StepStatus::Queued)))
                        ++notFinalInSqlite;
                    query.finish();
                    query.prepare(QStringLiteral("UPDATE journal_tails SET name = ? WHERE name = ?"));
                    query.addBindValue(QFileInfo(dead).fileName());
                    query.addBindValue(QFileInfo(h.journal.tailPath()).fileName());
                    if (!query.exec())
                        seen << QStringLiteral("cannot rename the tail's mark");
                }
                QSqlDatabase::removeDatabase(QStringLiteral("sqlite-only"));
                Journal reopened;
                if (!reopened.open(copy)) {
                    seen << QStringLiteral("cannot open");
                    return;
                }
                for (const Step &step : reopened.steps(QStringLiteral("run-1")))
                    if (step.callId == callId)
                        seen << QStringLiteral("%1 %2 %3")
                                    .arg(step.callId, stepStatusName(step.status))
                                    .arg(step.attempts.size());
            });
        // c0: a mock answered at once; the reply is sent from inside submitCall.
        h.call("c0", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QCOMPARE(seen, QStringList{QStringLiteral("c0 succeeded 1")});
        h.call("c1", "flaky");
        h.call("c2", "nope");
        h.call("c3", "render_report", {{"topic", "q3"}});
        ManualAnswer answer;
        answer.result = "done";
        QVERIFY(h.engine->answer(QStringLiteral("c3"), 1, answer));
        QTRY_COMPARE(seen.size(), 4);
        QCOMPARE(seen,
                 (QStringList{QStringLiteral("c0 succeeded 1"), QStringLiteral("c2 failed 0"),
                              QStringLiteral("c3 succeeded 1"), QStringLiteral("c1 succeeded 3")}));
        // Each final state was only in the tail when its reply went out (c3's wait for a
        // person went to SQLite at once, its answer did not): the test shows the tail.
        QCOMPARE(notFinalInSqlite, 4);
    }

    void idempotencyKeyAcrossAttempts()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c0", "nope"); // takes sequence 1: the key does not depend on it
        h.call("c1", "lookup", {{"base", "USD"}});
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        const QString key = keyOf("run-1", "lookup", {{"base", "USD"}});
        QCOMPARE(
            h.reply("c1")->message.dump(),
            json({{"id", "c1"}, {"type", "result"}, {"value", {{"attempt", 3}, {"key", key.toStdString()}}}}).dump());
        const Step &step = h.step("c1");
        QCOMPARE(step.sequence, 2);
        QCOMPARE(step.idempotencyKey, key);
        QCOMPARE(step.attempts.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i)
            QVERIFY2(step.attempts[i].output.startsWith(
                         QStringLiteral("key=%1 attempt=%2 tool=lookup args={\"base\":\"USD\"}\n")
                             .arg(key)
                             .arg(i + 1)
                             .toUtf8()),
                     step.attempts[i].output.constData());
        // the message is the last lines of stderr
        QCOMPARE(
            QString::fromStdString(step.attempts[0].error->message),
            QStringLiteral("key=%1 attempt=1 tool=lookup args={\"base\":\"USD\"}\nlookup service busy (exit status "
                           "75)")
                .arg(key));
        QVERIFY(step.attempts[0].error->retryable);
    }

    void commandFailures_data()
    {
        QTest::addColumn<QByteArray>("tool");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("attempts");
        QTest::newRow("exit 65") << QByteArray("data_error")
                                 << QStringLiteral("checking XYZ\nunknown currency XYZ (exit status 65)") << false << 1;
        QTest::newRow("invalid JSON")
            << QByteArray("garbage")
            << QStringLiteral(
                   "command printed invalid JSON: syntax error while parsing value - invalid literal; last read: 'r'")
            << false << 1;
        QTest::newRow("nothing printed") << QByteArray(
            "silent") << QStringLiteral("command printed nothing on stdout (expected the result as JSON)")
                                         << false << 1;
    }

    void commandFailures()
    {
        QFETCH(QByteArray, tool);
        QFETCH(QString, message);
        QFETCH(bool, retryable);
        QFETCH(int, attempts);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", tool.constData());
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("tool_failed"));
        QCOMPARE(QString::fromStdString(error.value("message", "")), message);
        QCOMPARE(error.value("retryable", !retryable), retryable);
        QCOMPARE(error.value("attempts", 0), attempts);
    }

    void commandMissingProgram()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "missing_program");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        const json error = errorOf(h.reply("c1"));
        // The confined command's launcher says it (the project is read through a copy as root).
        QCOMPARE(QString::fromStdString(error.value("message", "")),
                 QStringLiteral("command failed to start: cannot run %1/no-such-program: No such file or directory; "
                                "install the interpreter or set its path in Settings")
                     .arg(commandSandbox(h)->projectPath()));
        QCOMPARE(error.value("retryable", true), false);
    }

    void commandTimeoutKillsProcessGroup()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "hang");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 5000);
        // Explained: which bound, its value, and that the command's whole group is gone.
        const std::string message = errorOf(h.reply("c1")).value("message", "");
        QVERIFY2(
            QString::fromStdString(message).contains(QRegularExpression(QStringLiteral(
                "^attempt 1 timed out after 0\\.3 s \\(attempt_timeout_seconds = 0\\.3\\); the command's process group "
                "\\(pid \\d+\\) was killed \\(SIGKILL\\) and is gone$"))),
            message.c_str());
        QCOMPARE(errorOf(h.reply("c1")).value("bound", ""), std::string("attempt"));
        // The command's own child (sleep 30) is gone too, not just the shell.
        QFile pidFile(commandSandbox(h)->scratchDir() + QStringLiteral("/sleep.pid")); // the command's HOME
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const int pid = pidFile.readAll().trimmed().toInt();
        QVERIFY(pid > 0);
        auto alive = [pid] {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                return false;
            const QByteArray text = stat.readAll();
            const auto state = text.mid(text.lastIndexOf(')') + 2, 1);
            return state != "Z" && state != "X";
        };
        QTRY_VERIFY_WITH_TIMEOUT(!alive(), 2000);
    }

    void callsInFlightTogether()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "slowish");
        h.call("c2", "fast");
        QCOMPARE(h.step("c1").status, StepStatus::Running);
        QCOMPARE(h.step("c2").status, StepStatus::Running);
        QTRY_COMPARE_WITH_TIMEOUT(h.replies.size(), std::size_t(2), 3000);
        QCOMPARE(h.replies[0].id, std::string("c2")); // replies go out as steps finish
        QCOMPARE(h.replies[1].id, std::string("c1"));
        QCOMPARE(h.step("c1").sequence, 1);
        QCOMPARE(h.step("c2").sequence, 2);
        QCOMPARE(h.step("c2").idempotencyKey, keyOf("run-1", "fast"));
    }

    void cancelAll()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "sales"}});
        h.call("c2", "slowish");
        h.call("c3", "stuck"); // goes to retrying with a 10 s backoff
        h.call("c4", "get_exchange_rate", {{"base", "USD"}});
        QCOMPARE(h.replies.size(), std::size_t(1)); // c4's invalid_arguments
        QTRY_COMPARE(h.step("c3").status, StepStatus::Retrying);

        h.engine->cancelAll(QStringLiteral("the run was stopped"));
        for (const char *id : {"c1", "c2", "c3"}) {
            const Step &step = h.step(id);
            QCOMPARE(step.status, StepStatus::Cancelled);
            QCOMPARE(step.error->codeName(), QStringLiteral("cancelled"));
            QCOMPARE(step.error->message, std::string("the run was stopped"));
            QVERIFY(step.endedAt > 0);
        }
        QCOMPARE(h.step("c1").attempts[0].error->codeName(), QStringLiteral("cancelled"));
        QCOMPARE(h.step("c4").status, StepStatus::Failed); // already final: untouched
        QCOMPARE(h.closed, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.engine->pendingCount(), 0);

        QString reason;
        ManualAnswer answer;
        answer.result = "late";
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, answer, &reason));
        QCOMPARE(reason, QStringLiteral("call 'c1' already finished (cancelled)"));

        h.call("c5", "fast");
        QCOMPARE(h.step("c5").status, StepStatus::Cancelled);
        QTest::qWait(600); // past slowish's delay: nothing answers any more
        QCOMPARE(h.replies.size(), std::size_t(1));

        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(5));
        QCOMPARE(journaled[0].status, StepStatus::Cancelled);
        QCOMPARE(journaled[2].status, StepStatus::Cancelled);
    }

    void timedOutAttemptAndRetryShareTheKey()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "keyed");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':42}"));
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(2));
        QCOMPARE(h.step("c1").attempts[0].error->codeName(), QStringLiteral("timeout"));
        QFile keys(commandSandbox(h)->scratchDir() + QStringLiteral("/keys.txt")); // the command's HOME
        QVERIFY(keys.open(QIODevice::ReadOnly));
        const QByteArray key = keyOf("run-1", "keyed").toUtf8();
        QCOMPARE(keys.readAll(), "1 " + key + "\n2 " + key + "\n");
    }

    void personsWaitBound()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "ask_bounded");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 3000);
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'bound':'wait','code':'timeout','message':'no answer from a person to attempt 1 within 0.2 s"
              " (the wait bound for a person, attempt_timeout_seconds = 0.2)','retryable':true,'seconds':0.2}"));
        QCOMPARE(h.closed, QStringList{QStringLiteral("c1")});
        const auto events = h.journal.events(QStringLiteral("run-1"));
        QVERIFY(!events.empty());
        QCOMPARE(policyEventKindName(events.front().kind), QStringLiteral("timeout"));
        QCOMPARE(events.front().detail.value("bound", ""), std::string("wait"));
    }

    void retryNowAndNextAttemptAt()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        QString reason;
        QVERIFY(!h.engine->retryNow(QStringLiteral("c1"), &reason));
        QCOMPARE(reason, QStringLiteral("no call with id 'c1'"));
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        h.call("c1", "backoff");
        QTRY_COMPARE(h.step("c1").status, StepStatus::Retrying);
        // The trace shows when the next attempt starts: 10 s backoff, no jitter.
        QVERIFY(h.step("c1").nextAttemptAt >= before + 10000);
        QVERIFY(h.step("c1").nextAttemptAt <= QDateTime::currentMSecsSinceEpoch() + 10000);
        h.engine->flush();
        QCOMPARE(h.journal.steps(QStringLiteral("run-1"))[0].nextAttemptAt, h.step("c1").nextAttemptAt);
        QVERIFY2(h.engine->retryNow(QStringLiteral("c1"), &reason), qPrintable(reason));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 2000); // not 10 s
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':'ok'}"));
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(2));
        QVERIFY(!h.engine->retryNow(QStringLiteral("c1"), &reason));
        QCOMPARE(reason, QStringLiteral("call 'c1' is not waiting for a retry (succeeded)"));
        QStringList kinds;
        for (const PolicyEvent &event : h.journal.events(QStringLiteral("run-1")))
            kinds << policyEventKindName(event.kind);
        QCOMPARE(kinds, (QStringList{QStringLiteral("retry_scheduled"), QStringLiteral("retry_now")}));
    }

    void staleAnswers_data()
    {
        QTest::addColumn<QString>("setup"); // what happened before the answer
        QTest::addColumn<QString>("callId");
        QTest::addColumn<int>("attempt");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown call") << QString() << QStringLiteral("zz") << 1
                                      << QStringLiteral("no call with id 'zz'");
        QTest::newRow("future attempt") << QString() << QStringLiteral("c1") << 2
                                        << QStringLiteral("answer is for attempt 2 but the call is at attempt 1");
        QTest::newRow("attempt 0") << QString() << QStringLiteral("c1") << 0
                                   << QStringLiteral("answer is for attempt 0 but the call is at attempt 1");
        QTest::newRow("already answered (retrying)") << QStringLiteral("retry") << QStringLiteral("c1") << 1
                                                     << QStringLiteral("attempt 1 of call 'c1' was already answered");
        QTest::newRow("old attempt") << QStringLiteral("retry-wait") << QStringLiteral("c1") << 1
                                     << QStringLiteral("answer is for attempt 1 but the call is at attempt 2");
        QTest::newRow("finished step") << QStringLiteral("answer") << QStringLiteral("c1") << 1
                                       << QStringLiteral("call 'c1' already finished (succeeded)");
        QTest::newRow("cancelled step") << QStringLiteral("cancel") << QStringLiteral("c1") << 1
                                        << QStringLiteral("call 'c1' already finished (cancelled)");
        QTest::newRow("not a manual call") << QStringLiteral("mock") << QStringLiteral("c2") << 1
                                           << QStringLiteral("call 'c2' is not waiting for a person (running)");
    }

    void staleAnswers()
    {
        QFETCH(QString, setup);
        QFETCH(QString, callId);
        QFETCH(int, attempt);
        QFETCH(QString, reason);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "q3"}});
        ManualAnswer ok;
        ok.result = "done";
        ManualAnswer retry;
        retry.isError = true;
        retry.message = QStringLiteral("busy");
        retry.retryable = true;
        if (setup == QLatin1String("retry") || setup == QLatin1String("retry-wait")) {
            QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, retry));
            if (setup == QLatin1String("retry-wait"))
                QTRY_COMPARE(h.step("c1").status, StepStatus::Waiting);
        } else if (setup == QLatin1String("answer")) {
            QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, ok));
        } else if (setup == QLatin1String("cancel")) {
            h.engine->cancelAll(QStringLiteral("stopped"));
        } else if (setup == QLatin1String("mock")) {
            h.call("c2", "slowish");
        }
        const Step before = h.step(callId.toLatin1().constData());
        const std::size_t repliesBefore = h.replies.size();
        QElapsedTimer clock;
        clock.start();
        QString why;
        QVERIFY(!h.engine->answer(callId, attempt, ok, &why));
        QVERIFY(clock.elapsed() < 100); // refused at once, never hangs
        QCOMPARE(why, reason);
        // …and changes nothing.
        const Step &after = h.step(callId.toLatin1().constData());
        QCOMPARE(after.status, before.status);
        QCOMPARE(after.attempts.size(), before.attempts.size());
        QCOMPARE(h.replies.size(), repliesBefore);
    }

    void cancellationIsRecorded()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "hang");
        QTRY_COMPARE(h.step("c1").status, StepStatus::Running);
        QTest::qWait(100); // the command has started
        h.engine->cancelAll(QStringLiteral("the run was stopped"));
        const Step &step = h.step("c1");
        QCOMPARE(step.status, StepStatus::Cancelled);
        QVERIFY2(QString::fromStdString(step.error->message)
                     .startsWith(QStringLiteral("the run was stopped; the command's process group (pid ")),
                 step.error->message.c_str());
        QVERIFY(
            QString::fromStdString(step.error->message).endsWith(QStringLiteral(") was killed (SIGKILL) and is gone")));
        QCOMPARE(h.journal.steps(QStringLiteral("run-1"))[0].status, StepStatus::Cancelled);
        const auto events = h.journal.events(QStringLiteral("run-1"));
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(policyEventKindName(events[0].kind), QStringLiteral("cancelled"));
        QCOMPARE(events[0].detail.value("reason", ""), std::string("the run was stopped"));
        QCOMPARE(events[0].detail.value("status", ""), std::string("running"));
    }

    void batchedCommitsKeepWriteAhead()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        // Several calls in flight finish in the same turn of the event loop; each reply
        // still goes out only once its step is in the journal.
        QStringList seen;
        QObject::connect(h.engine.get(), &StepEngine::replyReady, h.engine.get(),
                         [&h, &seen](const std::string &id, const std::string &) {
                             Journal reader;
                             QVERIFY(reader.open(h.journal.path()));
                             for (const Step &step : reader.steps(QStringLiteral("run-1")))
                                 if (step.callId == QString::fromStdString(id))
                                     seen << QStringLiteral("%1 %2").arg(step.callId, stepStatusName(step.status));
                         });
        for (int i = 1; i <= 5; ++i)
            h.call(QStringLiteral("c%1").arg(i).toLatin1().constData(), "fast");
        QTRY_COMPARE(seen.size(), 5);
        QCOMPARE(
            seen,
            (QStringList{QStringLiteral("c1 succeeded"), QStringLiteral("c2 succeeded"), QStringLiteral("c3 succeeded"),
                         QStringLiteral("c4 succeeded"), QStringLiteral("c5 succeeded")}));
    }

    void replayMemoizesAndFlagsDivergence()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        // The recorded run: two identical calls, then a third.
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "counter", {{"n", 1}});
        h.call("c3", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QTRY_COMPARE(h.replies.size(), std::size_t(3));
        h.engine->flush();
        ReplayPlan plan;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(plan.steps[0].argsHash, StepEngine::argsHash({{"n", 1}}));

        // The changed script: the same two calls, then a different third one.
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "counter", {{"n", 1}});
        // Answered from the journal on this turn of the event loop, two steps (never
        // collapsed), handler not run.
        QTRY_COMPARE(h.replies.size(), std::size_t(2));
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':1}"));
        QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':2}"));
        QCOMPARE(h.step("c1").status, StepStatus::Memoized);
        QCOMPARE(h.step("c2").status, StepStatus::Memoized);
        QCOMPARE(h.step("c2").sequence, 2);
        QVERIFY(h.engine->isReplaying());
        h.call("c3", "get_exchange_rate", {{"base", "USD"}, {"quote", "GBP"}});
        QVERIFY(!h.engine->isReplaying());
        QCOMPARE(h.divergences.size(), 1);
        QCOMPARE(h.step("c3").divergence,
                 QStringLiteral("step 3: expected get_exchange_rate({\"base\":\"USD\",\"quote\":\"EUR\"}), "
                                "got get_exchange_rate({\"base\":\"USD\",\"quote\":\"GBP\"}); no recorded call "
                                "has this tool and these arguments. ")
                     + RuleText);
        QTRY_VERIFY(h.reply("c3"));
        QCOMPARE(h.step("c3").status, StepStatus::Succeeded); // ran for real
        // Everything after the divergence runs for real, even a call that would match.
        h.call("c4", "counter", {{"n", 1}});
        QTRY_VERIFY(h.reply("c4"));
        QCOMPARE(h.step("c4").status, StepStatus::Succeeded);
        h.engine->flush();
        const auto journaled = h.journal.steps(QStringLiteral("run-2"));
        QCOMPARE(journaled.size(), std::size_t(4));
        QCOMPARE(journaled[0].status, StepStatus::Memoized);
        QCOMPARE(journaled[2].divergence, h.step("c3").divergence);
        QCOMPARE(policyEventKindName(h.journal.events(QStringLiteral("run-2"))[0].kind), QStringLiteral("divergence"));
        QCOMPARE(h.journal.events(QStringLiteral("run-2"))[0].sequence, 3);
    }

    void replayOfExtraCallIsADivergence()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "fast");
        QTRY_VERIFY(h.reply("c1"));
        ReplayPlan plan;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "fast");
        h.call("c2", "fast");
        QCOMPARE(h.step("c2").divergence,
                 QStringLiteral("step 2: fast({}) is a call the recorded run did not make (it made 1 call(s)); the "
                                "recorded run made this call (same tool and arguments) only 1 time(s). ")
                     + RuleText);
    }

    /// The divergence message previews the arguments in 120 characters, cut on a
    /// character (never half a surrogate pair) and saying how many bytes were dropped.
    void divergencePreviewIsClippedOnACharacter()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "fast");
        QTRY_VERIFY(h.reply("c1"));
        ReplayPlan plan;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        QString emoji;
        for (int i = 0; i < 100; ++i)
            emoji += QStringLiteral("\U0001F600");
        h.call("c1", "fast", {{"text", emoji.toStdString()}});
        // {"text":" is 9 characters; 55 emoji (110 UTF-16 units) fit before 120, the 56th
        // would be cut in half: 45 emoji (4 bytes each) and "} are dropped.
        QCOMPARE(h.step("c1").divergence,
                 QStringLiteral("step 1: expected fast({}), got fast({\"text\":\"") + emoji.left(110)
                     + QStringLiteral("… (182 bytes dropped)); no recorded call has this tool and these arguments. ")
                     + RuleText);
    }

    void resumeReopensTheOpenCall()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "counter", {{"n", 7}});
        QTRY_VERIFY(h.reply("c1"));
        h.call("c2", "render_report", {{"topic", "q3"}});
        QCOMPARE(h.opened, QStringList{QStringLiteral("c2")});
        // The studio dies while c2 waits: the engine goes without a word.
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Resume;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(plan.steps[1].status, StepStatus::Waiting);

        h.newEngine(QStringLiteral("run-1"), {}, plan);
        h.call("c1", "counter", {{"n", 7}});
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':1}"));
        h.call("c2", "render_report", {{"topic", "q3"}});
        // Pending again under the same call id and attempt; the key is unchanged.
        QCOMPARE(h.opened, QStringList{QStringLiteral("c2")});
        QCOMPARE(h.step("c2").status, StepStatus::Waiting);
        QCOMPARE(h.step("c2").attempts.size(), std::size_t(1));
        QCOMPARE(h.step("c2").sequence, 2);
        QCOMPARE(h.step("c2").idempotencyKey, keyOf("run-1", "render_report", {{"topic", "q3"}}));
        ManualAnswer answer;
        answer.result = "https://r/q3";
        QString reason;
        QVERIFY2(h.engine->answer(QStringLiteral("c2"), 1, answer, &reason), qPrintable(reason));
        QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':'https://r/q3'}"));
        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(2));
        QCOMPARE(journaled[0].status, StepStatus::Succeeded); // the recorded row is kept as it was
        QCOMPARE(journaled[1].status, StepStatus::Succeeded);
    }

    // Resume by identity (docs/steps.md "Call identity"): calls arriving in another
    // order than recorded are memoized under their recorded numbers, a call the run had
    // not made runs for real without ending memoization, the open call reopens under
    // its own number, and memoized replies of one turn go out in the recorded
    // completion order.
    void resumeMatchesCallsInAnyOrder()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "counter", {{"n", 1}});              // recorded 1, finishes last of the three
        h.call("c2", "counter", {{"n", 2}});              // recorded 2
        h.call("c3", "render_report", {{"topic", "q3"}}); // recorded 3: open
        QTRY_COMPARE(h.replies.size(), std::size_t(2));
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Resume;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(plan.steps.size(), std::size_t(3));
        plan.steps[0].endedAt = plan.steps[1].endedAt + 1; // c1 completed after c2

        h.newEngine(QStringLiteral("run-1"), {}, plan);
        h.call("d1", "slowish", {{"new", true}});         // not recorded: runs, gets number 4
        h.call("d2", "render_report", {{"topic", "q3"}}); // the open call: number 3 again
        h.call("d3", "counter", {{"n", 1}});              // memoized, number 1
        h.call("d4", "counter", {{"n", 2}});              // memoized, number 2
        QCOMPARE(h.step("d1").sequence, 4);
        QCOMPARE(h.step("d1").status, StepStatus::Running);
        QCOMPARE(h.step("d2").sequence, 3);
        QCOMPARE(h.step("d2").status, StepStatus::Waiting);
        QCOMPARE(h.step("d3").sequence, 1);
        QCOMPARE(h.step("d3").status, StepStatus::Memoized);
        QCOMPARE(h.step("d4").sequence, 2);
        QCOMPARE(h.step("d4").status, StepStatus::Memoized);
        QCOMPARE(h.engine->stepBySequence(2)->callId, QStringLiteral("d4"));
        QCOMPARE(h.engine->stepBySequence(4)->callId, QStringLiteral("d1"));
        QCOMPARE(h.divergences.size(), 0);
        QCOMPARE(h.step("d3").idempotencyKey, plan.steps[0].idempotencyKey);
        QCOMPARE(h.step("d2").idempotencyKey, plan.steps[2].idempotencyKey);
        // Both memoized replies in this turn: c2's recorded end came first.
        QTRY_COMPARE(h.replies.size(), std::size_t(2));
        QCOMPARE(h.replies[0].id, std::string("d4"));
        QCOMPARE(h.replies[1].id, std::string("d3"));
        QTRY_VERIFY(h.reply("d1"));
        h.engine->flush();
        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(4)); // each step once, under its number
        QCOMPARE(journaled[2].callId, QStringLiteral("d2"));
        QCOMPARE(journaled[3].callId, QStringLiteral("d1"));
    }

    // The open call of a resumed run counts from the resume: the hour the run spent
    // suspended is not in its duration; the recorded queue time is in the resumed event.
    void resumedCallsDurationLeavesOutTheSuspension()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "q3"}});
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Resume;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        const qint64 hourAgo = QDateTime::currentMSecsSinceEpoch() - 3600 * 1000;
        plan.steps[0].queuedAt = hourAgo; // queued, then suspended for an hour

        h.newEngine(QStringLiteral("run-1"), {}, plan);
        const qint64 resumedAt = QDateTime::currentMSecsSinceEpoch();
        h.call("c1", "render_report", {{"topic", "q3"}});
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        ManualAnswer answer;
        answer.result = "https://r/q3";
        QString reason;
        QVERIFY2(h.engine->answer(QStringLiteral("c1"), 1, answer, &reason), qPrintable(reason));
        h.engine->flush();
        const Step step = h.step("c1");
        QVERIFY2(step.queuedAt >= resumedAt, qPrintable(QString::number(step.queuedAt - resumedAt)));
        QCOMPARE(step.durationMs(), step.endedAt - step.queuedAt);
        QVERIFY2(step.durationMs() < 3600 * 1000, qPrintable(QString::number(step.durationMs())));
        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled[0].queuedAt, step.queuedAt);
        std::optional<PolicyEvent> resumed;
        for (const PolicyEvent &event : h.journal.events(QStringLiteral("run-1")))
            if (policyEventKindName(event.kind) == QLatin1String("resumed"))
                resumed = event;
        QVERIFY(resumed);
        QCOMPARE(resumed->detail.value("queued_at_before", qint64(0)), hourAgo);
        QCOMPARE(
            QString::fromStdString(resumed->detail.value("text", std::string())),
            QStringLiteral("pending again from the resume; first queued %1 s before it, its duration counts from here")
                .arg(double(step.queuedAt - hourAgo) / 1000.0, 0, 'f', 1));
    }

    void answerFromAnotherProcess()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "q3"}});
        Journal other; // `toolstudio answer` in another process
        QVERIFY(other.open(h.journal.path()));
        PendingAnswer stale;
        stale.runId = QStringLiteral("run-1");
        stale.callId = QStringLiteral("c1");
        stale.attempt = 2;
        stale.answer.result = "too early";
        const qint64 staleId = other.addPendingAnswer(stale);
        PendingAnswer good = stale;
        good.attempt = 1;
        good.answer.result = "https://r/q3";
        const qint64 goodId = other.addPendingAnswer(good);
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 2000);
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':'https://r/q3'}"));
        QCOMPARE(other.pendingAnswer(staleId)->state, QStringLiteral("refused"));
        QCOMPARE(other.pendingAnswer(staleId)->reason,
                 QStringLiteral("answer is for attempt 2 but the call is at attempt 1"));
        QCOMPARE(other.pendingAnswer(goodId)->state, QStringLiteral("accepted"));
    }

    void rerunFromStepWithEditedArgs()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        h.call("c3", "counter", {{"n", 3}});
        QTRY_COMPARE(h.replies.size(), std::size_t(3));
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Rerun;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        plan.rerunFrom = 2;
        plan.editedArgs = json{{"base", "USD"}, {"quote", "CHF"}};
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QCOMPARE(h.step("c1").status, StepStatus::Memoized);
        QCOMPARE(h.step("c2").args.dump(), J("{'base':'USD','quote':'CHF'}"));
        QCOMPARE(h.step("c2").originalArgs->dump(), J("{'base':'USD','quote':'EUR'}"));
        QTRY_VERIFY(h.reply("c2"));
        QCOMPARE(h.step("c2").status, StepStatus::Succeeded);
        h.call("c3", "counter", {{"n", 3}});
        QTRY_VERIFY(h.reply("c3"));
        QCOMPARE(h.step("c3").status, StepStatus::Succeeded); // after the chosen step: real
        h.engine->flush();
        QCOMPARE(h.journal.steps(QStringLiteral("run-2"))[1].originalArgs->dump(), J("{'base':'USD','quote':'EUR'}"));
    }

    void stepMode_data()
    {
        QTest::addColumn<QString>("decision");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("status");
        QTest::newRow("continue") << QStringLiteral("continue") << QByteArray("{'id':'c1','type':'result','value':1}")
                                  << int(StepStatus::Succeeded);
        QTest::newRow("answer instead") << QStringLiteral("answer")
                                        << QByteArray("{'id':'c1','type':'result','value':99}")
                                        << int(StepStatus::Succeeded);
        QTest::newRow("fail, retryable")
            << QStringLiteral("fail")
            << QByteArray(
                   "{'error':{'attempts':1,'code':'tool_failed','message':'nope','retryable':true},'id':'c1','type':'error'}")
            << int(StepStatus::Failed);
        QTest::newRow("time out")
            << QStringLiteral("timeout")
            << QByteArray(
                   "{'error':{'attempts':1,'bound':'injected','code':'timeout','message':'timed out by hand in step mode"
                   " (injected timeout; the handler did not run)','retryable':true},'id':'c1','type':'error'}")
            << int(StepStatus::Failed);
        QTest::newRow("continue to end") << QStringLiteral("end") << QByteArray("{'id':'c1','type':'result','value':1}")
                                         << int(StepStatus::Succeeded);
    }

    void stepMode()
    {
        QFETCH(QString, decision);
        QFETCH(QByteArray, reply);
        QFETCH(int, status);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.engine->setStepMode(true);
        h.call("c1", "counter", {{"n", 1}});
        QCOMPARE(h.paused, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.step("c1").status, StepStatus::Queued);
        QVERIFY(h.step("c1").paused);
        QCOMPARE(h.engine->pausedCount(), 1);
        QTest::qWait(50);
        QVERIFY(h.replies.empty());                                                // held: the handler has not run
        QCOMPARE(h.journal.steps(QStringLiteral("run-1")).size(), std::size_t(1)); // recorded before anything runs
        QString reason;
        ManualAnswer answer;
        if (decision == QLatin1String("continue")) {
            QVERIFY(h.engine->continueStep(QStringLiteral("c1"), &reason));
        } else if (decision == QLatin1String("answer")) {
            answer.result = 99;
            QVERIFY(h.engine->answerStep(QStringLiteral("c1"), answer, &reason));
        } else if (decision == QLatin1String("fail")) {
            answer.isError = true;
            answer.message = QStringLiteral("nope");
            answer.retryable = true;
            QVERIFY(h.engine->answerStep(QStringLiteral("c1"), answer, &reason));
        } else if (decision == QLatin1String("timeout")) {
            QVERIFY(h.engine->timeOutStep(QStringLiteral("c1"), &reason));
        } else {
            h.engine->continueToEnd();
        }
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.dump(), J(reply.constData()));
        QCOMPARE(int(h.step("c1").status), status);
        QCOMPARE(h.engine->pausedCount(), 0);
        QVERIFY(!h.engine->continueStep(QStringLiteral("c1"), &reason));
        QVERIFY(reason.startsWith(QStringLiteral("call 'c1' is not held in step mode")));
        // The next call is held again, unless the run continues to the end.
        h.call("c2", "counter", {{"n", 2}});
        QCOMPARE(h.engine->pausedCount(), decision == QLatin1String("end") ? 0 : 1);
    }

    /// Tool approval holds only the calls a handler would run; a held call may run
    /// with edited arguments, checked against input_schema, the script's kept.
    void approvalHoldsHandlerCallsAndRunsEditedArguments()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.engine->setApprovesToolCalls(true);
        h.call("c1", "render_report", {{"topic", "q3"}}); // manual: a person answers it anyway
        h.call("c2", "counter", {{"n", 1}});
        QCOMPARE(h.paused, QStringList{QStringLiteral("c2")});
        QVERIFY(!h.step("c1").paused);
        QCOMPARE(h.engine->pausedCount(), 1);

        QString reason;
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("c2"), {{"n", "two"}}, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited arguments do not match input_schema at /n: expected integer, got string"));
        QVERIFY(h.step("c2").paused); // still held
        QVERIFY(h.engine->continueStepWith(QStringLiteral("c2"), {{"n", 2}}, &reason));
        QTRY_VERIFY(h.reply("c2"));
        QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':1}"));
        h.engine->flush();
        const std::vector<Step> steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.at(1).args.dump(), J("{'n':2}"));
        QCOMPARE(steps.at(1).originalArgs->dump(), J("{'n':1}"));
        // The identity stays the script's call: a resume of the same script finds it.
        QCOMPARE(steps.at(1).argsHash, StepEngine::argsHash({{"n", 1}}));
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        QCOMPARE(withoutHold(decision->detail).dump(),
                 J("{'decision':'continue','edited_args':{'n':2},'original_args':{'n':1}}"));

        h.engine->setApprovesToolCalls(false);
        h.call("c3", "counter", {{"n", 3}});
        QCOMPARE(h.engine->pausedCount(), 0);
    }

    /// Edited arguments are the call's now: a strict-mode null the model sent and the
    /// person filled in reaches the handler (it was left out by the model's name), a null
    /// the person leaves is left out as at admission, and the request cap holds.
    void approvalEditedArgumentsReplaceTheNullsLeftOut()
    {
        json manifest = baseManifest();
        manifest["limits"] = {{"request_bytes", 64}};
        manifest["tools"].push_back(commandTool(
            "echo_args", {"sh", "-c", "cat"},
            "{'input_schema': {'type': 'object', 'properties': {'q': {'type': 'string'}, 'n': {'type': 'integer',"
            " 'default': 3}}, 'required': ['q'], 'additionalProperties': false}}"));
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.engine->setApprovesToolCalls(true);
        h.call("c1", "echo_args", json::parse(J("{'q': 'tea', 'n': null}")));
        h.call("c2", "echo_args", json::parse(J("{'q': 'tea'}")));
        QCOMPARE(h.paused, (QStringList{QStringLiteral("c1"), QStringLiteral("c2")}));

        QString reason;
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("c1"), {{"q", std::string(80, 'x')}}, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited arguments are 88 bytes; the request limit is 64 bytes "
                                "(limits.request_bytes)"));
        QVERIFY(h.step("c1").paused);
        QVERIFY(h.engine->continueStepWith(QStringLiteral("c1"), json::parse(J("{'q': 'tea', 'n': 7}")), &reason));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        QCOMPARE(QString::fromStdString(h.reply("c1")->message.dump()),
                 QString::fromStdString(J("{'id':'c1','type':'result','value':{'n':7,'q':'tea'}}")));

        QVERIFY(h.engine->continueStepWith(QStringLiteral("c2"), json::parse(J("{'q': 'milk', 'n': null}")), &reason));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c2"), 10000);
        QCOMPARE(QString::fromStdString(h.reply("c2")->message.dump()),
                 QString::fromStdString(J("{'id':'c2','type':'result','value':{'q':'milk'}}")));
    }

    /// A model step held in step mode goes with the messages the person edited, checked
    /// as the script's request is (shape, non-empty, limits.model_request_bytes); the
    /// script's request stays the original and the step's identity (docs/models.md).
    void heldModelStepRunsEditedMessages()
    {
        json manifest = baseManifest();
        manifest["models"] = json::parse(J("[{'name': 'scripted', 'provider': 'mock', 'turns': [{'content': 'hi'}]}]"));
        manifest["limits"] = {{"model_request_bytes", 200}};
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.engine->setStepMode(true);
        BridgeCall call;
        call.kind = BridgeCall::Kind::Model;
        call.id = "m1";
        call.tool = "scripted";
        call.args = json::parse(J("{'messages': [{'role': 'user', 'content': 'Hello?'}], 'tools': 'none'}"));
        call.argsBytes = call.args.dump().size();
        h.engine->submitCall(call);
        QCOMPARE(h.paused, QStringList{QStringLiteral("m1")});

        QString reason;
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("m1"), json::array(), &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited messages cannot be sent: 'messages' is empty; give at least one user "
                                "message"));
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("m1"), json::parse(J("[{'role': 'tool', 'content': 'x'}]")),
                                            &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited messages cannot be sent: messages[0]: a 'tool' message needs "
                                "'tool_call_id' (the id of the call it answers)"));
        QVERIFY(!h.engine->continueStepWith(
            QStringLiteral("m1"), json::array({{{"role", "user"}, {"content", std::string(200, 'x')}}}), &reason));
        QCOMPARE(reason,
                 QStringLiteral("the request with the edited messages is 273 bytes; the limit is 200 bytes "
                                "(limits.model_request_bytes)"));
        QVERIFY(h.step("m1").paused); // still held

        const json edited = json::parse(J("[{'role': 'user', 'content': 'Hello, edited?'}]"));
        QVERIFY2(h.engine->continueStepWith(QStringLiteral("m1"), edited, &reason), qPrintable(reason));
        QTRY_VERIFY(h.reply("m1"));
        QCOMPARE(h.reply("m1")->message.value("type", ""), std::string("result"));
        h.engine->flush();
        const std::vector<Step> steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.at(0).tool, QStringLiteral("model:scripted"));
        QCOMPARE(steps.at(0).args.dump(),
                 J("{'messages':[{'content':'Hello, edited?','role':'user'}],'model':'scripted','tools':[]}"));
        QCOMPARE(steps.at(0).originalArgs->dump(),
                 J("{'messages':[{'content':'Hello?','role':'user'}],'model':'scripted','tools':[]}"));
        QCOMPARE(steps.at(0).argsHash, StepEngine::argsHash(*steps.at(0).originalArgs));
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        QCOMPARE(withoutHold(decision->detail).dump(),
                 J("{'decision':'continue','edited_args':{'messages':[{'content':'Hello, edited?','role':'user'}],"
                   "'model':'scripted','tools':[]},'original_args':{'messages':[{'content':'Hello?','role':'user'}],"
                   "'model':'scripted','tools':[]}}"));
    }

    /// Answer Instead on a held model step takes a reply in the turn shape a `manual`
    /// model's person writes (the composer's), checked as that turn is: a call of a tool
    /// the request did not offer is refused and the step stays held; an accepted reply
    /// is the step's result, journaled with the person's decision ("answer").
    void heldModelStepAnsweredInstead()
    {
        json manifest = baseManifest();
        manifest["models"] = json::parse(J("[{'name': 'scripted', 'provider': 'mock', 'turns': [{'content': 'hi'}]}]"));
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.engine->setStepMode(true);
        BridgeCall call;
        call.kind = BridgeCall::Kind::Model;
        call.id = "m1";
        call.tool = "scripted";
        call.args = json::parse(J("{'messages': [{'role': 'user', 'content': '2 rates?'}], 'tools': ['counter']}"));
        call.argsBytes = call.args.dump().size();
        h.engine->submitCall(call);
        QCOMPARE(h.paused, QStringList{QStringLiteral("m1")});

        QString reason;
        ManualAnswer answer;
        answer.result = json::parse(J("{'tool_calls': [{'name': 'lookup', 'arguments': {}}]}"));
        QVERIFY(!h.engine->answerStep(QStringLiteral("m1"), answer, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the model reply: tool_calls[0] calls \"lookup\", which the model was not offered "
                                "(offered: counter)"));
        answer.result = json::parse(J("{'tool_calls': [{'name': 'counter', 'arguments': 5}]}"));
        QVERIFY(!h.engine->answerStep(QStringLiteral("m1"), answer, &reason));
        QVERIFY2(reason.startsWith(QStringLiteral("the model reply")), qPrintable(reason));
        // Two calls of one id: their results could not be told apart.
        answer.result
            = json::parse(J("{'tool_calls': [{'id': 'a', 'name': 'counter'}, {'id': 'a', 'name': 'counter'}]}"));
        QVERIFY(!h.engine->answerStep(QStringLiteral("m1"), answer, &reason));
        QCOMPARE(
            reason,
            QStringLiteral("the model reply: tool_calls[1]: 'id' \"a\" is the id of tool_calls[0] too; give each "
                           "call its own id, or leave 'id' out and one is made (a reply is {\"content\": \"text\"} "
                           "and/or {\"tool_calls\": [{\"name\": \"tool\", \"arguments\": {…}}]})"));
        QVERIFY(h.step("m1").paused); // still held

        answer.result
            = json::parse(J("{'content': 'Two calls.', 'tool_calls': [{'name': 'counter', 'arguments': {'n': 2}}]}"));
        QVERIFY2(h.engine->answerStep(QStringLiteral("m1"), answer, &reason), qPrintable(reason));
        QTRY_VERIFY(h.reply("m1"));
        h.engine->flush();
        const std::vector<Step> steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.at(0).status, StepStatus::Succeeded);
        QCOMPARE(QString::fromStdString(steps.at(0).result->dump()),
                 QString::fromStdString(J(
                     "{'message':{'content':'Two calls.','role':'assistant','tool_calls':[{'function':{'arguments':"
                     "'{\\'n\\':2}','name':'counter'},'id':'call_1_1','type':'function'}]},'stop_reason':'tool_calls',"
                     "'usage':{'input_tokens':0,'output_tokens':0}}")));
        QCOMPARE(h.reply("m1")->message.at("value").dump(), steps.at(0).result->dump());
        QCOMPARE(steps.at(0).attempts.size(), std::size_t(1));
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        QCOMPARE(withoutHold(decision->detail).dump(), J("{'decision':'answer','ok':true}"));
        // Answered at its release: the attempt starts and ends when the step was decided.
        QCOMPARE(steps.at(0).attempts.at(0).startedAt, steps.at(0).queuedAt);
        QCOMPARE(steps.at(0).attempts.at(0).endedAt, steps.at(0).queuedAt);
    }

    /// A held step's duration counts from its release: its queued_at moves to the
    /// decision, which records how long it was held and when it was queued; the same
    /// for a continued tool call and an answered one.
    void heldStepsDurationLeavesOutTheHold_data()
    {
        QTest::addColumn<bool>("answer");
        QTest::newRow("continue") << false;
        QTest::newRow("answer instead") << true;
    }

    void heldStepsDurationLeavesOutTheHold()
    {
        QFETCH(bool, answer);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.engine->setStepMode(true);
        h.call("c1", "counter", {{"n", 1}});
        QCOMPARE(h.paused, QStringList{QStringLiteral("c1")});
        const qint64 queued = h.step("c1").queuedAt;
        QVERIFY(queued > 0);
        // Held for a while (the clock has moved on; no assertion on how long that took).
        QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() >= queued + 40);
        QString reason;
        if (answer) {
            ManualAnswer manual;
            manual.result = 7;
            QVERIFY(h.engine->answerStep(QStringLiteral("c1"), manual, &reason));
        } else {
            QVERIFY(h.engine->continueStep(QStringLiteral("c1"), &reason));
        }
        QTRY_VERIFY(h.reply("c1"));
        h.engine->flush();
        const Step step = h.journal.steps(QStringLiteral("run-1")).at(0);
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        const qint64 held = decision->detail.at("held_ms").get<qint64>();
        QCOMPARE(decision->detail.at("queued_at_before").get<qint64>(), queued);
        QVERIFY2(held >= 40, qPrintable(QString::number(held)));
        // The step's queue time is its release; its duration leaves the hold out.
        QCOMPARE(step.queuedAt, queued + held);
        QCOMPARE(step.durationMs(), step.endedAt - (queued + held));
        QVERIFY(step.attempts.at(0).startedAt >= step.queuedAt);
        QVERIFY(decision->at >= step.queuedAt);
        const auto paused = std::find_if(events.begin(), events.end(),
                                         [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepPaused; });
        QVERIFY(paused != events.end());
        QVERIFY(paused->at >= queued && paused->at <= step.queuedAt);
    }

    void cassetteIsOffline()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "lookup", {{"base", "USD"}});
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Cassette;
        plan.offline = true;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QFile::remove(h.dir.filePath(QStringLiteral("tools/lookup.sh"))); // the real tool is gone
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "lookup", {{"base", "USD"}});
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.dump(),
                 json({{"id", "c1"},
                       {"type", "result"},
                       {"value", {{"attempt", 3}, {"key", keyOf("run-1", "lookup", {{"base", "USD"}}).toStdString()}}}})
                     .dump());
        h.call("c2", "lookup", {{"base", "EUR"}});
        QCOMPARE(h.divergences.size(), 1);
        QCOMPARE(errorOf(h.reply("c2")).value("message", ""),
                 std::string("offline: this call is not in the cassette (no real tool runs against a cassette)"));
    }

    void duplicateCallIdInFlight()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "a"}});
        h.call("c1", "fast");
        QCOMPARE(errorOf(h.reply("c1")).value("code", ""), std::string("protocol_error"));
        QCOMPARE(h.step("c1").tool, QStringLiteral("render_report")); // the first call keeps its id
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
    }
};

QTEST_GUILESS_MAIN(TestStepEngine)
#include "tst_stepengine.moc"
