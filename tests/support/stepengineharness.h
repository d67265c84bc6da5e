// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The step engine suites of tests/system/ (tst_stepengine, tst_stepengineretries,
// tst_stepenginemanual, tst_stepenginereplay, tst_stepenginestepmode): a project of mock,
// command and manual tools in a temporary folder, its journal, an engine for run
// "run-1" and everything the engine emitted.
#pragma once

#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "project/project.h"
#include "trustedproject.h"

#include <QDir>
#include <QFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

/// JSON text written with single quotes (moc cannot read raw string literals).
inline std::string J(const char *text)
{
    std::string result(text);
    std::replace(result.begin(), result.end(), '\'', '"');
    return result;
}

/// The idempotency key of call `n` (0-based) of `tool` with `args` in run `runId`:
/// "<runId>:<tool>:<argsHash>:<n>" (docs/steps.md "Call identity").
inline QString keyOf(const char *runId, const char *tool, const nlohmann::json &args = nlohmann::json::object(),
                     int n = 0)
{
    return QStringLiteral("%1:%2:%3:%4")
        .arg(QLatin1StringView(runId), QLatin1StringView(tool), StepEngine::argsHash(args))
        .arg(n);
}

/// A `mock` tool answering `sequence` in turn; `extra` (single-quoted JSON) is merged in.
inline nlohmann::json mockTool(const char *name, const char *sequence, const char *extra = "{}")
{
    nlohmann::json tool
        = {{"name", name}, {"handler", {{"kind", "mock"}, {"sequence", nlohmann::json::parse(J(sequence))}}}};
    tool.update(nlohmann::json::parse(J(extra)));
    return tool;
}

/// A `command` tool running `command`; `extra` (single-quoted JSON) is merged in.
inline nlohmann::json commandTool(const char *name, nlohmann::json command, const char *extra = "{}")
{
    nlohmann::json tool = {{"name", name}, {"handler", {{"kind", "command"}, {"command", std::move(command)}}}};
    tool.update(nlohmann::json::parse(J(extra)));
    return tool;
}

/// The tools most tests share. Backoff is short so retries take milliseconds.
inline nlohmann::json baseManifest()
{
    nlohmann::json tools = nlohmann::json::array();
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
    tools.push_back(
        nlohmann::json::parse(J("{'name': 'render_report', 'handler': {'kind': 'manual'},"
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
    tools.push_back(nlohmann::json::parse(J("{'name': 'ask_bounded', 'handler': {'kind': 'manual'},"
                                            " 'retry': {'attempt_timeout_seconds': 0.2, 'max_attempts': 1}}")));
    tools.push_back(mockTool("backoff", "[{'error': 'busy'}, {'result': 'ok'}]",
                             "{'retry': {'initial_backoff_seconds': 10, 'max_backoff_seconds': 10, 'jitter': 0}}"));
    return {
        {"name", "engine-test"},
        {"retry",
         nlohmann::json::parse(J("{'initial_backoff_seconds': 0.01, 'max_backoff_seconds': 0.05, 'jitter': 0}"))},
        {"tools", tools},
    };
}

/// Fails attempts 1 and 2 with EX_TEMPFAIL, succeeds on 3; tells on stderr what it got.
inline const char *const LookupScript
    = "args=$(cat)\n"
      "echo \"key=$TOOLSTUDIO_IDEMPOTENCY_KEY attempt=$TOOLSTUDIO_ATTEMPT tool=$TOOLSTUDIO_TOOL args=$args\" >&2\n"
      "if [ \"$TOOLSTUDIO_ATTEMPT\" -lt 3 ]; then echo 'lookup service busy' >&2; exit 75; fi\n"
      "printf '{\"key\": \"%s\", \"attempt\": %s}\\n' \"$TOOLSTUDIO_IDEMPOTENCY_KEY\" \"$TOOLSTUDIO_ATTEMPT\"\n";

struct Reply
{
    std::string id;
    nlohmann::json message;
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

    bool setUp(const nlohmann::json &manifest, const QStringList &bound = {})
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
                             replies.push_back({id, nlohmann::json::parse(line)});
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

    void call(const char *id, const char *tool, const nlohmann::json &args = nlohmann::json::object())
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

/// The error of an error reply; null for a result or no reply.
inline nlohmann::json errorOf(const Reply *reply)
{
    return reply && reply->message.value("type", "") == "error" ? reply->message.at("error") : nlohmann::json();
}
