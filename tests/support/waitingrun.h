// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clirunner.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>

/// `toolstudio run DIR --json --wait-for-answers` in the background: start() until a
/// call of `tool` waits, waitFor() for the next one; gives the run id and the call id
/// the waiting message names ("call c1 (approve, attempt 1) waits for an answer").
struct WaitingRun
{
    QProcess process;
    QString runId;
    QString callId;
    QByteArray out;
    QByteArray err;
    qsizetype seen = 0; ///< bytes of `err` whose waiting messages were taken

    bool start(const QString &dir, const QString &tool = QStringLiteral("approve"))
    {
        process.setProgram(toolstudioBinary());
        process.setArguments(
            withTrust({QStringLiteral("run"), dir, QStringLiteral("--json"), QStringLiteral("--wait-for-answers")}));
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        return waitFor(tool);
    }

    /// Until a call of `tool` (attempt 1) waits after the ones seen already.
    bool waitFor(const QString &tool)
    {
        const QRegularExpression waits(QStringLiteral("call (\\S+) \\(%1, attempt 1\\) waits for an answer")
                                           .arg(QRegularExpression::escape(tool)));
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
            err += process.readAllStandardError();
            const auto match = waits.match(QString::fromUtf8(err.mid(seen)));
            const auto runs = jsonEvents(out, "run");
            if (match.hasMatch() && !runs.empty()) {
                callId = match.captured(1);
                runId = QString::fromStdString(runs.front().value("id", ""));
                seen += QString::fromUtf8(err.mid(seen)).left(match.capturedEnd(0)).toUtf8().size();
                return true;
            }
            if (process.state() == QProcess::NotRunning)
                return false;
        }
        return false;
    }

    void finish()
    {
        if (!process.waitForFinished(30000))
            process.kill();
        out += process.readAllStandardOutput();
        err += process.readAllStandardError();
    }
};
