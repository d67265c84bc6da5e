// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A call of tests/data/mcp/fakeserver.py's `ask` tool (its `asks` modes) that sends only
// its sampling request, through a fresh StepEngine: for the sampling suites
// (tst_mcpsamplingmodel, tst_mcpsamplingtools).
#pragma once

#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "llm/samplingmodel.h"
#include "project/modelconfig.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

/// The fake server's sampling request through a fresh engine: the step's question and
/// the request a model is given, the server's response to the answer.
class SampledCall : public QObject
{
public:
    /// `sampleExtra` is merged into the server's sampling request (its messages, say);
    /// `tool` is the `ask` tool of the server to call.
    explicit SampledCall(const Project &project, const nlohmann::json &sampleExtra = nlohmann::json::object(),
                         const std::string &tool = "fake__ask")
        : engine(project, QStringLiteral("run1"), nullptr, {})
    {
        connect(&engine, &StepEngine::pendingCallOpened, this, [this](const Step &step) {
            question = step.attempts.back().question.value_or(nlohmann::json());
            modelRequest = step.attempts.back().modelRequest;
        });
        connect(&engine, &StepEngine::policyEvent, this, [this](const PolicyEvent &event) {
            if (event.kind == PolicyEventKind::PersonAsked)
                asked = event.detail;
            if (event.kind == PolicyEventKind::PersonAnswered)
                answered = event.detail;
        });
        connect(&engine, &StepEngine::replyReady, this,
                [this](const std::string &, const std::string &line) { reply = line; });
        BridgeCall call;
        call.id = "c1";
        call.tool = tool;
        call.args = {{"only", {"sample"}}, {"sample_extra", sampleExtra}};
        engine.submitCall(call);
    }
    bool waitForQuestion()
    {
        return QTest::qWaitFor([this] { return question.is_object() || reply; }, 20000);
    }
    bool answer(const nlohmann::json &result, QString *reason = nullptr)
    {
        ManualAnswer answer;
        answer.result = result;
        return engine.answer(QStringLiteral("c1"), 1, answer, reason);
    }
    /// What the server got for its sampling request (its `ask` tool returns it).
    nlohmann::json serverGot() { return toolSaid().value("sample", toolSaid()); }
    /// All the `ask` tool returned ({"sample", "capabilities"}), or {"error"}.
    nlohmann::json toolSaid()
    {
        (void)QTest::qWaitFor([this] { return reply.has_value(); }, 30000);
        const Step *step = engine.step(QStringLiteral("c1"));
        if (!step || !step->result)
            return nlohmann::json{{"error", step && step->error ? step->error->message : std::string("no result")}};
        return nlohmann::json::parse((*step->result)["content"][0]["text"].get<std::string>());
    }

    StepEngine engine;
    nlohmann::json question;
    std::optional<nlohmann::json> modelRequest;
    nlohmann::json asked;    ///< the person_asked event's detail
    nlohmann::json answered; ///< the person_answered event's detail
    std::optional<std::string> reply;
};

Q_DECLARE_METATYPE(SamplingModelCall::Outcome)

/// `model` asked `request` with `maxTokens` through a SamplingModelCall, to its end.
inline SamplingModelCall::Outcome askModel(const ModelConfig &model, const nlohmann::json &request, int maxTokens)
{
    QNetworkAccessManager network;
    SamplingModelCall call(model, Secrets(), &network);
    QSignalSpy finished(&call, &SamplingModelCall::finished);
    call.ask(request, maxTokens);
    if (!finished.wait(30000))
        return {nlohmann::json(), QStringLiteral("no outcome"), QString(), {}};
    return finished.at(0).at(0).value<SamplingModelCall::Outcome>();
}

inline ModelConfig modelFrom(const nlohmann::json &entry)
{
    return ModelConfig::parseAll(nlohmann::json::array({entry}), RetryPolicy{}).front();
}
