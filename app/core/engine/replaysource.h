// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <optional>
#include <vector>

/// A recorded run to replay, resume or rerun from (DESIGN.md "Replay", "Resume").
struct ReplaySource
{
    RunRecord run;
    std::vector<Step> steps; ///< by sequence
};

/// Reads run `runId` and its steps from the journal at `journalPath`. Opening the
/// journal marks runs whose studio is gone as suspended first (Journal::open). Returns
/// nullopt with `error` set when the journal cannot be opened or has no such run.
std::optional<ReplaySource> loadReplaySource(const QString &journalPath, const QString &runId, QString *error);

/// Cassettes (issue 5 item 12): a run's tool results in a file, to run a script
/// against offline. JSON: {"format": "toolstudio-cassette", "version": 1, "run": ID,
/// "script": PATH, "steps": [{"sequence", "call_id", "tool", "args", "args_hash",
/// "status", "attempts", "result" | "error"}]}. Only final, non-cancelled steps are
/// written (the others could not be memoized anyway).
bool saveCassette(const ReplaySource &source, const QString &path, QString *error);
/// Reads a cassette; `error` = "FILE: reason" when it is unreadable or not a cassette.
std::optional<ReplaySource> loadCassette(const QString &path, QString *error);
