// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

class Journal;

/// Exports of a recorded run (docs/run-export.md): the run JSON (format
/// "toolstudio-run", version 1) and Chrome trace-event JSON (opens in Perfetto and
/// chrome://tracing). Shared by `toolstudio trace export` and the Runs dock.
namespace TraceExport {

/// Concurrent call slots: for each step (in `steps` order) the lane it runs in, the
/// first lane free at its start (LaneAssigner, the timeline's rule too).
std::vector<int> lanes(const std::vector<Step> &steps);
/// The run JSON: {"format","version","run",{…},"steps":[…],"policy_events":[…],
/// "output":{"stdout","stderr"}}.
nlohmann::json runJson(const RunRecord &run, const std::vector<Step> &steps, const std::vector<PolicyEvent> &events,
                       const QByteArray &stdoutText, const QByteArray &stderrText);
/// Chrome trace events: one complete ("X") event per step on its slot's thread, one per
/// attempt nested in it, instant ("i") events for policy events; times in µs from the
/// run's start.
nlohmann::json chromeTrace(const RunRecord &run, const std::vector<Step> &steps,
                           const std::vector<PolicyEvent> &events);
/// A run read back from its run JSON (readRunJson): what runJson was given.
struct ImportedRun
{
    RunRecord run;
    std::vector<Step> steps;
    std::vector<PolicyEvent> events;
    QByteArray stdoutText;
    QByteArray stderrText;
};
/// Parses a run JSON (format "toolstudio-run", version 1; docs/run-export.md), the
/// inverse of runJson. nullopt with `error` saying what was wrong and where: a JSON
/// syntax error with its line and column, another format or version, or a field that
/// is missing or of the wrong type, named by its path ("steps[2].status: …").
std::optional<ImportedRun> readRunJson(const QByteArray &text, QString *error);
/// readRunJson on the file at `path`; errors start with the file's name.
std::optional<ImportedRun> readRunFile(const QString &path, QString *error);

/// Reads run `runId` from `journal` and writes the export in `format` ("json" or
/// "chrome") to `path`. False with `error` set otherwise.
bool exportRun(Journal &journal, const QString &runId, const QString &format, const QString &path, QString *error);

} // namespace TraceExport
