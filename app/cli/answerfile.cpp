// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerfile.h"

#include "jsoninput.h"
#include "project/jsonerror.h"

#include <QFile>
#include <QObject>

std::optional<AnswerFile> AnswerFile::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("%1: cannot read the answers file: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return parse(file.readAll(), path, error);
}

std::optional<AnswerFile> AnswerFile::parse(const QByteArray &json, const QString &fileName, QString *error)
{
    if (JsonInput::Problem bound = JsonInput::overLimit(std::string_view(json.constData(), std::size_t(json.size())));
        bound.limit) {
        const TextPosition at = textPositionAt(json, bound.byte);
        bound.byte = std::string_view::npos; // worded as line and column
        *error = QStringLiteral("%1:%2:%3: %4")
                     .arg(fileName)
                     .arg(at.line)
                     .arg(at.column)
                     .arg(QString::fromStdString(JsonInput::describe("the answers file", bound)));
        return std::nullopt;
    }
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(json.constBegin(), json.constEnd());
    } catch (const nlohmann::json::parse_error &e) {
        *error = describeJsonParseError(fileName, json, e);
        return std::nullopt;
    } catch (const nlohmann::json::exception &e) { // a number it cannot hold: 1e999
        *error = QStringLiteral("%1: %2").arg(fileName, jsonParseErrorReason(e));
        return std::nullopt;
    }
    if (!root.is_object()) {
        *error = QObject::tr("%1: the answers file must be a JSON object keyed by tool name or #N").arg(fileName);
        return std::nullopt;
    }
    AnswerFile answers;
    answers.m_fileName = fileName;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const nlohmann::json &value = it.value();
        ManualAnswer answer;
        if (value.is_object() && value.contains("error")) {
            answer.isError = true;
            const nlohmann::json &message = value["error"];
            answer.message = QString::fromStdString(message.is_string() ? message.get<std::string>() : message.dump());
            const auto retryable = value.find("retryable");
            answer.retryable = retryable != value.end() && retryable->is_boolean() && retryable->get<bool>();
        } else if (value.is_object() && value.size() == 1 && value.contains("result")) {
            answer.result = value["result"];
        } else {
            answer.result = value;
        }
        answers.m_answers.insert(QString::fromStdString(it.key()), answer);
    }
    return answers;
}

std::optional<ManualAnswer> AnswerFile::answerFor(int sequence, const QString &tool)
{
    for (const QString &key : {QLatin1Char('#') + QString::number(sequence), tool}) {
        const auto found = m_answers.constFind(key);
        if (found != m_answers.constEnd()) {
            m_used.insert(key);
            return found.value();
        }
    }
    return std::nullopt;
}

QStringList AnswerFile::unusedKeys() const
{
    QStringList keys;
    for (auto it = m_answers.constBegin(); it != m_answers.constEnd(); ++it)
        if (!m_used.contains(it.key()))
            keys << it.key();
    keys.sort();
    return keys;
}
