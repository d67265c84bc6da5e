// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The suites of a server's requests during a call (tst_mcpask, tst_mcpaskinputrequired,
// tst_mcpaskurlrequired): their project of tests/data/mcp/fakeserver.py servers, and one
// call through a fresh engine with the questions its step asks.
#pragma once

#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "mcp/mcpprojecttools.h"
#include "testfiles.h"
#include "trustedproject.h"

#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

/// The project the ask suites share, written to `dir` and connected
/// (McpProjectTools::connectAndAdd): fakeserver.py in its `asks` mode as "fake" (the
/// project's own root), "some" (three roots) and "none" (no root), and in its `modern`
/// mode (a 2026-07-28 server) as "m26"; one attempt of at most 60 s per call. Empty, with
/// `problem` set, when it could not be.
inline std::optional<Project> connectedAskProject(const QTemporaryDir &dir, QString *problem)
{
    if (!writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py")))
        || !writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "Ask Project", "retry": {"max_attempts": 1, "attempt_timeout_seconds": 60},
  "mcp_servers": {
  "fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]},
  "some": {"command": "python3", "args": ["srv/fakeserver.py", "asks"], "roots": ["data", "/srv/shared dir", "."]},
  "none": {"command": "python3", "args": ["srv/fakeserver.py", "asks"], "roots": []},
  "m26": {"command": "python3", "args": ["srv/fakeserver.py", "modern"]}}})")) {
        *problem = QStringLiteral("could not write the project in %1").arg(dir.path());
        return std::nullopt;
    }
    ProjectError error;
    std::optional<Project> project = loadTrusted(dir.path(), &error);
    if (!project) {
        *problem = error.toString();
        return std::nullopt;
    }
    const QStringList problems = McpProjectTools::connectAndAdd(*project);
    if (!problems.isEmpty()) {
        *problem = problems.join(u'\n');
        return std::nullopt;
    }
    return project;
}

/// A project in `dir` with the fake server "fake" (asks mode) and a script "main" that
/// prints the text of `tool`'s result (for `toolstudio run` and `toolstudio answer`).
inline bool writeAskingProject(const QTemporaryDir &dir, const char *tool)
{
    return writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py")))
        && writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                     QByteArray("from toolstudio import tools\nprint(tools['") + tool + "']()['content'][0]['text'])\n")
        && writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                     R"({"name": "cli", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})");
}

/// One call through a fresh engine (of the run `runId`), the questions its step asks
/// collected as they come.
class AskedCall : public QObject
{
public:
    AskedCall(const Project &project, const QString &tool, const nlohmann::json &args,
              const QString &runId = QStringLiteral("run1"))
        : engine(project, runId, nullptr, {})
    {
        connect(&engine, &StepEngine::pendingCallOpened, this, [this](const Step &step) {
            statuses << stepStatusName(step.status);
            questions.push_back(step.attempts.back().question.value_or(nlohmann::json()));
        });
        connect(&engine, &StepEngine::pendingCallClosed, this, [this](const QString &) { ++closed; });
        connect(&engine, &StepEngine::policyEvent, this, [this](const PolicyEvent &event) {
            if (event.kind == PolicyEventKind::PersonAsked || event.kind == PolicyEventKind::PersonAnswered)
                events.push_back(
                    nlohmann::json{{"kind", policyEventKindName(event.kind).toStdString()}, {"detail", event.detail}});
        });
        connect(&engine, &StepEngine::replyReady, this,
                [this](const std::string &, const std::string &line) { reply = line; });
        BridgeCall call;
        call.id = "c1";
        call.tool = tool.toStdString();
        call.args = args;
        engine.submitCall(call);
    }
    /// Waits for question number `n` (1-based).
    bool waitForQuestion(std::size_t n, int ms = 20000)
    {
        return QTest::qWaitFor([this, n] { return questions.size() >= n || reply; }, ms) && questions.size() >= n;
    }
    bool answer(const nlohmann::json &result, QString *reason = nullptr)
    {
        ManualAnswer answer;
        answer.result = result;
        return engine.answer(QStringLiteral("c1"), 1, answer, reason);
    }
    bool answerError(const QString &message)
    {
        ManualAnswer answer;
        answer.isError = true;
        answer.message = message;
        return engine.answer(QStringLiteral("c1"), 1, answer);
    }
    Step finished(int ms = 30000)
    {
        (void)QTest::qWaitFor([this] { return reply.has_value(); }, ms);
        const Step *step = engine.step(QStringLiteral("c1"));
        return step ? *step : Step{};
    }
    /// The text of the final result's first content block, parsed as JSON.
    nlohmann::json resultJson(int ms = 30000)
    {
        const Step step = finished(ms);
        if (!step.result)
            return nlohmann::json{{"error", step.error ? step.error->message : std::string("no result")}};
        return nlohmann::json::parse((*step.result)["content"][0]["text"].get<std::string>());
    }

    StepEngine engine;
    std::optional<std::string> reply;
    std::vector<nlohmann::json> questions;
    QStringList statuses;
    std::vector<nlohmann::json> events;
    int closed = 0;
};
