// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>

class RunController;

/// `toolstudio chat --approve` (docs/user/models.md "Chat on the command line"): each tool
/// call the model asks for is held, and the person decides it on stdin, one line a call —
/// as the Chat dock's Approve, Edit Arguments, Answer Instead and Reject buttons do.
class ChatApproval
{
public:
    /// What one line says.
    struct Decision
    {
        enum class Kind { Approve, Reject, RunWith, AnswerWith };
        Kind kind = Kind::Approve;
        nlohmann::json value; ///< the arguments (RunWith), the result (AnswerWith)
    };

    /// "" / y / yes → Approve; n / no → Reject; "e JSON" → RunWith (an object);
    /// "a JSON" → AnswerWith. nullopt with `error` for anything else.
    static std::optional<Decision> parse(const QString &line, QString *error);

    /// `json`: the question is a JSON line on stdout ({"event": "held", …}), else text on
    /// stderr.
    ChatApproval(FILE *in, bool json);

    /// Asks about the held call `step` and reads lines from the input until one decides it,
    /// then hands the decision to `controller` (asking again when the controller refuses
    /// it; both must outlive the run). At the input's end the call is rejected.
    void decide(const Step &step, RunController &controller);

private:
    void ask(const Step &step) const;
    /// The next line of the input without its line end, or nullopt at its end.
    std::optional<QString> readLine();

    FILE *m_in;
    bool m_json;
};
