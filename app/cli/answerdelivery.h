// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

class Project;

/// An answer to a pending call of a run held by another process, or of a suspended run
/// (`toolstudio answer`, `toolstudio chat --continue`): through the project's server when
/// one is live (docs/server.md), else written into the journal (PendingAnswerIntake), where
/// the process running the call picks it up — or, for a suspended run, kept for its resume.
struct AnswerDelivery
{
    enum class State { Accepted, Kept, Failed };
    State state = State::Failed;
    int attempt = 0;
    bool throughServer = false;
    int exitCode = 0;             ///< for Failed: the command's exit status
    QString message;              ///< for Failed: why, in words
    bool refusedByEngine = false; ///< for Failed: the running process refused it

    /// Delivers `pending` (attempt 0 = the call's current one); `attemptGiven`: the caller
    /// named the attempt. Waits up to `timeoutSeconds` for the running process to take it.
    static AnswerDelivery deliver(const Project &project, PendingAnswer pending, bool attemptGiven,
                                  double timeoutSeconds);
};
