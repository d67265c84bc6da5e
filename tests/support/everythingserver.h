// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The reference MCP server "everything" over HTTP (the HTTP suites of tests/system/): its
// entry point, and a port for it to listen on.
#pragma once

#include <QFileInfo>
#include <QHostAddress>
#include <QString>
#include <QTcpServer>

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
