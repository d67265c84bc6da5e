// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: a model server's reply body (untrusted) through the reply parsers.
// The first byte picks the protocol ('a' Anthropic Messages, anything else OpenAI Chat
// Completions); the rest is the body. Checks: every body is exactly a reply or an error
// of bounded length; a reply is a neutral assistant message that passes the neutral
// checks as the next turn of a conversation and can be sent back to its provider (to
// Anthropic only when every tool call's arguments are a JSON object, as argument_errors
// says); its token counts are not negative; the error-body readers stay bounded.

#include "llm/anthropiccodec.h"
#include "llm/openaichatcodec.h"

#include "fuzzcheck.h"

#include <string_view>

using FuzzCheck::check;
using json = nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const bool anthropic = data[0] == 'a';
    const std::string_view body(reinterpret_cast<const char *>(data) + 1, size - 1);
    QString error;
    const std::optional<ModelReply> reply
        = anthropic ? AnthropicCodec::parseReply(body, &error) : OpenAIChatCodec::parseReply(body, &error);
    const QString said = anthropic ? AnthropicCodec::errorMessage(body) : OpenAIChatCodec::errorMessage(body);
    check(said.size() < 700);
    if (!reply) {
        check(!error.isEmpty() && error.size() < 1200);
        return 0;
    }
    check(reply->message.is_object() && reply->message["role"] == json("assistant"));
    check(reply->message["content"].is_null() || reply->message["content"].is_string());
    check(reply->inputTokens >= 0 && reply->outputTokens >= 0);
    check(!reply->stopReason.isEmpty() && reply->stopReason.size() <= 64);
    (void)reply->toJson().dump();

    ModelRequest next;
    next.messages = json::array({json{{"role", "user"}, {"content", "q"}}});
    const bool speaks = !reply->message["content"].is_null() || reply->message.contains("tool_calls");
    if (!speaks)
        return 0; // an empty answer (no text, no calls) is not a turn to send back
    next.messages.push_back(reply->message);
    check(ModelMessage::checkMessages(next.messages).isEmpty());
    ModelConfig model;
    model.model = QStringLiteral("m");
    check(OpenAIChatCodec::buildRequest(model, next, &error).has_value());
    if (anthropic)
        check(AnthropicCodec::buildRequest(model, next, &error).has_value() == reply->argumentErrors.empty());
    return 0;
}
