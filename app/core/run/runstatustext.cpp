// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runstatustext.h"

#include <QLocale>

QString RunStatusText::waiting(const QList<Step> &pending)
{
    if (pending.isEmpty())
        return tr("Waiting for an answer");
    if (pending.size() == 1)
        return tr("Waiting for an answer to %1").arg(pending.first().tool);
    // English has no plural translation file, so the source strings are already right.
    const int more = int(pending.size() - 1);
    if (more == 1)
        return tr("Waiting for answers to %1 and one more call").arg(pending.first().tool);
    return tr("Waiting for answers to %1 and %n more calls", nullptr, more).arg(pending.first().tool);
}

QString RunStatusText::finished(const RunRecord &run)
{
    // The window's words: the locale's decimal separator, as the trace's durations.
    const QString elapsed = QLocale().toString(double(qMax<qint64>(run.endedAt - run.startedAt, 0)) / 1000.0, 'f', 1);
    switch (run.status) {
    case RunStatus::Completed:
        return tr("Completed in %1 s").arg(elapsed);
    case RunStatus::Failed:
        return run.error.isEmpty() ? tr("Failed: the script exited with code %1").arg(run.exitCode)
                                   : tr("Failed: %1").arg(run.error);
    case RunStatus::TimedOut:
        return run.error.isEmpty() ? tr("Timed out") : tr("Timed out: %1").arg(run.error);
    case RunStatus::Cancelled:
        return tr("Stopped after %1 s").arg(elapsed);
    case RunStatus::Suspended:
        return tr("Suspended while waiting for an answer");
    case RunStatus::Running:
    case RunStatus::Waiting:
        break;
    }
    return tr("Running…");
}
