// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio replay PROJECT RUN [--from N [--args JSON]] [--cassette FILE] [--json]`:
/// re-runs RUN's script with its journal as memo (docs/steps.md "Replay"); prints the
/// trace like `run` (memoized steps, a divergence on stderr). `--from N` reruns from
/// step N (optionally with edited arguments). `--save-cassette FILE` writes RUN's
/// results to FILE instead of running; `--cassette FILE` runs the project's script
/// (or RUN = "-" for the script in the cassette) offline against FILE.
/// Exit 0 when the run completed, 1 when not, 2 on bad input.
int replayCommand(const QStringList &arguments);

/// `toolstudio resume PROJECT RUN [--answers FILE] [--json]`: resumes a suspended run
/// (same run id; the open call is pending again under the same call id). Manual calls
/// without an answer in FILE wait for `toolstudio answer`.
int resumeCommand(const QStringList &arguments);
