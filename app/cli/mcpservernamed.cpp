// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpservernamed.h"

#include "headlessrun.h"
#include "project/printabletext.h"
#include "project/project.h"

#include <QCoreApplication>
#include <QStringList>

const McpServerConfig *mcpServerNamed(const Project &project, const QString &name, const QString &command)
{
    QStringList names;
    for (const McpServerConfig &entry : project.mcpServers) {
        if (entry.name == name)
            return &entry;
        names << entry.name;
    }
    printLine(stderr,
              QCoreApplication::translate("mcpservernamed",
                                          "toolstudio mcp %1: the project has no MCP server \"%2\" (it has: %3)")
                  .arg(command, elidedText(name, 64),
                       names.isEmpty() ? QCoreApplication::translate("mcpservernamed", "none")
                                       : names.join(QStringLiteral(", "))));
    return nullptr;
}
