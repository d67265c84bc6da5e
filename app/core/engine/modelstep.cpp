// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/modelstep.h"

#include "bridgemessage.h"
#include "engine/handlers/manualmodelhandler.h"
#include "engine/handlers/modelhandler.h"
#include "llm/modelclient.h"
#include "project/printabletext.h"
#include "project/projecttrust.h"

#include <QNetworkAccessManager>

namespace {

nlohmann::json definitionOf(const Tool &tool)
{
    return {{"name", tool.name.toStdString()},
            {"description", tool.description.toStdString()},
            {"input_schema", tool.inputSchema}};
}

QString modelNames(const Project &project)
{
    QStringList names;
    for (const ModelConfig &model : project.models)
        names << model.name;
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

} // namespace

ModelSteps::ModelSteps(const Project &project, const QStringList &boundTools)
    : m_project(project)
    , m_boundTools(boundTools)
{
    for (const ModelConfig &model : project.models) {
        Tool tool;
        tool.name = QLatin1StringView(Prefix) + model.name;
        tool.handler = HandlerKind::Manual; // never dispatched by kind: makeHandler() makes the handler
        tool.retry = model.retry;
        // The client's own timeout (naming the URL) ends a request first; the engine's
        // bound is the backstop.
        if (tool.retry.attemptTimeoutMs > 0)
            tool.retry.attemptTimeoutMs += 1000;
        m_tools.emplace(tool.name, std::move(tool));
    }
}

ModelSteps::~ModelSteps() = default;

QString ModelSteps::budgetMessage() const
{
    return QStringLiteral("model call %1 exceeds the limit of %2 model calls per run (limits.max_model_calls)")
        .arg(m_calls + 1)
        .arg(m_project.limits.maxModelCalls);
}

std::optional<ModelSteps::Refusal> ModelSteps::admit(const BridgeCall &call, Step &step)
{
    const QString name = QString::fromStdString(call.tool);
    step.tool = QLatin1StringView(Prefix) + elidedText(name, 128);
    step.args = call.args;
    if (m_calls >= m_project.limits.maxModelCalls) {
        m_budgetStepRecorded = true;
        return Refusal{ErrorCode::MaxModelCallsExceeded, budgetMessage()};
    }
    ++m_calls;
    if (call.oversizedLineBytes > 0) // over the bridge's line bound: never read, only this call fails
        return Refusal{ErrorCode::RequestTooLarge,
                       QStringLiteral("the request to model %1 is %2 bytes on the bridge; the limit is %3 bytes "
                                      "(limits.model_request_bytes), so it was not read")
                           .arg(name.isEmpty() ? QStringLiteral("(unnamed)") : elidedText(name, 128))
                           .arg(call.oversizedLineBytes)
                           .arg(m_project.limits.modelRequestBytes)};
    const qint64 maxTokens = m_project.limits.maxTokens;
    if (maxTokens > 0 && m_tokens >= maxTokens)
        return Refusal{ErrorCode::MaxTokensExceeded,
                       QStringLiteral("the run has used %1 tokens; the limit is %2 tokens per run (limits.max_tokens)")
                           .arg(m_tokens.load())
                           .arg(maxTokens)};
    const ModelConfig *model = m_project.model(name);
    if (!model)
        return Refusal{ErrorCode::UnknownModel,
                       QStringLiteral("no model named '%1' in this project (toolstudio.json 'models' has: %2)")
                           .arg(elidedText(name, 128), modelNames(m_project))};
    step.maxAttempts = model->retry.maxAttempts;
    const std::size_t cap = m_project.limits.modelRequestBytes;
    if (call.argsBytes > cap)
        return Refusal{
            ErrorCode::RequestTooLarge,
            QStringLiteral("the request to model %1 is %2 bytes; the limit is %3 bytes (limits.model_request_bytes)")
                .arg(name)
                .arg(call.argsBytes)
                .arg(cap)};

    const nlohmann::json &request = call.args;
    for (const auto &[key, value] : request.items()) {
        if (key != "messages" && key != "tools")
            return Refusal{ErrorCode::InvalidRequest,
                           QStringLiteral("unknown member '%1' in the request to model %2 (it takes 'messages' and "
                                          "'tools')")
                               .arg(elidedText(QString::fromStdString(key), 64), name)};
    }
    const nlohmann::json messages = request.value("messages", nlohmann::json());
    if (const QString problem = ModelMessage::checkMessages(messages); !problem.isEmpty())
        return Refusal{ErrorCode::InvalidRequest, QStringLiteral("request to model %1: %2").arg(name, problem)};

    // "bound" (the default): the tools bound to the script; "none"; or a list of names.
    QStringList names;
    const nlohmann::json tools = request.value("tools", nlohmann::json("bound"));
    const auto bound = [this](const Tool &tool) {
        return tool.active && (m_boundTools.isEmpty() || m_boundTools.contains(tool.name));
    };
    if (tools == "bound") {
        for (const Tool &tool : m_project.tools)
            if (bound(tool))
                names << tool.name;
    } else if (tools.is_array()) {
        for (std::size_t i = 0; i < tools.size(); ++i) {
            const Tool *tool
                = tools[i].is_string() ? m_project.tool(QString::fromStdString(tools[i].get<std::string>())) : nullptr;
            if (!tool || !bound(*tool))
                return Refusal{ErrorCode::InvalidRequest,
                               QStringLiteral("request to model %1: tools[%2] %3 is not a tool bound to this script")
                                   .arg(name)
                                   .arg(i)
                                   .arg(ModelMessage::quote(tools[i]))};
            names << tool->name;
        }
    } else if (tools != "none") {
        return Refusal{ErrorCode::InvalidRequest,
                       QStringLiteral("request to model %1: 'tools' must be \"bound\", \"none\" or a list of tool "
                                      "names, not %2")
                           .arg(name, ModelMessage::quote(tools))};
    }
    nlohmann::json definitions = nlohmann::json::array();
    for (const QString &tool : std::as_const(names))
        definitions.push_back(definitionOf(*m_project.tool(tool)));
    step.args = {{"model", name.toStdString()}, {"messages", messages}, {"tools", std::move(definitions)}};
    return std::nullopt;
}

QStringList ModelSteps::offeredTools(const nlohmann::json &request)
{
    QStringList names;
    const auto tools = request.is_object() ? request.find("tools") : request.end();
    if (tools != request.end() && tools->is_array())
        for (const nlohmann::json &tool : *tools)
            if (tool.is_object() && tool.value("name", nlohmann::json()).is_string())
                names << QString::fromStdString(tool["name"].get<std::string>());
    return names;
}

QString ModelSteps::checkEditedRequest(const Project &project, const QString &stepTool, const nlohmann::json &request)
{
    const QString name = stepTool.mid(int(qstrlen(Prefix)));
    if (!isModelStep(stepTool) || !project.model(name))
        return QStringLiteral("no model named '%1' in this project (toolstudio.json 'models' has: %2)")
            .arg(elidedText(name, 128), modelNames(project));
    if (!request.is_object())
        return QStringLiteral("the request to model %1 must be a JSON object with 'model', 'messages' and 'tools'")
            .arg(name);
    if (const std::size_t bytes = request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size();
        bytes > project.limits.modelRequestBytes)
        return QStringLiteral("the edited request to model %1 is %2 bytes; the limit is %3 bytes "
                              "(limits.model_request_bytes)")
            .arg(name)
            .arg(bytes)
            .arg(project.limits.modelRequestBytes);
    for (const auto &[key, value] : request.items()) {
        if (key != "model" && key != "messages" && key != "tools")
            return QStringLiteral("unknown member '%1' in the request to model %2 (it takes 'model', 'messages' and "
                                  "'tools')")
                .arg(elidedText(QString::fromStdString(key), 64), name);
    }
    if (const auto model = request.find("model"); model != request.end() && *model != name.toStdString())
        return QStringLiteral("request to model %1: 'model' is %2; a step's model cannot change (it must be \"%1\")")
            .arg(name, ModelMessage::quote(*model));
    if (const QString problem = ModelMessage::checkMessages(request.value("messages", nlohmann::json()));
        !problem.isEmpty())
        return QStringLiteral("request to model %1: %2").arg(name, problem);
    const nlohmann::json tools = request.value("tools", nlohmann::json::array());
    if (!tools.is_array())
        return QStringLiteral("request to model %1: 'tools' must be a list of tool definitions ({\"name\", "
                              "\"description\", \"input_schema\"}), not %2")
            .arg(name, ModelMessage::quote(tools));
    for (std::size_t i = 0; i < tools.size(); ++i) {
        const nlohmann::json &tool = tools[i];
        const auto where = [&] { return QStringLiteral("request to model %1: tools[%2]").arg(name).arg(i); };
        if (!tool.is_object())
            return QStringLiteral("%1 must be an object {\"name\", \"description\", \"input_schema\"}, not %2")
                .arg(where(), ModelMessage::quote(tool));
        for (const auto &[key, value] : tool.items())
            if (key != "name" && key != "description" && key != "input_schema")
                return QStringLiteral("%1: unknown member '%2' (a definition has 'name', 'description' and "
                                      "'input_schema')")
                    .arg(where(), elidedText(QString::fromStdString(key), 64));
        const nlohmann::json toolName = tool.value("name", nlohmann::json());
        const Tool *declared
            = toolName.is_string() ? project.tool(QString::fromStdString(toolName.get<std::string>())) : nullptr;
        if (!declared || !declared->active)
            return QStringLiteral("%1: 'name' %2 is not an active tool of this project")
                .arg(where(), ModelMessage::quote(toolName));
        if (!tool.value("description", nlohmann::json("")).is_string())
            return QStringLiteral("%1: 'description' must be text").arg(where());
        if (!tool.value("input_schema", nlohmann::json::object()).is_object())
            return QStringLiteral("%1: 'input_schema' must be a JSON Schema object").arg(where());
    }
    return {};
}

const Tool *ModelSteps::tool(const QString &stepTool) const
{
    if (!isModelStep(stepTool))
        return nullptr;
    const auto it = m_tools.find(stepTool);
    return it == m_tools.end() ? nullptr : &it->second;
}

ModelClient *ModelSteps::client(const ModelConfig &model)
{
    auto &client = m_clients[model.name];
    if (!client) {
        if (!m_network)
            m_network = std::make_unique<QNetworkAccessManager>();
        QString error;
        client = std::make_unique<ModelClient>(model, Secrets::load(m_project.dir, &error), m_network.get());
        client->setReplyCap(qint64(m_project.limits.modelReplyBytes));
    }
    return client.get();
}

void ModelSteps::memoized(const QString &stepTool, int attempts)
{
    const ModelConfig *model = isModelStep(stepTool) ? m_project.model(stepTool.mid(int(qstrlen(Prefix)))) : nullptr;
    if (model && model->provider == ModelConfig::Provider::Mock)
        client(*model)->skipMockTurns(attempts);
}

ToolHandler *ModelSteps::makeHandler(const Step &step, QObject *parent, QString *refusal)
{
    const ModelConfig *model = m_project.model(step.tool.mid(int(qstrlen(Prefix))));
    if (!model) {
        *refusal = QStringLiteral("no model named '%1' in this project").arg(step.tool.mid(int(qstrlen(Prefix))));
        return nullptr;
    }
    if (model->provider == ModelConfig::Provider::Manual)
        return new ManualModelHandler(parent); // a person writes the reply
    if (model->isRemote()) {
        // A key and the conversation leave the machine: only for a trusted project.
        if (const QString refused = ProjectTrust::refusal(m_project); !refused.isEmpty()) {
            *refusal = refused;
            return nullptr;
        }
    }
    return new ModelHandler(
        client(*model), [this](int input, int output) { m_tokens += qint64(input) + output; }, parent);
}
