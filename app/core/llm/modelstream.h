// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/modelmessage.h"
#include "llm/sseparser.h"

#include <QString>

class Secrets;

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

/// A streamed model reply (`"stream": true`) put back together from its server-sent
/// events, written from the providers' published API references:
///
/// - OpenAI Chat Completions: `data: {chunk}` events whose `choices[0].delta` carries
///   `content` pieces and `tool_calls` pieces by `index` (`id` and `function.name` in the
///   first, `function.arguments` in pieces), a chunk with `finish_reason`, a last chunk
///   with `usage` and no choices (`stream_options.include_usage`), then `data: [DONE]`.
/// - Anthropic Messages: `message_start` (the message without content, its usage),
///   `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`:
///   the tool input's JSON text in pieces) / `content_block_stop` per block,
///   `message_delta` (stop_reason, usage), `message_stop`; `ping` and event types of later
///   API versions are skipped; `error` ends the stream with the server's error.
///
/// The events are gathered into the body the same answer has without streaming, and that
/// body goes through the codec's parseReply(): the reply (message, usage, stop_reason,
/// argument errors) is the non-streamed one by construction, so the journal, replay and
/// cassettes see no difference.
class ModelStream
{
public:
    enum class Protocol { OpenAIChat, Anthropic };
    /// How an event failed the stream.
    enum class Failure {
        None,
        BadEvent,    ///< not JSON, not the protocol (model_bad_reply)
        ServerError, ///< the server sent its error in the stream (model_server_error, retryable)
    };
    /// Largest block or tool-call index taken: a server naming index 1e9 gets an error,
    /// not a billion empty entries.
    static constexpr int MaxIndex = 1023;
    /// Characters of the reply a preview holds (the rest shows when the step ends).
    static constexpr int PreviewChars = 16 * 1024;

    explicit ModelStream(Protocol protocol);

    /// Reads one event; false with `error` (and failure()) when it fails the stream.
    /// Events after the terminator are ignored.
    bool add(const SseEvent &event, QString *error);
    Failure failure() const { return m_failure; }
    /// The terminator arrived ([DONE], message_stop).
    bool ended() const { return m_ended; }
    int events() const { return m_events; }
    /// After ended(): the reply, or nullopt with `error` (the codec's reason). With
    /// `secrets`, their values are masked in the gathered body before it is read, as the
    /// client masks an unstreamed body.
    std::optional<ModelReply> reply(QString *error, const Secrets *secrets = nullptr) const;
    /// The reply so far for a person: the text (cut at PreviewChars), then a line
    /// "→ name(arguments so far)" per tool call (arguments cut at 200 characters). With
    /// `secrets`, their values are masked before anything is cut, so a key that straddles
    /// a cut never shows in part.
    QString preview(const Secrets *secrets = nullptr) const;
    /// Whether anything a preview shows changed since the last call of preview().
    bool changed() const { return m_changed; }

private:
    bool fail(Failure failure, const QString &reason, QString *error);
    bool addOpenAI(const nlohmann::json &chunk, QString *error);
    bool addAnthropic(const nlohmann::json &event, QString *error);

    struct Call
    {
        std::string id;
        std::string name;
        std::string arguments;
        bool argumentsAsObject = false; ///< a server sent the object itself: kept as its text
    };
    struct Block
    {
        nlohmann::json start; ///< content_block_start's content_block
        std::string text;     ///< text_delta pieces
        std::string input;    ///< input_json_delta pieces
        bool hasInput = false;
        bool stopped = false;
    };

    Protocol m_protocol;
    Failure m_failure = Failure::None;
    bool m_ended = false;
    int m_events = 0;
    mutable bool m_changed = false;
    // OpenAI
    std::string m_content;
    bool m_hasContent = false;
    std::vector<Call> m_calls;
    nlohmann::json m_finishReason;
    nlohmann::json m_usage;
    nlohmann::json m_model; ///< the chunks' "model" (OpenAI), null until one names it
    // Anthropic
    bool m_started = false;
    nlohmann::json m_message; ///< message_start's message (content left out)
    std::vector<Block> m_blocks;
};
