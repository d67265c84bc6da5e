// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

/// A process that prints its port as the first line of stdout (fakehttpserver.py, the
/// SDK server over HTTP), killed with the struct; `base` is its http://127.0.0.1:PORT.
struct PortServer
{
    QProcess process;
    QString base;

    bool start(const QString &program, const QStringList &arguments, const QString &dir = {})
    {
        if (!dir.isEmpty())
            process.setWorkingDirectory(dir);
        process.start(program, arguments);
        if (!process.waitForStarted(30000))
            return false;
        (void)QTest::qWaitFor([this] { return process.canReadLine(); }, 30000);
        const int port = process.readLine().trimmed().toInt();
        base = QStringLiteral("http://127.0.0.1:%1").arg(port);
        return port > 0;
    }
    ~PortServer()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(10000);
        }
    }
};
