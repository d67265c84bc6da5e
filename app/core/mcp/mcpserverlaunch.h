// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpstdiotransport.h"

#include <QRegularExpression>

#include <memory>
#include <optional>

struct McpServerConfig;
class Secrets;

/// How a project's stdio MCP server is started (docs/mcp.md "Confined servers"): always
/// under toolstudio-sandbox's tool_worker profile (ToolSandbox) — no home, a scratch
/// dir, a clean environment, never root. Without `sandbox` it is confined like the
/// project's tool worker (the project folder readable, network as
/// `sandbox.tools_network` says); with `sandbox` only its `read` and `read_write`
/// folders are granted and `network` decides the network.
///
/// The environment holds only the server's `env`, with each "${secret:NAME}" replaced
/// by the project's secret NAME — nothing else of the studio's environment or secrets.
namespace McpServerLaunch {
/// The launch of `server` (a stdio server of the project in `projectDir`, absolute);
/// nullopt with the reason (a secret that is not set, a folder that is not there, no
/// launcher).
std::optional<McpStdioTransport::Launch> forServer(const McpServerConfig &server, const QString &projectDir,
                                                   const Secrets &secrets, QString *error);
/// The transport of `server`: over stdio (forServer), or to its `url` with its
/// `headers`, each "${secret:NAME}" replaced — Streamable HTTP ("type": "http"),
/// HTTP+SSE ("type": "sse"), or without a type Streamable HTTP falling back to HTTP+SSE
/// (McpHttpFallbackTransport); nullptr with the reason (a secret not set, a URL that is
/// not http(s)).
std::unique_ptr<McpTransport> transportFor(const McpServerConfig &server, const QString &projectDir,
                                           const Secrets &secrets, QString *error);
/// What `roots/list` of `server` is answered with (docs/mcp.md "Roots"): an array of
/// {"uri": "file:///…", "name"}; without "roots" in its entry, the folders its
/// `sandbox` grants (`read`, then `read_write`) or, without those, the project folder
/// named `projectName`; a relative folder is taken in `projectDir` (absolute), "" or "."
/// is the project folder itself. A folder in the project is named as a stdio server
/// sees it: in a root studio's copy of the project (ToolSandbox::projectPath), where
/// the server runs. Paths are cleaned, not checked for existence.
nlohmann::json rootsFor(const McpServerConfig &server, const QString &projectDir, const QString &projectName);
/// "${secret:NAME}" as the studio expands it in an env value or a header (captured(1): NAME).
const QRegularExpression &secretReference();
/// `value` with every "${secret:NAME}" replaced; names of secrets not set go to `missing`.
QString expandSecrets(const QString &value, const Secrets &secrets, QStringList *missing);
} // namespace McpServerLaunch
