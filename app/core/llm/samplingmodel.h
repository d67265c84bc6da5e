// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/modelclient.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <utility>
#include <vector>

class QNetworkAccessManager;

/// A configured model writes the reply to an MCP server's `sampling/createMessage`
/// (docs/mcp.md "A model writes the reply"): the request the question carries
/// (Attempt::modelRequest: neutral user/assistant messages and the server's system
/// prompt) goes through a ModelClient on the studio's trusted side, with the model's
/// key, `timeout_seconds`, the server's `maxTokens` (bounded by the model's own
/// `max_tokens` or `max_completion_tokens`) and its temperature and stop sequences as
/// the provider names them unless the model's `params` set their own (configFor()), and
/// the reply becomes the answer {"text", "model", "stopReason"} (engine/personquestion.h)
/// that a person may edit before it is sent; "model" is the id the reply names, else
/// the configured one. One request at a time; no retry: a person asks again.
///
/// A `mock` model answers from its turns, the i-th ask of one SamplingModelCall the
/// i-th turn; a `manual` model cannot answer here (a person is asked already).
class SamplingModelCall : public QObject
{
    Q_OBJECT
public:
    /// Characters of the answer's "model" (PersonQuestion::MaxModelChars checks it).
    static constexpr qsizetype MaxModelChars = 256;
    struct Outcome
    {
        /// {"text", "model", "stopReason"} when error is empty, or {"content": [tool_use
        /// blocks], "model", "stopReason": "toolUse"} for the model's tool calls
        nlohmann::json answer;
        QString error;     ///< for a person: what failed and what to do
        QString errorCode; ///< ModelError's code, "no_text" for a reply of tool calls only, else ""
        QStringList notes; ///< what the request left out or changed (notes()), for a person
    };
    /// Largest reply body read (a sampling reply is one text).
    static constexpr qint64 ReplyCapBytes = 1024 * 1024;

    SamplingModelCall(ModelConfig model, Secrets secrets, QNetworkAccessManager *network, QObject *parent = nullptr);

    const ModelConfig &model() const { return m_model; }
    /// Asks the model `modelRequest` (Attempt::modelRequest) with at most `maxTokens`
    /// tokens (0: the model's own limit); finished() follows once, never from inside
    /// ask(). A request still running is cancelled first.
    void ask(const nlohmann::json &modelRequest, int maxTokens);
    /// Stops the running request: no finished() for it.
    void cancel();
    bool isRunning() const { return m_client != nullptr; }

    /// The neutral request for `modelRequest`: its system prompt first, then its
    /// messages; nullopt with `error` for a request the question says cannot be given
    /// to a model (its "error") or that is not one.
    static std::optional<ModelRequest> request(const nlohmann::json &modelRequest, QString *error);
    /// Tokens a server's `maxTokens` may ask of a model that sets no limit of its own
    /// (attack36 F3: a server asked 2147483647 and got it); the model's own
    /// max_tokens in its params allows more.
    static constexpr int DefaultMaxTokens = 4096;
    /// `model` whose request asks for at most `maxTokens` (0: unchanged): its own
    /// max_completion_tokens or max_tokens lowered to it, or max_tokens set to it, at
    /// most DefaultMaxTokens.
    static ModelConfig bounded(ModelConfig model, int maxTokens);
    /// `model` as it is asked `modelRequest`: bounded() by `maxTokens`, the request's
    /// "temperature" as `temperature` when it is in the provider's range
    /// (temperatureRange()), its "stop_sequences" as `stop` (openai-chat) or
    /// `stop_sequences` (anthropic) — each unless the model's `params` set it: the
    /// project's setting wins. What is not sent as the server asked goes to `notes`.
    static ModelConfig configFor(ModelConfig model, const nlohmann::json &modelRequest, int maxTokens,
                                 QStringList *notes);
    /// What a person is told before `model` is asked `modelRequest`: the request's own
    /// "notes" (what the server asked that no model is given), that an anthropic model
    /// is given no audio (ask() sends "[audio not sent]" in its place), then configFor()'s.
    static QStringList notes(const ModelConfig &model, const nlohmann::json &modelRequest, int maxTokens = 0);
    /// The temperatures a provider takes: openai-chat 0 to 2, anthropic 0 to 1.
    static std::pair<double, double> temperatureRange(ModelConfig::Provider provider);
    /// The model the server prefers among `models` (MCP modelPreferences.hints, the
    /// request's "hints"): for each hint in order, the first model that answers by itself
    /// (not `manual`) whose id or name contains it, ignoring case; nullopt when none
    /// matches. `hint` gets the hint that chose it.
    static std::optional<std::size_t> preferred(const std::vector<ModelConfig> &models,
                                                const nlohmann::json &modelRequest, QString *hint = nullptr);
    /// MCP's stopReason for a neutral one: "stop" endTurn, "length" maxTokens,
    /// "stop_sequence" stopSequence, none endTurn; another word as it is, else "other".
    static QString stopReason(const QString &neutral);
    /// The answer for `reply` of `model`; nullopt with `error` when it has no text. Its
    /// "model" is the id the reply names (ModelReply::model), else the configured id (a
    /// mock's name), printable and at most MaxModelChars characters; "stopReason"
    /// "stopSequence" when the reply says it stopped at a stop sequence.
    /// A reply with tool calls to a request that offered the tools `offered` (their
    /// names) is the answer {"content": [{"type": "text"} (when it has text), {"type":
    /// "tool_use", "id", "name", "input"} each], "model", "stopReason": "toolUse"}; a
    /// call's name is the offered tool's as the server named it (the exporter gives a
    /// provider "a_b" for "a.b"); arguments that are no JSON object are an error.
    static std::optional<nlohmann::json> answerOf(const ModelConfig &model, const ModelReply &reply, QString *error,
                                                  const QStringList &offered = {});

Q_SIGNALS:
    void finished(const SamplingModelCall::Outcome &outcome);

private:
    void done(const ModelResult &result);

    ModelConfig m_model;
    Secrets m_secrets;
    QNetworkAccessManager *m_network;
    ModelClient *m_client = nullptr; ///< the running request's
    quint64 m_requestId = 0;
    int m_asked = 0;       ///< sends so far: a mock's next turn
    QStringList m_notes;   ///< notes() of the running ask
    QStringList m_offered; ///< the names of the tools the running ask offers
};
