// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpimportfolders.h"

#include "project/printabletext.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpImportFolders", text);
}

/// Whether argument `arg` names a folder outside `projectDir` (McpImportFolders::note).
bool outside(const QString &arg, const QString &projectDir)
{
    if (arg == QLatin1String("~") || arg.startsWith(QLatin1String("~/")))
        return true;
    if (!arg.startsWith(u'/'))
        return false;
    const QFileInfo info(arg);
    if (info.exists() && !info.isDir())
        return false; // a file: a script or a binary the server runs
    const QString path = QDir::cleanPath(arg);
    const QString project = QDir::cleanPath(projectDir);
    return path != project && !path.startsWith(project + u'/');
}

} // namespace

void McpImportFolders::note(McpConfigImport::Config &config, const QString &projectDir)
{
    for (McpConfigImport::Server &server : config.servers) {
        const auto args = server.entry.find("args");
        if (args == server.entry.end() || !args->is_array())
            continue;
        QStringList named;
        qsizetype more = 0;
        for (std::size_t i = 0; i < args->size(); ++i) {
            const auto &arg = (*args)[i];
            if (!arg.is_string() || !outside(QString::fromStdString(arg.get<std::string>()), projectDir))
                continue;
            if (named.size() < MaxNamed)
                named << QStringLiteral("args[%1] (%2)")
                             .arg(i)
                             .arg(elidedText(QString::fromStdString(arg.get<std::string>()), 80));
            else
                ++more;
        }
        if (named.isEmpty())
            continue;
        QString places = named.join(QStringLiteral(", "));
        if (more > 0)
            places += tr(" and %1 more").arg(more);
        server.notes << tr("%1: a folder outside the project cannot be granted — a confined server reads only "
                           "folders in the project, and the filesystem server takes the studio's roots in place "
                           "of the folders in its args. Copy the folder into the project and name it in "
                           "sandbox.read (docs/mcp.md \"Confined servers\")")
                            .arg(places);
    }
}
