// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/manualmodelhandler.h"

#include "engine/modelstep.h"
#include "llm/modelmessage.h"
#include "project/manifestreader.h"
#include "project/modelconfig.h"

ManualModelHandler::ManualModelHandler(QObject *parent)
    : ManualHandler(parent)
{}

ManualModelHandler::~ManualModelHandler() = default;

void ManualModelHandler::start(const HandlerRequest &request)
{
    m_offered = ModelSteps::offeredTools(request.args);
    ManualHandler::start(request);
}

std::optional<nlohmann::json> ManualModelHandler::replyOf(const nlohmann::json &answer, const QStringList &offered,
                                                          QString *error)
{
    const QString where = QStringLiteral("the model reply");
    ModelTurn turn;
    try {
        if (answer.is_object() && answer.contains("error"))
            ManifestReader::fail(where
                                 + QStringLiteral(": a model turn cannot be an error here; answer with an error "
                                                  "instead (toolstudio answer --error MESSAGE, or Send Error)"));
        if (answer.is_object() && answer.contains("delay_seconds"))
            ManifestReader::fail(where + QStringLiteral(": 'delay_seconds' is for mock models"));
        turn = ModelConfig::parseTurn(answer, where, 0);
    } catch (const ManifestReader::ManifestError &failure) {
        *error = failure.message
            + QStringLiteral(" (a reply is {\"content\": \"text\"} and/or {\"tool_calls\": [{\"name\": \"tool\", "
                             "\"arguments\": {…}}]})");
        return std::nullopt;
    }
    ModelReply reply;
    reply.message = turn.message;
    reply.inputTokens = turn.inputTokens;
    reply.outputTokens = turn.outputTokens;
    reply.stopReason = turn.stopReason;
    const nlohmann::json calls = reply.message.value("tool_calls", nlohmann::json::array());
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const QString name = QString::fromStdString(calls[i]["function"]["name"].get<std::string>());
        if (!offered.contains(name)) {
            *error = QStringLiteral("%1: tool_calls[%2] calls %3, which the model was not offered (offered: %4)")
                         .arg(where)
                         .arg(i)
                         .arg(ModelMessage::quote(calls[i]["function"]["name"]),
                              offered.isEmpty() ? QStringLiteral("no tools") : offered.join(QStringLiteral(", ")));
            return std::nullopt;
        }
    }
    ModelMessage::checkArguments(reply);
    if (!reply.argumentErrors.empty()) {
        *error = QStringLiteral("%1: the arguments of call %2 must be a JSON object: %3")
                     .arg(where, reply.argumentErrors.front().first, reply.argumentErrors.front().second);
        return std::nullopt;
    }
    return reply.toJson();
}

QString ManualModelHandler::prepare(ManualAnswer &answer) const
{
    if (answer.isError)
        return {};
    QString error;
    const auto reply = replyOf(answer.result, m_offered, &error);
    if (!reply)
        return error;
    answer.result = *reply;
    return {};
}
