// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A project's journal as the system suites read it after a command has run.
#pragma once

#include "journal/journal.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

/// Run `runId`'s record in the journal of the project in `dir`.
inline std::optional<RunRecord> journalRun(const QString &dir, const QString &runId)
{
    Journal journal;
    if (!journal.open(dir + QStringLiteral("/.toolstudio/journal.sqlite")))
        return std::nullopt;
    return journal.run(runId);
}

/// The steps of run `runId` in the journal of the project in `dir`.
inline std::vector<Step> journalSteps(const QString &dir, const QString &runId)
{
    Journal journal;
    if (!journal.open(dir + QStringLiteral("/.toolstudio/journal.sqlite")))
        return {};
    return journal.steps(runId);
}

/// "model:local succeeded", "get_exchange_rate succeeded", … in sequence order.
inline QStringList stepLines(const std::vector<Step> &steps)
{
    QStringList lines;
    for (const Step &step : steps)
        lines << step.tool + QLatin1Char(' ') + stepStatusName(step.status);
    return lines;
}
