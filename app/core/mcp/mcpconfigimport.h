// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

class Secrets;

/// Reads the MCP server configs people already have — Claude Desktop's
/// `claude_desktop_config.json`, Cursor's and Claude Code's `.mcp.json` (`mcpServers`),
/// VS Code's `.vscode/mcp.json` (`servers`, comments allowed, or `mcp.servers` of a
/// settings file) and another project's `toolstudio.json` (`mcp_servers`) — into
/// `mcp_servers` entries of a project (docs/mcp.md "Importing a config").
///
/// What does not carry over is said per server, never silently dropped or guessed:
/// keys the studio has no use for (`alwaysAllow`, `envFile`, …) are named;
/// `${input:ID}` and `${env:NAME}` become studio secrets (`${secret:NAME}`) the person
/// still has to set, since a server gets nothing of the studio's environment;
/// `${workspaceFolder}` becomes the project folder (`.`); a literal value of an `env`
/// variable or header that looks like a credential (its name holds TOKEN, KEY,
/// SECRET, PASSWORD, AUTH, …) moves to the project's secrets, so it does not land in a
/// `toolstudio.json` that may be committed. A server name the studio cannot use is
/// renamed (said), an entry the manifest would refuse is skipped with the loader's own
/// reason.
namespace McpConfigImport {

/// One server to add: its entry for `mcp_servers` and the secrets it needs saved.
struct Server
{
    QString name;       ///< the key in mcp_servers
    QString sourceName; ///< the key in the file read
    nlohmann::ordered_json entry;
    QMap<QString, QString> secrets; ///< secret name → value, moved out of the entry
    QStringList notes;              ///< what changed on the way in, one sentence each
};

struct Config
{
    QString format; ///< "Claude Desktop, Cursor or Claude Code (mcpServers)", …
    std::vector<Server> servers;
    QStringList skipped; ///< "NAME: reason"
};

/// Reads `text` (the file's bytes). nullopt with `error` in words when it is not JSON
/// (JSON with comments and trailing commas is read), or has no server list of a known
/// shape.
std::optional<Config> read(const QByteArray &text, QString *error);

/// What apply() did, one line per server.
struct Outcome
{
    QStringList added;
    QStringList replaced;
    QStringList skipped;    ///< "NAME: reason"
    QStringList secretsSet; ///< names of secrets saved
};

/// Adds `config`'s servers to `manifest`'s `mcp_servers` (created when missing) and
/// their secrets to `secrets` (not saved: the caller saves them with the manifest). A
/// server whose name is taken is skipped unless `replace`. A secret name already set to
/// another value is not overwritten: the server's secret becomes SERVER_NAME (the
/// server's name in capitals) instead, or the server is skipped when that is taken too.
/// False with `error` when nothing would be added.
bool apply(nlohmann::ordered_json &manifest, Secrets &secrets, const Config &config, bool replace, Outcome *outcome,
           QString *error);

/// Removes JSON-with-comments syntax (// and /* */ comments outside strings, a comma
/// before `}` or `]`), keeping every other byte where it was, so that a parse error's
/// offset still points into the original text.
QByteArray withoutComments(const QByteArray &text);

} // namespace McpConfigImport
