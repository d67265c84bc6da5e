// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/mcpserverconfig.h"

#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "project/printabletext.h"

#include <QRegularExpression>
#include <QUrl>

using namespace ManifestReader;

namespace {

QMap<QString, QString> stringMap(const json &object, const char *key, const QString &where)
{
    QMap<QString, QString> map;
    const json *value = member(object, key);
    if (!value)
        return map;
    if (!value->is_object())
        fail(
            at(where)
                + QStringLiteral("'%1' must be an object of strings, not %2").arg(QLatin1String(key), typeName(*value)),
            value);
    for (auto it = value->begin(); it != value->end(); ++it) {
        if (!it.value().is_string())
            fail(at(where)
                     + QStringLiteral("'%1': '%2' must be a string, not %3")
                           .arg(QLatin1String(key), JsonQt::fromStd(it.key()), typeName(it.value())),
                 &it.value());
        map.insert(JsonQt::fromStd(it.key()), JsonQt::fromStd(it.value().get<std::string>()));
    }
    return map;
}

/// A folder the server may reach, relative to the project: no absolute path, no "..".
QStringList folderList(const json &object, const char *key, const QString &where)
{
    const QStringList folders = stringList(object, key, where);
    for (const QString &folder : folders)
        if (folder.isEmpty() || folder.startsWith(u'/') || folder.split(u'/').contains(QStringLiteral("..")))
            fail(at(where)
                     + QStringLiteral("'%1': \"%2\" must be a folder inside the project (relative, without \"..\")")
                           .arg(QLatin1String(key), folder.left(200)),
                 member(object, key));
    return folders;
}

McpServerConfig parseServer(const QString &name, const json &entry)
{
    const QString where = QStringLiteral("mcp server '%1'").arg(name);
    if (!entry.is_object())
        fail(at(where) + QStringLiteral("must be an object, not %1").arg(typeName(entry)), &entry);
    checkKeys(entry,
              {"type", "command", "args", "env", "cwd", "url", "headers", "disabled", "sandbox", "roots", "oauth"},
              where);
    McpServerConfig server;
    server.name = name;
    server.disabled = boolValue(entry, "disabled", where, false);
    const QString type = stringValue(entry, "type", where, false);
    server.typeGiven = !type.isEmpty();
    const bool hasCommand = member(entry, "command") != nullptr;
    const bool hasUrl = member(entry, "url") != nullptr;
    if (hasCommand == hasUrl)
        fail(at(where)
                 + QStringLiteral("give either 'command' (a server the studio starts) or 'url' (a remote server)"),
             &entry);
    if (hasCommand) {
        if (!type.isEmpty() && type != QLatin1String("stdio"))
            fail(at(where)
                     + QStringLiteral("'type' \"%1\" does not go with 'command' (use \"stdio\" or leave it out)")
                           .arg(type.left(40)),
                 member(entry, "type"));
        server.command = stringValue(entry, "command", where, true);
        if (server.command.isEmpty())
            fail(at(where) + QStringLiteral("'command' is empty"), member(entry, "command"));
        server.args = stringList(entry, "args", where);
        server.env = stringMap(entry, "env", where);
        server.cwd = stringValue(entry, "cwd", where, false);
        for (const char *key : {"url", "headers", "oauth"})
            if (member(entry, key))
                fail(at(where)
                         + QStringLiteral("'%1' is for remote servers; this one has 'command'").arg(QLatin1String(key)),
                     member(entry, key), true);
    } else {
        if (type.isEmpty() || type == QLatin1String("http") || type == QLatin1String("streamable-http"))
            server.transport = McpServerConfig::Transport::StreamableHttp;
        else if (type == QLatin1String("sse"))
            server.transport = McpServerConfig::Transport::Sse;
        else
            fail(at(where)
                     + QStringLiteral("'type' must be \"http\" or \"sse\" for a server with 'url', not \"%1\"")
                           .arg(type.left(40)),
                 member(entry, "type"));
        server.url = stringValue(entry, "url", where, true);
        if (!server.url.startsWith(QLatin1String("http://")) && !server.url.startsWith(QLatin1String("https://")))
            fail(at(where) + QStringLiteral("'url' must start with http:// or https://"), member(entry, "url"));
        server.headers = stringMap(entry, "headers", where);
        if (const json *oauth = member(entry, "oauth")) {
            const QString inner = where + QStringLiteral(": oauth");
            if (!oauth->is_object())
                fail(at(inner) + QStringLiteral("must be an object, not %1").arg(typeName(*oauth)), oauth);
            checkKeys(*oauth, {"client_id", "client_secret", "scopes", "client_metadata_url", "redirect_port"}, inner);
            server.oauth.clientId = stringValue(*oauth, "client_id", inner, false);
            server.oauth.clientSecret = stringValue(*oauth, "client_secret", inner, false);
            server.oauth.scopes = stringList(*oauth, "scopes", inner);
            if (!server.oauth.clientSecret.isEmpty() && server.oauth.clientId.isEmpty())
                fail(at(inner) + QStringLiteral("'client_secret' needs a 'client_id'"), oauth);
            if (member(*oauth, "client_metadata_url")) {
                server.oauth.clientMetadataUrl = stringValue(*oauth, "client_metadata_url", inner, true);
                if (const QString refused = McpServerConfig::refusedClientMetadataUrl(server.oauth.clientMetadataUrl);
                    !refused.isEmpty())
                    fail(at(inner) + QStringLiteral("'client_metadata_url' %1").arg(refused),
                         member(*oauth, "client_metadata_url"));
            }
            // Below 1024 only root may listen; the studio does not run as root.
            const qint64 port = integerValue(*oauth, "redirect_port", inner, 0, 1024);
            if (port > 65535)
                fail(at(inner) + QStringLiteral("'redirect_port' must be a port, 1024 to 65535"),
                     member(*oauth, "redirect_port"));
            server.oauth.redirectPort = quint16(port);
        }
        for (const char *key : {"args", "env", "cwd", "sandbox"})
            if (member(entry, key))
                fail(at(where)
                         + QStringLiteral("'%1' is for servers the studio starts; this one has 'url'")
                               .arg(QLatin1String(key)),
                     member(entry, key), true);
    }
    if (member(entry, "roots")) {
        server.rootsGiven = true;
        server.roots = stringList(entry, "roots", where);
        for (const QString &root : std::as_const(server.roots))
            if (root.contains(QChar(0)) || root.size() > 4096)
                fail(at(where) + QStringLiteral("'roots': each folder is a path of at most 4096 characters"),
                     member(entry, "roots"));
    }
    if (const json *sandbox = member(entry, "sandbox")) {
        const QString inner = where + QStringLiteral(": sandbox");
        if (!sandbox->is_object())
            fail(at(inner) + QStringLiteral("must be an object, not %1").arg(typeName(*sandbox)), sandbox);
        checkKeys(*sandbox, {"read", "read_write", "network"}, inner);
        server.sandboxed = true;
        server.read = folderList(*sandbox, "read", inner);
        server.readWrite = folderList(*sandbox, "read_write", inner);
        server.network = boolValue(*sandbox, "network", inner, true);
    }
    return server;
}

} // namespace

QString McpServerConfig::refusedClientMetadataUrl(const QString &url)
{
    const QString shown = QLatin1Char('"') + elidedText(url, 200) + QLatin1Char('"');
    const QUrl parsed(url, QUrl::StrictMode);
    if (url.size() > 2048)
        return QStringLiteral("is over 2048 characters");
    // The authorization server compares the client_id with the document's URL as it
    // fetched it, byte for byte: a URL in another form than the one it fetches (a host in
    // Unicode fetched as xn--…) is a client it does not know (attack34 F5).
    for (const QChar c : url)
        if (c.unicode() <= 0x20 || c.unicode() >= 0x7f)
            return QStringLiteral("%1 must be written in ASCII, as the authorization server compares it: a host "
                                  "in its xn-- form, other characters percent-encoded")
                .arg(shown);
    if (!parsed.isValid() || parsed.scheme() != QLatin1String("https") || parsed.host().isEmpty())
        return QStringLiteral("%1 must be an https:// URL (the authorization server fetches the client ID metadata "
                              "document there)")
            .arg(shown);
    if (parsed.authority(QUrl::FullyEncoded).contains(u'@'))
        return QStringLiteral("may not hold a user name or password"); // not quoted: a password
    if (parsed.port() == 0)
        return QStringLiteral("%1 may not name port 0").arg(shown);
    if (parsed.hasFragment())
        return QStringLiteral("%1 may not have a fragment (#…)").arg(shown);
    const QString path = parsed.path(QUrl::FullyEncoded);
    if (path.isEmpty() || path == QLatin1String("/"))
        return QStringLiteral("%1 needs a path: the document's own URL, e.g. "
                              "https://me.example/toolstudio-client.json")
            .arg(shown);
    const QStringList segments = path.split(u'/');
    if (segments.contains(QStringLiteral(".")) || segments.contains(QStringLiteral("..")))
        return QStringLiteral("%1 may not have \".\" or \"..\" in its path").arg(shown);
    static const QRegularExpression encodedControl(QStringLiteral("%(0[0-9a-fA-F]|1[0-9a-fA-F]|7[fF])"));
    if (parsed.toString(QUrl::FullyEncoded).contains(encodedControl))
        return shown // not arg(): the text names %0d
            + QStringLiteral(" may not have a control character, even percent-encoded (%00, %0d, %0a, …)");
    return {};
}

QString McpServerConfig::toolName(const QString &server, const QString &tool)
{
    return server + QStringLiteral("__") + tool;
}

bool McpServerConfig::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    return pattern.match(name).hasMatch() && !name.contains(QLatin1String("__"));
}

std::vector<McpServerConfig> McpServerConfig::parseAll(const json &servers)
{
    if (!servers.is_object())
        fail(QStringLiteral("'mcp_servers' must be an object (server name → settings), not %1").arg(typeName(servers)),
             &servers);
    std::vector<McpServerConfig> list;
    for (auto it = servers.begin(); it != servers.end(); ++it) {
        const QString name = JsonQt::fromStd(it.key());
        if (!isValidName(name))
            fail(QStringLiteral("mcp server '%1': a server name is 1–64 of A-Z a-z 0-9 _ - without \"__\" "
                                "(scripts call its tools as NAME__TOOL)")
                     .arg(name.left(80)),
                 &it.value(), true);
        list.push_back(parseServer(name, it.value()));
    }
    return list;
}
