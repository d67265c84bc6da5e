// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/manualhandler.h"

#include <QStringList>

#include <optional>

/// One turn of a `manual` model (docs/models.md "A person plays the model"): a person
/// writes the assistant's reply, in the window's composer or with `toolstudio answer`.
/// The answer takes a mock turn's shape — {"content": "text"} and/or {"tool_calls":
/// [{"name", "arguments": {…}, "id"?}]} — and becomes the model step's result in the
/// reply shape ({"message", "usage": 0 tokens, "stop_reason"}), as a real model's would.
/// Refused (the person corrects it, nothing is delivered): anything else, a call of a
/// tool the request did not offer, arguments that are not a JSON object.
class ManualModelHandler : public ManualHandler
{
    Q_OBJECT
public:
    explicit ManualModelHandler(QObject *parent = nullptr);
    ~ManualModelHandler() override;

    void start(const HandlerRequest &request) override;
    QString prepare(ManualAnswer &answer) const override;

    /// `answer` (the turn shape above) as a reply's JSON, or nullopt with `error`.
    /// `offered`: the names of the tools the model was given.
    static std::optional<nlohmann::json> replyOf(const nlohmann::json &answer, const QStringList &offered,
                                                 QString *error);

private:
    QStringList m_offered;
};
