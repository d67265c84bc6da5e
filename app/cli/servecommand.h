// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// Exit status of `toolstudio serve` when it cannot listen (the port is in use, the
/// address is not this machine's, a port below 1024) or the project is served already.
constexpr int ExitCannotListen = 4;

/// `toolstudio serve PROJECT [--port 3112] [--host 127.0.0.1] [--token-file FILE]
/// [--trust]`: serves the project over HTTP (docs/server.md) until SIGINT or SIGTERM.
/// Loopback by default; another host needs a token (no TLS: a warning says so). Writes
/// .toolstudio/serve.json (mode 0600) while it serves. Exit 0 after a stop, 2 on bad
/// input, 3 for a project not trusted, 4 when it cannot listen.
int serveCommand(const QStringList &arguments);
