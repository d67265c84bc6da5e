// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// McpImportFolders (docs/mcp.md "Importing a config"): an imported server's args that
// name a folder outside the project are named in its notes, with what to do instead;
// options, relative paths, files and folders in the project are not.

#include "mcp/mcpconfigimport.h"
#include "mcp/mcpimportfolders.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString Advice = QStringLiteral(
    ": a folder outside the project cannot be granted — a confined server reads only folders in the project, and "
    "the filesystem server takes the studio's roots in place of the folders in its args. Copy the folder into the "
    "project and name it in sandbox.read (docs/mcp.md \"Confined servers\")");

/// The config read from `text` with its folder notes added for project `projectDir`.
McpConfigImport::Config imported(const QByteArray &text, const QString &projectDir)
{
    QString error;
    auto config = McpConfigImport::read(text, &error);
    if (!config)
        qFatal("not read: %s", qPrintable(error));
    McpImportFolders::note(*config, projectDir);
    return *config;
}

} // namespace

class TstMcpImportFolders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void foldersOutsideTheProjectAreNamed()
    {
        QTemporaryDir elsewhere;
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p"));
        QVERIFY(QDir().mkpath(project + QStringLiteral("/data")));
        QFile script(elsewhere.filePath(QStringLiteral("server.js")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.close();
        const QByteArray text
            = QStringLiteral("{\"mcpServers\": {\"filesystem\": {\"command\": \"npx\", \"args\": [\"-y\", "
                             "\"@modelcontextprotocol/server-filesystem\", \"/home/me/shared\", \"%1\", "
                             "\"%2/data\", \"%2\", \"%3\", \"--root=/x\", \"shared\", \"~/docs\"]}, "
                             "\"node\": {\"command\": \"node\", \"args\": [\"%3\", \"--port\", \"8080\"]}}}")
                  .arg(elsewhere.path(), project, script.fileName())
                  .toUtf8();
        const auto config = imported(text, project);
        QCOMPARE(config.servers.size(), std::size_t(2));
        QCOMPARE(config.servers[0].notes,
                 QStringList(
                     QStringLiteral("args[2] (/home/me/shared), args[3] (%1), args[9] (~/docs)").arg(elsewhere.path())
                     + Advice));
        QCOMPARE(config.servers[1].notes, QStringList()); // a script file is no folder
    }

    void moreThanThreeAreCounted()
    {
        const auto config = imported(
            "{\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"/a\", \"/b\", \"~\", \"/c\", \"/d\"]}}}",
            QStringLiteral("/nonexistent/project"));
        QCOMPARE(config.servers[0].notes,
                 QStringList(QStringLiteral("args[0] (/a), args[1] (/b), args[2] (~) and 2 more") + Advice));
    }

    void theProjectFolderItselfIsNotNamed()
    {
        const auto config = imported("{\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"/work/p\", "
                                     "\"/work/p/data/\", \"/work/p2\"]}}}",
                                     QStringLiteral("/work/p"));
        QCOMPARE(config.servers[0].notes, QStringList(QStringLiteral("args[2] (/work/p2)") + Advice));
    }
};

QTEST_GUILESS_MAIN(TstMcpImportFolders)
#include "tst_mcpimportfolders.moc"
