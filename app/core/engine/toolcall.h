// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

class Journal;
class StepEngine;

/// One call of a tool made directly on the trusted side, outside any script ("Try it",
/// DESIGN.md "The window"). It goes through a StepEngine exactly as a script's call
/// does (declared and active, input_schema validation, retries, the handler, the
/// output_schema) and is journaled as a one-step run whose script path is
/// DirectToolCall::scriptPath(), or the label setScriptPath() gave.
class DirectToolCall : public QObject
{
    Q_OBJECT
public:
    /// The script path recorded for these runs in the journal.
    static QString scriptPath();
    /// A new run id: "20261202T101500-3f2a" (UTC time and 16 random bits).
    static QString newRunId();

    explicit DirectToolCall(QObject *parent = nullptr);
    ~DirectToolCall() override;

    /// The script path recorded for the next calls' runs, in place of scriptPath():
    /// "(mcp call SERVER TOOL)" for `toolstudio mcp call`, so `toolstudio runs` and the
    /// Runs dock say what made the run. A label in parentheses, not a file.
    void setScriptPath(const QString &label);

    /// Journal to record into; default: the project's `.toolstudio/journal.sqlite`.
    /// An empty path disables journaling.
    void setJournalPath(const QString &path);

    /// Calls `tool` with `args` (a JSON object). Returns false with `error` set when a
    /// call is already in progress or the journal cannot be opened; otherwise the call
    /// is under way and finished() follows (possibly with an error step: unknown or
    /// inactive tool, invalid arguments, a failing handler).
    bool start(const Project &project, const QString &tool, const nlohmann::json &args, QString *error = nullptr);
    /// Answers the call when its tool is manual; see StepEngine::answer.
    bool answer(int attempt, const ManualAnswer &answer, QString *reason = nullptr);
    /// Cancels the call in progress (finished() follows with a cancelled step).
    void cancel();

    bool isActive() const;
    const RunRecord &record() const;
    /// The call's step once it has been submitted.
    std::optional<Step> step() const;

Q_SIGNALS:
    void stepChanged(const Step &step);
    void pendingCallOpened(const Step &step);
    /// The step is final and journaled; `run` is completed (the tool succeeded) or
    /// failed (with `run.error` = the step's error message).
    void finished(const Step &step, const RunRecord &run);

private:
    void finish();

    std::unique_ptr<Project> m_project;
    std::unique_ptr<Journal> m_journal;
    StepEngine *m_engine = nullptr;
    RunRecord m_record;
    QString m_callId;
    QString m_journalPath;
    QString m_scriptPath = scriptPath();
    bool m_journalPathSet = false;
    bool m_active = false;
};
