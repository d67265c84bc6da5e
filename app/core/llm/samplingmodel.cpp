// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/samplingmodel.h"

#include "jsoninput.h"
#include "project/printabletext.h"

#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <utility>

using nlohmann::json;

SamplingModelCall::SamplingModelCall(ModelConfig model, Secrets secrets, QNetworkAccessManager *network,
                                     QObject *parent)
    : QObject(parent)
    , m_model(std::move(model))
    , m_secrets(std::move(secrets))
    , m_network(network)
{}

namespace {

/// Calls `visit` with each input_audio part of the neutral `messages`.
template<typename Messages, typename Visit>
void forEachAudioPart(Messages &messages, Visit visit)
{
    if (!messages.is_array())
        return;
    for (auto &message : messages) {
        const auto content = message.is_object() ? message.find("content") : message.end();
        if (content == message.end() || !content->is_array())
            continue;
        for (auto &part : *content)
            if (part.is_object() && part.value("type", json()) == "input_audio")
                visit(part);
    }
}

/// Audio parts of `modelRequest`'s messages.
std::size_t audioParts(const json &modelRequest)
{
    std::size_t count = 0;
    if (const auto messages = modelRequest.is_object() ? modelRequest.find("messages") : modelRequest.end();
        messages != modelRequest.end())
        forEachAudioPart(*messages, [&count](const json &) { ++count; });
    return count;
}

} // namespace

void SamplingModelCall::ask(const json &modelRequest, int maxTokens)
{
    cancel();
    QString error;
    auto request = SamplingModelCall::request(modelRequest, &error);
    // Anthropic takes no audio: its parts become notes in the text (notes() says so).
    if (request && m_model.provider == ModelConfig::Provider::Anthropic)
        forEachAudioPart(request->messages, [](json &part) {
            part = {{"type", "text"}, {"text", "[audio not sent]"}};
        });
    if (!request) {
        const Outcome outcome{json(), error, QStringLiteral("invalid_request"), {}};
        QTimer::singleShot(0, this, [this, outcome] { Q_EMIT finished(outcome); });
        return;
    }
    if (m_model.provider == ModelConfig::Provider::Manual) {
        const Outcome outcome{
            json(),
            tr("model '%1' is answered by a person (provider manual); choose another").arg(m_model.name),
            QStringLiteral("manual_model"),
            {}};
        QTimer::singleShot(0, this, [this, outcome] { Q_EMIT finished(outcome); });
        return;
    }
    m_notes = notes(m_model, modelRequest, maxTokens);
    m_offered.clear();
    for (const Tool &tool : request->tools)
        m_offered << tool.name;
    QStringList ignored; // the same notes, said by notes() above
    m_client = new ModelClient(configFor(m_model, modelRequest, maxTokens, &ignored), m_secrets, m_network, this);
    m_client->setReplyCap(ReplyCapBytes);
    m_client->skipMockTurns(m_asked++);
    ModelClient *client = m_client;
    m_requestId = client->send(*request, [this, client](const ModelResult &result) {
        if (client != m_client)
            return; // cancelled meanwhile
        done(result);
    });
}

void SamplingModelCall::cancel()
{
    if (!m_client)
        return;
    m_client->cancel(m_requestId);
    std::exchange(m_client, nullptr)->deleteLater();
}

void SamplingModelCall::done(const ModelResult &result)
{
    std::exchange(m_client, nullptr)->deleteLater();
    Outcome outcome;
    outcome.notes = m_notes;
    if (!result.reply) {
        outcome.error = result.error.message;
        outcome.errorCode = result.error.code;
    } else if (auto answer = answerOf(m_model, *result.reply, &outcome.error, m_offered)) {
        outcome.answer = std::move(*answer);
    } else {
        outcome.errorCode = QStringLiteral("no_text");
    }
    Q_EMIT finished(outcome);
}

std::optional<ModelRequest> SamplingModelCall::request(const json &modelRequest, QString *error)
{
    if (!modelRequest.is_object()) {
        *error = tr("the question carries no request for a model");
        return std::nullopt;
    }
    if (const auto why = modelRequest.find("error"); why != modelRequest.end() && why->is_string()) {
        *error = tr("this request cannot be given to a model: %1").arg(QString::fromStdString(why->get<std::string>()));
        return std::nullopt;
    }
    const auto messages = modelRequest.find("messages");
    if (messages == modelRequest.end() || !messages->is_array() || messages->empty()) {
        *error = tr("the request has no messages for a model");
        return std::nullopt;
    }
    ModelRequest request;
    if (const auto system = modelRequest.find("system"); system != modelRequest.end() && system->is_string())
        request.messages.push_back({{"role", "system"}, {"content", *system}});
    for (const json &message : *messages)
        request.messages.push_back(message);
    if (const QString problem = ModelMessage::checkMessages(request.messages); !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    // The server's tools (checked when it asked: SamplingTools::check), as neutral tool
    // definitions the codecs export for each provider.
    if (const auto tools = modelRequest.find("tools"); tools != modelRequest.end() && tools->is_array())
        for (const json &offered : *tools) {
            Tool tool;
            tool.name = QString::fromStdString(offered.value("name", std::string()));
            tool.description = QString::fromStdString(offered.value("description", std::string()));
            tool.inputSchema = offered.value("inputSchema", json::object());
            request.tools.push_back(std::move(tool));
        }
    if (const auto choice = modelRequest.find("tool_choice"); choice != modelRequest.end() && choice->is_string())
        request.toolChoice = QString::fromStdString(choice->get<std::string>());
    return request;
}

namespace {

/// The params member that bounds `model`'s reply: max_completion_tokens when it sets it, else max_tokens.
const char *tokenLimitKey(const ModelConfig &model)
{
    return model.params.contains("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
}

/// The limit `model` sets itself in its params; 0 when none.
qint64 ownTokenLimit(const ModelConfig &model)
{
    const auto own = model.params.find(tokenLimitKey(model));
    return own != model.params.end() && own->is_number_integer() && own->get<qint64>() > 0 ? own->get<qint64>() : 0;
}

} // namespace

ModelConfig SamplingModelCall::bounded(ModelConfig model, int maxTokens)
{
    if (maxTokens <= 0)
        return model;
    const qint64 own = ownTokenLimit(model);
    model.params[tokenLimitKey(model)] = std::min<qint64>(own > 0 ? own : DefaultMaxTokens, maxTokens);
    return model;
}

ModelConfig SamplingModelCall::configFor(ModelConfig model, const json &modelRequest, int maxTokens, QStringList *notes)
{
    if (maxTokens > DefaultMaxTokens && model.isRemote() && ownTokenLimit(model) == 0)
        *notes << tr("maxTokens %1 asked; at most %2 sent, as model '%3' sets no max_tokens of its own in its "
                     "params (set one to allow more)")
                      .arg(maxTokens)
                      .arg(DefaultMaxTokens)
                      .arg(model.name);
    model = bounded(std::move(model), maxTokens);
    if (!modelRequest.is_object())
        return model;
    const auto temperature = modelRequest.find("temperature");
    const bool hasTemperature = temperature != modelRequest.end() && temperature->is_number();
    const auto stops = modelRequest.find("stop_sequences");
    const bool hasStops = stops != modelRequest.end() && stops->is_array() && !stops->empty();
    if (!model.isRemote()) { // a mock (a manual model is never asked)
        if (model.provider == ModelConfig::Provider::Mock && (hasTemperature || hasStops))
            *notes << tr("model '%1' is a mock: its turns answer; the server's temperature and stop sequences are not "
                         "used")
                          .arg(model.name);
        return model;
    }
    const QString provider = ModelConfig::providerName(model.provider);
    if (hasTemperature) {
        const double value = temperature->get<double>();
        const auto [lowest, highest] = temperatureRange(model.provider);
        if (const auto own = model.params.find("temperature"); own != model.params.end())
            *notes << tr("temperature %1 asked; model '%2' sets its own (%3) in its params")
                          .arg(QString::number(value), model.name,
                               QString::fromStdString(own->dump(-1, ' ', false, json::error_handler_t::replace)));
        else if (!(value >= lowest && value <= highest))
            *notes << tr("temperature %1 asked is outside %2 to %3, what %4 takes; not sent")
                          .arg(QString::number(value), QString::number(lowest), QString::number(highest), provider);
        else
            model.params["temperature"] = value;
    }
    if (hasStops) {
        const char *key = model.provider == ModelConfig::Provider::Anthropic ? "stop_sequences" : "stop";
        if (model.params.contains(key))
            *notes << tr("stop sequences asked; model '%1' sets its own \"%2\" in its params")
                          .arg(model.name, QLatin1String(key));
        else
            model.params[key] = *stops;
    }
    return model;
}

QStringList SamplingModelCall::notes(const ModelConfig &model, const json &modelRequest, int maxTokens)
{
    QStringList result;
    const auto own = modelRequest.is_object() ? modelRequest.find("notes") : modelRequest.end();
    if (own != modelRequest.end() && own->is_array())
        for (const json &note : *own)
            if (note.is_string())
                result << printableText(QString::fromStdString(note.get<std::string>()));
    if (const std::size_t audio = audioParts(modelRequest);
        audio > 0 && model.provider == ModelConfig::Provider::Anthropic)
        result << tr("%n audio clip(s) not sent: anthropic takes no audio (model '%1')", nullptr, int(audio))
                      .arg(model.name);
    (void)configFor(model, modelRequest, maxTokens, &result);
    return result;
}

std::pair<double, double> SamplingModelCall::temperatureRange(ModelConfig::Provider provider)
{
    return provider == ModelConfig::Provider::Anthropic ? std::pair(0.0, 1.0) : std::pair(0.0, 2.0);
}

std::optional<std::size_t> SamplingModelCall::preferred(const std::vector<ModelConfig> &models,
                                                        const json &modelRequest, QString *hint)
{
    const auto hints = modelRequest.is_object() ? modelRequest.find("hints") : modelRequest.end();
    if (hints == modelRequest.end() || !hints->is_array())
        return std::nullopt;
    for (const json &name : *hints) {
        if (!name.is_string())
            continue;
        const QString wanted = QString::fromStdString(name.get<std::string>());
        if (wanted.isEmpty())
            continue;
        for (std::size_t i = 0; i < models.size(); ++i) {
            const ModelConfig &model = models[i];
            if (model.provider == ModelConfig::Provider::Manual)
                continue;
            if (model.model.contains(wanted, Qt::CaseInsensitive) || model.name.contains(wanted, Qt::CaseInsensitive)) {
                if (hint)
                    *hint = wanted;
                return i;
            }
        }
    }
    return std::nullopt;
}

QString SamplingModelCall::stopReason(const QString &neutral)
{
    if (neutral.isEmpty() || neutral == QLatin1String("stop"))
        return QStringLiteral("endTurn");
    if (neutral == QLatin1String("length"))
        return QStringLiteral("maxTokens");
    if (neutral == QLatin1String("stop_sequence"))
        return QStringLiteral("stopSequence");
    static const QRegularExpression word(QStringLiteral("^[A-Za-z_]{1,64}$"));
    return word.match(neutral).hasMatch() ? neutral : QStringLiteral("other");
}

std::optional<json> SamplingModelCall::answerOf(const ModelConfig &model, const ModelReply &reply, QString *error,
                                                const QStringList &offered)
{
    const json content = reply.message.value("content", json());
    const auto calls = reply.message.find("tool_calls");
    std::optional<json> toolUse;
    if (!offered.isEmpty() && calls != reply.message.end() && calls->is_array() && !calls->empty()) {
        if (!reply.argumentErrors.empty()) {
            *error = tr("model '%1' wrote arguments of call %2 that are no JSON object (%3); ask again or answer "
                        "by hand")
                         .arg(model.name, printableText(reply.argumentErrors.front().first),
                              printableText(reply.argumentErrors.front().second));
            return std::nullopt;
        }
        // MCP's blocks for the model's tool calls: its text first, then a tool_use each.
        toolUse = json::array();
        if (content.is_string() && !content.get_ref<const std::string &>().empty())
            toolUse->push_back({{"type", "text"}, {"text", content}});
        for (const json &call : *calls) {
            // The exporter gives a provider "a_b" for "a.b" (ToolExport::providerName).
            QString name = QString::fromStdString(call["function"]["name"].get<std::string>());
            if (!offered.contains(name))
                for (const QString &tool : offered)
                    if (QString(tool).replace(u'.', u'_') == name)
                        name = tool;
            toolUse->push_back({{"type", "tool_use"},
                                {"id", call["id"]},
                                {"name", name.toStdString()},
                                {"input", JsonInput::read<json>(call["function"]["arguments"].get<std::string>())}});
        }
    }
    if (!toolUse && !content.is_string()) {
        *error = reply.message.contains("tool_calls")
            ? tr("model '%1' answered with tool calls, not text; ask again or write the reply").arg(model.name)
            : tr("model '%1' answered with no text; ask again or write the reply").arg(model.name);
        return std::nullopt;
    }
    // The model's id as its reply names it (a dated version of the configured one), else
    // as configured (a mock has none: its name), made what an answer's "model" must be
    // (PersonQuestion::check): printable, at most MaxModelChars, never half a character
    // (attack34 F3: a control character or a cut emoji made the studio refuse its own
    // answer after the model's tokens were spent).
    const QString named = !reply.model.trimmed().isEmpty() ? reply.model
        : model.model.isEmpty()                            ? model.name
                                                           : model.model;
    const QString id = QString::fromUtf8(clipChars(printableText(named), MaxModelChars).kept);
    if (toolUse)
        return json{{"content", std::move(*toolUse)}, {"model", id.toStdString()}, {"stopReason", "toolUse"}};
    return json{
        {"text", content},
        {"model", id.toStdString()},
        {"stopReason",
         stopReason(reply.stoppedAtSequence ? QStringLiteral("stop_sequence") : reply.stopReason).toStdString()}};
}
