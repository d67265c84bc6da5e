// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/durablestart.h"

#include "engine/modelstep.h"
#include "engine/replaysource.h"
#include "journal/journal.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>

std::optional<DurableStart> DurableStart::replay(const QString &journalPath, const QString &runId, QString *error)
{
    const auto source = loadReplaySource(journalPath, runId, error);
    if (!source)
        return std::nullopt;
    DurableStart start;
    start.plan.steps = source->steps;
    start.kind = RunKind::Replay;
    start.sourceRun = runId;
    start.scriptPath = source->run.scriptPath;
    return start;
}

std::optional<DurableStart> DurableStart::resume(const QString &journalPath, const QString &runId, QString *error)
{
    const auto source = loadReplaySource(journalPath, runId, error);
    if (!source)
        return std::nullopt;
    if (source->run.status != RunStatus::Suspended) {
        *error = QCoreApplication::translate("RunController", "run %1 is %2; only a suspended run can be resumed")
                     .arg(runId, runStatusName(source->run.status));
        return std::nullopt;
    }
    {
        // The script runs again from its start and prints everything again.
        Journal journal;
        if (journal.open(journalPath)) {
            journal.clearOutput(runId);
            journal.recordEvent({runId,
                                 0,
                                 QDateTime::currentMSecsSinceEpoch(),
                                 PolicyEventKind::Resumed,
                                 {{"steps_recorded", source->steps.size()}}});
        }
    }
    DurableStart start;
    start.plan.mode = ReplayPlan::Mode::Resume;
    start.plan.steps = source->steps;
    start.runId = runId;
    start.kind = source->run.kind;
    start.sourceRun = source->run.sourceRun;
    start.scriptPath = source->run.scriptPath;
    return start;
}

std::optional<DurableStart> DurableStart::rerun(const QString &journalPath, const Project &project,
                                                const QString &runId, int sequence,
                                                const std::optional<nlohmann::json> &editedArgs, QString *error)
{
    const auto source = loadReplaySource(journalPath, runId, error);
    if (!source)
        return std::nullopt;
    if (sequence < 1 || sequence > int(source->steps.size())) {
        *error = QCoreApplication::translate("RunController", "run %1 has no step %2 (it has %3)")
                     .arg(runId)
                     .arg(sequence)
                     .arg(source->steps.size());
        return std::nullopt;
    }
    const auto step = std::find_if(source->steps.cbegin(), source->steps.cend(),
                                   [sequence](const Step &recorded) { return recorded.sequence == sequence; });
    if (editedArgs && step != source->steps.cend() && ModelSteps::isModelStep(step->tool)) {
        // The engine sends an edited request as it is: checked here, before the run is
        // journaled, as the script's request was when it was made.
        if (const QString problem = ModelSteps::checkEditedRequest(project, step->tool, *editedArgs);
            !problem.isEmpty()) {
            *error = QCoreApplication::translate("RunController", "step %1 cannot be rerun with this request: %2")
                         .arg(sequence)
                         .arg(problem);
            return std::nullopt;
        }
    }
    DurableStart start;
    start.plan.mode = ReplayPlan::Mode::Rerun;
    start.plan.steps = source->steps;
    start.plan.rerunFrom = sequence;
    start.plan.editedArgs = editedArgs;
    start.kind = RunKind::Rerun;
    start.sourceRun = runId;
    start.scriptPath = source->run.scriptPath;
    return start;
}

std::optional<DurableStart> DurableStart::cassette(const QString &path, QString *error)
{
    const auto source = loadCassette(path, error);
    if (!source)
        return std::nullopt;
    DurableStart start;
    start.plan.mode = ReplayPlan::Mode::Cassette;
    start.plan.offline = true;
    start.plan.steps = source->steps;
    start.kind = RunKind::Cassette;
    start.sourceRun = source->run.id;
    start.scriptPath = source->run.scriptPath;
    return start;
}
