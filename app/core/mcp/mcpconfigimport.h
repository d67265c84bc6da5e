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
///
/// The file is anyone's (a config copied from a web page): what it says is bounded and
/// printable in every note (no terminal escapes, no 4 MiB key echoed), costs time linear
/// in its size, and an imported server gets no secret of the project that the file did
/// not bring itself (see apply()).
namespace McpConfigImport {

/// A config file is small; a larger one is not a config.
inline constexpr qint64 MaxFileBytes = 4 * 1024 * 1024;

/// The bytes of config file `path`; nullopt with the reason in words when it is a
/// folder, cannot be read or holds more than MaxFileBytes. `pipes`: a FIFO or device
/// is read too (the command line's `<(curl …)`); else only a regular file is (a window
/// must not block on a pipe nobody writes).
std::optional<QByteArray> readFile(const QString &path, bool pipes, QString *error);

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
    /// What apply() changed of an added or replaced server, by server name: a secret
    /// renamed because the project has one of that name.
    QMap<QString, QStringList> notes;
};

/// Adds `config`'s servers to `manifest`'s `mcp_servers` (created when missing) and
/// their secrets to `secrets` (not saved: the caller saves them with the manifest). A
/// server whose name is taken is skipped unless `replace`. A secret name already set to
/// another value is not overwritten: the server's secret becomes SERVER_NAME (the
/// server's name in capitals) instead, or the server is skipped when that is taken too.
///
/// A `${secret:NAME}` the entry names without the file giving its value (written in the
/// file, or made of `${input:}` / `${env:}`) never binds to a secret the project already
/// has: a config from anywhere could otherwise send the project's API key to a server
/// it names. It is renamed to SERVER_NAME (not set; said in `outcome->notes`), so giving
/// the server a key of the project is the person's own edit.
///
/// Nothing is added that the studio could not read back: at most 1024 servers (the
/// members of one object an ordered read keeps) and the manifest within
/// JsonInput's bounds; the secrets one import saves are bounded (they reach every
/// tool worker as environment variables, which the system limits).
/// False with `error` when nothing would be added.
bool apply(nlohmann::ordered_json &manifest, Secrets &secrets, const Config &config, bool replace, Outcome *outcome,
           QString *error);

/// Removes JSON-with-comments syntax (// and /* */ comments outside strings, a comma
/// before `}` or `]`), keeping every other byte where it was, so that a parse error's
/// offset still points into the original text.
QByteArray withoutComments(const QByteArray &text);

} // namespace McpConfigImport
