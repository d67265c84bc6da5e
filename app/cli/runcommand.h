// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio run PROJECT [SCRIPT] [--answers FILE] [--json]` (DESIGN.md "Headless
/// use"): runs a script without a window, prints each step as it ends (tool, args,
/// result or error, attempts, duration) and the script's output, answers manual calls
/// from FILE or, on a terminal, by prompting.
///
/// `arguments` are those after "run". Needs a QCoreApplication. Returns the process
/// exit status: 0 = the run completed, 1 = it failed/timed out/was cancelled,
/// 2 = bad input (missing project, malformed toolstudio.json or answers file, unknown
/// script), nothing written then.
int runCommand(const QStringList &arguments);
