// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpconfigimport.h"

#include "jsoninput.h"
#include "project/manifestreader.h"
#include "project/mcpserverconfig.h"
#include "project/printabletext.h"
#include "python/secrets.h"

#include <QRegularExpression>

using nlohmann::ordered_json;

namespace McpConfigImport {

namespace {

/// The keys of an mcp_servers entry the studio reads (McpServerConfig).
const QStringList &knownKeys()
{
    static const QStringList keys = {QStringLiteral("type"),    QStringLiteral("command"),  QStringLiteral("args"),
                                     QStringLiteral("env"),     QStringLiteral("cwd"),      QStringLiteral("url"),
                                     QStringLiteral("headers"), QStringLiteral("disabled"), QStringLiteral("sandbox")};
    return keys;
}

/// A variable or header name that names a credential.
bool looksLikeCredential(const QString &name)
{
    static const QRegularExpression pattern(
        QStringLiteral("TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS$|AUTH|CREDENTIAL|COOKIE|SESSION"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern.match(name).hasMatch();
}

/// `text` as a secret name: A-Z 0-9 _, starting with a letter or _.
QString secretName(const QString &text)
{
    QString name;
    for (const QChar c : text.toUpper())
        name += (c.isLetterOrNumber() && c.unicode() < 128) ? c : QLatin1Char('_');
    if (name.isEmpty() || name.front().isDigit())
        name.prepend(QLatin1Char('_'));
    return name;
}

/// `name` as a server name the studio accepts (1–64 of A-Z a-z 0-9 _ -, no "__").
QString serverName(const QString &name)
{
    QString out;
    for (const QChar c : name)
        out += (c.unicode() < 128 && (c.isLetterOrNumber() || c == u'_' || c == u'-')) ? c : QLatin1Char('-');
    while (out.contains(QLatin1String("__")))
        out.replace(QLatin1String("__"), QLatin1String("_"));
    out = out.left(64);
    return out.isEmpty() ? QStringLiteral("server") : out;
}

/// Rewrites the editor variables of one string value of server `server`; notes what
/// it did and which secrets the value now names.
class VariableRewriter
{
public:
    VariableRewriter(Server &server, const QMap<QString, QString> &inputs)
        : m_server(server)
        , m_inputs(inputs)
    {}

    QString rewrite(const QString &value, const QString &where)
    {
        static const QRegularExpression variable(QStringLiteral("\\$\\{([A-Za-z]+)(?::([^}]*))?\\}"));
        QString out;
        qsizetype last = 0;
        for (auto it = variable.globalMatch(value); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            out += value.mid(last, match.capturedStart() - last);
            last = match.capturedEnd();
            out += replacement(match.captured(1), match.captured(2), match.captured(0), where);
        }
        return out + value.mid(last);
    }

private:
    QString replacement(const QString &kind, const QString &argument, const QString &whole, const QString &where)
    {
        if (kind == QLatin1String("secret"))
            return whole;
        if (kind == QLatin1String("workspaceFolder") && argument.isEmpty()) {
            note(QStringLiteral("%1: ${workspaceFolder} is now the project folder (\".\")").arg(where));
            return QStringLiteral(".");
        }
        if (kind == QLatin1String("input") || kind == QLatin1String("env")) {
            const QString name = secretName(argument);
            QString why = kind == QLatin1String("env")
                ? QStringLiteral("the studio passes none of its environment to a server")
                : QStringLiteral("the studio does not prompt for inputs");
            if (const auto input = m_inputs.constFind(argument); input != m_inputs.cend() && !input->isEmpty())
                why += QStringLiteral("; the input was: %1").arg(elidedText(*input, 120));
            note(QStringLiteral("%1: %2 is now the secret %3 (%4); set it with: toolstudio tools secret PROJECT %3")
                     .arg(where, whole, name, why));
            return QStringLiteral("${secret:%1}").arg(name);
        }
        note(QStringLiteral("%1: %2 is not expanded by the studio; edit it in toolstudio.json").arg(where, whole));
        return whole;
    }

    void note(const QString &text)
    {
        if (!m_server.notes.contains(text))
            m_server.notes << text;
    }

    Server &m_server;
    const QMap<QString, QString> &m_inputs;
};

/// A string map (env or headers) of `entry` with variables rewritten and credentials
/// moved to secrets; `headers` keeps an authorization scheme ("Bearer ") in the value.
void rewriteMap(ordered_json &map, const char *key, Server &server, VariableRewriter &variables)
{
    const bool headers = qstrcmp(key, "headers") == 0;
    for (auto &[name, value] : map.items()) {
        if (!value.is_string())
            continue; // the loader names it
        const QString qname = QString::fromStdString(name);
        const QString where = QStringLiteral("%1 %2").arg(QLatin1String(key), qname);
        QString text = variables.rewrite(QString::fromStdString(value.get<std::string>()), where);
        if (looksLikeCredential(qname) && !text.isEmpty() && !text.contains(QLatin1String("${"))) {
            static const QRegularExpression scheme(QStringLiteral("^(Bearer|Basic|Token)\\s+(\\S.*)$"),
                                                   QRegularExpression::CaseInsensitiveOption);
            const QRegularExpressionMatch match = headers ? scheme.match(text) : QRegularExpressionMatch();
            const QString secret = headers ? secretName(server.name + QLatin1Char('_') + qname) : secretName(qname);
            const QString secretValue = match.hasMatch() ? match.captured(2) : text;
            server.secrets.insert(secret, secretValue);
            text = (match.hasMatch() ? match.captured(1) + QLatin1Char(' ') : QString())
                + QStringLiteral("${secret:%1}").arg(secret);
            server.notes << QStringLiteral("%1 looks like a credential: its value moved to the project's secrets as %2 "
                                           "(not into toolstudio.json)")
                                .arg(where, secret);
        }
        value = text.toStdString();
    }
}

/// The mcp_servers entry for the file's `source` entry of server `server.sourceName`.
void translate(const ordered_json &source, Server &server, const QMap<QString, QString> &inputs)
{
    VariableRewriter variables(server, inputs);
    QStringList dropped;
    for (const auto &[key, value] : source.items()) {
        const QString qkey = QString::fromStdString(key);
        if (!knownKeys().contains(qkey)) {
            if (qkey != QLatin1String("envFile")) // a note of its own below
                dropped << qkey;
            continue;
        }
        ordered_json copy = value;
        if (qkey == QLatin1String("type") && copy.is_string()) {
            const std::string type = copy.get<std::string>();
            if (type == "streamableHttp" || type == "streamable-http" || type == "streamable_http")
                copy = "http";
        } else if ((qkey == QLatin1String("command") || qkey == QLatin1String("url")) && copy.is_string()) {
            copy = variables.rewrite(QString::fromStdString(copy.get<std::string>()), qkey).toStdString();
        } else if (qkey == QLatin1String("cwd") && copy.is_string()) {
            QString cwd = variables.rewrite(QString::fromStdString(copy.get<std::string>()), qkey);
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
                if (arg.is_string())
                    arg = variables
                              .rewrite(QString::fromStdString(arg.get<std::string>()),
                                       QStringLiteral("args[%1]").arg(index))
                              .toStdString();
                ++index;
            }
        } else if ((qkey == QLatin1String("env") || qkey == QLatin1String("headers")) && copy.is_object()) {
            rewriteMap(copy, key.c_str(), server, variables);
        }
        server.entry[key] = std::move(copy);
    }
    if (!dropped.isEmpty())
        server.notes
            << QStringLiteral("left out (not Tool Studio settings): %1").arg(dropped.join(QStringLiteral(", ")));
    if (const auto envFile = source.find("envFile"); envFile != source.end())
        server.notes << QStringLiteral("envFile is not read: copy its variables into env (credentials as secrets)");
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
    QStringList names;
    for (const auto &[key, source] : servers->items()) {
        const QString sourceName = QString::fromStdString(key);
        Server server;
        server.sourceName = sourceName;
        server.name = serverName(sourceName);
        for (int n = 2; names.contains(server.name); ++n)
            server.name = serverName(sourceName).left(60) + QStringLiteral("-%1").arg(n);
        if (!source.is_object()) {
            config.skipped << QStringLiteral("%1: its settings are %2, not an object")
                                  .arg(elidedText(sourceName, 80),
                                       ManifestReader::typeName(nlohmann::json::parse(source.dump())));
            continue;
        }
        if (server.name != sourceName)
            server.notes << QStringLiteral("renamed from \"%1\" (a server name is 1–64 of A-Z a-z 0-9 _ - without "
                                           "\"__\": scripts call its tools as NAME__TOOL)")
                                .arg(elidedText(sourceName, 80));
        translate(source, server, inputs);
        if (const QString refusal = loaderRefusal(server.name, server.entry); !refusal.isEmpty()) {
            config.skipped << QStringLiteral("%1: %2").arg(elidedText(sourceName, 80), refusal);
            continue;
        }
        names << server.name;
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
    for (const Server &server : config.servers) {
        const std::string key = server.name.toStdString();
        const bool taken = servers.contains(key);
        if (taken && !replace) {
            outcome->skipped << QStringLiteral("%1: the project has a server of that name already (replace "
                                               "servers of the same name to overwrite it: --replace)")
                                    .arg(server.name);
            continue;
        }
        // A secret name set to another value is not overwritten.
        std::string entry = server.entry.dump();
        QMap<QString, QString> toSet;
        QString clash;
        for (auto it = server.secrets.cbegin(); it != server.secrets.cend() && clash.isEmpty(); ++it) {
            QString name = it.key();
            const QString current = secrets.value(name);
            if (!current.isEmpty() && current != it.value()) {
                const QString other = secretName(server.name + QLatin1Char('_') + name);
                const QString otherValue = secrets.value(other);
                if (!otherValue.isEmpty() && otherValue != it.value()) {
                    clash = QStringLiteral("%1: the secrets %2 and %3 are set to other values already; remove one "
                                           "(Settings ▸ Secrets) and import again")
                                .arg(server.name, name, other);
                    break;
                }
                const std::string from = QStringLiteral("${secret:%1}").arg(name).toStdString();
                const std::string to = QStringLiteral("${secret:%1}").arg(other).toStdString();
                for (std::size_t at = entry.find(from); at != std::string::npos; at = entry.find(from, at + to.size()))
                    entry.replace(at, from.size(), to);
                name = other;
            }
            toSet.insert(name, it.value());
        }
        if (!clash.isEmpty()) {
            outcome->skipped << clash;
            continue;
        }
        for (auto it = toSet.cbegin(); it != toSet.cend(); ++it) {
            QString why;
            if (!secrets.set(it.key(), it.value(), &why)) {
                clash = QStringLiteral("%1: secret %2: %3").arg(server.name, it.key(), why);
                break;
            }
            outcome->secretsSet << it.key();
        }
        if (!clash.isEmpty()) {
            outcome->skipped << clash;
            continue;
        }
        servers[key] = ordered_json::parse(entry);
        (taken ? outcome->replaced : outcome->added) << server.name;
    }
    if (outcome->added.isEmpty() && outcome->replaced.isEmpty()) {
        *error = config.servers.empty() && config.skipped.isEmpty()
            ? QStringLiteral("the file lists no servers")
            : QStringLiteral("no server was imported:\n  %1").arg(outcome->skipped.join(QStringLiteral("\n  ")));
        return false;
    }
    return true;
}

} // namespace McpConfigImport
