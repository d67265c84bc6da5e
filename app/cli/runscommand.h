// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio runs PROJECT [--json]`: the project's runs from its journal, oldest
/// first: id, status, kind, start time, steps, script. Opening the journal marks runs
/// whose studio is gone as `suspended` (they can be resumed). Exit 0, or 2 on bad input.
int runsCommand(const QStringList &arguments);
