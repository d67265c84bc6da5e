// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcptoolchangequestion.h"

#include "project/mcpserverconfig.h"
#include "project/printabletext.h"

using nlohmann::json;

namespace {

QString stringOf(const json &value, const char *key)
{
    const auto found = value.is_object() ? value.find(key) : value.end();
    return found != value.end() && found->is_string() ? QString::fromStdString(found->get<std::string>()) : QString();
}

} // namespace

std::optional<json> McpToolChangeQuestion::question(const McpToolChange &change)
{
    if (change.tooDeep)
        return std::nullopt;
    const QString diff = printableLines(change.diff());
    if (diff.size() > MaxDiffChars)
        return std::nullopt;
    const QString name = elidedText(McpServerConfig::toolName(change.server, change.tool));
    const QString message = change.isNew
        ? tr("MCP tool '%1' is new on MCP server '%2' since its tools were accepted. Accept it to "
             "send the call, or reject it: the call fails and the tool stays unaccepted.")
              .arg(name, elidedText(change.server, 64))
        : tr("MCP tool '%1' changed since it was accepted (%2). Accept the new definition to send the "
             "call, or reject it: the call fails and the accepted definition stays.")
              .arg(name, change.summary());
    json parts = json::array();
    for (const QString &part : change.parts)
        parts.push_back(part.toStdString());
    return json{{"kind", "tool_change"},
                {"server", change.server.toStdString()},
                {"tool", change.tool.toStdString()},
                {"name", McpServerConfig::toolName(change.server, change.tool).toStdString()},
                {"change", change.isNew ? "new" : "changed"},
                {"parts", parts},
                {"message", message.toStdString()},
                {"diff", diff.toStdString()}};
}

QString McpToolChangeQuestion::rejection(const json &question, const QString &why)
{
    const QString name = elidedText(stringOf(question, "name"));
    QStringList parts;
    if (const auto listed = question.find("parts"); listed != question.end() && listed->is_array())
        for (const json &part : *listed)
            if (part.is_string())
                parts << QString::fromStdString(part.get<std::string>());
    const QString what = stringOf(question, "change") == QLatin1String("new")
        ? tr("MCP tool '%1' is new since its server's tools were accepted").arg(name)
        : tr("MCP tool '%1' changed since it was accepted (%2)").arg(name, parts.join(QStringLiteral(", ")));
    return why.trimmed().isEmpty() ? tr("%1; a person rejected the change, so it was not called").arg(what)
                                   : tr("%1; a person rejected the change, so it was not called: %2")
                                         .arg(what, printableLines(elidedText(why, 2000)));
}
