// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/toolhandler.h"

HandlerOutcome HandlerOutcome::success(nlohmann::json result)
{
    HandlerOutcome outcome;
    outcome.ok = true;
    outcome.result = std::move(result);
    return outcome;
}

HandlerOutcome HandlerOutcome::failure(const QString &message, bool retryable, ErrorCode code)
{
    HandlerOutcome outcome;
    outcome.error.code = code;
    outcome.error.message = message.toStdString();
    outcome.error.retryable = retryable;
    return outcome;
}

ToolHandler::ToolHandler(QObject *parent)
    : QObject(parent)
{}

ToolHandler::~ToolHandler() = default;
