// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/modelmessage.h"
#include "project/modelconfig.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

/// The Chat Completions API (POST {base_url}/chat/completions) of OpenAI and the
/// servers that copy it (Ollama, llama.cpp server, vLLM, LM Studio, OpenRouter), written
/// from OpenAI's published API reference. The neutral shape is this API's own, so the
/// request is mostly the messages as given.
namespace OpenAIChatCodec {

/// {"model", "messages", "tools" and "tool_choice" (only when there are tools; the
/// request's toolChoice as it is: "auto", "required", "none"), …params}; nullopt with
/// `error` when the messages are not neutral ones or a tool cannot be exported (the
/// exporter's reason, naming the tool). A tool message's `is_error` is dropped (the API
/// has no such member; the content says it).
std::optional<nlohmann::ordered_json> buildRequest(const ModelConfig &model, const ModelRequest &request,
                                                   QString *error);

/// A reply body (untrusted: read through JsonInput) to a ModelReply; nullopt with
/// `error` naming what was wrong ("the reply has no choices[0].message"). A tool call
/// without an id gets "call_N"; arguments sent as an object are kept as its JSON text.
std::optional<ModelReply> parseReply(std::string_view body, QString *error);

/// The message of an error body ({"error": {"message"}} or Ollama's {"error": "…"}),
/// cut and printable; "" when the body has none.
QString errorMessage(std::string_view body);

} // namespace OpenAIChatCodec
