// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// npx entries as people paste them (docs/mcp.md "npx entries"), end to end with the npm
// registry and the MCP reference server: `"command": "npx", "args": ["-y",
// "@modelcontextprotocol/server-everything@…"]` is installed once (npm, no install
// scripts) into the studio's folder, then run with node, confined, that folder granted
// read-only — from a script (the pool, as the window does) and from `mcp list` (the
// headless path); a second start installs nothing. Skipped, saying why, when
// ./toolstudio.sh test could not install the reference servers (no registry).
#include "clirunner.h"
#include "testfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

constexpr auto Spec = "@modelcontextprotocol/server-everything@2026.8.31";

/// `toolstudio ARGUMENTS…` trusted, given up to 4 minutes (an install fetches from the registry).
CommandResult slowToolstudio(const QStringList &arguments)
{
    QProcess process;
    process.setProgram(toolstudioBinary());
    process.setArguments(withTrust(arguments));
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
    if (!process.waitForFinished(240000))
        process.kill();
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace

class TestMcpNpx : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void scriptCallsAnNpxServer();
    void mcpListInstallsOnce();

private:
    QString writeProject();
    /// The folders in the npx cache (installs, and any half-made ".part-" one).
    QStringList cacheEntries() const;

    std::unique_ptr<QTemporaryDir> m_cache;
    std::unique_ptr<QTemporaryDir> m_project;
};

void TestMcpNpx::init()
{
    if (referenceServerModules().isEmpty())
        QSKIP(ReferenceServerMissing);
    m_cache = std::make_unique<QTemporaryDir>();
    m_project = std::make_unique<QTemporaryDir>();
    QVERIFY(m_cache->isValid() && m_project->isValid());
    // As root the server runs as the sandbox user, which must reach the install.
    ::chmod(QFile::encodeName(m_cache->path()).constData(), 0755);
    ::chmod(QFile::encodeName(m_project->path()).constData(), 0755);
    qputenv("TOOLSTUDIO_NPX_CACHE", QFile::encodeName(m_cache->path()));
}

QString TestMcpNpx::writeProject()
{
    const QString dir = m_project->path();
    writeFile(dir + QStringLiteral("/toolstudio.json"),
              QByteArray("{\"name\": \"npx\", \"default_script\": \"main\",\n"
                         "  \"scripts\": [{\"name\": \"main\", \"path\": \"main.py\", \"tools\": "
                         "[\"everything__echo\"]}],\n"
                         "  \"mcp_servers\": {\"everything\": {\"command\": \"npx\", \"args\": [\"-y\", \"")
                  + Spec + "\"]}}}\n");
    writeFile(dir + QStringLiteral("/main.py"), "print(everything__echo(message=\"hi from npx\"))\n");
    return dir;
}

QStringList TestMcpNpx::cacheEntries() const
{
    return QDir(m_cache->path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
}

// The window and `run` go through the pool: the first start installs, then the server
// starts from the install and the script's call reaches it.
void TestMcpNpx::scriptCallsAnNpxServer()
{
    const QString project = writeProject();
    const CommandResult run = slowToolstudio({QStringLiteral("run"), project});
    QVERIFY2(run.exitCode == 0, run.out + run.err);
    QVERIFY2(run.out.contains("Echo: hi from npx"), run.out + run.err);
    QVERIFY2(run.err.contains(QByteArray("toolstudio run: MCP server 'everything': installing ") + Spec
                              + " with npm (once)…\n"),
             run.err);
    const QStringList entries = cacheEntries();
    QCOMPARE(entries.size(), 1);
    QVERIFY2(entries.first().startsWith(QLatin1String("modelcontextprotocol+server-everything-")),
             qPrintable(entries.first()));
    const QString installed = m_cache->path() + u'/' + entries.first();
    QCOMPARE(fileBytes(installed + QStringLiteral("/.toolstudio-npx")), QByteArray(Spec) + '\n');
    QVERIFY(QFileInfo::exists(installed
                              + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/"
                                               "package.json")));
    // Nothing of the package ran at install: npm was told --ignore-scripts (no way to
    // see that from here but the flag; tst_mcpnpxpackage checks the command line).

    // Started again: from the install, nothing fetched.
    const CommandResult again = slowToolstudio({QStringLiteral("run"), project});
    QVERIFY2(again.exitCode == 0, again.out + again.err);
    QVERIFY2(again.out.contains("Echo: hi from npx"), again.out + again.err);
    QVERIFY2(!again.err.contains("installing"), again.err);
    QCOMPARE(cacheEntries(), entries);
}

// `mcp list` installs with a line on stderr the first time, not the second.
void TestMcpNpx::mcpListInstallsOnce()
{
    const QString project = writeProject();
    const CommandResult first = slowToolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QVERIFY2(first.exitCode == 0, first.out + first.err);
    QVERIFY2(first.err.contains(QByteArray("toolstudio: installing ") + Spec + " with npm (once)…\n"), first.err);
    QVERIFY2(first.out.startsWith("everything  ready  MCP "), first.out);
    QVERIFY2(first.out.contains("\n  everything__echo  "), first.out);
    const CommandResult second = slowToolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QVERIFY2(second.exitCode == 0, second.out + second.err);
    QVERIFY2(!second.err.contains("installing"), second.err);
    QCOMPARE(second.out, first.out);
    QCOMPARE(cacheEntries().size(), 1);
}

QTEST_GUILESS_MAIN(TestMcpNpx)
#include "tst_mcpnpx.moc"
