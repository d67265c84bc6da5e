// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpacceptedtools.h"

#include "jsoninput.h"
#include "project/mcpserverconfig.h"
#include "project/printabletext.h"
#include "project/textdiff.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpAcceptedTools", text);
}

constexpr std::array<const char *, 5> Parts{"title", "description", "inputSchema", "outputSchema", "annotations"};

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

QString stringOf(const json &object, const char *key)
{
    const auto it = object.is_object() ? object.find(key) : object.end();
    return it != object.end() && it->is_string() ? fromStd(it->get<std::string>()) : QString();
}

QString pretty(const json &value)
{
    return value.is_null() ? QString() : fromStd(value.dump(2, ' ', false, json::error_handler_t::replace) + '\n');
}

} // namespace

QString McpToolChange::summary() const
{
    return isNew ? QStringLiteral("new") : parts.join(QStringLiteral(", "));
}

QString McpToolChange::diff() const
{
    const QString before = pretty(accepted);
    const QString after = pretty(now);
    const qsizetype beforeLines = before.count(u'\n'); // pretty() ends each line, the last too
    const qsizetype afterLines = after.count(u'\n');
    if (beforeLines + afterLines > MaxDiffLines)
        return QStringLiteral("--- accepted\n+++ now\n")
            + tr("(the definitions are %1 and %2 lines long, more than the %3 the studio compares line by line; "
                 "what changed: %4)\n")
                  .arg(beforeLines)
                  .arg(afterLines)
                  .arg(MaxDiffLines)
                  .arg(summary());
    const std::vector<DiffLine> lines = TextDiff::unified(before, after);
    return QStringLiteral("--- accepted\n+++ now\n") + TextDiff::toText(lines);
}

QString McpToolChange::refusal(const QString &projectDir) const
{
    const QString name = elidedText(McpServerConfig::toolName(server, tool));
    const QString how = tr("review it in the MCP Servers dock, or run `toolstudio mcp accept %1 %2 %3`")
                            .arg(shellQuoted(projectDir), shellQuoted(server), shellQuoted(elidedText(tool)));
    if (tooDeep)
        return tr("MCP tool '%1' of MCP server '%2' is not called: its definition nests more than %3 levels deep, "
                  "more than the record of accepted tools keeps, so it cannot be accepted")
            .arg(name, server)
            .arg(McpAcceptedTools::MaxDefinitionDepth);
    if (isNew)
        return tr("MCP tool '%1' is new on MCP server '%2' since its tools were accepted; it is not called until "
                  "a person accepts it: %3")
            .arg(name, server, how);
    QString what;
    if (parts.contains(QLatin1String("description")))
        what = tr("; its description was \"%1\" and is now \"%2\"")
                   .arg(printableText(clippedText(stringOf(accepted, "description"), DescriptionChars)),
                        printableText(clippedText(stringOf(now, "description"), DescriptionChars)));
    return tr("MCP tool '%1' changed since it was accepted (%2)%3; it is not called until a person accepts it: %4")
        .arg(name, summary(), what, how);
}

json McpAcceptedTools::reliedOn(const json &listed)
{
    json kept = json::object();
    if (!listed.is_object())
        return kept;
    if (const auto name = listed.find("name"); name != listed.end())
        kept["name"] = *name;
    for (const char *key : Parts)
        if (const auto it = listed.find(key); it != listed.end())
            kept[key] = *it;
    return kept;
}

std::string McpAcceptedTools::canonical(const json &value)
{
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

QString McpAcceptedTools::fingerprint(const json &listed)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(QByteArray::fromStdString(canonical(reliedOn(listed))), QCryptographicHash::Sha256)
            .toHex());
}

QStringList McpAcceptedTools::changedParts(const json &accepted, const json &now)
{
    QStringList parts;
    for (const char *key : Parts) {
        const json before = accepted.is_object() ? accepted.value(key, json()) : json();
        const json after = now.is_object() ? now.value(key, json()) : json();
        if (canonical(before) != canonical(after))
            parts << QString::fromLatin1(key);
    }
    return parts;
}

// The record nests a definition under root, servers, the server, tools and the tool.
static_assert(McpAcceptedTools::MaxDefinitionDepth + 5 == JsonInput::MaxDepth);

int McpAcceptedTools::depthOf(const json &value)
{
    // What reaches here was read with JsonInput's depth bound: the recursion is bounded.
    int deepest = 0;
    if (value.is_object() || value.is_array())
        for (const json &item : value)
            deepest = std::max(deepest, depthOf(item));
    return value.is_structured() ? deepest + 1 : 0;
}

QString McpAcceptedTools::path(const QString &projectDir)
{
    return QDir(projectDir).filePath(QString::fromLatin1(RelativePath));
}

QString McpAcceptedTools::symlinkOnPath(const QString &projectDir)
{
    const QString file = path(projectDir);
    for (const QString &part : {QFileInfo(file).absolutePath(), file})
        if (QFileInfo(part).isSymLink())
            return part;
    return {};
}

bool McpAcceptedTools::load(const QString &projectDir)
{
    m_servers.clear();
    m_error.clear();
    const QString file = path(projectDir);
    const QFileInfo info(file);
    if (!info.exists() && !info.isSymLink())
        return true;
    const auto fail = [this, &file](const QString &why) {
        m_servers.clear();
        m_error = tr("%1 cannot be used: %2").arg(file, why);
        return false;
    };
    if (const QString link = symlinkOnPath(projectDir); !link.isEmpty())
        return fail(tr("%1 is a symbolic link; the studio neither reads nor writes the record through one").arg(link));
    if (!info.isFile())
        return fail(tr("it is not a regular file"));
    if (info.size() > MaxFileBytes)
        return fail(tr("it has %1 bytes, more than the %2 the studio reads").arg(info.size()).arg(MaxFileBytes));
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return fail(in.errorString());
    if (const QString why = readRecord(in.read(MaxFileBytes + 1), &m_servers); !why.isEmpty())
        return fail(why);
    return true;
}

QString McpAcceptedTools::readRecord(const QByteArray &bytes, Servers *into)
{
    into->clear();
    if (bytes.size() > MaxFileBytes)
        return tr("it has more than the %1 bytes the studio reads").arg(MaxFileBytes);
    std::string problem;
    const json root
        = JsonInput::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())), "the file", &problem);
    if (!problem.empty())
        return fromStd(problem);
    if (!root.is_object() || root.value("version", json()) != json(1) || !root.contains("servers")
        || !root["servers"].is_object())
        return tr("it is not a record of accepted tools (a JSON object with \"version\": 1 and \"servers\")");
    if (root["servers"].size() > MaxServers)
        return tr("it names more than %1 servers").arg(MaxServers);
    for (const auto &[server, entry] : root["servers"].items()) {
        const QString serverName = elidedText(fromStd(server), 64);
        if (!entry.is_object() || !entry.contains("tools") || !entry["tools"].is_object())
            return tr("server \"%1\" has no \"tools\" object").arg(serverName);
        if (entry["tools"].size() > MaxToolsPerServer)
            return tr("server \"%1\" has more than %2 tools").arg(serverName).arg(MaxToolsPerServer);
        std::map<QString, Entry> &tools = (*into)[fromStd(server)];
        for (const auto &[tool, accepted] : entry["tools"].items()) {
            const QString toolName = elidedText(fromStd(tool), 128);
            if (!accepted.is_object() || !accepted.contains("definition") || !accepted["definition"].is_object()
                || !accepted.contains("sha256") || !accepted["sha256"].is_string())
                return tr("tool \"%1\" of server \"%2\" has no \"definition\" object and \"sha256\"")
                    .arg(toolName, serverName);
            Entry kept;
            kept.definition = reliedOn(accepted["definition"]);
            kept.sha256 = fromStd(accepted["sha256"].get<std::string>());
            kept.acceptedAt = stringOf(accepted, "accepted_at");
            kept.bytes = qint64(kept.definition.dump(-1, ' ', false, json::error_handler_t::replace).size());
            // A definition edited by hand (or by anything but the studio) is not what a person accepted.
            if (kept.definition != accepted["definition"] || kept.sha256 != fingerprint(kept.definition)
                || stringOf(kept.definition, "name") != fromStd(tool))
                return tr("the sha256 of tool \"%1\" of server \"%2\" does not match its definition")
                    .arg(toolName, serverName);
            tools.emplace(fromStd(tool), std::move(kept));
        }
    }
    return {};
}

bool McpAcceptedTools::knows(const QString &server) const
{
    return m_servers.count(server) > 0;
}

bool McpAcceptedTools::observe(const QString &server, const std::vector<json> &tools)
{
    if (!m_error.isEmpty() || knows(server))
        return false;
    addServer(server);
    for (const json &tool : tools)
        accept(server, tool);
    return true;
}

std::optional<McpToolChange> McpAcceptedTools::change(const QString &server, const json &listed) const
{
    McpToolChange change;
    change.server = server;
    change.tool = stringOf(listed, "name");
    change.now = reliedOn(listed);
    if (depthOf(change.now) > MaxDefinitionDepth) {
        change.isNew = true;
        change.tooDeep = true;
        return change;
    }
    const auto entry = m_servers.find(server);
    const auto accepted = entry == m_servers.end() || !m_error.isEmpty() ? std::map<QString, Entry>::const_iterator()
                                                                         : entry->second.find(change.tool);
    if (entry == m_servers.end() || !m_error.isEmpty() || accepted == entry->second.end()) {
        change.isNew = true;
        return change;
    }
    if (accepted->second.sha256 == fingerprint(change.now))
        return std::nullopt;
    change.accepted = accepted->second.definition;
    change.parts = changedParts(change.accepted, change.now);
    if (change.parts.isEmpty())
        change.parts << QStringLiteral("name"); // only the JSON spelling of the name differs
    return change;
}

std::vector<McpToolChange> McpAcceptedTools::changes(const QString &server, const std::vector<json> &tools) const
{
    std::vector<McpToolChange> all;
    for (const json &tool : tools)
        if (auto found = change(server, tool))
            all.push_back(std::move(*found));
    return all;
}

bool McpAcceptedTools::accept(const QString &server, const json &listed, QString *why)
{
    Entry entry;
    entry.definition = reliedOn(listed);
    const QString tool = stringOf(listed, "name");
    if (depthOf(entry.definition) > MaxDefinitionDepth) {
        if (why) {
            McpToolChange deep;
            deep.server = server;
            deep.tool = tool;
            deep.tooDeep = true;
            *why = deep.refusal(QString());
        }
        return false;
    }
    // One server's definitions get a share of the record, not all of it: a server that
    // listed 16 MiB of descriptions left no room to accept another's (attack32 F4).
    entry.bytes = qint64(entry.definition.dump(-1, ' ', false, json::error_handler_t::replace).size());
    qint64 total = entry.bytes;
    if (const auto known = m_servers.find(server); known != m_servers.end())
        for (const auto &[name, kept] : known->second)
            if (name != tool)
                total += kept.bytes;
    if (total > MaxServerBytes) {
        if (why)
            *why = tr("MCP tool '%1' cannot be accepted: the accepted definitions of MCP server '%2' would be %3 "
                      "bytes, more than the %4 the record keeps for one server")
                       .arg(elidedText(McpServerConfig::toolName(server, tool)), elidedText(server, 64))
                       .arg(total)
                       .arg(MaxServerBytes);
        return false;
    }
    entry.sha256 = fingerprint(entry.definition);
    entry.acceptedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    m_servers[server][tool] = std::move(entry);
    return true;
}

void McpAcceptedTools::addServer(const QString &server)
{
    m_servers[server];
}

void McpAcceptedTools::startOver(const QStringList &servers)
{
    m_servers.clear();
    for (const QString &server : servers)
        addServer(server);
}

bool McpAcceptedTools::save(const QString &projectDir, QString *error, QString *note)
{
    const QString file = path(projectDir);
    // QSaveFile writes a symlink's target: a project that ships .toolstudio or the record
    // as a link (to ~/.bash_profile) would have the studio write outside it (attack31 F1).
    if (const QString link = symlinkOnPath(projectDir); !link.isEmpty()) {
        *error = tr("%1 is a symbolic link; the studio does not write the record through one: remove it and try again")
                     .arg(link);
        return false;
    }
    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        *error = tr("cannot create %1").arg(QFileInfo(file).absolutePath());
        return false;
    }
    json servers = json::object();
    for (const auto &[server, tools] : m_servers) {
        json entries = json::object();
        for (const auto &[tool, entry] : tools)
            entries[tool.toStdString()] = {{"sha256", entry.sha256.toStdString()},
                                           {"accepted_at", entry.acceptedAt.toStdString()},
                                           {"definition", entry.definition}};
        servers[server.toStdString()] = {{"tools", std::move(entries)}};
    }
    const json root{{"version", 1}, {"servers", std::move(servers)}};
    const std::string text = root.dump(2, ' ', false, json::error_handler_t::replace) + '\n';
    // Never write what load() would refuse: that would refuse every server's tools (a
    // value load() bounds, a count, a name that is not UTF-8: attack31 F5, attack32 F3).
    Servers readBack;
    if (const QString why = readRecord(QByteArray::fromStdString(text), &readBack); !why.isEmpty()) {
        *error = tr("%1: the record would not read back (%2); nothing was written").arg(file, why);
        return false;
    }
    if (!m_error.isEmpty() && QFileInfo::exists(file)) {
        QString kept = file + QStringLiteral(".bad");
        for (int n = 1; QFileInfo::exists(kept); ++n) {
            if (n >= MaxKeptAside) {
                *error = tr("%1 cannot be used, and %2 unusable records are kept aside already (%3.bad …): remove "
                            "them and try again")
                             .arg(file)
                             .arg(MaxKeptAside)
                             .arg(file);
                return false;
            }
            kept = file + QStringLiteral(".bad-%1").arg(n);
        }
        if (!QFile::rename(file, kept)) {
            *error = tr("%1 cannot be used and cannot be kept aside as %2; move it away and try again").arg(file, kept);
            return false;
        }
        if (note)
            *note = tr("%1; it was kept as %2 and a new record written").arg(m_error, kept);
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        *error = tr("%1: cannot write: %2").arg(file, out.errorString());
        return false;
    }
    out.write(QByteArray::fromStdString(text));
    if (!out.commit()) {
        *error = tr("%1: cannot write: %2").arg(file, out.errorString());
        return false;
    }
    m_error.clear();
    return true;
}
