// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

class Project;

/// A chat run (docs/models.md "Chat"): the studio's own script (resources/chat/chat.py,
/// written to `.toolstudio/chat/chat.py`) runs the stock agent loop over the project's
/// tools; each user message answers a call of the manual tool `chat:message`, which only
/// a chat run has (a project tool's name cannot hold ':'). RunController::start gives a
/// run of that script this tool (projectFor), so a chat started, resumed or replayed
/// anywhere — the window's Resume too — runs the same way.
namespace ChatRun {

inline constexpr auto InputTool = "chat:message";

/// `<project>/.toolstudio/chat/chat.py`.
QString scriptPath(const QString &projectDir);
/// Writes the studio's chat script to scriptPath() (again: it is the studio's, not the
/// project's). Returns the path, or empty with `error` set.
QString writeScript(const QString &projectDir, QString *error);
/// True when `script` (absolute, or relative to the project) is the chat script.
bool isChatScript(const Project &project, const QString &script);

/// `project` with the chat's input tool (`chat:message`: manual, one attempt, no
/// timeout, its answer checked against {"message", "model", "system"}); as it is when it
/// has it already. Its limits are the project's `limits`; the run clock pauses while the
/// call waits for the person, as for any manual call.
Project projectFor(const Project &project);

/// The first answer of a chat: the message, the model, and a system prompt if any.
/// Later answers hold the message (and `model` to switch models).
nlohmann::json answer(const QString &message, const QString &model = {}, const QString &system = {});

/// The answer that rejects a tool call held for approval (the Chat dock's Reject,
/// `toolstudio chat --approve`'s "n"): an error the model reads; the tool does not run.
ManualAnswer rejection();

/// A chat run's input call: its turn and what the turn before it left.
struct Input
{
    Step step;
    int turn = 0;
    std::optional<QString> reply; ///< the previous turn's final text
    QString error;                ///< why the previous turn failed (the model, max_turns)
};
/// `step` as an input call, or nullopt when it is another call.
std::optional<Input> inputOf(const Step &step);
/// The run's unfinished input call (the last one), or nullopt.
std::optional<Input> openInput(const std::vector<Step> &steps);
/// The run's last input call, answered or not, or nullopt.
std::optional<Input> lastInput(const std::vector<Step> &steps);

} // namespace ChatRun
