// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/modelhandler.h"

#include "llm/modelclient.h"

#include <QTimer>

namespace {

/// The tools of a recorded request, back as Tool values for the provider's exporter.
std::vector<Tool> toolsOf(const nlohmann::json &definitions)
{
    std::vector<Tool> tools;
    if (!definitions.is_array())
        return tools;
    for (const nlohmann::json &definition : definitions) {
        if (!definition.is_object())
            continue;
        Tool tool;
        tool.name = QString::fromStdString(definition.value("name", std::string()));
        tool.description = QString::fromStdString(definition.value("description", std::string()));
        tool.inputSchema = definition.value("input_schema", nlohmann::json::object());
        tools.push_back(std::move(tool));
    }
    return tools;
}

} // namespace

ModelHandler::ModelHandler(ModelClient *client, Usage onUsage, QObject *parent)
    : ToolHandler(parent)
    , m_client(client)
    , m_onUsage(std::move(onUsage))
{}

ModelHandler::~ModelHandler()
{
    cancel();
}

void ModelHandler::start(const HandlerRequest &request)
{
    if (!m_client) {
        QTimer::singleShot(0, this, [this] {
            Q_EMIT finished(
                HandlerOutcome::failure(QStringLiteral("the model's client is gone"), false, ErrorCode::ModelFailed));
        });
        return;
    }
    ModelRequest model;
    model.messages = request.args.value("messages", nlohmann::json::array());
    model.tools = toolsOf(request.args.value("tools", nlohmann::json::array()));
    // Every remote model step streams: the reply is the same (ModelStream), and a
    // viewer (the Chat dock) sees it grow. A mock or manual model has nothing to stream.
    const auto preview = [this](const QString &text) {
        if (!m_cancelled)
            Q_EMIT streamed(text);
    };
    m_request = m_client->send(
        model,
        [this](const ModelResult &result) {
            m_request = 0;
            if (m_cancelled)
                return;
            if (result.reply) {
                if (m_onUsage)
                    m_onUsage(result.reply->inputTokens, result.reply->outputTokens);
                Q_EMIT finished(HandlerOutcome::success(result.reply->toJson()));
                return;
            }
            const ModelError &error = result.error;
            const ErrorCode code = errorCodeFromName(error.code.toStdString()).value_or(ErrorCode::ModelFailed);
            HandlerOutcome outcome = HandlerOutcome::failure(error.message, error.retryable, code);
            if (error.retryAfterMs >= 0)
                outcome.error.details["retry_after_ms"] = error.retryAfterMs;
            if (error.httpStatus > 0)
                outcome.error.details["http_status"] = error.httpStatus;
            Q_EMIT finished(outcome);
        },
        preview);
}

void ModelHandler::cancel()
{
    m_cancelled = true;
    if (m_request && m_client)
        m_client->cancel(m_request);
    m_request = 0;
}

QString ModelHandler::cancelReport() const
{
    return m_cancelled ? QStringLiteral("the model request was aborted") : QString();
}
