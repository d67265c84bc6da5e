// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpconfigimport.h"

#include "jsoninput.h"
#include "mcp/credentialtext.h"
#include "mcp/mcpimportnotes.h"
#include "mcp/mcpserverlaunch.h"
#include "project/manifestreader.h"
#include "project/mcpserverconfig.h"
#include "project/printabletext.h"
#include "python/secrets.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

using nlohmann::ordered_json;

namespace McpConfigImport {

namespace {

/// Lines of notes one server gets; further findings are counted, not listed.
constexpr qsizetype MaxNotes = 24;
/// Places one note lists ("args[1], args[2], args[3] and 4 more: …").
constexpr qsizetype MaxPlaces = 3;
/// A secret name made of a key of the file is cut here (a 4 MiB key is no variable name).
constexpr qsizetype MaxSecretName = 64;
/// A credential is a few KiB at most (a PEM key with its chain); a secret reaches every
/// tool worker as an environment variable, and Linux refuses to start a process with
/// one over 128 KiB (E2BIG), all of them together over ~2 MiB.
constexpr qsizetype MaxSecretChars = 16 * 1024;
/// What the secrets one import saves add up to (names and values).
constexpr qsizetype MaxImportSecretChars = 256 * 1024;

/// Text of the file quoted in a note: printable (no terminal escapes), at most 80 characters.
QString quoted(const QString &text)
{
    return elidedText(text, 80);
}

/// The keys of an mcp_servers entry the studio reads (McpServerConfig).
const QStringList &knownKeys()
{
    static const QStringList keys = {QStringLiteral("type"),    QStringLiteral("command"),  QStringLiteral("args"),
                                     QStringLiteral("env"),     QStringLiteral("cwd"),      QStringLiteral("url"),
                                     QStringLiteral("headers"), QStringLiteral("disabled"), QStringLiteral("sandbox")};
    return keys;
}

/// `text` as a secret name: A-Z 0-9 _, starting with a letter or _, at most MaxSecretName.
QString secretName(const QString &text)
{
    QString name;
    for (const QChar c : text.left(MaxSecretName).toUpper())
        name += (c.isLetterOrNumber() && c.unicode() < 128) ? c : QLatin1Char('_');
    if (name.isEmpty() || name.front().isDigit())
        name.prepend(QLatin1Char('_'));
    return name.left(MaxSecretName);
}

/// `name` as a server name the studio accepts (1–64 of A-Z a-z 0-9 _ -, no "__").
QString serverName(const QString &name)
{
    QString out;
    for (const QChar c : name) {
        const QChar kept = (c.unicode() < 128 && (c.isLetterOrNumber() || c == u'_' || c == u'-')) ? c : QChar(u'-');
        if (kept == u'_' && out.endsWith(u'_'))
            continue; // "__" separates server and tool
        out += kept;
        if (out.size() == 64)
            break;
    }
    return out.isEmpty() ? QStringLiteral("server") : out;
}

/// Rewrites the editor variables of one string value of a server; notes what it did.
class VariableRewriter
{
public:
    VariableRewriter(McpImportNotes &notes, const QMap<QString, QString> &inputs)
        : m_notes(notes)
        , m_inputs(inputs)
    {}

    /// `expanded`: the value is an env value or a header, where the studio expands
    /// `${secret:NAME}`; anywhere else a secret reference would reach the server as text.
    QString rewrite(const QString &value, const QString &where, bool expanded)
    {
        static const QRegularExpression variable(QStringLiteral("\\$\\{([A-Za-z]+)(?::([^}]*))?\\}"));
        QString out;
        qsizetype last = 0;
        for (auto it = variable.globalMatch(value); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            out += value.mid(last, match.capturedStart() - last);
            last = match.capturedEnd();
            out += replacement(match.captured(1), match.captured(2), match.captured(0), where, expanded);
        }
        return out + value.mid(last);
    }

private:
    QString replacement(const QString &kind, const QString &argument, const QString &whole, const QString &where,
                        bool expanded)
    {
        if (kind == QLatin1String("workspaceFolder") && argument.isEmpty()) {
            m_notes.add(where, QStringLiteral("${workspaceFolder} is now the project folder (\".\")"));
            return QStringLiteral(".");
        }
        const bool variable = kind == QLatin1String("input") || kind == QLatin1String("env");
        if ((variable || kind == QLatin1String("secret")) && !expanded) {
            m_notes.add(where,
                        QStringLiteral("%1 is kept as text: the studio expands secrets (${secret:NAME}) only in env "
                                       "and headers; edit toolstudio.json")
                            .arg(quoted(whole)));
            return whole;
        }
        if (kind == QLatin1String("secret"))
            return whole; // apply() decides what it may name
        if (variable) {
            const QString name = secretName(argument);
            QString why = kind == QLatin1String("env")
                ? QStringLiteral("the studio passes none of its environment to a server")
                : QStringLiteral("the studio does not prompt for inputs");
            if (const auto input = m_inputs.constFind(argument); input != m_inputs.cend() && !input->isEmpty())
                why += QStringLiteral("; the input was: %1").arg(elidedText(*input, 120));
            m_notes.add(where,
                        QStringLiteral("%1 is now the secret %2 (%3); set it with: toolstudio tools secret PROJECT %2")
                            .arg(quoted(whole), name, why));
            return QStringLiteral("${secret:%1}").arg(name);
        }
        m_notes.add(where,
                    QStringLiteral("%1 is not expanded by the studio; edit it in toolstudio.json").arg(quoted(whole)));
        return whole;
    }

    McpImportNotes &m_notes;
    const QMap<QString, QString> &m_inputs;
};

/// A string map (env or headers) of `entry` with variables rewritten and credentials
/// moved to secrets; `headers` keeps an authorization scheme ("Bearer ") in the value.
/// The reason the server cannot be imported, or "".
QString rewriteMap(ordered_json &map, const char *key, Server &server, McpImportNotes &notes,
                   VariableRewriter &variables)
{
    const bool headers = qstrcmp(key, "headers") == 0;
    for (auto &[name, value] : map.items()) {
        if (!value.is_string())
            continue; // the loader names it
        const QString qname = QString::fromStdString(name);
        const QString where = QStringLiteral("%1 %2").arg(QLatin1String(key), quoted(qname));
        QString text = variables.rewrite(QString::fromStdString(value.get<std::string>()), where, true);
        if (text.isEmpty() || text.contains(QLatin1String("${"))
            || !(CredentialText::looksLikeCredentialName(qname) || CredentialText::looksLikeCredentialValue(text))) {
            value = text.toStdString();
            continue;
        }
        static const QRegularExpression scheme(QStringLiteral("^(Bearer|Basic|Token)\\s+(\\S.*)$"),
                                               QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch match = headers ? scheme.match(text) : QRegularExpressionMatch();
        const QString secretValue = match.hasMatch() ? match.captured(2) : text;
        if (secretValue.size() > MaxSecretChars)
            return QStringLiteral("%1 looks like a credential of %2 characters; the studio keeps secrets of at most "
                                  "%3 (each reaches tool processes as an environment variable)")
                .arg(where)
                .arg(secretValue.size())
                .arg(MaxSecretChars);
        // Two keys of one server may make one name ("api-key", "API_KEY"): each keeps its value.
        const QString base = headers ? secretName(server.name + QLatin1Char('_') + qname) : secretName(qname);
        QString secret = base;
        for (int n = 2; server.secrets.contains(secret) && server.secrets.value(secret) != secretValue; ++n)
            secret = base.left(MaxSecretName - 8) + QStringLiteral("_%1").arg(n);
        server.secrets.insert(secret, secretValue);
        text = (match.hasMatch() ? match.captured(1) + QLatin1Char(' ') : QString())
            + QStringLiteral("${secret:%1}").arg(secret);
        notes.add(QString(),
                  QStringLiteral("%1 looks like a credential: its value moved to the project's secrets as %2 "
                                 "(not into toolstudio.json)")
                      .arg(where, secret));
        value = text.toStdString();
    }
    return {};
}

/// Notes a credential left where the studio cannot take it out: args, a url, a command.
void noteCredentialLeft(const QString &text, const QString &where, McpImportNotes &notes)
{
    if (CredentialText::looksLikeCredentialValue(text))
        notes.add(where,
                  QStringLiteral("looks like a credential, and stays in toolstudio.json (which may be "
                                 "committed): the studio passes secrets only in env and headers; move it "
                                 "there if the server reads one"));
}

/// The mcp_servers entry for the file's `source` entry of server `server.sourceName`;
/// the reason it cannot be imported, or "".
QString translate(const ordered_json &source, Server &server, const QMap<QString, QString> &inputs)
{
    McpImportNotes notes(MaxNotes, MaxPlaces);
    for (const QString &line : std::as_const(server.notes))
        notes.add(QString(), line);
    VariableRewriter variables(notes, inputs);
    QStringList dropped;
    qsizetype droppedMore = 0;
    QString refusal;
    for (const auto &[key, value] : source.items()) {
        const QString qkey = QString::fromStdString(key);
        if (!knownKeys().contains(qkey)) {
            if (qkey != QLatin1String("envFile")) { // a note of its own below
                if (dropped.size() < 10)
                    dropped << quoted(qkey);
                else
                    ++droppedMore;
            }
            continue;
        }
        ordered_json copy = value;
        if (qkey == QLatin1String("type") && copy.is_string()) {
            const std::string type = copy.get<std::string>();
            if (type == "streamableHttp" || type == "streamable-http" || type == "streamable_http")
                copy = "http";
        } else if ((qkey == QLatin1String("command") || qkey == QLatin1String("url")) && copy.is_string()) {
            const QString text = variables.rewrite(QString::fromStdString(copy.get<std::string>()), qkey, false);
            noteCredentialLeft(text, qkey, notes);
            copy = text.toStdString();
        } else if (qkey == QLatin1String("cwd") && copy.is_string()) {
            QString cwd = variables.rewrite(QString::fromStdString(copy.get<std::string>()), qkey, false);
            if (cwd == QLatin1String("."))
                cwd.clear();
            else if (cwd.startsWith(QLatin1String("./")))
                cwd = cwd.mid(2);
            if (cwd.isEmpty())
                continue; // the project folder is the default
            copy = cwd.toStdString();
        } else if (qkey == QLatin1String("args") && copy.is_array()) {
            int index = 0;
            for (ordered_json &arg : copy) {
                if (arg.is_string()) {
                    const QString where = QStringLiteral("args[%1]").arg(index);
                    const QString text
                        = variables.rewrite(QString::fromStdString(arg.get<std::string>()), where, false);
                    noteCredentialLeft(text, where, notes);
                    arg = text.toStdString();
                }
                ++index;
            }
        } else if ((qkey == QLatin1String("env") || qkey == QLatin1String("headers")) && copy.is_object()) {
            if (refusal.isEmpty())
                refusal = rewriteMap(copy, key.c_str(), server, notes, variables);
        }
        server.entry[key] = std::move(copy);
    }
    if (!dropped.isEmpty())
        notes.add(QString(),
                  QStringLiteral("left out (not Tool Studio settings): %1%2")
                      .arg(dropped.join(QStringLiteral(", ")),
                           droppedMore > 0 ? QStringLiteral(" and %1 more").arg(droppedMore) : QString()));
    if (const auto envFile = source.find("envFile"); envFile != source.end())
        notes.add(QString(),
                  QStringLiteral("envFile is not read: copy its variables into env (credentials as secrets)"));
    server.notes = notes.lines();
    return refusal;
}

/// The `${secret:NAME}` names in `entry`'s env values and headers (where the studio
/// expands them), each renamed per `renames` (one pass: no rename is renamed again).
QSet<QString> renameSecretReferences(ordered_json &entry, const QMap<QString, QString> &renames)
{
    QSet<QString> names;
    for (const char *key : {"env", "headers"}) {
        const auto map = entry.find(key);
        if (map == entry.end() || !map->is_object())
            continue;
        for (auto &[name, value] : map->items()) {
            if (!value.is_string())
                continue;
            const QString text = QString::fromStdString(value.get<std::string>());
            QString out;
            qsizetype last = 0;
            for (auto it = McpServerLaunch::secretReference().globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch match = it.next();
                names.insert(match.captured(1));
                out += text.mid(last, match.capturedStart() - last);
                out += QStringLiteral("${secret:%1}").arg(renames.value(match.captured(1), match.captured(1)));
                last = match.capturedEnd();
            }
            if (!renames.isEmpty())
                value = (out + text.mid(last)).toStdString();
        }
    }
    return names;
}

/// The loader's reason for refusing `entry` as server `name`, or "".
QString loaderRefusal(const QString &name, const ordered_json &entry)
{
    try {
        nlohmann::json servers = nlohmann::json::object();
        servers[name.toStdString()] = nlohmann::json::parse(entry.dump());
        McpServerConfig::parseAll(servers);
    } catch (const ManifestReader::ManifestError &error) {
        return error.message;
    }
    return {};
}

/// The `${input:ID}` descriptions of a VS Code config, by id.
QMap<QString, QString> inputsOf(const ordered_json &root)
{
    QMap<QString, QString> inputs;
    const auto list = root.find("inputs");
    if (list == root.end() || !list->is_array())
        return inputs;
    for (const ordered_json &input : *list) {
        if (!input.is_object() || !input.contains("id") || !input["id"].is_string())
            continue;
        const auto description = input.find("description");
        inputs.insert(QString::fromStdString(input["id"].get<std::string>()),
                      description != input.end() && description->is_string()
                          ? QString::fromStdString(description->get<std::string>())
                          : QString());
    }
    return inputs;
}

} // namespace

QByteArray withoutComments(const QByteArray &text)
{
    QByteArray out = text;
    bool inString = false;
    qsizetype lastComma = -1; // a comma with only blanks and comments after it so far
    for (qsizetype i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            lastComma = -1;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            for (; i < out.size() && out[i] != '\n'; ++i)
                out[i] = ' ';
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            const qsizetype end = out.indexOf("*/", i + 2);
            const qsizetype stop = end < 0 ? out.size() : end + 2;
            for (; i < stop; ++i)
                if (out[i] != '\n')
                    out[i] = ' ';
            --i;
        } else if (c == ',') {
            lastComma = i;
        } else if ((c == '}' || c == ']') && lastComma >= 0) {
            out[lastComma] = ' ';
            lastComma = -1;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            lastComma = -1;
        }
    }
    return out;
}

std::optional<Config> read(const QByteArray &text, QString *error)
{
    const QByteArray plain = withoutComments(text);
    JsonInput::Problem problem;
    const ordered_json root
        = JsonInput::read<ordered_json>(std::string_view(plain.constData(), std::size_t(plain.size())), &problem);
    if (!problem.reason.empty()) {
        *error = QString::fromStdString(JsonInput::describe("the file", problem));
        return std::nullopt;
    }
    if (!root.is_object()) {
        *error = QStringLiteral("the file is %1, not an object with a server list")
                     .arg(ManifestReader::typeName(nlohmann::json::parse(root.dump())));
        return std::nullopt;
    }
    Config config;
    const ordered_json *servers = nullptr;
    if (const auto it = root.find("mcpServers"); it != root.end()) {
        servers = &*it;
        config.format = QStringLiteral("Claude Desktop, Cursor or Claude Code (mcpServers)");
    } else if (const auto vscode = root.find("servers"); vscode != root.end()) {
        servers = &*vscode;
        config.format = QStringLiteral("VS Code (servers)");
    } else if (const auto settings = root.find("mcp");
               settings != root.end() && settings->is_object() && settings->contains("servers")) {
        servers = &(*settings)["servers"];
        config.format = QStringLiteral("VS Code settings (mcp.servers)");
    } else if (const auto ours = root.find("mcp_servers"); ours != root.end()) {
        servers = &*ours;
        config.format = QStringLiteral("toolstudio.json (mcp_servers)");
    }
    if (!servers) {
        *error = QStringLiteral("the file has no server list: none of \"mcpServers\" (Claude Desktop, Cursor, Claude "
                                "Code's .mcp.json), \"servers\" (VS Code's .vscode/mcp.json), \"mcp\": {\"servers\"} "
                                "(VS Code settings) or \"mcp_servers\" (toolstudio.json)");
        return std::nullopt;
    }
    if (!servers->is_object()) {
        *error = QStringLiteral("the server list (%1) is %2, not an object of server name → settings")
                     .arg(config.format, ManifestReader::typeName(nlohmann::json::parse(servers->dump())));
        return std::nullopt;
    }
    const QMap<QString, QString> inputs
        = inputsOf(root.contains("mcp") && root["mcp"].is_object() ? root["mcp"] : root);
    QSet<QString> names;
    QHash<QString, int> suffixes; // per sanitized name, the next "-N" to try: linear in the servers
    for (const auto &[key, source] : servers->items()) {
        const QString sourceName = QString::fromStdString(key);
        Server server;
        server.sourceName = sourceName;
        const QString base = serverName(sourceName);
        server.name = base;
        if (names.contains(server.name)) {
            int &n = suffixes[base];
            n = std::max(n, 2);
            do {
                const QString suffix = QStringLiteral("-%1").arg(n++);
                server.name = base.left(64 - suffix.size()) + suffix; // still 1–64 characters
            } while (names.contains(server.name));
        }
        if (!source.is_object()) {
            config.skipped << QStringLiteral("%1: its settings are %2, not an object")
                                  .arg(quoted(sourceName),
                                       ManifestReader::typeName(nlohmann::json::parse(source.dump())));
            continue;
        }
        if (server.name != sourceName)
            server.notes << QStringLiteral("renamed from \"%1\" (a server name is 1–64 of A-Z a-z 0-9 _ - without "
                                           "\"__\": scripts call its tools as NAME__TOOL)")
                                .arg(quoted(sourceName));
        QString refusal = translate(source, server, inputs);
        if (refusal.isEmpty())
            refusal = elidedText(loaderRefusal(server.name, server.entry), 300);
        if (!refusal.isEmpty()) {
            config.skipped << QStringLiteral("%1: %2").arg(quoted(sourceName), refusal);
            continue;
        }
        names.insert(server.name);
        config.servers.push_back(std::move(server));
    }
    return config;
}

bool apply(ordered_json &manifest, Secrets &secrets, const Config &config, bool replace, Outcome *outcome,
           QString *error)
{
    if (!manifest.is_object()) {
        *error = QStringLiteral("toolstudio.json is not an object");
        return false;
    }
    if (!manifest.contains("mcp_servers"))
        manifest["mcp_servers"] = ordered_json::object();
    ordered_json &servers = manifest["mcp_servers"];
    if (!servers.is_object()) {
        *error = QStringLiteral("toolstudio.json's mcp_servers is not an object; fix it first");
        return false;
    }
    outcome->skipped = config.skipped;
    QSet<QString> fromFile; // secrets this import set to values the file gave
    qsizetype secretChars = 0;
    for (const Server &server : config.servers) {
        const std::string key = server.name.toStdString();
        const bool taken = servers.contains(key);
        if (taken && !replace) {
            outcome->skipped << QStringLiteral("%1: the project has a server of that name already (replace "
                                               "servers of the same name to overwrite it: --replace)")
                                    .arg(server.name);
            continue;
        }
        if (!taken && servers.size() >= JsonInput::MaxOrderedMembers) {
            outcome->skipped << QStringLiteral("%1: the project has %2 servers, the most toolstudio.json holds")
                                    .arg(server.name)
                                    .arg(servers.size());
            continue;
        }
        ordered_json entry = server.entry;
        QMap<QString, QString> renames;
        QMap<QString, QString> toSet;
        QStringList notes;
        QString clash;
        // A secret name set to another value is not overwritten.
        for (auto it = server.secrets.cbegin(); it != server.secrets.cend(); ++it) {
            const QString current = secrets.value(it.key());
            if (current.isEmpty() || current == it.value()) {
                toSet.insert(it.key(), it.value());
                continue;
            }
            const QString other = secretName(server.name + QLatin1Char('_') + it.key());
            const QString otherValue = secrets.value(other);
            if (!otherValue.isEmpty() && otherValue != it.value()) {
                clash = QStringLiteral("%1: the secrets %2 and %3 are set to other values already; remove one "
                                       "(Settings ▸ Secrets) and import again")
                            .arg(server.name, it.key(), other);
                break;
            }
            renames.insert(it.key(), other);
            toSet.insert(other, it.value());
        }
        // A secret the entry names without the file's value is not one of the project's.
        const QSet<QString> named = renameSecretReferences(entry, {});
        for (const QString &name : named) {
            if (server.secrets.contains(name) || fromFile.contains(name) || secrets.value(name).isEmpty())
                continue;
            const QString base = secretName(server.name + QLatin1Char('_') + name);
            QString fresh = base;
            for (int n = 2; !secrets.value(fresh).isEmpty() || toSet.contains(fresh) || named.contains(fresh); ++n)
                fresh = base.left(MaxSecretName - 8) + QStringLiteral("_%1").arg(n);
            renames.insert(name, fresh);
            notes << QStringLiteral("the file names the secret %1, which the project has: a server from a file does "
                                    "not get a secret of yours unasked, so it names %2 (not set). Set %2, or write "
                                    "${secret:%1} back in toolstudio.json if this server may have yours")
                         .arg(name, fresh);
        }
        qsizetype chars = 0;
        for (auto it = toSet.cbegin(); it != toSet.cend(); ++it)
            chars += it.key().size() + it.value().size();
        if (clash.isEmpty() && secretChars + chars > MaxImportSecretChars)
            clash
                = QStringLiteral("%1: its secrets would bring what this import saves to more than %2 characters (each "
                                 "secret reaches every tool process as an environment variable)")
                      .arg(server.name)
                      .arg(MaxImportSecretChars);
        for (auto it = toSet.cbegin(); it != toSet.cend() && clash.isEmpty(); ++it) {
            QString why;
            if (!secrets.set(it.key(), it.value(), &why))
                clash = QStringLiteral("%1: secret %2: %3").arg(server.name, it.key(), why);
            else
                fromFile.insert(it.key());
        }
        if (!clash.isEmpty()) {
            outcome->skipped << clash;
            continue;
        }
        secretChars += chars;
        for (auto it = toSet.cbegin(); it != toSet.cend(); ++it)
            if (!outcome->secretsSet.contains(it.key()))
                outcome->secretsSet << it.key();
        if (!renames.isEmpty())
            renameSecretReferences(entry, renames);
        servers[key] = std::move(entry);
        if (!notes.isEmpty())
            outcome->notes.insert(server.name, notes);
        (taken ? outcome->replaced : outcome->added) << server.name;
    }
    if (outcome->added.isEmpty() && outcome->replaced.isEmpty()) {
        *error = config.servers.empty() && config.skipped.isEmpty()
            ? QStringLiteral("the file lists no servers")
            : QStringLiteral("no server was imported:\n  %1").arg(outcome->skipped.join(QStringLiteral("\n  ")));
        return false;
    }
    // What the studio writes it must read back (Project::load, ProjectWriter::readManifest).
    const std::string text = manifest.dump();
    if (const JsonInput::Problem bound = JsonInput::orderedOverLimit(text); bound.limit) {
        *error = QStringLiteral("nothing was imported: %1")
                     .arg(QString::fromStdString(JsonInput::describe("toolstudio.json with these servers", bound)));
        return false;
    }
    return true;
}

std::optional<QByteArray> readFile(const QString &path, bool pipes, QString *error)
{
    const QFileInfo info(path);
    if (info.isDir()) {
        *error = QStringLiteral("%1 is a folder, not a config file").arg(quoted(path));
        return std::nullopt;
    }
    if (info.exists() && !info.isFile() && !pipes) {
        *error = QStringLiteral("%1 is not a regular file (a pipe or a device)").arg(quoted(path));
        return std::nullopt;
    }
    if (info.isFile() && info.size() > MaxFileBytes) {
        *error = QStringLiteral("%1 is larger than 4 MiB: not an MCP config").arg(quoted(path));
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(quoted(path), file.errorString());
        return std::nullopt;
    }
    // One byte more than the bound: a pipe or a growing file is not cut into JSON that fails to parse.
    QByteArray text = file.read(MaxFileBytes + 1);
    if (text.size() > MaxFileBytes) {
        *error = QStringLiteral("%1 is larger than 4 MiB: not an MCP config").arg(quoted(path));
        return std::nullopt;
    }
    return text;
}

} // namespace McpConfigImport
