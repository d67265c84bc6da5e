// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcptoolacceptance.h"

#include "project/mcpserverconfig.h"
#include "project/printabletext.h"

#include <QFile>

#include <algorithm>
#include <map>

#include <sys/stat.h>

using nlohmann::json;

McpToolAcceptance::McpToolAcceptance(const QString &projectDir)
    : m_projectDir(projectDir)
    , m_recordPath(QFile::encodeName(McpAcceptedTools::path(projectDir)))
{}

bool McpToolAcceptance::refresh()
{
    struct stat info = {};
    Stamp stamp;
    stamp.read = true;
    if (::stat(m_recordPath.constData(), &info) == 0) {
        stamp.exists = true;
        stamp.size = qint64(info.st_size);
        stamp.seconds = qint64(info.st_mtim.tv_sec);
        stamp.nanoseconds = qint64(info.st_mtim.tv_nsec);
        stamp.changeSeconds = qint64(info.st_ctim.tv_sec);
        stamp.changeNanoseconds = qint64(info.st_ctim.tv_nsec);
        stamp.inode = quint64(info.st_ino);
        stamp.device = quint64(info.st_dev);
    }
    if (stamp == m_stamp)
        return false;
    m_stamp = stamp;
    m_accepted.load(m_projectDir);
    ++m_generation;
    m_answers.clear();
    return true;
}

void McpToolAcceptance::reread()
{
    m_stamp = Stamp();
    refresh();
}

bool McpToolAcceptance::observe(const QString &server, const std::vector<json> &tools)
{
    m_writeError.clear();
    if (!m_accepted.observe(server, tools))
        return false;
    QString error;
    if (!m_accepted.save(m_projectDir, &error))
        m_writeError = error;
    reread(); // what was written (or not)
    return true;
}

McpToolAcceptance::Changes McpToolAcceptance::changesOf(const QString &server, const std::vector<json> &tools) const
{
    return {m_accepted.changes(server, tools), m_accepted.error().isEmpty() ? m_writeError : m_accepted.error()};
}

QString McpToolAcceptance::refusal(const QString &server, const std::vector<json> &tools, const QString &tool,
                                   quint64 listing) const
{
    const std::string name = tool.toStdString();
    for (const json &listed : tools) {
        const auto named = listed.find("name");
        if (named == listed.end() || *named != name)
            continue;
        const std::pair<QString, QString> key{server, tool};
        if (const auto known = m_answers.find(key);
            known != m_answers.end() && known->second.generation == m_generation && known->second.listing == listing)
            return known->second.refusal;
        if (m_answers.size() >= MaxAnswers)
            m_answers.clear();
        const QString refused = refusalOf(server, listed, tool);
        m_answers[key] = Answer{m_generation, listing, refused};
        return refused;
    }
    // Not listed now (the pool is ready only once its tools are listed): what the server
    // would run under that name was never shown, so it is not called — a tool changed and
    // then taken off the list was called unaccepted (attack31 F3).
    return tr("MCP tool '%1' is not listed by MCP server '%2' now; it is not called (what the server would run "
              "under that name was never shown): restart the server in the MCP Servers dock to list its tools again")
        .arg(elidedText(McpServerConfig::toolName(server, tool)), elidedText(server, 64));
}

QString McpToolAcceptance::refusalOf(const QString &server, const json &listed, const QString &tool) const
{
    const std::optional<McpToolChange> change = m_accepted.change(server, listed);
    if (!change)
        return {};
    if (!m_accepted.error().isEmpty())
        return tr("MCP tool '%1' is not called: %2; review the server's tools in the MCP Servers dock, or run "
                  "`toolstudio mcp accept %3 %4` to accept them as they are now and write a new record")
            .arg(elidedText(McpServerConfig::toolName(server, tool)), printableLines(m_accepted.error()),
                 shellQuoted(m_projectDir), shellQuoted(server));
    return change->refusal(m_projectDir);
}

bool McpToolAcceptance::accept(const QString &server, const std::vector<json> &tools,
                               const std::vector<McpToolChange> &changes, const QStringList &servers, QString *error,
                               QString *note)
{
    refresh();
    for (const McpToolChange &change : changes) {
        const bool listed = std::any_of(tools.begin(), tools.end(), [&change](const json &entry) {
            return McpAcceptedTools::reliedOn(entry) == change.now;
        });
        if (!listed) {
            *error = tr("MCP tool '%1' is no longer listed as it was shown (it changed again); review it again")
                         .arg(elidedText(McpServerConfig::toolName(server, change.tool)));
            return false;
        }
    }
    if (!m_accepted.error().isEmpty())
        m_accepted.startOver(servers); // a record that replaces an unusable one: every other server's tools are new
    bool accepted = true;
    for (const McpToolChange &change : changes)
        accepted = accepted && m_accepted.accept(server, change.now, error);
    const bool saved = accepted && m_accepted.save(m_projectDir, error, note);
    reread(); // what was not written is not accepted
    return saved;
}

QString McpToolAcceptance::changeNote(const std::vector<json> &before, const std::vector<json> &after)
{
    std::map<std::string, const json *> old;
    for (const json &tool : before)
        old.emplace(tool.value("name", std::string()), &tool);
    QStringList added;
    QStringList changed;
    for (const json &tool : after) {
        const std::string name = tool.value("name", std::string());
        const auto found = old.find(name);
        if (found == old.end())
            added << elidedText(QString::fromStdString(name));
        else if (McpAcceptedTools::canonical(*found->second) != McpAcceptedTools::canonical(tool))
            changed << elidedText(QString::fromStdString(name));
        if (found != old.end())
            old.erase(found);
    }
    QStringList removed;
    for (const auto &[name, tool] : old)
        removed << elidedText(QString::fromStdString(name));
    const auto part = [](const char *what, QStringList names) {
        if (names.isEmpty())
            return QString();
        const qsizetype all = names.size();
        if (all > 10)
            names = names.mid(0, 10) << tr("… (%1 in all)").arg(all);
        return QStringLiteral("%1 %2").arg(tr(what), names.join(QStringLiteral(", ")));
    };
    QStringList parts;
    for (const QString &text : {part("added:", added), part("removed:", removed), part("changed:", changed)})
        if (!text.isEmpty())
            parts << text;
    return parts.isEmpty() ? tr("its tools were listed again; none changed")
                           : tr("its tools changed (%1)").arg(parts.join(QStringLiteral("; ")));
}
