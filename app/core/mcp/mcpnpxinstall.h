// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpnpxpackage.h"

#include <QObject>
#include <QString>

#include <functional>

class QProcess;
class QTimer;

/// Installs an npx entry's package once (McpNpxPackage, docs/mcp.md "npx entries"):
/// `npm install --ignore-scripts` with the network, into a fresh folder beside
/// installDir() that becomes installDir() only once npm succeeded and the package's bin
/// was found (a cut install is never taken for a whole one; two studios installing the
/// same spec at once both end with the one that landed first). Files are made readable
/// by all (umask 022): as root the server runs as the sandbox user; the folder is 0700
/// until it lands. An install in which npm placed a package that did not come from the
/// registry (a `file:` or git dependency, a link: npm runs with the studio user's files
/// and credentials) is refused and removed (attack32 F2). npm runs in a process group
/// of its own that dies with the studio; a `.part-` folder of a studio that is gone is
/// removed at the next install.
class McpNpxInstall : public QObject
{
    Q_OBJECT
public:
    /// Bytes of npm's output kept for the error.
    static constexpr qsizetype OutputTailBytes = 4096;

    explicit McpNpxInstall(McpNpxPackage package, QObject *parent = nullptr);
    ~McpNpxInstall() override;

    /// Starts npm; finished() follows, on a later turn of the event loop.
    void start();
    /// For headless commands: when `server` is an npx entry whose package is not
    /// installed, calls `installing` with its spec, installs it and waits; "" when there
    /// is nothing to install or it was installed, else why not.
    static QString installIfNeeded(const McpServerConfig &server,
                                   const std::function<void(const QString &spec)> &installing);

Q_SIGNALS:
    /// "" when the package is installed, else why not (npm's output tail included).
    void finished(const QString &error);

private:
    void onFinished(int exitCode, bool crashed);
    void fail(const QString &why);
    QString land();
    void killGroup();
    /// Removes the ".part-" folders of studios that are gone.
    static void sweepStaleParts();

    McpNpxPackage m_package;
    QString m_partDir;
    QProcess *m_process = nullptr;
    QTimer *m_timer = nullptr;
    QByteArray m_output;
    bool m_done = false;
};
