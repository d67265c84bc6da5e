// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/samplingmodel.h"

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

void SamplingModelCall::ask(const json &modelRequest, int maxTokens)
{
    cancel();
    QString error;
    const auto request = SamplingModelCall::request(modelRequest, &error);
    if (!request) {
        const Outcome outcome{json(), error, QStringLiteral("invalid_request")};
        QTimer::singleShot(0, this, [this, outcome] { Q_EMIT finished(outcome); });
        return;
    }
    if (m_model.provider == ModelConfig::Provider::Manual) {
        const Outcome outcome{
            json(), tr("model '%1' is answered by a person (provider manual); choose another").arg(m_model.name),
            QStringLiteral("manual_model")};
        QTimer::singleShot(0, this, [this, outcome] { Q_EMIT finished(outcome); });
        return;
    }
    m_client = new ModelClient(bounded(m_model, maxTokens), m_secrets, m_network, this);
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
    if (!result.reply) {
        outcome.error = result.error.message;
        outcome.errorCode = result.error.code;
    } else if (auto answer = answerOf(m_model, *result.reply, &outcome.error)) {
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
    return request;
}

ModelConfig SamplingModelCall::bounded(ModelConfig model, int maxTokens)
{
    if (maxTokens <= 0)
        return model;
    const char *key = model.params.contains("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
    const auto own = model.params.find(key);
    const bool limited = own != model.params.end() && own->is_number_integer() && own->get<qint64>() > 0;
    model.params[key] = limited ? std::min<qint64>(own->get<qint64>(), maxTokens) : qint64(maxTokens);
    return model;
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

std::optional<json> SamplingModelCall::answerOf(const ModelConfig &model, const ModelReply &reply, QString *error)
{
    const json content = reply.message.value("content", json());
    if (!content.is_string()) {
        *error = reply.message.contains("tool_calls")
            ? tr("model '%1' answered with tool calls, not text; ask again or write the reply").arg(model.name)
            : tr("model '%1' answered with no text; ask again or write the reply").arg(model.name);
        return std::nullopt;
    }
    // The model's id as configured (a mock has none: its name), made what an answer's
    // "model" must be (PersonQuestion::check): printable, at most MaxModelChars, never half
    // a character (attack34 F3: a control character or a cut emoji made the studio refuse
    // its own answer after the model's tokens were spent).
    const QString id = QString::fromUtf8(
        clipChars(printableText(model.model.isEmpty() ? model.name : model.model), MaxModelChars).kept);
    return json{
        {"text", content}, {"model", id.toStdString()}, {"stopReason", stopReason(reply.stopReason).toStdString()}};
}
