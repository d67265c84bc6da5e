// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpprojecttools.h"

#include "mcp/mcphandler.h"
#include "mcp/mcpserverpool.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "project/projecttrust.h"
#include "project/schemavalidator.h"

#include <QCoreApplication>
#include <QEventLoop>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpProjectTools", text);
}

QString textOf(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

} // namespace

std::optional<Tool> McpProjectTools::toTool(const QString &server, const json &listed, const Project &project,
                                            QString *problem)
{
    Tool tool;
    tool.name = McpServerConfig::toolName(server, textOf(listed, "name"));
    if (!Tool::isValidName(tool.name)) {
        *problem = tr("MCP tool '%1': not a valid tool name, scripts cannot call it (%2)")
                       .arg(elidedText(tool.name), Tool::nameRule());
        return std::nullopt;
    }
    tool.title = textOf(listed, "title");
    tool.description = textOf(listed, "description");
    tool.inputSchema = listed.value("inputSchema", json{{"type", "object"}});
    if (listed.contains("outputSchema") && listed["outputSchema"].is_object())
        tool.outputSchema = listed["outputSchema"];
    if (listed.contains("annotations") && listed["annotations"].is_object())
        tool.annotations = listed["annotations"];
    if (tool.inputSchema.contains("properties") && tool.inputSchema["properties"].is_object())
        for (const auto &[key, value] : tool.inputSchema["properties"].items())
            tool.parameterOrder << QString::fromStdString(key);
    QString error;
    if (!SchemaValidator::compile(tool.inputSchema, &error)) {
        *problem = tr("MCP tool '%1': its inputSchema does not compile: %2").arg(tool.name, error);
        return std::nullopt;
    }
    if (tool.outputSchema && !SchemaValidator::compile(*tool.outputSchema, &error)) {
        *problem = tr("MCP tool '%1': its outputSchema does not compile: %2").arg(tool.name, error);
        return std::nullopt;
    }
    tool.handler = HandlerKind::Mcp;
    tool.retry = project.retryDefaults;
    return tool;
}

QStringList McpProjectTools::addTools(Project &project, const McpServerPool &pool)
{
    QStringList problems;
    for (const McpServerStatus &server : pool.servers()) {
        if (server.state == McpServerStatus::State::Failed) {
            problems << tr("MCP server '%1' %2: %3")
                            .arg(server.name, McpServerStatus::stateName(server.state), printableLines(server.error));
            continue;
        }
        if (server.state != McpServerStatus::State::Ready)
            continue;
        for (const QString &again : server.duplicateTools)
            problems << tr("MCP server '%1' lists the tool '%2' more than once; the first is kept")
                            .arg(server.name, printableLines(again).left(200));
        for (const QString &rejected : server.rejectedTools)
            problems << tr("MCP server '%1': a tool is left out, its x-mcp-header parameters break the rules "
                           "of MCP 2026-07-28 (the server must fix its inputSchema): %2")
                            .arg(server.name, rejected);
        for (const json &listed : server.tools) {
            QString problem;
            std::optional<Tool> tool = toTool(server.name, listed, project, &problem);
            if (!tool) {
                problems << problem;
                continue;
            }
            if (project.tool(tool->name)) {
                problems << tr("MCP tool '%1': the project already declares a tool of that name; "
                               "the MCP tool is left out")
                                .arg(tool->name);
                continue;
            }
            project.tools.push_back(std::move(*tool));
        }
    }
    // A script may bind SERVER__TOOL before the server is connected (Project::load); a
    // server that is ready and does not list it is said (one that failed is, above).
    QStringList ready;
    for (const McpServerStatus &server : pool.servers())
        if (server.state == McpServerStatus::State::Ready)
            ready << server.name;
    for (const ScriptEntry &script : project.scripts)
        for (const QString &bound : script.tools) {
            const QString server = bound.left(bound.indexOf(QLatin1String("__")));
            if (!project.tool(bound) && ready.contains(server))
                problems << tr("script '%1' binds '%2', which MCP server '%3' does not list; calls of it fail "
                               "as unknown_tool")
                                .arg(script.name, printableLines(bound).left(200), server);
        }
    return problems;
}

QStringList McpProjectTools::replaceTools(Project &project, const McpServerPool &pool)
{
    std::erase_if(project.tools, [](const Tool &tool) { return tool.handler == HandlerKind::Mcp; });
    QStringList lines;
    for (const McpServerStatus &server : pool.servers())
        if (!server.toolsChangedNote.isEmpty() && server.state == McpServerStatus::State::Ready)
            lines << tr("MCP server '%1': %2").arg(server.name, server.toolsChangedNote);
    return lines + addTools(project, pool);
}

McpServerPool *McpProjectTools::startAll(const Project &project)
{
    McpHandler::registerKind();
    McpServerPool *pool = McpServerPool::forProject(project.dir);
    pool->setProjectName(project.name);
    pool->setServers(project.mcpServers);
    pool->connectAll();
    return pool;
}

QStringList McpProjectTools::connectAndAdd(Project &project, const std::function<void(const QString &note)> &progress)
{
    if (project.mcpServers.empty())
        return {};
    if (const QString refused = ProjectTrust::refusal(project); !refused.isEmpty())
        return {refused};
    McpServerPool *pool = startAll(project);
    if (!pool->settled()) {
        QEventLoop loop;
        QStringList told;
        QObject::connect(pool, &McpServerPool::serverChanged, &loop,
                         [&loop, &told, &progress, pool](const QString &name) {
                             const McpServerStatus *status = pool->server(name);
                             if (progress && status && !status->activity.isEmpty() && !told.contains(name)) {
                                 told << name;
                                 progress(QCoreApplication::translate("McpProjectTools", "MCP server '%1': %2…")
                                              .arg(name, printableText(status->activity)));
                             }
                             if (pool->settled())
                                 loop.quit();
                         });
        loop.exec();
    }
    return addTools(project, *pool);
}
