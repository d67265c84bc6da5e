// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"

#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <optional>

struct BridgeCall;
class ModelClient;
class QNetworkAccessManager;
class QObject;
class ToolHandler;

/// The model steps of one run (docs/models.md "The model step"): what the step engine
/// needs beyond a tool call when a script asks a model ({"type":"model"} on the bridge).
///
/// A model step is a Step whose `tool` is "model:<name>" (no tool name can hold ':', so
/// the journal, replay, cassettes and the trace need no new column) and whose `args` is
/// the request as sent: {"model", "messages" (neutral shape), "tools": [{"name",
/// "description", "input_schema"}]} — the tool definitions themselves, so a replay whose
/// tools changed diverges. Its result is the reply ({"message", "usage", "stop_reason"}).
/// Retries follow the model's `retry` (429/5xx/unreachable retryable, Retry-After
/// honoured); the attempt bound is its `timeout_seconds`.
///
/// Budgets (ProjectLimits): limits.max_model_calls counts model calls (refused and
/// memoized ones too, as max_calls counts tool calls); limits.max_tokens bounds the
/// input + output tokens of the run's replies: a call made when the run has used them
/// up is refused (max_tokens_exceeded); the reply that crosses the bound is delivered.
class ModelSteps
{
public:
    static constexpr auto Prefix = "model:";

    ModelSteps(const Project &project, const QStringList &boundTools);
    ~ModelSteps();

    /// True for a model step's `tool` ("model:local").
    static bool isModelStep(const QString &tool) { return tool.startsWith(QLatin1StringView(Prefix)); }

    struct Refusal
    {
        ErrorCode code = ErrorCode::ModelFailed;
        QString message;
    };
    /// Admits a model frame: counts it against max_model_calls, checks max_tokens, the
    /// model's name (unknown_model), the request cap (limits.model_request_bytes) and
    /// the request's shape (messages checked; "tools": "bound", "none" or a list of
    /// bound tool names); fills `step` (tool, args, maxAttempts) either way.
    std::optional<Refusal> admit(const BridgeCall &call, Step &step);
    /// The names of the tools model step request `request` offers (its "tools" definitions).
    static QStringList offeredTools(const nlohmann::json &request);
    /// Why `request`, a model step's whole request as a person edited it (Rerun from
    /// Step), cannot be sent for step tool `stepTool` ("model:NAME"); empty when it can.
    /// Checked as admit() checks a script's request: only "model" (the step's model),
    /// "messages" and "tools"; the messages in the neutral shape
    /// (ModelMessage::checkMessages); "tools" a list of definitions {"name" (a declared,
    /// active tool), "description", "input_schema" (an object)}; the whole request within
    /// limits.model_request_bytes.
    static QString checkEditedRequest(const Project &project, const QString &stepTool, const nlohmann::json &request);
    /// Past max_model_calls with the first refusal recorded already: the call is only
    /// answered and counted (as StepEngine does for max_calls).
    bool refuseWithoutStep() const { return m_budgetStepRecorded && m_calls >= m_project.limits.maxModelCalls; }
    QString budgetMessage() const;

    /// The retry policy of a model step as a Tool (name "model:<name>"), or nullptr when
    /// `stepTool` is not a model of the project.
    const Tool *tool(const QString &stepTool) const;
    /// A handler for the next attempt of model step `step` (parent `parent`), or nullptr
    /// with `refusal` (a project not trusted to send a key somewhere).
    ToolHandler *makeHandler(const Step &step, QObject *parent, QString *refusal);

    /// A model step `stepTool` answered from the record after `attempts` attempts: a
    /// `mock` model's turn counter moves on as if they had been sent (as a mock tool's
    /// sequence does), so a rerun or resume continues with the recorded run's next turn.
    void memoized(const QString &stepTool, int attempts);

    int calls() const { return m_calls; }
    qint64 tokensUsed() const { return m_tokens; }

private:
    ModelClient *client(const ModelConfig &model);

    const Project &m_project;
    QStringList m_boundTools;
    std::map<QString, Tool> m_tools; ///< by "model:<name>"
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::map<QString, std::unique_ptr<ModelClient>> m_clients; ///< by model name; one mock turn counter per run
    std::atomic<int> m_calls{0};                               ///< read by the window's meter
    bool m_budgetStepRecorded = false;
    std::atomic<qint64> m_tokens{0}; ///< read by the window's meter
};
