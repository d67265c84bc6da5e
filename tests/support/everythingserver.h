// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The reference MCP server "everything" over HTTP (the HTTP suites of tests/system/): its
// entry point, and a port for it to listen on.
#pragma once

#include <QByteArray>
#include <QFileInfo>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QTcpServer>
#include <QTest>

/// The reference server's entry point, or "" when ./toolstudio.sh test has not installed it.
inline QString everythingEntry()
{
    const QString dir = qEnvironmentVariable("TOOLSTUDIO_MCP_SERVERS_DIR");
    const QString entry = dir + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    return dir.isEmpty() || !QFileInfo::exists(entry) ? QString() : entry;
}

/// A port no one listens on now (the kernel's pick, given back).
inline quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

/// Starts the reference server's `mode` ("streamableHttp", "sse") of `entry` in `server`
/// on a free port; the port, or 0 when it did not say `listening` on stderr within 60 s.
inline quint16 startEverything(QProcess &server, const QString &entry, const QString &mode, const QByteArray &listening)
{
    // The server listens on PORT (its default, 3001, may be taken).
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const quint16 port = freePort();
    environment.insert(QStringLiteral("PORT"), QString::number(port));
    // Its HTTP modes mint session ids with the global `crypto`, which Debian 12's Node 18
    // has only behind this flag ("ReferenceError: crypto is not defined" on every
    // request, seen in a fresh bookworm root); newer Nodes take the flag and ignore it.
    environment.insert(
        QStringLiteral("NODE_OPTIONS"),
        (environment.value(QStringLiteral("NODE_OPTIONS")) + QStringLiteral(" --experimental-global-webcrypto"))
            .trimmed());
    server.setProcessEnvironment(environment);
    server.setStandardOutputFile(QProcess::nullDevice()); // a line per request
    server.start(QStandardPaths::findExecutable(QStringLiteral("node")), {entry, mode});
    if (!server.waitForStarted())
        return 0;
    QByteArray log;
    if (!QTest::qWaitFor([&] { return (log += server.readAllStandardError()).contains(listening); }, 60000)) {
        qWarning("the reference server did not start: %s", log.constData());
        return 0;
    }
    return port;
}

/// Starts `server-everything streamableHttp` on a free port; its port, or 0.
inline quint16 startEverythingHttp(QProcess &server, const QString &entry)
{
    return startEverything(server, entry, QStringLiteral("streamableHttp"), "listening on port");
}
