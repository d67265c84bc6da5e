// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/stepengine.h"
#include "project/step.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

/// What a durable start replays (issue 5; docs/steps.md): a replay, resume or rerun of
/// a run of the journal, or a run against a cassette, as the plan, kind and ids
/// RunController::start() records. Each factory returns nullopt with `error` set when
/// the run or cassette cannot be read or the request does not fit it.
struct DurableStart
{
    ReplayPlan plan;
    QString runId; ///< resume: the run keeps its id; else empty (a new id)
    RunKind kind = RunKind::Replay;
    QString sourceRun;
    QString scriptPath; ///< the script the recorded run ran

    /// A new run of `runId`'s script with its journal as memo.
    static std::optional<DurableStart> replay(const QString &journalPath, const QString &runId, QString *error);
    /// A `suspended` run again under its id: its output is cleared (the script prints it
    /// again) and a `resumed` event recorded.
    static std::optional<DurableStart> resume(const QString &journalPath, const QString &runId, QString *error);
    /// A new run from step `sequence` (1-based) of `runId`, with `editedArgs` if given.
    /// A model step's edited request is checked as a script's is, against `project`
    /// (ModelSteps::checkEditedRequest): refused with the reason before a run exists.
    static std::optional<DurableStart> rerun(const QString &journalPath, const Project &project, const QString &runId,
                                             int sequence, const std::optional<nlohmann::json> &editedArgs,
                                             QString *error);
    /// An offline run against the cassette at `path`.
    static std::optional<DurableStart> cassette(const QString &path, QString *error);
};
