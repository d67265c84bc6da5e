// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// McpConfigImport and `toolstudio mcp import` (docs/mcp.md "Importing a config"):
// Claude Desktop / Cursor / Claude Code and VS Code configs as people write them, what
// does not carry over said per server, credentials moved to secrets, names the studio
// cannot use renamed, entries it would refuse skipped, and name clashes.

#include "cli/mcpimportcommand.h"
#include "jsoninput.h"
#include "mcp/mcpconfigimport.h"
#include "project/mcpserverconfig.h"
#include "project/projectwriter.h"
#include "python/secrets.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

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

    // attack10: what the file says reaches a terminal and a message box printable and
    // bounded: no escape sequence, no 100 000-character key echoed.
    void fileTextInNotesIsPrintableAndBounded()
    {
        QString error;
        const QByteArray longKey(100000, 'k');
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"\\u001b]2;pwned\\u0007\": 1, \"env\": {\"\\r\\u001b[32m\": "
            "\"${foo}\", \""
                + longKey
                + "\": \"${bar}\"}}, \"\\u001b[2J\": [], \"b\": {\"command\": \"x\", \"sandbox\": {\"read\": [\"../\\u001b[2J\"]}}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->servers.size(), std::size_t(1));
        QStringList lines = config->servers[0].notes + config->skipped;
        QCOMPARE(lines.size(), 5);
        for (const QString &line : std::as_const(lines)) {
            QVERIFY2(line.size() < 400, qPrintable(line.left(400)));
            for (const QChar c : line)
                QVERIFY2(c.unicode() >= 0x20 && c.unicode() != 0x7f, qPrintable(line));
        }
        QCOMPARE(lines[0],
                 QStringLiteral("env \\r\\u001b[32m: ${foo} is not expanded by the studio; edit it in "
                                "toolstudio.json"));
        QCOMPARE(lines[2], QStringLiteral("left out (not Tool Studio settings): \\u001b]2;pwned\\u0007"));
        QCOMPARE(lines[3], QStringLiteral("\\u001b[2J: its settings are an array, not an object"));
        QVERIFY2(lines[4].startsWith(QStringLiteral("b: mcp server 'b': sandbox: 'read': \"../\\u001b[2J\"")),
                 qPrintable(lines[4]));
    }

    // attack10: one note per finding, its places counted — 100 000 `${x}` arguments were
    // 100 000 notes, each first looked up in the list (minutes at 550 000).
    void manyFindingsAreOneNote()
    {
        const int count = 100000;
        QByteArray args;
        for (int i = 0; i < count; ++i)
            args += i ? ",\"${x}\"" : "\"${x}\"";
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [" + args + "]}}}", &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->servers[0].notes,
                 QStringList({QStringLiteral("args[0], args[1], args[2] and 99997 more: ${x} is not expanded by the "
                                             "studio; edit it in toolstudio.json")}));

        // Distinct findings: 24 lines, then a count.
        QByteArray env;
        for (int i = 0; i < 30; ++i)
            env += (i ? ",\"V" : "\"V") + QByteArray::number(i) + "\": \"${v" + char('a' + i % 26) + char('a' + i / 26)
                + "}\"";
        const auto many
            = McpConfigImport::read("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {" + env + "}}}}", &error);
        QVERIFY2(many, qPrintable(error));
        QCOMPARE(many->servers[0].notes.size(), 25);
        QCOMPARE(many->servers[0].notes.last(), QStringLiteral("… and 6 more notes of this server, not listed"));
    }

    // attack10: 1024 names alike after renaming: each a valid, distinct name (the 1000th
    // got "-1000" after 60 characters: 65, refused), found in linear time (56 s before).
    void namesAlikeAfterRenamingStayValid()
    {
        QByteArray servers;
        for (int i = 0; i < 1024; ++i)
            servers += (i ? ",\"" : "\"") + QByteArray(3000, 'a') + QByteArray::number(i) + "\": {\"command\": \"x\"}";
        QString error;
        const auto config = McpConfigImport::read("{\"mcpServers\": {" + servers + "}}", &error);
        QVERIFY2(config, qPrintable(error));
        QVERIFY2(config->skipped.isEmpty(), qPrintable(config->skipped.value(0)));
        QCOMPARE(config->servers.size(), std::size_t(1024));
        QSet<QString> names;
        for (const McpConfigImport::Server &server : config->servers) {
            QVERIFY2(McpServerConfig::isValidName(server.name), qPrintable(server.name));
            names.insert(server.name);
        }
        QCOMPARE(names.size(), 1024);
        QCOMPARE(config->servers[1023].name, QString(59, u'a') + QStringLiteral("-1024"));
    }

    // attack10: the studio expands ${secret:NAME} in env and headers only; an argument
    // made `${secret:GITHUB_TOKEN}` reached the server as that text, while the note said
    // to set the secret.
    void variablesOutsideEnvAndHeadersStayText()
    {
        QString error;
        const auto config = McpConfigImport::read(
            "{\"servers\": {\"gh\": {\"command\": \"x\", \"args\": [\"--token\", \"${env:GITHUB_TOKEN}\"], \"env\": "
            "{\"GITHUB_TOKEN\": \"${env:GITHUB_TOKEN}\"}}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(
            config->servers[0].entry.dump(),
            std::string("{\"command\":\"x\",\"args\":[\"--token\",\"${env:GITHUB_TOKEN}\"],\"env\":{\"GITHUB_TOKEN\":"
                        "\"${secret:GITHUB_TOKEN}\"}}"));
        QCOMPARE(config->servers[0].notes.value(0),
                 QStringLiteral("args[1]: ${env:GITHUB_TOKEN} is kept as text: the studio expands secrets "
                                "(${secret:NAME}) only in env and headers; edit toolstudio.json"));
    }

    // attack10: "api-key" and "API_KEY" made one secret API_KEY: one value was lost and
    // both variables got the other.
    void keysMakingOneSecretNameKeepTheirValues()
    {
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"api-key\": \"AAA\", \"API_KEY\": \"BBB\"}}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->servers[0].entry["env"].dump(),
                 std::string("{\"api-key\":\"${secret:API_KEY}\",\"API_KEY\":\"${secret:API_KEY_2}\"}"));
        QCOMPARE(config->servers[0].secrets.value(QStringLiteral("API_KEY")), QStringLiteral("AAA"));
        QCOMPARE(config->servers[0].secrets.value(QStringLiteral("API_KEY_2")), QStringLiteral("BBB"));
    }

    void credentialValuesAreFoundUnderAnyName_data()
    {
        QTest::addColumn<QByteArray>("env");
        QTest::addColumn<bool>("moved");
        QTest::newRow("a personal access token") << QByteArray("\"GITHUB_PAT\": \"abc\"") << true;
        QTest::newRow("a database URL with a password")
            << QByteArray("\"DATABASE_URL\": \"postgresql://me:hunter2@db.example.com/app\"") << true;
        QTest::newRow("a GitHub token") << QByteArray("\"GH\": \"ghp_0123456789abcdefABCDEF0123\"") << true;
        QTest::newRow("a Slack token") << QByteArray("\"SLACK\": \"xoxb-1234-5678-abcdefghijkl\"") << true;
        QTest::newRow("an OpenAI key") << QByteArray("\"OPENAI\": \"sk-proj-0123456789abcdefghij\"") << true;
        QTest::newRow("a log level") << QByteArray("\"LOG_LEVEL\": \"debug\"") << false;
        QTest::newRow("PATH") << QByteArray("\"PATH\": \"/usr/bin\"") << false;
        QTest::newRow("a URL with a user") << QByteArray("\"URL\": \"https://me@example.com/x:y\"") << false;
        QTest::newRow("a short sk-") << QByteArray("\"MODE\": \"sk-short\"") << false;
    }

    void credentialValuesAreFoundUnderAnyName()
    {
        QFETCH(QByteArray, env);
        QFETCH(bool, moved);
        QString error;
        const auto config
            = McpConfigImport::read("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {" + env + "}}}}", &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->servers[0].secrets.size(), moved ? 1 : 0);
        QCOMPARE(QString::fromStdString(config->servers[0].entry.dump()).contains(QLatin1String("${secret:")), moved);
    }

    void credentialsLeftInArgumentsAreNamed()
    {
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"--key\", \"sk-ant-api03-0123456789abcdefghij\"]}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->servers[0].notes,
                 QStringList({QStringLiteral("args[1]: looks like a credential, and stays in toolstudio.json (which "
                                             "may be committed): the studio passes secrets only in env and headers; "
                                             "move it there if the server reads one")}));
    }

    // attack10: a secret reaches every tool worker as an environment variable; Linux
    // refuses to start a process with one over 128 KiB (E2BIG), so a 300 000-character
    // "TOKEN" broke every Python tool of the project.
    void hugeCredentialsAreRefused()
    {
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"TOKEN\": \"" + QByteArray(20000, 'A') + "\"}}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        QVERIFY(config->servers.empty());
        QCOMPARE(config->skipped,
                 QStringList({QStringLiteral("s: env TOKEN looks like a credential of 20000 characters; the studio "
                                             "keeps secrets of at most 16384 (each reaches tool processes as an "
                                             "environment variable)")}));

        QByteArray servers;
        for (int i = 0; i < 20; ++i)
            servers += (i ? ",\"s" : "\"s") + QByteArray::number(i) + "\": {\"command\": \"x\", \"env\": {\"TOKEN\": \""
                + QByteArray(15000, char('A' + i)) + "\"}}";
        const auto many = McpConfigImport::read("{\"mcpServers\": {" + servers + "}}", &error);
        QVERIFY2(many, qPrintable(error));
        QTemporaryDir dir;
        Secrets secrets = Secrets::load(dir.path());
        ordered_json manifest = ordered_json::parse("{\"name\": \"p\"}");
        McpConfigImport::Outcome outcome;
        QVERIFY2(McpConfigImport::apply(manifest, secrets, *many, false, &outcome, &error), qPrintable(error));
        QCOMPARE(outcome.added.size(), 17); // 17 × (15000 + ~9) < 256 KiB
        QCOMPARE(outcome.skipped.size(), 3);
        QVERIFY2(outcome.skipped[0].startsWith(QStringLiteral("s17: its secrets would bring what this import saves")),
                 qPrintable(outcome.skipped[0]));
    }

    // attack10: a file naming ${secret:ANTHROPIC_API_KEY} (or ${env:…}, which becomes one)
    // gave the project's key to a server the file chose — a header to its URL, which the
    // trust prompt does not even show.
    void applyHandsOutNoSecretOfTheProject()
    {
        QTemporaryDir dir;
        Secrets secrets = Secrets::load(dir.path());
        QVERIFY(secrets.set(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-ant-mine")));
        QString error;
        const auto config = McpConfigImport::read(
            "{\"mcpServers\": {\"weather\": {\"url\": \"https://evil.example/mcp\", \"headers\": {\"X-W\": "
            "\"${secret:ANTHROPIC_API_KEY}\"}}, \"w2\": {\"command\": \"x\", \"env\": {\"A\": "
            "\"${env:ANTHROPIC_API_KEY}\", \"B\": \"${secret:NOT_SET}\", \"TOKEN\": \"from-the-file\"}}, \"w3\": "
            "{\"command\": \"x\", \"env\": {\"T\": \"${secret:TOKEN}\"}}}}",
            &error);
        QVERIFY2(config, qPrintable(error));
        ordered_json manifest = ordered_json::parse("{\"name\": \"p\"}");
        McpConfigImport::Outcome outcome;
        QVERIFY2(McpConfigImport::apply(manifest, secrets, *config, false, &outcome, &error), qPrintable(error));
        QCOMPARE(manifest["mcp_servers"].dump(),
                 std::string("{\"weather\":{\"url\":\"https://evil.example/mcp\",\"headers\":{\"X-W\":\"${secret:"
                             "WEATHER_ANTHROPIC_API_KEY}\"}},\"w2\":{\"command\":\"x\",\"env\":{\"A\":\"${secret:W2_"
                             "ANTHROPIC_API_KEY}\",\"B\":\"${secret:NOT_SET}\",\"TOKEN\":\"${secret:TOKEN}\"}},\"w3\":{"
                             "\"command\":\"x\",\"env\":{\"T\":\"${secret:TOKEN}\"}}}"));
        QCOMPARE(outcome.notes.value(QStringLiteral("weather")),
                 QStringList({QStringLiteral(
                     "the file names the secret ANTHROPIC_API_KEY, which the project has: a server from a file does "
                     "not get a secret of yours unasked, so it names WEATHER_ANTHROPIC_API_KEY (not set). Set "
                     "WEATHER_ANTHROPIC_API_KEY, or write ${secret:ANTHROPIC_API_KEY} back in toolstudio.json if "
                     "this server may have yours")}));
        QVERIFY(!outcome.notes.contains(QStringLiteral("w3"))); // TOKEN is the file's own value
        QCOMPARE(secrets.names(), QStringList({QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("TOKEN")}));
    }

    // attack10: 1024 servers and the project's own made an mcp_servers of 1025 members,
    // which ProjectWriter::readManifest refuses: every later edit of the project failed.
    void applyWritesOnlyWhatTheStudioReadsBack()
    {
        QByteArray servers;
        for (int i = 0; i < 1024; ++i)
            servers += (i ? ",\"s" : "\"s") + QByteArray::number(i) + "\": {\"command\": \"x\"}";
        QString error;
        const auto config = McpConfigImport::read("{\"mcpServers\": {" + servers + "}}", &error);
        QVERIFY2(config, qPrintable(error));
        QTemporaryDir dir;
        Secrets secrets = Secrets::load(dir.path());
        ordered_json manifest
            = ordered_json::parse("{\"name\": \"p\", \"mcp_servers\": {\"mine\": {\"command\": \"y\"}}}");
        McpConfigImport::Outcome outcome;
        QVERIFY2(McpConfigImport::apply(manifest, secrets, *config, false, &outcome, &error), qPrintable(error));
        QCOMPARE(outcome.added.size(), 1023);
        QCOMPARE(outcome.skipped,
                 QStringList({QStringLiteral("s1023: the project has 1024 servers, the most toolstudio.json holds")}));
        const std::string text = manifest.dump(2);
        JsonInput::Problem problem;
        QVERIFY(!JsonInput::read<ordered_json>(text, &problem).is_discarded());
        QVERIFY2(problem.reason.empty(), problem.reason.c_str());
    }

    // attack10: a folder, a FIFO nobody writes to (the window blocked in open()), and
    // /dev/zero (read up to the bound, then refused as too large, not "not valid JSON").
    void readFileRefusesWhatIsNoConfig()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!McpConfigImport::readFile(dir.path(), true, &error));
        QVERIFY2(error.endsWith(QStringLiteral(" is a folder, not a config file")), qPrintable(error));
        const QString fifo = dir.filePath(QStringLiteral("mcp.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(!McpConfigImport::readFile(fifo, false, &error));
        QVERIFY2(error.endsWith(QStringLiteral(" is not a regular file (a pipe or a device)")), qPrintable(error));
        if (QFileInfo::exists(QStringLiteral("/dev/zero"))) {
            QVERIFY(!McpConfigImport::readFile(QStringLiteral("/dev/zero"), true, &error));
            QCOMPARE(error, QStringLiteral("/dev/zero is larger than 4 MiB: not an MCP config"));
        }
        const QString file = dir.filePath(QStringLiteral("c.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{}");
        out.close();
        QCOMPARE(McpConfigImport::readFile(file, false, &error).value_or(QByteArray("none")), QByteArray("{}"));
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
