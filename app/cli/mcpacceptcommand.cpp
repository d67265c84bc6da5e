// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpacceptcommand.h"

#include "headlessrun.h"
#include "mcp/mcpserverpool.h"
#include "mcpservernamed.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "trustcommand.h"

#include <QCoreApplication>
#include <QEventLoop>

#include <algorithm>

using nlohmann::json;

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("mcpacceptcommand", text, disambiguation, n);
}

json toJson(const McpToolChange &change)
{
    json parts = json::array();
    for (const QString &part : change.parts)
        parts.push_back(part.toStdString());
    return {{"name", McpServerConfig::toolName(change.server, change.tool).toStdString()},
            {"server_tool", change.tool.toStdString()},
            {"change", change.isNew ? "new" : "changed"},
            {"parts", std::move(parts)},
            {"diff", change.diff().toStdString()}};
}

} // namespace

int acceptMcpTools(const QString &projectDir, const QString &serverName, const QStringList &tools, bool asJson,
                   bool trust)
{
    int exitCode = ExitBadInput;
    const auto project = loadProjectToRun(QStringLiteral("mcp"), projectDir, trust, &exitCode);
    if (!project)
        return exitCode;
    const McpServerConfig *config = mcpServerNamed(*project, serverName, QStringLiteral("accept"));
    if (!config)
        return ExitBadInput;
    McpServerPool *pool = McpServerPool::forProject(project->dir);
    pool->setProjectName(project->name);
    pool->setServers(project->mcpServers);
    if (!pool->restart(serverName)) {
        printLine(stderr,
                  tr("toolstudio mcp accept: MCP server '%1' is %2")
                      .arg(serverName, McpServerStatus::stateName(pool->server(serverName)->state)));
        return ExitBadInput;
    }
    if (pool->server(serverName)->state == McpServerStatus::State::Starting) {
        QEventLoop loop;
        QObject::connect(pool, &McpServerPool::serverChanged, &loop, [&loop, pool, &serverName] {
            if (pool->server(serverName)->state != McpServerStatus::State::Starting)
                loop.quit();
        });
        loop.exec();
    }
    const McpServerStatus status = *pool->server(serverName);
    if (status.state != McpServerStatus::State::Ready) {
        printLine(stderr,
                  tr("toolstudio mcp accept: MCP server '%1' %2: %3")
                      .arg(serverName, McpServerStatus::stateName(status.state), printableLines(status.error)));
        return ExitRunFailed;
    }
    if (!status.acceptedError.isEmpty())
        printLine(stderr, tr("toolstudio mcp accept: %1").arg(printableLines(status.acceptedError)));
    std::vector<McpToolChange> chosen;
    for (const QString &tool : tools) {
        const bool listed = std::any_of(status.tools.begin(), status.tools.end(), [&tool](const json &entry) {
            return entry.value("name", json()) == json(tool.toStdString());
        });
        if (!listed) {
            printLine(stderr,
                      tr("toolstudio mcp accept: MCP server '%1' does not list a tool \"%2\"")
                          .arg(serverName, elidedText(tool)));
            return ExitBadInput;
        }
    }
    for (const McpToolChange &change : status.changedTools)
        if (tools.isEmpty() || tools.contains(change.tool))
            chosen.push_back(change);
    json accepted = json::array();
    for (const McpToolChange &change : chosen) {
        if (asJson) {
            accepted.push_back(toJson(change));
            continue;
        }
        printLine(stdout,
                  change.isNew
                      ? tr("%1  new since the server's tools were accepted")
                            .arg(elidedText(McpServerConfig::toolName(serverName, change.tool)))
                      : tr("%1  changed since accepted: %2")
                            .arg(elidedText(McpServerConfig::toolName(serverName, change.tool)), change.summary()));
        printLine(stdout, printableLines(change.diff()).trimmed());
    }
    QString error;
    QString note;
    if (!chosen.empty() && !pool->acceptTools(serverName, chosen, &error, &note)) {
        printLine(stderr, tr("toolstudio mcp accept: %1").arg(printableLines(error)));
        return ExitRunFailed;
    }
    if (!note.isEmpty())
        printLine(stderr, tr("toolstudio mcp accept: %1").arg(printableLines(note)));
    if (asJson) {
        const json out{{"server", serverName.toStdString()},
                       {"accepted", std::move(accepted)},
                       {"record", McpAcceptedTools::path(project->dir).toStdString()}};
        writeOut(stdout, printableJson(out) + '\n');
    } else if (chosen.empty()) {
        printLine(stdout,
                  tools.isEmpty()
                      ? tr("MCP server '%1': every tool is accepted as it is listed now").arg(serverName)
                      : tr("MCP server '%1': the tools named are accepted as they are listed now").arg(serverName));
    } else {
        printLine(stdout,
                  tr("accepted %n tool(s) of MCP server '%1' in %2", nullptr, int(chosen.size()))
                      .arg(serverName, McpAcceptedTools::path(project->dir)));
    }
    return ExitCompleted;
}
