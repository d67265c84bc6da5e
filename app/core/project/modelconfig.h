// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

/// One scripted answer of a `mock` model (docs/project-format.md "models"): turn i
/// answers the i-th request to the model within a run; after the last, the last repeats
/// (as a mock tool's sequence).
struct ModelTurn
{
    bool isError = false;
    /// The neutral assistant message (docs/models.md): {"role": "assistant", "content":
    /// text or null, "tool_calls": [{"id", "type": "function", "function": {"name",
    /// "arguments": JSON text}}]} — `tool_calls` only when there are some.
    nlohmann::json message;
    int inputTokens = 0;
    int outputTokens = 0;
    QString stopReason; ///< "stop" or "tool_calls" unless the turn names one
    QString error;      ///< for an error turn
    bool retryable = true;
    int delayMs = 0;
};

/// One entry of toolstudio.json's `models` (docs/project-format.md "models"):
///   {"name": "local", "provider": "openai-chat", "base_url": "http://127.0.0.1:11434/v1", "model": "qwen2.5:7b"}
///   {"name": "claude", "provider": "anthropic", "model": "claude-sonnet-4-5", "api_key_secret": "ANTHROPIC_API_KEY"}
///   {"name": "teacher", "provider": "manual"}
///   {"name": "scripted", "provider": "mock", "turns": [{"tool_calls": [{"name": "t", "arguments": {}}]}, {"content": "done"}]}
struct ModelConfig
{
    enum class Provider {
        OpenAIChat, ///< "openai-chat": the Chat Completions API of any compatible server
        Anthropic,  ///< "anthropic": the Messages API
        Manual,     ///< "manual": a person answers each model turn
        Mock,       ///< "mock": scripted turns, no network
    };

    QString name; ///< how scripts name it (`models.local`): 1–64 of A-Z a-z 0-9 _, not starting with a digit
    Provider provider = Provider::OpenAIChat;
    QString baseUrl;      ///< without a trailing '/'; the provider's public endpoint when not given
    QString model;        ///< the provider's model id ("qwen2.5:7b")
    QString apiKeySecret; ///< the studio secret holding the key; "" = the server takes none
    /// Extra request members (temperature, max_tokens, …), sent as given; never one the
    /// studio sets itself (model, messages, system, tools, stream).
    nlohmann::json params = nlohmann::json::object();
    /// The project's `retry` overridden key by key by the model's; its attempt timeout is
    /// `timeout_seconds` (one request, 120 s by default).
    RetryPolicy retry;
    int timeoutMs = 120000;
    /// Whether a request whose reply a person watches is streamed (`"stream": false` for
    /// a server that refuses streamed requests or `stream_options`).
    bool stream = true;
    /// How long a started stream may send nothing before the attempt fails with a
    /// timeout (`stream_idle_timeout_seconds`).
    static constexpr int DefaultStreamIdleMs = 30 * 1000;
    int streamIdleMs = DefaultStreamIdleMs;
    std::vector<ModelTurn> turns; ///< `mock` only, never empty

    static QString providerName(Provider provider);
    static std::optional<Provider> parseProvider(const QString &name);
    static bool isValidName(const QString &name);
    /// True for the providers that make HTTP requests (openai-chat, anthropic).
    bool isRemote() const { return provider == Provider::OpenAIChat || provider == Provider::Anthropic; }
    /// The URL a request goes to: base_url + "/chat/completions" (openai-chat, whose
    /// base_url ends in "/v1" as the OpenAI SDKs' does) or base_url + "/v1/messages"
    /// (anthropic, whose base_url is the host as the Anthropic SDKs' is). "" otherwise.
    QString endpointUrl() const;

    /// Reads `models` (an array), each retry over `retryDefaults`. Throws
    /// ManifestReader::ManifestError naming the model and key, like every manifest read.
    /// One turn in a mock turn's shape ({"content"?, "tool_calls"?: [{"id"?, "name",
    /// "arguments"}], "usage"?, "stop_reason"?} or {"error", "retryable"?}); call ids
    /// default to "call_<index + 1>_<n>". A person answering a `manual` model writes the
    /// same shape. Throws ManifestReader::ManifestError whose message starts with `where`.
    static ModelTurn parseTurn(const nlohmann::json &entry, const QString &where, int index);
    static std::vector<ModelConfig> parseAll(const nlohmann::json &models, const RetryPolicy &retryDefaults);
};
