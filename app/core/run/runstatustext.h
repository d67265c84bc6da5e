// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

/// The window's run status line (status bar, and the console's end-of-run notice):
/// who a run waits for, and how it ended.
class RunStatusText
{
    Q_DECLARE_TR_FUNCTIONS(RunStatusText)
public:
    /// "Waiting for an answer to fetch_page", "… and 2 more calls" (`pending`: the
    /// open calls, oldest first; empty: the run waits without a known call).
    static QString waiting(const QList<Step> &pending);
    /// "Completed in 0.4 s", "Failed: …", "Timed out", "Stopped after 1.2 s", …
    static QString finished(const RunRecord &run);
};
