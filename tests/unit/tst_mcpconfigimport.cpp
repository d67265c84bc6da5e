// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// McpConfigImport and `toolstudio mcp import` (docs/mcp.md "Importing a config"):
// Claude Desktop / Cursor / Claude Code and VS Code configs as people write them, what
// does not carry over said per server, credentials moved to secrets, names the studio
// cannot use renamed, entries it would refuse skipped, and name clashes.

#include "cli/mcpimportcommand.h"
#include "mcp/mcpconfigimport.h"
#include "project/mcpserverconfig.h"
#include "project/projectwriter.h"
#include "python/secrets.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::ordered_json;

namespace {

const QByteArray ClaudeConfig
    = "{\n"
      "  \"mcpServers\": {\n"
      "    \"everything\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"]},\n"
      "    \"github\": {\"command\": \"docker\", \"args\": [\"run\", \"-i\", \"--rm\", \"-e\", \"GITHUB_PERSONAL_ACCESS_TOKEN\", \"ghcr.io/github/github-mcp-server\"],\n"
      "               \"env\": {\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"ghp_abc123\", \"LOG_LEVEL\": \"debug\"}, \"alwaysAllow\": [\"get_me\"]},\n"
      "    \"my.remote server\": {\"type\": \"streamable-http\", \"url\": \"https://example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer sk-xyz\"}},\n"
      "    \"bad\": {\"command\": \"\"},\n"
      "    \"list\": [1, 2]\n"
      "  }\n"
      "}";

const QByteArray VsCodeConfig
    = "// .vscode/mcp.json\n"
      "{\n"
      "  \"inputs\": [{\"type\": \"promptString\", \"id\": \"perplexity-key\", \"description\": \"Perplexity API Key\", \"password\": true}],\n"
      "  \"servers\": {\n"
      "    \"perplexity\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"server-perplexity-ask\"],\n"
      "                   \"env\": {\"PERPLEXITY_API_KEY\": \"${input:perplexity-key}\"}, /* a note */ \"envFile\": \"${workspaceFolder}/.env\"},\n"
      "    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"${workspaceFolder}/data\", \"${userHome}\"],\n"
      "           \"cwd\": \"${workspaceFolder}\"},\n"
      "    \"home\": {\"command\": \"node\", \"args\": [\"x.js // not a comment\"], \"env\": {\"HOME_DIR\": \"${env:HOME}\"},},\n"
      "  },\n"
      "}";

const McpConfigImport::Server *find(const McpConfigImport::Config &config, const QString &name)
{
    for (const McpConfigImport::Server &server : config.servers)
        if (server.name == name)
            return &server;
    return nullptr;
}

QString notes(const McpConfigImport::Server &server)
{
    return server.notes.join(QLatin1Char('\n'));
}

} // namespace

class TstMcpConfigImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void claudeDesktopConfig()
    {
        QString error;
        const auto config = McpConfigImport::read(ClaudeConfig, &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->format, QStringLiteral("Claude Desktop, Cursor or Claude Code (mcpServers)"));
        QCOMPARE(config->servers.size(), std::size_t(3));
        QCOMPARE(config->servers[0].entry.dump(),
                 std::string("{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-everything\"]}"));
        QVERIFY(config->servers[0].notes.isEmpty());
        QVERIFY(config->servers[0].secrets.isEmpty());

        const McpConfigImport::Server *github = find(*config, QStringLiteral("github"));
        QVERIFY(github);
        QCOMPARE(github->entry["env"].dump(),
                 std::string("{\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"${secret:GITHUB_PERSONAL_ACCESS_TOKEN}\","
                             "\"LOG_LEVEL\":\"debug\"}"));
        QVERIFY(!github->entry.contains("alwaysAllow"));
        QCOMPARE(github->secrets.value(QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN")), QStringLiteral("ghp_abc123"));
        QCOMPARE(github->secrets.size(), 1);
        QVERIFY(notes(*github).contains(QStringLiteral("left out (not Tool Studio settings): alwaysAllow")));
        QVERIFY(!QString::fromStdString(github->entry.dump()).contains(QStringLiteral("ghp_abc123")));

        const McpConfigImport::Server *remote = find(*config, QStringLiteral("my-remote-server"));
        QVERIFY(remote);
        QCOMPARE(remote->sourceName, QStringLiteral("my.remote server"));
        QCOMPARE(remote->entry.dump(),
                 std::string("{\"type\":\"http\",\"url\":\"https://example.com/mcp\",\"headers\":{\"Authorization\":"
                             "\"Bearer ${secret:MY_REMOTE_SERVER_AUTHORIZATION}\"}}"));
        QCOMPARE(remote->secrets.value(QStringLiteral("MY_REMOTE_SERVER_AUTHORIZATION")), QStringLiteral("sk-xyz"));
        QVERIFY(notes(*remote).contains(QStringLiteral("renamed from \"my.remote server\"")));

        QCOMPARE(config->skipped,
                 QStringList({QStringLiteral("bad: mcp server 'bad': 'command' is empty"),
                              QStringLiteral("list: its settings are an array, not an object")}));
    }

    void vsCodeConfigWithCommentsAndInputs()
    {
        QString error;
        const auto config = McpConfigImport::read(VsCodeConfig, &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->format, QStringLiteral("VS Code (servers)"));
        QCOMPARE(config->servers.size(), std::size_t(3));

        const McpConfigImport::Server *perplexity = find(*config, QStringLiteral("perplexity"));
        QVERIFY(perplexity);
        QCOMPARE(perplexity->entry.dump(),
                 std::string("{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"server-perplexity-ask\"],"
                             "\"env\":{\"PERPLEXITY_API_KEY\":\"${secret:PERPLEXITY_KEY}\"}}"));
        // An input is not a value the file holds: nothing to save, a secret to set.
        QVERIFY(perplexity->secrets.isEmpty());
        QVERIFY(notes(*perplexity)
                    .contains(QStringLiteral(
                        "${input:perplexity-key} is now the secret PERPLEXITY_KEY (the studio does not prompt for "
                        "inputs; the input was: Perplexity API Key); set it with: toolstudio tools secret PROJECT "
                        "PERPLEXITY_KEY")));
        QVERIFY(notes(*perplexity).contains(QStringLiteral("envFile is not read")));
        QVERIFY(!notes(*perplexity).contains(QStringLiteral("left out")));

        const McpConfigImport::Server *fs = find(*config, QStringLiteral("fs"));
        QVERIFY(fs);
        QCOMPARE(fs->entry.dump(),
                 std::string("{\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/"
                             "server-filesystem\",\"./data\",\"${userHome}\"]}"));
        QVERIFY(notes(*fs).contains(QStringLiteral("args[3]: ${userHome} is not expanded by the studio")));

        const McpConfigImport::Server *home = find(*config, QStringLiteral("home"));
        QVERIFY(home);
        QCOMPARE(home->entry["args"].dump(), std::string("[\"x.js // not a comment\"]"));
        QCOMPARE(home->entry["env"].dump(), std::string("{\"HOME_DIR\":\"${secret:HOME}\"}"));
    }

    void vsCodeSettingsAndToolStudioShapes()
    {
        QString error;
        auto config = McpConfigImport::read(
            "{\"editor.fontSize\": 14, \"mcp\": {\"servers\": {\"a\": {\"command\": \"x\"}}}}", &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->format, QStringLiteral("VS Code settings (mcp.servers)"));
        QCOMPARE(config->servers.size(), std::size_t(1));
        config = McpConfigImport::read(
            "{\"name\": \"p\", \"mcp_servers\": {\"b\": {\"url\": \"http://127.0.0.1:9/mcp\"}}}", &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->format, QStringLiteral("toolstudio.json (mcp_servers)"));
        QCOMPARE(config->servers[0].entry.dump(), std::string("{\"url\":\"http://127.0.0.1:9/mcp\"}"));
    }

    void badFilesAreRefusedInWords_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("not JSON") << QByteArray("{\"mcpServers\": {") << QStringLiteral("the file is not valid JSON");
        QTest::newRow("an array") << QByteArray("[]")
                                  << QStringLiteral("the file is an array, not an object with a server list");
        QTest::newRow("no list") << QByteArray("{\"tools\": []}")
                                 << QStringLiteral("the file has no server list: none of \"mcpServers\"");
        QTest::newRow("list not an object")
            << QByteArray("{\"servers\": [\"a\"]}")
            << QStringLiteral(
                   "the server list (VS Code (servers)) is an array, not an object of server name → settings");
        QTest::newRow("too deep") << QByteArray(200, '[')
                                  << QStringLiteral("the file is nested deeper than 128 levels");
    }

    void badFilesAreRefusedInWords()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QString got;
        QVERIFY(!McpConfigImport::read(text, &got));
        QVERIFY2(got.startsWith(error), qPrintable(got));
    }

    void commentsAreBlankedInPlace()
    {
        const QByteArray text = "{\"a\": \"//x\", /* c */ \"b\": [1,2,],\n// end\n}";
        const QByteArray plain = McpConfigImport::withoutComments(text);
        QCOMPARE(plain.size(), text.size());
        QCOMPARE(plain, QByteArray("{\"a\": \"//x\",         \"b\": [1,2 ] \n      \n}")); // both trailing commas
    }

    void namesTheStudioCannotUseAreRenamed()
    {
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"a__b\": {\"command\": \"x\"}, \"a_b\": {\"command\": \"y\"}, \"" + QByteArray(80, 'n')
                + "\": {\"command\": \"z\"}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->servers.size(), std::size_t(3));
        QCOMPARE(config->servers[0].name, QStringLiteral("a_b"));
        QCOMPARE(config->servers[1].name, QStringLiteral("a_b-2"));
        QCOMPARE(config->servers[2].name, QString(64, u'n'));
        for (const McpConfigImport::Server &server : config->servers)
            QVERIFY2(McpServerConfig::isValidName(server.name), qPrintable(server.name));
    }

    void applyAddsSkipsReplacesAndKeepsOtherSecrets()
    {
        QTemporaryDir dir;
        Secrets secrets = Secrets::load(dir.path());
        QVERIFY(secrets.set(QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN"), QStringLiteral("another")));
        QString error;
        const auto config = McpConfigImport::read(ClaudeConfig, &error);
        QVERIFY(config);
        ordered_json manifest
            = ordered_json::parse("{\"name\": \"p\", \"mcp_servers\": {\"everything\": {\"command\": \"old\"}}}");
        McpConfigImport::Outcome outcome;
        QVERIFY2(McpConfigImport::apply(manifest, secrets, *config, false, &outcome, &error), qPrintable(error));
        QCOMPARE(outcome.added, QStringList({QStringLiteral("github"), QStringLiteral("my-remote-server")}));
        QVERIFY(outcome.replaced.isEmpty());
        QCOMPARE(outcome.skipped.size(), 3);
        QVERIFY(outcome.skipped.last().startsWith(QStringLiteral("everything: the project has a server of that name")));
        QCOMPARE(manifest["mcp_servers"]["everything"].dump(), std::string("{\"command\":\"old\"}"));
        // The secret of that name holds another value: the server gets its own.
        QCOMPARE(manifest["mcp_servers"]["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"].get<std::string>(),
                 std::string("${secret:GITHUB_GITHUB_PERSONAL_ACCESS_TOKEN}"));
        QCOMPARE(secrets.value(QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN")), QStringLiteral("another"));
        QCOMPARE(secrets.value(QStringLiteral("GITHUB_GITHUB_PERSONAL_ACCESS_TOKEN")), QStringLiteral("ghp_abc123"));
        QCOMPARE(outcome.secretsSet,
                 QStringList({QStringLiteral("GITHUB_GITHUB_PERSONAL_ACCESS_TOKEN"),
                              QStringLiteral("MY_REMOTE_SERVER_AUTHORIZATION")}));

        McpConfigImport::Outcome again;
        QVERIFY(McpConfigImport::apply(manifest, secrets, *config, true, &again, &error));
        QCOMPARE(
            again.replaced,
            QStringList({QStringLiteral("everything"), QStringLiteral("github"), QStringLiteral("my-remote-server")}));
        QCOMPARE(manifest["mcp_servers"]["everything"]["command"].get<std::string>(), std::string("npx"));
        QCOMPARE(manifest["mcp_servers"].size(), std::size_t(3));
        // The result is what the loader reads.
        McpServerConfig::parseAll(nlohmann::json::parse(manifest["mcp_servers"].dump()));
    }

    void applyRefusesWhenNothingIsAdded()
    {
        QTemporaryDir dir;
        Secrets secrets = Secrets::load(dir.path());
        QVERIFY(secrets.set(QStringLiteral("TOKEN"), QStringLiteral("one")));
        QVERIFY(secrets.set(QStringLiteral("S_TOKEN"), QStringLiteral("two")));
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"TOKEN\": \"three\"}}}}", &error);
        QVERIFY(config);
        ordered_json manifest = ordered_json::parse("{\"name\": \"p\"}");
        McpConfigImport::Outcome outcome;
        QVERIFY(!McpConfigImport::apply(manifest, secrets, *config, false, &outcome, &error));
        QCOMPARE(error,
                 QStringLiteral("no server was imported:\n  s: the secrets TOKEN and S_TOKEN are set to other "
                                "values already; remove one (Settings ▸ Secrets) and import again"));
        QCOMPARE(secrets.value(QStringLiteral("TOKEN")), QStringLiteral("one"));

        manifest = ordered_json::parse("{\"name\": \"p\", \"mcp_servers\": []}");
        QVERIFY(!McpConfigImport::apply(manifest, secrets, *config, false, &outcome, &error));
        QCOMPARE(error, QStringLiteral("toolstudio.json's mcp_servers is not an object; fix it first"));
    }

    void commandWritesTheManifestAndSecrets()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p"));
        QVERIFY(QDir().mkpath(project));
        QFile manifest(project + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\"name\": \"p\", \"tools\": []}\n");
        manifest.close();
        QFile config(dir.filePath(QStringLiteral("claude_desktop_config.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(ClaudeConfig);
        config.close();

        QCOMPARE(importMcpConfig(project, config.fileName(), false), 0);
        QString error;
        const auto written = ProjectWriter::readManifest(project, &error);
        QVERIFY2(written, qPrintable(error));
        QStringList names;
        for (const auto &[name, entry] : (*written)["mcp_servers"].items())
            names << QString::fromStdString(name);
        QCOMPARE(
            names,
            QStringList({QStringLiteral("everything"), QStringLiteral("github"), QStringLiteral("my-remote-server")}));
        QCOMPARE((*written)["tools"].dump(), std::string("[]"));
        QCOMPARE(Secrets::load(project).value(QStringLiteral("GITHUB_PERSONAL_ACCESS_TOKEN")),
                 QStringLiteral("ghp_abc123"));
        QFile text(project + QStringLiteral("/toolstudio.json"));
        QVERIFY(text.open(QIODevice::ReadOnly));
        QVERIFY(!text.readAll().contains("ghp_abc123"));

        // Again: every name is taken, nothing changes, exit 2.
        QCOMPARE(importMcpConfig(project, config.fileName(), false), 2);
        QCOMPARE(importMcpConfig(project, dir.filePath(QStringLiteral("missing.json")), false), 2);
        QCOMPARE(importMcpConfig(dir.filePath(QStringLiteral("nowhere")), config.fileName(), false), 2);
    }
};

QTEST_GUILESS_MAIN(TstMcpConfigImport)
#include "tst_mcpconfigimport.moc"
