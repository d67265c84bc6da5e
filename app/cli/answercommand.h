// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio answer PROJECT RUN CALL_ID --result JSON | --error MESSAGE [--retryable] |
/// --model NAME [--attempt N] [--timeout SECONDS]`: answers a pending call of a run waiting in
/// another process (the window, `toolstudio run --wait-for-answers`, `resume`). The
/// answer goes into the journal (table pending_answers) for the attempt given, or
/// the call's current attempt; the running process picks it up within 250 ms and
/// accepts or refuses it (old attempt, finished call, output_schema mismatch…), which
/// this command waits for and prints. A call already finished is refused at once.
/// For a suspended run the answer is kept and applied when the run is resumed.
/// A call held by step mode (docs/steps.md "Manual answers and fencing") is refused
/// before anything is written: live, it waits for the holder's decision; in a
/// suspended run, unless its tool is manual, resuming runs its handler.
/// `--model NAME` answers an MCP server's sampling request with the reply of the project's
/// model NAME (ModelAnswer: asked in this process); refused (2) for any other question.
/// Exit 0 = accepted (or kept for a suspended run), 1 = refused or no answer from the
/// running process in time, 2 = bad input or a held call.
int answerCommand(const QStringList &arguments);
