// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

class Project;

/// `toolstudio answer PROJECT RUN CALL --model NAME` (docs/mcp.md "A model writes the
/// reply"): the sampling request call CALL of run RUN asks now, read from the journal
/// (its last person_asked event not yet answered, with the request a model is given),
/// asked of the project's model NAME in this process — the studio's trusted side, with
/// the project's secrets — and its reply as the answer {"text", "model", "stopReason"}.
/// The model is the one named, or with `--preferred-model` (an empty NAME) the one the
/// request's modelPreferences.hints choose, as the window preselects it
/// (SamplingModelCall::preferred).
struct ModelAnswer
{
    nlohmann::json answer; ///< when exitCode is 0
    int serial = 0;        ///< the question answered ("serial"), 0 when it has none
    int exitCode = 0;      ///< ExitBadInput: no such question or model; ExitRunFailed: the model failed
    QString message;       ///< why not, for the command's error line
    QStringList notes;     ///< what the model was not given as the server asked (SamplingModelCall::notes)
    QString choice;        ///< how the server's hints chose the model ("" when it was named)

    /// `modelName` empty: the model the server prefers.
    static ModelAnswer ask(const Project &project, const QString &runId, const QString &callId,
                           const QString &modelName);
};
