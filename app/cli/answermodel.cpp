// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answermodel.h"

#include "headlessrun.h"
#include "journal/journal.h"
#include "llm/samplingmodel.h"
#include "project/printabletext.h"
#include "project/project.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QStringList>

#include <algorithm>
#include <limits>

namespace {

ModelAnswer failed(const QString &message, int exitCode)
{
    ModelAnswer answer;
    answer.message = message;
    answer.exitCode = exitCode;
    return answer;
}

} // namespace

ModelAnswer ModelAnswer::ask(const Project &project, const QString &runId, const QString &callId,
                             const QString &modelName)
{
    Journal journal;
    QString error;
    if (!journal.open(project.journalPath(), &error))
        return failed(error, ExitBadInput);
    int sequence = 0;
    for (const Step &step : journal.steps(runId))
        if (step.callId == callId)
            sequence = step.sequence;
    if (sequence == 0)
        return failed(QStringLiteral("run %1 has no call %2").arg(runId, callId), ExitBadInput);
    // The question the call asks now: its last person_asked not answered since.
    std::optional<nlohmann::json> asked;
    for (const PolicyEvent &event : journal.events(runId)) {
        if (event.sequence != sequence)
            continue;
        if (event.kind == PolicyEventKind::PersonAsked)
            asked = event.detail;
        else if (event.kind == PolicyEventKind::PersonAnswered)
            asked.reset();
    }
    if (!asked)
        return failed(QStringLiteral("call %1 asks no question now; --model answers an MCP server's sampling request")
                          .arg(callId),
                      ExitBadInput);
    const nlohmann::json question = asked->value("question", nlohmann::json::object());
    if (question.value("kind", std::string()) != "sampling")
        return failed(QStringLiteral("call %1 asks for %2, not a model's reply; --model answers sampling requests only "
                                     "(answer it with --result)")
                          .arg(callId, QString::fromStdString(question.value("kind", std::string("input")))),
                      ExitBadInput);

    const nlohmann::json modelRequest = asked->value("model_request", nlohmann::json());
    QString choice;
    const ModelConfig *model = nullptr;
    QStringList names;
    for (const ModelConfig &candidate : project.models)
        if (candidate.provider != ModelConfig::Provider::Manual) {
            names << candidate.name;
            if (candidate.name == modelName)
                model = &candidate;
        }
    if (names.isEmpty())
        return failed(QStringLiteral("the project has no model to ask: add one to \"models\" in toolstudio.json "
                                     "(provider openai-chat, anthropic or mock; docs/models.md \"Configuration\")"),
                      ExitBadInput);
    if (modelName.isEmpty()) {
        const auto hints = modelRequest.is_object() ? modelRequest.find("hints") : modelRequest.end();
        if (hints == modelRequest.end() || !hints->is_array() || hints->empty())
            return failed(QStringLiteral("call %1's server names no model it prefers (no modelPreferences.hints): "
                                         "name one with --model NAME (models: %2)")
                              .arg(callId, names.join(QStringLiteral(", "))),
                          ExitBadInput);
        QString hint;
        const auto index = SamplingModelCall::preferred(project.models, modelRequest, &hint);
        if (!index) {
            QStringList liked;
            for (const nlohmann::json &name : *hints)
                if (name.is_string())
                    liked << u'"' + elidedText(printableText(QString::fromStdString(name.get<std::string>())), 40)
                            + u'"';
            return failed(QStringLiteral("call %1's server prefers a model like %2; none of the project's models "
                                         "matches: name one with --model NAME (models: %3)")
                              .arg(callId, liked.join(QStringLiteral(", ")), names.join(QStringLiteral(", "))),
                          ExitBadInput);
        }
        model = &project.models[*index];
        choice = QStringLiteral("the server prefers a model like \"%1\": '%2' answers")
                     .arg(printableText(hint), model->name);
    }
    if (!model)
        return failed(QStringLiteral("the project has no model '%1' that answers by itself (models: %2)")
                          .arg(modelName, names.join(QStringLiteral(", "))),
                      ExitBadInput);

    Secrets secrets = Secrets::load(project.dir, &error);
    if (!error.isEmpty())
        return failed(QStringLiteral("the project's secrets cannot be read: %1").arg(error), ExitBadInput);
    QNetworkAccessManager network;
    SamplingModelCall call(*model, std::move(secrets), &network);
    QEventLoop loop;
    SamplingModelCall::Outcome outcome;
    QObject::connect(&call, &SamplingModelCall::finished, &loop, [&](const SamplingModelCall::Outcome &got) {
        outcome = got;
        loop.quit();
    });
    const auto tokens = question.find("max_tokens");
    call.ask(modelRequest,
             tokens != question.end() && tokens->is_number_integer()
                 ? int(std::clamp<qint64>(tokens->get<qint64>(), 0, std::numeric_limits<int>::max()))
                 : 0);
    loop.exec();
    if (!outcome.error.isEmpty())
        return failed(QStringLiteral("model '%1' did not answer; nothing was sent to the server: %2")
                          .arg(model->name, outcome.error),
                      outcome.errorCode == QLatin1String("invalid_request") ? ExitBadInput : ExitRunFailed);
    ModelAnswer answer;
    answer.answer = outcome.answer;
    answer.notes = outcome.notes;
    answer.choice = choice;
    answer.serial = question.value("serial", 0);
    return answer;
}
