// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

class Journal;
class Project;

/// The one intake for answers to pending calls from outside the process that runs them:
/// `toolstudio answer` (its journal path) and the server's `POST /v1/runs/{run}/calls/{id}`
/// both check a call here and write the answer into the journal (table pending_answers),
/// where the running process picks it up and accepts or refuses it (docs/steps.md
/// "Manual answers and fencing"; docs/server.md).
namespace PendingAnswerIntake {

/// Why an answer was refused before anything was written.
enum class Refusal {
    None,
    UnknownRun,     ///< no run with that id
    UnknownCall,    ///< the run has no call with that id
    AlreadyEnded,   ///< the call finished
    RunEnded,       ///< the run is final: nothing waits for the answer
    HeldByStepMode, ///< step mode holds the call: it waits for a decision, not an answer
    StoreFailed,    ///< the journal refused the row
};

/// What submit() did: `id` > 0 when the answer was written (for `attempt`); `kept` when
/// the run is suspended and the answer waits for its resume; otherwise `refusal` and
/// `reason` in words.
struct Submission
{
    qint64 id = 0;
    int attempt = 0;
    bool kept = false;
    Refusal refusal = Refusal::None;
    QString reason;
};

/// True when step mode holds `step` (or held it when its run stopped): its latest
/// step-mode event in the journal is `step_paused`, with no `step_decision` nor a
/// `resumed` after it.
bool heldByStepMode(const Journal &journal, const QString &runId, const Step &step);

/// Checks `answer` (runId, callId, answer; attempt 0 = the call's current attempt)
/// against the journal of `project` and writes it. The checks and their messages are
/// those `toolstudio answer` has always printed.
Submission submit(Journal &journal, const Project &project, PendingAnswer answer);

/// The stable name of a refusal for the server's error bodies: "unknown_run",
/// "unknown_call", "already_ended", "run_ended", "held_by_step_mode", "store_failed".
const char *refusalCode(Refusal refusal);

/// The code of a refusal by the running process (its reason from StepEngine::answer):
/// "stale_attempt" for an old or already answered attempt, "already_ended" for a call
/// that finished meanwhile, "refused" otherwise (e.g. an output_schema mismatch).
const char *engineRefusalCode(const QString &reason);

} // namespace PendingAnswerIntake
