// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The MCP TypeScript SDK that ./toolstudio.sh test installs from npm into
// TOOLSTUDIO_MCP_SERVERS_DIR: where its packages are, and why a suite of the SDK 2.x
// cannot run here.
#pragma once

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

/// TOOLSTUDIO_MCP_SERVERS_DIR/node_modules.
inline QString sdkModules()
{
    return qEnvironmentVariable("TOOLSTUDIO_MCP_SERVERS_DIR") + QStringLiteral("/node_modules");
}

/// Why the SDK 2.x `packages` ("client", "server") cannot run here, or empty: each is
/// installed and Node.js is 20 or later.
inline QString missingSdk2(const QStringList &packages)
{
    bool installed = !qEnvironmentVariableIsEmpty("TOOLSTUDIO_MCP_SERVERS_DIR");
    QStringList names;
    for (const QString &package : packages) {
        names << QStringLiteral("@modelcontextprotocol/%1").arg(package);
        installed = installed
            && QFile::exists(sdkModules() + QStringLiteral("/@modelcontextprotocol/%1/package.json").arg(package));
    }
    if (!installed)
        return QStringLiteral("the MCP TypeScript SDK 2.x (%1 2.4.0) is not installed in "
                              "TOOLSTUDIO_MCP_SERVERS_DIR/node_modules: ./toolstudio.sh test installs it from npm")
            .arg(names.join(QStringLiteral(" and ")));
    QProcess node;
    node.start(QStringLiteral("node"), {QStringLiteral("--version")});
    if (!node.waitForFinished(30000) || node.exitCode() != 0)
        return QStringLiteral("the MCP TypeScript SDK 2.x needs Node.js >= 20; this machine has no node");
    const QString version = QString::fromUtf8(node.readAllStandardOutput()).trimmed();
    const QRegularExpressionMatch major = QRegularExpression(QStringLiteral("^v(\\d+)\\.")).match(version);
    if (!major.hasMatch() || major.captured(1).toInt() < 20)
        return QStringLiteral("the MCP TypeScript SDK 2.x needs Node.js >= 20; this machine has %1").arg(version);
    return {};
}
