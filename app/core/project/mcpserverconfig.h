// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QMap>
#include <QString>
#include <QStringList>

#include <vector>

/// One entry of toolstudio.json's `mcp_servers` (docs/project-format.md "MCP
/// servers"), in the shape Claude Desktop, Cursor and VS Code configs use, so a
/// config can be pasted:
///   "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}
///   "files": {"command": "node", "args": ["server.js"], "env": {"ROOT": "data"},
///             "sandbox": {"read": ["docs"], "read_write": ["data"], "network": false}}
///   "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${secret:TOKEN}"}}
struct McpServerConfig
{
    enum class Transport {
        Stdio,          ///< `command`: a child process speaking JSON-RPC on stdin/stdout
        StreamableHttp, ///< `url` (VS Code's "type": "http")
        Sse,            ///< `url` with "type": "sse": the older HTTP+SSE transport
    };

    QString name; ///< the key: 1–64 of A-Z a-z 0-9 _ -, no "__" (the tool-name separator)
    Transport transport = Transport::Stdio;
    /// "type" was given: a `url` server without it is Streamable HTTP falling back to
    /// HTTP+SSE (the spec's backwards compatibility); with "http" it is only Streamable HTTP.
    bool typeGiven = false;
    QString command;
    QStringList args;
    QMap<QString, QString> env; ///< values may name studio secrets: "${secret:NAME}"
    QString cwd;                ///< relative to the project folder; "" = the project folder
    QString url;
    QMap<QString, QString> headers;
    /// "oauth" of a remote server (docs/mcp.md "Signing in"): a client registered with
    /// the authorization server beforehand, or the URL of the studio's client ID
    /// metadata document; without either the studio registers itself.
    struct OAuth
    {
        QString clientId;     ///< "client_id"; "" = a metadata document or dynamic client registration
        QString clientSecret; ///< "client_secret"; may name a studio secret: "${secret:NAME}"
        QStringList scopes;   ///< "scopes": asked for when the server names none
        /// "client_metadata_url": where the person hosts the client ID metadata document
        /// (`toolstudio mcp client-metadata` prints it); https with a path, checked at load.
        QString clientMetadataUrl;
        /// "redirect_port": the loopback port of the sign-in redirect; 0 = the system's choice.
        quint16 redirectPort = 0;
    };
    OAuth oauth;
    bool disabled = false; ///< "disabled": true — kept in the file, not started
    /// "sandbox": the server runs under toolstudio-sandbox with only these folders
    /// (relative to the project) granted; without it, as the confined tool worker does.
    bool sandboxed = false;
    QStringList read;
    QStringList readWrite;
    bool network = true;
    /// "roots": what the server's `roots/list` is answered with (docs/mcp.md "Roots"):
    /// folders relative to the project or absolute, "" for the project folder itself.
    /// Without the key (`rootsGiven` false) the project folder; [] for none.
    bool rootsGiven = false;
    QStringList roots;

    /// How a script names tool `tool` of server `server`: "server__tool".
    static QString toolName(const QString &server, const QString &tool);
    /// True for a valid server name (see `name`).
    static bool isValidName(const QString &name);
    /// Why `url` cannot be a client ID metadata document's URL ("" when it can): the
    /// draft (draft-ietf-oauth-client-id-metadata-document-00 §3) asks for https, a
    /// path, no dot segments, no fragment, no user name or password.
    static QString refusedClientMetadataUrl(const QString &url);

    /// Reads `mcp_servers` (an object). Throws ManifestReader::ManifestError naming the
    /// server and key, like every other manifest read.
    static std::vector<McpServerConfig> parseAll(const nlohmann::json &servers);
};
