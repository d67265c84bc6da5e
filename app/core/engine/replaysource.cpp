// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/replaysource.h"

#include "engine/stepengine.h"
#include "journal/journal.h"
#include "jsoninput.h"
#include "project/jsonqt.h"

#include <QFile>
#include <QSaveFile>

std::optional<ReplaySource> loadReplaySource(const QString &journalPath, const QString &runId, QString *error)
{
    Journal journal;
    QString openError;
    if (journalPath.isEmpty() || !journal.open(journalPath, &openError)) {
        *error = journalPath.isEmpty() ? QStringLiteral("journaling is off for this run controller")
                                       : QStringLiteral("cannot open the journal: %1").arg(openError);
        return std::nullopt;
    }
    const auto run = journal.run(runId);
    if (!run) {
        *error = QStringLiteral("no run '%1' in %2").arg(runId, journalPath);
        return std::nullopt;
    }
    return ReplaySource{*run, journal.steps(runId)};
}

bool saveCassette(const ReplaySource &source, const QString &path, QString *error)
{
    nlohmann::json steps = nlohmann::json::array();
    for (const Step &step : source.steps) {
        if (!isFinal(step.status) || step.status == StepStatus::Cancelled)
            continue;
        nlohmann::json entry
            = {{"sequence", step.sequence},
               {"call_id", step.callId.toStdString()},
               {"tool", step.tool.toStdString()},
               {"args", step.args},
               {"args_hash", (step.argsHash.isEmpty() ? StepEngine::argsHash(step.args) : step.argsHash).toStdString()},
               {"status", stepStatusName(step.status).toStdString()},
               {"attempts", step.attempts.size()}};
        if (step.result && !step.error)
            entry["result"] = *step.result;
        if (step.error)
            entry["error"] = step.error->toJson();
        steps.push_back(std::move(entry));
    }
    const nlohmann::json cassette = {{"format", "toolstudio-cassette"},
                                     {"version", 1},
                                     {"run", source.run.id.toStdString()},
                                     {"script", source.run.scriptPath.toStdString()},
                                     {"steps", std::move(steps)}};
    QSaveFile file(path);
    const QByteArray bytes
        = QByteArray::fromStdString(cassette.dump(1, ' ', false, nlohmann::json::error_handler_t::replace)) + '\n';
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<ReplaySource> loadCassette(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    std::string problem;
    const nlohmann::json json
        = JsonInput::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())), "the cassette", &problem);
    if (JsonInput::overLimit(std::string_view(bytes.constData(), std::size_t(bytes.size()))).limit) {
        *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(problem));
        return std::nullopt;
    }
    if (json.is_discarded() || !json.is_object()
        || JsonQt::stringField(json, "format") != QLatin1String("toolstudio-cassette") || !json.contains("steps")
        || !json.at("steps").is_array()) {
        *error = QStringLiteral(
                     "%1: not a Tool Studio cassette (expected {\"format\": \"toolstudio-cassette\", \"steps\": […]})")
                     .arg(path);
        return std::nullopt;
    }
    ReplaySource source;
    source.run.id = JsonQt::stringField(json, "run");
    source.run.scriptPath = JsonQt::stringField(json, "script");
    source.run.kind = RunKind::Cassette;
    try {
        for (const auto &entry : json.at("steps")) {
            Step step;
            step.sequence = entry.at("sequence").get<int>();
            step.callId = QString::fromStdString(entry.value("call_id", ""));
            step.tool = QString::fromStdString(entry.at("tool").get<std::string>());
            step.args = entry.value("args", nlohmann::json::object());
            step.argsHash = StepEngine::argsHash(step.args); // never trust a stored hash over the args
            step.status = stepStatusFromName(QString::fromStdString(entry.value("status", "succeeded")))
                              .value_or(StepStatus::Succeeded);
            if (entry.contains("error")) {
                Result<StepError> stepError = StepError::fromJson(entry.at("error"));
                if (!stepError)
                    throw std::runtime_error(stepError.error().toStdString());
                step.error = std::move(stepError).value();
                step.status = StepStatus::Failed;
            } else {
                step.result = entry.value("result", nlohmann::json());
                step.status = StepStatus::Succeeded;
            }
            source.steps.push_back(std::move(step));
        }
    } catch (const std::exception &e) {
        *error = QStringLiteral("%1: bad step in the cassette: %2").arg(path, QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    return source;
}
